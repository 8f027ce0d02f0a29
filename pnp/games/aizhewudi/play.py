"""愛者無敵 (aizhewudi): playing with the bots through the kit's play loop, replaying a log's
steps through the same state machine, and resolving a rulebook script.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from pnp.games.aizhewudi.bots import STYLES
from pnp.games.aizhewudi.rules import ABILITIES, AizhewudiRules, rules_from_mapping, slug
from pnp.games.aizhewudi.state import AizhewudiState
from pnp.games.events import to_json_object
from pnp.games.kit import (
    Action,
    KitGame,
    Match,
    play_match,
    replay_problems,
    steps_json,
)
from pnp.games.params import is_integer

# The variant pnp offers besides the rules as written: deal the ability cards.
VARIANTS: tuple[str, ...] = ("abilities",)


KIT = KitGame(slug=slug, title="愛者無敵", rules=AizhewudiRules, new_state=AizhewudiState,
              players=lambda r: (r.min_players, r.max_players), styles=STYLES,
              reader=rules_from_mapping, one_stream=True)


def play(rules: AizhewudiRules, players: int, rng: random.Random, *, seed: int,
         variant: str | None, bots: Sequence[str], budget: int = 50) -> dict[str, Any]:
    """One whole game with one bot per seat, as the JSON event log and its steps.

    Variant "abilities" deals the ability cards; None follows the rules' own ``abilities``.
    Chance is drawn from ``random.Random(seed)`` by the play loop (``rng`` is unused), the
    bots drawing from the same stream after the deal, as they always did. The variant and the
    number of players are checked by the caller (``pnp.play``).
    """
    with_abilities = True if variant == "abilities" else rules.abilities
    if with_abilities and players > len(ABILITIES):
        raise ValueError(f"only {len(ABILITIES)} ability cards for {players} players")
    kinds = tuple(bots)  # checked by the kit's play_match
    if with_abilities != rules.abilities:
        rules = replace(rules, abilities=with_abilities)
    return game_log(play_match(KIT, rules, players, seed, kinds, budget), seed, kinds)


def game_log(match: Match, seed: int, kinds: Sequence[str] | None) -> dict[str, Any]:
    state: AizhewudiState = match.state  # type: ignore[assignment]
    assert state.result is not None
    log = to_json_object(replace(state.result, seed=seed,
                                 bots=None if kinds is None else tuple(kinds)))
    log["steps"] = steps_json(match)
    return log


def replay(rules: AizhewudiRules, log: Mapping[str, Any]) -> list[str]:
    """Problems with a logged game: its steps pushed through the rules (the first illegal one
    named with its step and reason), then every logged fact compared with the replay's."""
    players: Any = log.get("players")
    if not is_integer(players) or not rules.min_players <= players <= rules.max_players:
        return [f"players: {players!r} is outside {rules.min_players}–{rules.max_players}"]
    rules = replace(rules, abilities=bool(log.get("abilities")))
    # A script's log (``resolve``) may stop before the game's last round.
    rounds = log.get("rounds")
    last = len(rounds) if log.get("end") == "unfinished" and isinstance(rounds, list) else None
    return replay_problems(lambda: AizhewudiState(rules, players, last), log,
                           lambda match: game_log(match, 0, ()))


# --------------------------------------------------------------------------- scripts


def resolve(rules: AizhewudiRules, script: Mapping[str, Any]) -> dict[str, Any]:
    """The full log that a script's decisions lead to (for scripted examples and tests).

    Each round needs only the decisions: "revealed", "plays" (seat, hand, card, target),
    "withdrew" and the ability events that are choices ("armed", "used", "swap", "took"). A
    script shorter than the game ends with "end": "unfinished" and no winner. Raises
    ``IllegalAction`` (a ValueError) naming a decision the rules do not allow.
    """
    rounds: list[Mapping[str, Any]] = script["rounds"]
    return game_log(scripted_match(rules, script, len(rounds)), script.get("seed", 1), None)


def scripted_match(rules: AizhewudiRules, script: Mapping[str, Any],
                   last_round: int | None = None) -> Match:
    """The script's rounds played (to the end of the game when they are its last rounds,
    else until the next round asks its first choice)."""
    players = script["players"]
    abilities = bool(script.get("abilities"))
    dealt = tuple(script["dealt"]) if abilities else (None,) * players
    rules = replace(rules, abilities=abilities)
    rounds: list[Mapping[str, Any]] = script["rounds"]
    match = Match(lambda: AizhewudiState(rules, players, last_round))
    match.push((scripted_deck(rules, rounds), dealt))
    state: AizhewudiState = match.state  # type: ignore[assignment]
    while not state.is_over() and state.round <= len(rounds):
        match.push(scripted_choice(rounds[state.round - 1], state))
    return match


def scripted_deck(rules: AizhewudiRules, rounds: Sequence[Mapping[str, Any]]) -> tuple[int, ...]:
    """The deck that reveals the script's bills in its order (from the end)."""
    revealed = [int(b) for r in rounds for b in r.get("revealed", [])]
    if Counter(revealed) - Counter(rules.deck):
        raise ValueError(f"revealed {revealed}: not that many such bills in the deck")
    left, per_round = len(rules.deck), rules.bills_per_round
    for number, r in enumerate(rounds, 1):
        count = min(per_round, left)
        if len(r.get("revealed", [])) != count:
            raise ValueError(f"round {number}: {len(r.get('revealed', []))} bills revealed, the "
                          f"rules reveal {count}")
        left -= count
    rest = list((Counter(rules.deck) - Counter(revealed)).elements())
    return tuple(rest + revealed[::-1])


def scripted_choice(rec: Mapping[str, Any], state: AizhewudiState) -> Action:
    """A round's scripted answer to the choice ``state`` asks."""
    ask = state.asks[state.asked]
    kind, seat = ask.kind, ask.seat

    def events(ability: str, event: str) -> list[Mapping[str, Any]]:
        return [e for e in rec.get("abilities", []) if e.get("seat") == seat
                and e.get("ability") == ability and e.get("event") == event]

    def play() -> Mapping[str, Any]:
        for pl in rec.get("plays", []):
            if pl.get("seat") == seat and pl.get("hand", 0) == ask.hand:
                return pl  # type: ignore[no-any-return]
        raise ValueError(f"no play scripted for seat {seat} set {ask.hand}")

    swaps = [e for e in events("second_thoughts", "swap") if e.get("hand") == ask.hand]
    if kind == "card":
        return str(swaps[0].get("from")) if swaps else str(play().get("card"))
    if kind == "aim":
        target = play().get("target")
        return target if is_integer(target) else -1
    if kind == "swap":
        return str(swaps[0].get("to")) if swaps else "keep"
    if kind == "withdraw":
        return "withdraw" if seat in rec.get("withdrew", []) else "stay"
    if kind == "robber":
        used = [e for e in events("robber_logic", "used") if e.get("hand") == ask.hand]
        return str(used[0].get("discarded")) if used else "pass"
    if kind == "faces":
        took = events("many_faces", "took")
        choice = took[0].get("from") if took else None
        return choice if is_integer(choice) else -1
    if kind == "arm":
        return "arm" if events(str(state.seats[seat].ability), "armed") else "pass"
    return "use" if events(kind, "used") else "pass"


def markers_in_use(log: Mapping[str, Any]) -> dict[str, int]:
    """Peak 被愛 and 花心 markers in use at once in a game (players still in hold them)."""
    rounds = log.get("rounds", [])
    return {
        "loved": max((r.get("peak_loved", 0) for r in rounds), default=0),
        "fickle": max((r.get("peak_fickle", 0) for r in rounds), default=0),
    }
