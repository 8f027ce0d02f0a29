"""愛者無敵 (aizhewudi): playing with the bots and replaying a log through the same state machine."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from pnp.games.aizhewudi.bots import Bots
from pnp.games.aizhewudi.log import GameLog
from pnp.games.aizhewudi.policy import Policy
from pnp.games.aizhewudi.rules import (
    ABILITIES,
    BOTS,
    AizhewudiRules,
    is_int,
    slug,
)
from pnp.games.aizhewudi.split import Split
from pnp.games.aizhewudi.state import Game, Illegal
from pnp.games.draws import shuffle
from pnp.games.events import to_json_object

# The variant pnp offers besides the rules as written: deal the ability cards.
VARIANTS: tuple[str, ...] = ("abilities",)


class FromLog(Policy):
    """Replays the decisions a log records; the game then rechecks everything else."""

    def __init__(self, log: Mapping[str, Any]) -> None:
        self.rounds: list[Mapping[str, Any]] = log["rounds"]

    def rec(self, g: Game) -> Mapping[str, Any]:
        if g.round > len(self.rounds):
            raise Illegal(f"the log stops before round {g.round}, but the game goes on")
        return self.rounds[g.round - 1]

    def events(self, g: Game, seat: int, ability: str, kind: str) -> list[Mapping[str, Any]]:
        return [e for e in self.rec(g).get("abilities", []) if e.get("seat") == seat
                and e.get("ability") == ability and e.get("event") == kind]

    def play(self, g: Game, seat: int, hand: int) -> Mapping[str, Any]:
        plays: list[Mapping[str, Any]] = self.rec(g).get("plays", [])
        for pl in plays:
            if pl.get("seat") == seat and pl.get("hand", 0) == hand:
                return pl
        raise Illegal(f"round {g.round}: no play logged for seat {seat} set {hand}")

    def reveal(self, g: Game, count: int) -> list[int]:
        revealed = list(self.rec(g).get("revealed", []))
        if len(revealed) != count:
            raise Illegal(f"round {g.round}: {len(revealed)} bills revealed, the rules reveal "
                          f"{count}")
        return revealed

    def arm(self, g: Game, seat: int, ability: str) -> bool:
        return bool(self.events(g, seat, ability, "armed"))

    def card(self, g: Game, seat: int, hand: int) -> str:
        swaps = [e for e in self.events(g, seat, "second_thoughts", "swap")
                 if e.get("hand") == hand]
        if swaps:
            return str(swaps[0].get("from"))
        return str(self.play(g, seat, hand).get("card"))

    def target(self, g: Game, seat: int, hand: int, last: bool) -> int:
        target = self.play(g, seat, hand).get("target")
        return target if is_int(target) else -1

    def swap(self, g: Game, seat: int, hand: int) -> str | None:
        swaps = [e for e in self.events(g, seat, "second_thoughts", "swap")
                 if e.get("hand") == hand]
        return str(swaps[0].get("to")) if swaps else None

    def withdraw(self, g: Game, seat: int) -> bool:
        return seat in self.rec(g).get("withdrew", [])

    def robber(self, g: Game, seat: int, hand: int) -> str | None:
        used = [e for e in self.events(g, seat, "robber_logic", "used") if e.get("hand") == hand]
        return str(used[0].get("discarded")) if used else None

    def faces(self, g: Game, seat: int, candidates: list[int]) -> int:
        took = self.events(g, seat, "many_faces", "took")
        choice = took[0].get("from") if took else None
        return choice if is_int(choice) else -1

    def use(self, g: Game, seat: int, ability: str) -> bool:
        return bool(self.events(g, seat, ability, "used"))

    def groups(self, g: Game, sharers: list[int], best: Split) -> list[list[int]]:
        # Who takes which share is the table's business, so the log's groups are taken as
        # they are and the game checks them (each the largest share; what stays is the rule's).
        groups = self.rec(g).get("groups")
        if groups is None:
            return best.groups
        return [list(grp) for grp in groups] if isinstance(groups, list) else []


# --------------------------------------------------------------------------- play and replay


def play(rules: AizhewudiRules, players: int, rng: random.Random, *, seed: int,
         variant: str | None, bots: Sequence[str], budget: int = 0) -> dict[str, Any]:
    """One whole game with one bot per seat, as the JSON event log.

    Variant "abilities" deals the ability cards; None follows the rules' own ``abilities``.
    """
    if variant not in (None, "", *VARIANTS):
        raise ValueError(f"unknown variant {variant!r} (known: {', '.join(VARIANTS)})")
    if not rules.min_players <= players <= rules.max_players:
        raise ValueError(f"players must be {rules.min_players}–{rules.max_players}, "
                         f"got {players}")
    with_abilities = True if variant == "abilities" else rules.abilities
    if with_abilities and players > len(ABILITIES):
        raise ValueError(f"only {len(ABILITIES)} ability cards for {players} players")
    kinds = tuple(bots)
    if len(kinds) != players or any(b not in BOTS for b in kinds):
        raise ValueError(f"bots must name one of {', '.join(BOTS)} per seat, got {list(kinds)}")
    deck = rules.deck
    shuffle(deck, rng)  # rng.shuffle(deck), draw for draw
    dealt: tuple[str | None, ...] = (
        tuple(rng.sample(ABILITIES, players)) if with_abilities else (None,) * players
    )
    game = Game(rules, players, dealt, Bots(kinds, rng, deck))
    outcome = game.run()
    return to_json_object(GameLog.of(slug, seed, players, with_abilities, kinds,
                                     dealt if with_abilities else None, outcome))


def resolve(rules: AizhewudiRules, log: Mapping[str, Any]) -> dict[str, Any]:
    """The full log that a log's decisions lead to (for scripted examples and tests).

    Each round needs only the decisions: "revealed", "plays" (seat, hand, card, target),
    "withdrew", the ability events that are choices ("armed", "used", "swap", "took") and
    optionally "groups" (default: the engine's own grouping). A script shorter than the game
    ends with "end": "unfinished" and no winner. Raises ``Illegal`` (a ValueError) on a
    decision the rules do not allow.
    """
    players = log["players"]
    dealt = log.get("dealt") if log.get("abilities") else None
    game = Game(rules, players, dealt or [None] * players, FromLog(log))
    outcome = game.run(limit=len(log["rounds"]))
    return to_json_object(GameLog.of(slug, log.get("seed", 1), players,
                                     bool(log.get("abilities")), None,
                                     tuple(dealt) if dealt else None, outcome))


def replay(rules: AizhewudiRules, log: Mapping[str, Any]) -> list[str]:
    """Replay a log's decisions under the rules and report every field that differs."""
    if log.get("game") != slug:
        return [f"game: expected {slug!r}, got {log.get('game')!r}"]
    players = log.get("players")
    if not is_int(players) or not rules.min_players <= players <= rules.max_players:
        return [f"players: {players!r} is outside {rules.min_players}–{rules.max_players}"]
    rounds = log.get("rounds")
    if not isinstance(rounds, list) or not all(isinstance(r, Mapping) for r in rounds):
        return ["rounds: expected a list of round records"]
    if len(rounds) > rules.rounds:
        return [f"rounds: {len(rounds)} rounds, the game has {rules.rounds}"]
    try:
        problems = _money_problems(rules, log)
    except (TypeError, AttributeError) as exc:
        return [f"rounds: malformed bills ({exc!r})"]
    if log.get("abilities"):
        dealt = log.get("dealt")
        if (not isinstance(dealt, list) or len(dealt) != players
                or len(set(dealt)) != players or not set(dealt) <= set(ABILITIES)):
            return [*problems, "dealt: expected a different ability card per seat"]
    else:
        dealt = [None] * players
    game = Game(rules, players, dealt, FromLog(log))
    try:
        outcome = game.run()
    except Illegal as exc:
        return [*problems, f"round {game.round}: {exc}"]
    except (KeyError, IndexError, TypeError, ValueError) as exc:
        return [*problems, f"round {game.round}: malformed log ({exc!r})"]
    # The same typed records play writes, as JSON, against the log's.
    expected = to_json_object(outcome)
    if len(expected["rounds"]) != len(rounds):
        problems.append(f"rounds: logged {len(rounds)}, the game lasts "
                        f"{len(expected['rounds'])}")
    for mine, theirs in zip(expected["rounds"], rounds, strict=False):
        for key, value in mine.items():
            if theirs.get(key) != value:
                problems.append(f"round {mine['round']}.{key}: logged {theirs.get(key)!r}, "
                                f"rules give {value!r}")
    for key in ("lost", "bank", "final", "end", "winner", "shared"):
        if (key in log or key in ("final", "winner")) and log.get(key) != expected[key]:
            problems.append(f"{key}: logged {log.get(key)!r}, rules give {expected[key]!r}")
    return problems


def _money_problems(rules: AizhewudiRules, log: Mapping[str, Any]) -> list[str]:
    """Bill conservation, straight from the logged numbers."""
    problems = []
    carried: list[int] = []
    revealed_all: list[int] = []
    shared_all: list[int] = []
    for rec in log["rounds"]:
        r = rec.get("round")
        revealed = list(rec.get("revealed", []))
        groups = rec.get("groups", [])
        revealed_all += revealed
        if sorted(rec.get("carried_in", [])) != sorted(carried):
            problems.append(f"round {r}.carried_in: not what the round before carried out")
        handed = [b for g in groups for b in g]
        shared_all += handed
        if sorted(carried + revealed) != sorted(handed + list(rec.get("carried_out", []))):
            problems.append(f"round {r}: table bills ≠ bills shared out + carried out")
        carried = list(rec.get("carried_out", []))
    if Counter(revealed_all) - Counter(rules.deck):
        problems.append("rounds: more bills revealed than the deck holds")
    if "lost" in log and sorted(log["lost"]) != sorted(carried):
        problems.append("lost: not what the last round carried out")
    if sum(revealed_all) != sum(shared_all) + sum(carried):
        problems.append("money: revealed ≠ shared out + lost")
    final = log.get("final")
    if isinstance(final, list) and sum(f.get("money", 0) for f in final) != sum(shared_all):
        problems.append("final: the players' bills do not add up to the bills shared out")
    return problems


def markers_in_use(log: Mapping[str, Any]) -> dict[str, int]:
    """Peak 被愛 and 花心 markers in use at once in a game (players still in hold them)."""
    rounds = log.get("rounds", [])
    return {
        "loved": max((r.get("peak_loved", 0) for r in rounds), default=0),
        "fickle": max((r.get("peak_fickle", 0) for r in rounds), default=0),
    }
