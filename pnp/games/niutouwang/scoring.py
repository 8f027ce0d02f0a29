"""How a niutouwang game ends: who wins, and the SP punishment."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from pnp.games.events import fast_init
from pnp.games.niutouwang.rules import NiutouwangRules


@fast_init
@dataclass(frozen=True, slots=True)
class Punishment:
    """One seat's SP ending: how many hits it takes, and from whom when the rules pair them."""

    seat: int
    penalty: int
    hits: int
    hitter: int | None  # None: the player chooses (unpaired, or the middle of an odd count)
    tie: bool  # another seat has the same penalty


def winners(penalties: Sequence[int]) -> list[int]:
    """The seats with the fewest heads."""
    least = min(penalties)
    return [s for s, p in enumerate(penalties) if p == least]


def punish(
    rules: NiutouwangRules,
    penalties: Sequence[int],
    base: int | None = None,
    paired: bool | None = None,
) -> list[Punishment]:
    """SP ending per seat (0-based, seat order); base/paired default to the rules' own.

    Error messages name seats from 1, as the people at the table count them.
    """
    base = rules.base if base is None else base
    paired = rules.paired if paired is None else paired
    if isinstance(base, bool) or not isinstance(base, int) or base < 1:
        raise ValueError(f"base must be a whole number of at least 1, got {base!r}")
    if not (penalties and set(map(type, penalties)) == {int} and min(penalties) >= 0):
        for seat, p in enumerate(penalties):
            if isinstance(p, bool) or not isinstance(p, int) or p < 0:
                # People read this (pnp calc): name the seat as the table counts it.
                raise ValueError(f"penalty of seat {seat + 1} (counting from 1) must be a "
                                 f"whole number ≥ 0, got {p!r}")
    n = len(penalties)
    # Equal penalties: the lower seat counts as the lower penalty (docs/rulings.md); the sort
    # is stable, so seats of equal penalties stay in seat order.
    order = sorted(range(n), key=penalties.__getitem__)
    partners = [0] * n
    for k, seat in enumerate(order):
        partners[seat] = order[n - 1 - k]
    return [
        Punishment(
            seat, penalty, penalties[partner] * base,
            # The middle of an odd count is their own partner: they pick their hitter.
            partner if paired and partner != seat else None,
            penalties.count(penalty) > 1,
        )
        for seat, (penalty, partner) in enumerate(zip(penalties, partners, strict=True))
    ]
