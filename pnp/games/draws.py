"""Random draws made exactly as ``random.Random`` makes them, with fewer Python calls.

A seeded game must stay the same game: these functions ask the generator for the same bits
in the same order as the methods they stand for, so the results and the generator's state
afterwards are identical (``tests/games/test_draws.py`` holds them to it). Any other
generator class (a subclass may draw differently) goes through its own method.
"""

from __future__ import annotations

import random
from typing import Any

# Per list size, the Fisher–Yates steps (index, the count it draws below, that count's bit
# length), worked out once: a game shuffles decks of the same few sizes again and again.
_STEPS: dict[int, tuple[tuple[int, int, int], ...]] = {}
_STEPS_MAX = 64


def shuffle(items: list[Any], rng: random.Random) -> None:
    """``rng.shuffle(items)``: CPython's Fisher–Yates with ``_randbelow_with_getrandbits``
    inlined (a 104-card deck is shuffled in about half the time)."""
    if type(rng) is not random.Random:
        rng.shuffle(items)
        return
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
