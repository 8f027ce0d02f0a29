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


def test_below_is_randrange_draw_for_draw() -> None:
    for seed in range(200):
        a, b = random.Random(seed), random.Random(seed)
        randbelow = draws.below(a)
        for n in (1, 2, 3, 5, 7, 8, 9, 31, 32, 33, 1000, 2**40 + 3):
            assert randbelow(n) == b.randrange(n)
        assert a.getstate() == b.getstate()


def test_a_deferred_generator_draws_as_the_seeded_one() -> None:
    for seed in (0, 1, 2**64 + 7):
        deferred, plain = draws.deferred_random(seed), random.Random(seed)
        assert [deferred.random(), deferred.randrange(10), deferred.choice("abcdef")] == [
            plain.random(), plain.randrange(10), plain.choice("abcdef")]
        mine, theirs = list(range(52)), list(range(52))
        draws.shuffle(mine, deferred)
        plain.shuffle(theirs)
        assert mine == theirs
        assert draws.below(deferred)(1000) == plain.randrange(1000)
        assert deferred.getstate() == plain.getstate()
    unused = draws.deferred_random(5)
    assert "_real" not in vars(unused)  # nothing drawn, nothing seeded
