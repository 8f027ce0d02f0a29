"""Random draws made exactly as ``random.Random`` makes them, with fewer Python calls.

A seeded game must stay the same game: these functions ask the generator for the same bits
in the same order as the methods they stand for, so the results and the generator's state
afterwards are identical (``tests/games/test_draws.py`` holds them to it). Any other
generator class (a subclass may draw differently) goes through its own method.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any, cast

# Per list size, the Fisher–Yates steps (index, the count it draws below, that count's bit
# length), worked out once: a game shuffles decks of the same few sizes again and again.
_STEPS: dict[int, tuple[tuple[int, int, int], ...]] = {}
_STEPS_MAX = 64


class DeferredRandom:
    """``random.Random(seed)``, seeded at its first use.

    Seeding a Mersenne Twister costs about 25 µs, a tenth of the fastest games pnp plays,
    and a game is handed streams it may never draw from (the generator its plugin is called
    with, the bots' stream when its bots are deterministic). Every draw is the real
    generator's own method, looked up once and then kept, so the numbers, their order and
    the speed of each draw are those of ``random.Random(seed)``."""

    def __init__(self, seed: int) -> None:
        self._seed = seed

    @property
    def generator(self) -> random.Random:
        real: random.Random | None = self.__dict__.get("_real")
        if real is None:
            real = self.__dict__["_real"] = random.Random(self._seed)
        return real

    def __getattr__(self, name: str) -> Any:
        value = getattr(self.generator, name)
        if callable(value):  # a method stays bound to the generator; data may change
            self.__dict__[name] = value
        return value


def deferred_random(seed: int) -> random.Random:
    """A :class:`DeferredRandom` where a ``random.Random`` is asked for (it answers every
    method and attribute of one)."""
    return cast(random.Random, DeferredRandom(seed))


def below(rng: random.Random) -> Callable[[int], int]:
    """``rng.randrange`` for a count above zero, as one call: CPython's
    ``_randbelow_with_getrandbits`` without randrange's argument checks (a search's random
    playouts draw once a step)."""
    if type(rng) is not random.Random:
        if not isinstance(rng, DeferredRandom):
            return rng.randrange
        rng = rng.generator
    getrandbits = rng.getrandbits

    def randbelow(n: int) -> int:
        k = n.bit_length()
        r = getrandbits(k)
        while r >= n:
            r = getrandbits(k)
        return r

    return randbelow


def shuffle(items: list[Any], rng: random.Random) -> None:
    """``rng.shuffle(items)``: CPython's Fisher–Yates with ``_randbelow_with_getrandbits``
    inlined (a 104-card deck is shuffled in about half the time)."""
    if type(rng) is not random.Random:
        if not isinstance(rng, DeferredRandom):
            rng.shuffle(items)
            return
        rng = rng.generator
    size = len(items)
    steps = _STEPS.get(size)
    if steps is None:
        steps = tuple((i, i + 1, (i + 1).bit_length()) for i in reversed(range(1, size)))
        if len(_STEPS) < _STEPS_MAX:
            _STEPS[size] = steps
    getrandbits = rng.getrandbits
    for i, n, k in steps:
        j = getrandbits(k)
        while j >= n:
            j = getrandbits(k)
        items[i], items[j] = items[j], items[i]
