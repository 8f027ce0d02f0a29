"""替死鬼 (tisigui): the event log as typed values, written by ``machine.py`` as it plays.

``to_json`` gives the shape docs/sample-and-simulate.md fixes (spelled out in ``play.py``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from pnp.core.records import record
from pnp.games.events import fast_init
from pnp.games.tisigui.choices import Question
from pnp.games.tisigui.rules import SLUG, End


@fast_init
@dataclass(frozen=True, slots=True)
class Action:
    kind: str
    named: tuple[int, ...]
    answer: bool | None  # None for a pass
    points: int
    truth: bool | None  # None when unknowable, or a pass
    question: Question | None = None
    confirms: tuple[int, ...] | None = None  # namings only

    def to_json(self) -> dict[str, Any]:
        question, confirms = self.question, self.confirms
        if confirms is None:  # a question, "no targets?" or a pass: one dict display
            if question is None:
                return {"kind": self.kind, "named": list(self.named), "answer": self.answer,
                        "points": self.points, "truth": self.truth}
            return {"kind": self.kind, "named": list(self.named), "answer": self.answer,
                    "points": self.points, "truth": self.truth, "question": question.to_json()}
        out: dict[str, Any] = {
            "kind": self.kind,
            "named": list(self.named),
            "answer": self.answer,
            "points": self.points,
            "truth": self.truth,
        }
        if question is not None:
            out["question"] = question.to_json()
        out["confirms"] = list(confirms)
        return out


PASS_ACTION = Action("pass", (), None, 0, None)

@fast_init
@dataclass(frozen=True, slots=True)
class Turn:
    small_round: int
    round_value: int
    seat: int
    actions: tuple[Action, ...]

    def to_json(self) -> dict[str, Any]:
        return {
            "small_round": self.small_round,
            "round_value": self.round_value,
            "seat": self.seat,
            "actions": [*map(Action.to_json, self.actions)],
        }


@fast_init
@dataclass(frozen=True, slots=True)
class BigRound:
    big_die: int
    ghost: int
    targets: tuple[int, ...]
    start: int
    question_markers: int | None
    turns: tuple[Turn, ...]
    confirmed: tuple[int, ...]
    end: End
    ghost_points: int
    roll: int | None
    scores_after: tuple[int, ...]

    def to_json(self) -> dict[str, Any]:
        return {
            "big_die": self.big_die,
            "ghost": self.ghost,
            "targets": list(self.targets),
            "start": self.start,
            "question_markers": self.question_markers,
            "turns": [t.to_json() for t in self.turns],
            "confirmed": list(self.confirmed),
            "end": self.end,
            "ghost_points": self.ghost_points,
            "roll": self.roll,
            "scores_after": list(self.scores_after),
        }


@record
class GameLog:
    seed: int
    players: int
    variant: str | None
    bots: tuple[str, ...]
    big_rounds: tuple[BigRound, ...]
    scores: tuple[int, ...]
    ranking: tuple[int, ...]
    places: tuple[int, ...]
    winners: tuple[int, ...]

    def to_json(self) -> dict[str, Any]:
        return {
            "game": SLUG,
            "seed": self.seed,
            "players": self.players,
            "variant": self.variant,
            "bots": list(self.bots),
            "big_rounds": [b.to_json() for b in self.big_rounds],
            "scores": list(self.scores),
            "ranking": list(self.ranking),
            "places": list(self.places),
            "winners": list(self.winners),
        }
