"""A game written to the kit, and what pnp makes of it: a complete plugin.

A :class:`KitGame` is all a designer writes besides the state: the rules dataclass, the
player counts and a function making the first state. :func:`plugin` turns it into the
``GamePlugin`` every command takes, with the kit's driver for play and replay, its bots
(random, greedy when the state evaluates, ISMCTS) and a summary for ``pnp simulate`` read
from the outcome; narration reads the events the state emitted.
"""

from __future__ import annotations

import dataclasses
import inspect
import random
import sysconfig
import traceback
from collections.abc import Callable, Mapping, Sequence
from dataclasses import field
from pathlib import Path
from typing import Any, TypeVar, get_type_hints

from pnp.core.errors import PnpError
from pnp.core.records import record
from pnp.games.base import (
    DEFAULT_BUDGET,
    GameCodeError,
    GamePlugin,
    NarrationPart,
    Plan,
    PlayPart,
    ReportPart,
    RulesError,
    RulesPart,
    Sample,
    Summary,
)
from pnp.games.events import to_json
from pnp.games.kit.bots import BotKind, bot_kinds_of
from pnp.games.kit.contract import CHANCE, State, missing_methods, resamples_class
from pnp.games.kit.match import (
    IllegalAction,
    Match,
    action_log,
    action_to_json,
    play,
    replay_log,
)
from pnp.games.kit.rules import declared_variants, read_rules

T = TypeVar("T")


@record
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
           variant: str | None, rules: Any) -> dict[str, Any]:
    for seat, action in match.steps:
        if not json_ready(action):
            source = "chance_outcomes" if seat == CHANCE else "legal_actions"
            raise GameCodeError(source, "expected actions the JSON log can hold (a number, a "
                                f"text, or a tuple of them), got {type(action).__name__} {action!r}")
    header = {"game": game.slug, "seed": seed, "players": match.state.players,
              "variant": variant, "bots": list(bots)}
    if dataclasses.is_dataclass(rules) and not isinstance(rules, type):
        # What a replay compares, to say that a log older than a rules edit was played under others.
        header["rules"] = to_json(dataclasses.asdict(rules))
    log = action_log(match, header)
    log["events"] = [[turn, to_json(event)] for turn, event in match.events]
    return log


def json_ready(action: Any) -> bool:
    """Whether ``action`` goes through the JSON log and back unchanged."""
    if type(action) is tuple:
        return all(json_ready(part) for part in action)
    return action is None or type(action) in (int, str, bool, float)


def rules_change(logged: Any, rules: Any) -> str | None:
    """The rules fields whose values differ between a log's recorded rules and ``rules``, as
    'field: <logged> then, <current> now' (None when the log records none, or the same)."""
    if not isinstance(logged, Mapping) or not dataclasses.is_dataclass(rules) or isinstance(rules, type):
        return None
    now = to_json(dataclasses.asdict(rules))
    changed = [f"{key}: {logged.get(key)!r} then, {value!r} now" for key, value in now.items()
               if logged.get(key) != value]
    return "; ".join(changed) or None


def first_state(game: KitGame, rules: Any, players: int) -> State:
    """``game.new_state(rules, players)``, its signature and its class held to the contract."""
    try:
        inspect.signature(game.new_state).bind(rules, players)
    except TypeError:
        takes = ", ".join(inspect.signature(game.new_state).parameters)
        raise GameCodeError("new_state", f"expected new_state(rules, players), got "
                            f"{getattr(game.new_state, '__name__', 'new_state')}({takes})") from None
    except ValueError:  # no signature to read (a builtin): calling it says
        pass
    state = game.new_state(rules, players)
    missing = missing_methods(type(state))
    if missing:
        raise GameCodeError(missing[0], f"expected a method {missing[0]}() on the state, got "
                            f"{getattr(type(state), missing[0], None)!r} ({type(state).__name__} "
                            f"lacks {', '.join(missing)})")
    if not isinstance(state.players, int) or state.players != players:
        raise GameCodeError("players", f"expected {players} (the players it was made for), got "
                            f"{state.players!r}")
    return state


_PNP = Path(__file__).resolve().parents[2]
_STDLIB = Path(sysconfig.get_paths()["stdlib"]).resolve()
# Installed packages, a designer's game among them: inside the standard library's folder when
# Python is not in a venv (pyenv, the python Docker images), so told apart from it.
_SITE = tuple({Path(sysconfig.get_paths()[name]).resolve() for name in ("purelib", "platlib")})


def _python_own(path: Path) -> bool:
    return path.is_relative_to(_STDLIB) and not any(path.is_relative_to(site) for site in _SITE)


def blamed(exc: BaseException) -> GameCodeError:
    """What an exception raised from a game's code says, as a GameCodeError naming the method
    it came from: the innermost frame that is neither pnp's nor Python's own."""
    method, where = "", ""
    for frame, line in traceback.walk_tb(exc.__traceback__):
        path = Path(frame.f_code.co_filename).resolve()
        if not path.is_relative_to(_PNP) and not _python_own(path):
            method, where = frame.f_code.co_qualname, f" (at {path.name}:{line})"
    if not method:  # raised in pnp, from something the game's code returned
        return GameCodeError("play", f"pnp's driver failed on what the game's code gave it: "
                             f"{type(exc).__name__}: {exc} (pnp check names the method that "
                             "broke the contract)")
    return GameCodeError(method, f"raised {type(exc).__name__}: {exc}{where}")


def guarded(game: KitGame, call: Callable[..., T]) -> Callable[..., T]:
    """``call`` with every mistake of the game's code turned into a GameCodeError naming the
    game: the one place where pnp's commands enter a kit game's code. Errors pnp reports
    itself (rules that do not read, a user's mistake) pass as they are."""

    def entered(*args: Any, **kwargs: Any) -> T:
        try:
            return call(*args, **kwargs)
        except GameCodeError as exc:
            raise exc.for_game(game.slug) from None
        except (PnpError, RulesError):
            raise
        except Exception as exc:
            raise blamed(exc).for_game(game.slug) from None

    return entered


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
        first_state(game, rules, players)
        match = play_match(game, rules, players, seed, names, budget)
        return log_of(game, match, seed, names, variant, rules)

    def replay(rules: Any, log: Mapping[str, Any]) -> list[str]:
        players = log["players"]
        first_state(game, rules, players)
        try:
            replay_log(lambda: game.new_state(rules, players), log)
        except (IllegalAction, ValueError, KeyError) as exc:
            change = rules_change(log.get("rules"), rules)
            hint = f" (the log was played under other rules: {change})" if change else ""
            return [f"{exc}{hint}"]
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
        slug=game.slug, title=game.title,
        rules=RulesPart(guarded(game, rules_from_mapping), doc=doc,
                        declared_variants=None if game.reader else declared_variants),
        play=PlayPart(guarded(game, play_one), guarded(game, replay), guarded(game, game.players),
                      guarded(game, lambda rules: game.players(rules)[0]),
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
