"""Small helpers the games' narration facts share."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any


def tie_groups(values: Sequence[Any], order: Sequence[int]) -> list[list[int]]:
    """Seats sharing a value, each group in ``order``; only groups of two or more."""
    groups: dict[Any, list[int]] = {}
    for seat in order:
        groups.setdefault(values[seat], []).append(seat)
    return [g for g in groups.values() if len(g) > 1]
