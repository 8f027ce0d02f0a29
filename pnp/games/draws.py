"""Random draws made exactly as ``random.Random`` makes them, with fewer Python calls.

A seeded game must stay the same game: these functions ask the generator for the same bits
in the same order as the methods they stand for, so the results and the generator's state
afterwards are identical (``tests/engines/test_draws.py`` holds them to it). Any other
generator class (a subclass may draw differently) goes through its own method.
"""

from __future__ import annotations

import random
from typing import Any


def shuffle(items: list[Any], rng: random.Random) -> None:
    """``rng.shuffle(items)``: CPython's Fisher–Yates with ``_randbelow_with_getrandbits``
    inlined (a 104-card deck is shuffled in about half the time)."""
    if type(rng) is not random.Random:
        rng.shuffle(items)
        return
    getrandbits = rng.getrandbits
    for i in reversed(range(1, len(items))):
        n = i + 1
        k = n.bit_length()
        j = getrandbits(k)
        while j >= n:
            j = getrandbits(k)
        items[i], items[j] = items[j], items[i]
