"""替死鬼 (tisigui): a bounded memory of positions that keeps what is reused."""

from __future__ import annotations

from typing import Generic, TypeVar

# How many entries a memory holds at most: weighed positions per player count (about
# 1 KiB each with the plans made there), and as many judgements of the ghost's options.
# A simulation's first thousands of games keep meeting new positions: 10,000 made the
# generations turn over every few hundred games and forget positions that came back later
# (classic: 8.7 M instructions a game over its first 1,500 games, 8.2 M with 40,000, the
# same as with no bound). A process playing many games peaks near 105 MB (classic, 4,000
# games).
MEMORY = 40_000

V = TypeVar("V")


class Memory(Generic[V]):
    """A bounded memory that keeps what is reused: two generations of ``MEMORY // 2``
    entries. New entries go into the young one (``young``, read directly on the hot path);
    when it is full, the old generation is dropped and the young one becomes old. An entry
    found in the old generation moves back into the young one, so positions met again and
    again survive while those met once are forgotten (clearing everything when full, as
    before, also threw away the positions every game meets)."""

    __slots__ = ("young", "old")

    def __init__(self) -> None:
        self.young: dict[tuple[object, ...], V] = {}
        self.old: dict[tuple[object, ...], V] = {}

    def __len__(self) -> int:
        return len(self.young) + len(self.old)

    def get(self, key: tuple[object, ...]) -> V | None:
        found = self.young.get(key)
        if found is None:
            found = self.recall(key)
        return found

    def recall(self, key: tuple[object, ...]) -> V | None:
        """An entry of the old generation, moved into the young one (None if not there)."""
        found = self.old.pop(key, None)
        if found is not None:
            self.put(key, found)
        return found

    def put(self, key: tuple[object, ...], value: V) -> V:
        young = self.young
        if len(young) >= MEMORY // 2:
            self.old = young
            self.young = young = {}
        young[key] = value
        return value
