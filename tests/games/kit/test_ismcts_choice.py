"""Which action ISMCTS plays when its budget is smaller than the number of actions: every
action is then tried once, and the one whose try turned out best is played, not the first
listed. Worked on a one-move game where exactly one of twenty numbers wins."""

from __future__ import annotations

import random
from collections.abc import Hashable, Sequence

from pnp.games.kit import CHANCE, Ismcts, Match, Outcome

WINNING = 13


class _PickOne:
    """Seat 0 names a number 0-19 and wins alone if it is 13; seat 1 never moves."""

    players = 2

    def __init__(self) -> None:
        self.picked: int | None = None

    def clone(self) -> _PickOne:
        other = _PickOne()
        other.picked = self.picked
        return other

    def to_move(self) -> int:
        return 0 if self.picked is None else CHANCE

    def chance_outcomes(self) -> Sequence[tuple[Hashable, float]]:
        return []

    def legal_actions(self) -> Sequence[Hashable]:
        return list(range(20)) if self.picked is None else []

    def apply(self, action: Hashable) -> list[object]:
        assert isinstance(action, int)
        self.picked = action
        return []

    def is_over(self) -> bool:
        return self.picked is not None

    def outcome(self) -> Outcome:
        return Outcome.from_scores([int(self.picked == WINNING), 0], "picked")

    def observation(self, seat: int) -> Hashable:
        return self.picked


def test_with_one_try_each_the_best_try_is_played() -> None:
    match = Match(_PickOne, watched=(0,))
    # 20 iterations, 20 actions: each tried once; only 13 scored 1 (a win), the others 0.5
    # (a tie for first and last)
    assert Ismcts(budget=20).choose(match, 0, random.Random(1)) == WINNING


def test_below_one_try_each_an_untried_winner_cannot_be_found() -> None:
    chosen = {Ismcts(budget=5).choose(Match(_PickOne, watched=(0,)), 0, random.Random(seed)) for seed in range(40)}
    # five tries: the winner is played when it was among them, else the first tried listed
    assert WINNING in chosen and len(chosen) > 1
