"""A game written to the kit, and what pnp makes of it: a complete plugin.

A :class:`KitGame` is all a designer writes besides the state: the rules dataclass, the
player counts and a function making the first state. :func:`plugin` turns it into the
``GamePlugin`` every command takes, with the kit's driver for play and replay, its bots
(random, greedy when the state evaluates, ISMCTS) and a summary for ``pnp simulate`` read
from the outcome; narration reads the events the state emitted.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, get_type_hints

from pnp.games.base import (
    DEFAULT_BUDGET,
    GamePlugin,
    NarrationPart,
    Plan,
    PlayPart,
    ReportPart,
    RulesPart,
    Sample,
    Summary,
)
from pnp.games.events import to_json
from pnp.games.kit.bots import BotKind, bot_kinds_of
from pnp.games.kit.contract import CHANCE, State, resamples_class
from pnp.games.kit.match import (
    IllegalAction,
    Match,
    action_log,
    action_to_json,
    play,
    replay_log,
)
from pnp.games.kit.rules import read_rules


@dataclass(frozen=True)
class KitGame:
    slug: str
    title: str
    rules: type
    """A frozen dataclass read by pnp.games.kit.rules.read_rules (or by ``reader``)."""
    players: Callable[[Any], tuple[int, int]]
    new_state: Callable[[Any, int], State]
    """The first state of a game under these rules for this many players: the state class
    itself, or a function whose return annotation names it (the bots a game offers are read
    from the class: ``greedy`` only when it has ``evaluate``)."""
    styles: Mapping[str, BotKind] = field(default_factory=dict)
    """Hand-written bots, by name (the first is the default when there are any)."""
    lower_score_wins: bool = False
    reader: Callable[[Mapping[str, Any], str | None], Any] | None = None
    """A reader of its own for rules that are more than flat fields (the shipped games')."""
    one_stream: bool = False
    """Chance and the bots draw from one ``random.Random(seed)`` (``match.play``): a shipped
    game whose hand-written bots drew from the game's one rng keeps its seeded logs."""


def seats(bots: str | Sequence[str], players: int) -> list[str]:
    """One bot name per seat: one name for every seat, or a comma list in seat order."""
    names = bots.split(",") if isinstance(bots, str) else list(bots)
    names = [n.strip() for n in names]
    if len(names) == 1:
        names = names * players
    if len(names) != players:
        raise ValueError(f"{len(names)} bots named for {players} seats")
    return names


def play_match(game: KitGame, rules: Any, players: int, seed: int, bots: Sequence[str],
               budget: int = DEFAULT_BUDGET) -> Match:
    """One game with the named bot at each seat."""
    # The bots a state supports are its class's, read as offered_bots reads it; a state is made
    # only to ask when new_state is a function that names no class (a state costs a game's set-up).
    kind = state_class(game) or type(game.new_state(rules, players))
    kinds = bot_kinds_of(kind, game.styles)
    unknown = [b for b in bots if b not in kinds]
    if unknown:
        raise ValueError(f"unknown bots {unknown} (expected: {', '.join(kinds)})")
    players_bots = [kinds[name].make(budget) for name in bots]
    # The generic determinization replays against what the searching seat saw.
    watched = () if resamples_class(kind) else tuple(
        seat for seat, name in enumerate(bots) if name in ("ismcts", "greedy"))
    return play(lambda: game.new_state(rules, players), players_bots, seed, watched=watched,
                one_stream=game.one_stream)


def log_of(game: KitGame, match: Match, seed: int, bots: Sequence[str],
           variant: str | None) -> dict[str, Any]:
    log = action_log(match, {"game": game.slug, "seed": seed, "players": match.state.players,
                             "variant": variant, "bots": list(bots)})
    log["events"] = [[turn, to_json(event)] for turn, event in match.events]
    return log


def plugin(game: KitGame, *, worked_examples: Mapping[str, Callable[..., Any]] = {}  # noqa: B006
           ) -> GamePlugin:
    """The plugin pnp's commands take, every part supplied by the kit."""

    def rules_from_mapping(mapping: Mapping[str, Any], variant: str | None) -> Any:
        if game.reader is not None:
            return game.reader(mapping, variant)
        return read_rules(game.rules, mapping, variant)

    def play_one(rules: Any, players: int, rng: random.Random, *, seed: int,
                 variant: str | None, bots: Sequence[str],
                 budget: int = DEFAULT_BUDGET) -> dict[str, Any]:
        names = seats(bots, players)
        match = play_match(game, rules, players, seed, names, budget)
        return log_of(game, match, seed, names, variant)

    def replay(rules: Any, log: Mapping[str, Any]) -> list[str]:
        try:
            replay_log(lambda: game.new_state(rules, int(log["players"])), log)
        except (IllegalAction, ValueError, KeyError) as exc:
            return [str(exc)]
        return []

    def facts(sample: Sample) -> dict[str, Any]:
        return {"steps": narrated_steps(sample.log), "outcome": sample.log.get("outcome")}

    def summarise(log: Mapping[str, Any], rules: Any, plan: Plan) -> Summary:
        outcome = log["outcome"]
        summary: Summary = {
            "length": {"steps": len(log["steps"]),
                       "turns": sum(1 for seat, _ in log["steps"] if seat != CHANCE)},
            "scores": list(outcome["scores"]),
            "winners": [s for s, place in enumerate(outcome["places"]) if place == 1],
            "ends": {outcome["ended_by"]: 1}, "roles": {}, "supply": {}}
        if outcome.get("roles"):
            summary["seat_roles"] = list(outcome["roles"])
        return summary

    doc = f"the rules dataclass {game.rules.__module__}.{game.rules.__qualname__}"
    return GamePlugin(
        slug=game.slug, title=game.title, rules=RulesPart(rules_from_mapping, doc=doc),
        play=PlayPart(play_one, replay, game.players, lambda rules: game.players(rules)[0],
                      bots=offered_bots(game), kit=game),
        narration=NarrationPart(facts, worked_examples=dict(worked_examples)),
        report=ReportPart(summarise, lower_score_wins=game.lower_score_wins),
    )


def state_class(game: KitGame) -> type | None:
    """The class of the game's states, when ``new_state`` is one or names one as its return
    type; None for a function that says nothing."""
    if isinstance(game.new_state, type):
        return game.new_state
    try:
        returned = get_type_hints(game.new_state).get("return")
    except (NameError, TypeError):  # an annotation naming what its module cannot resolve
        return None
    return returned if isinstance(returned, type) else None


def offered_bots(game: KitGame) -> tuple[str, ...]:
    """The bot names a seat can take, the default first: the game's styles, then the generic
    bots its state class supports (greedy only with an evaluation; without a class to read,
    greedy is not offered, as play_match could not tell before a game starts)."""
    return tuple(bot_kinds_of(state_class(game) or object, game.styles))


def narrated_steps(log: Mapping[str, Any]) -> list[dict[str, Any]]:
    """Each player's step with the events it caused, for a narration template."""
    events: dict[int, list[Any]] = {}
    for turn, event in log.get("events", []):
        events.setdefault(turn, []).append(event)
    out = []
    for turn, (seat, action) in enumerate(log["steps"], start=1):
        out.append({"turn": turn, "seat": seat, "chance": seat == CHANCE,
                    "action": action_to_json(action), "events": events.get(turn, [])})
    return out
