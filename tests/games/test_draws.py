"""pnp.games.draws gives what random.Random's own methods give, draw for draw."""

from __future__ import annotations

import random

from pnp.games import draws


def test_shuffle_is_random_shuffle_draw_for_draw() -> None:
    for seed in range(300):
        for size in (0, 1, 2, 3, 7, 40, 104, 257):
            mine, theirs = list(range(size)), list(range(size))
            a, b = random.Random(seed), random.Random(seed)
            draws.shuffle(mine, a)
            b.shuffle(theirs)
            assert mine == theirs
            assert a.getstate() == b.getstate()


def test_another_generator_class_shuffles_its_own_way() -> None:
    class Reversing(random.Random):
        def shuffle(self, x: list[int]) -> None:  # type: ignore[override]
            x.reverse()

    items = [1, 2, 3]
    draws.shuffle(items, Reversing(1))
    assert items == [3, 2, 1]
