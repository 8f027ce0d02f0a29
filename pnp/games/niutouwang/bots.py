"""The bots: which card each seat reveals, and which row a low card takes (docs/rulings.md)."""

from __future__ import annotations

import random
from bisect import bisect_right
from collections.abc import Sequence

from pnp.games.niutouwang.rules import BOTS
from pnp.games.niutouwang.state import Hand

# (lowest card excluded, highest card excluded) of a stretch of cards that land alike.
Gap = tuple[int, int]


def greedy_gaps(hand: Hand) -> list[Gap]:
    """The stretches between row ends, best first for the greedy bot.

    The greedy bot plays the card that takes the fewest heads if played alone, then the one
    that fills its row least, then the lowest. Every card between the same two row ends
    lands alike, so the rows are ranked once a turn, not once per card and seat.
    """
    rows, row_heads, limit = hand.rows, hand.row_heads, hand.row_limit
    ends = sorted(zip(hand.ends, range(len(rows)), strict=True))
    # (heads taken, cards in the row after, k, the gap): the k-th gap lies above the k-th
    # lowest end; below every end, the fewest-heads row is taken.
    low = ends[0][0] if ends else len(hand.heads)
    ranked = [(min(row_heads), 0, 0, (-1, low))]
    last = len(ends)
    for k, (end, i) in enumerate(ends, 1):
        size = len(rows[i]) + 1
        gap = (end, ends[k][0] if k < last else len(hand.heads))
        ranked.append((row_heads[i], 0, k, gap) if size >= limit else (0, size, k, gap))
    ranked.sort()  # k is unique, so the gaps themselves are never compared
    return [r[3] for r in ranked]


class Bots:
    """A policy: one bot kind per seat, choosing among the legal cards with ``rng``."""

    def __init__(self, kinds: Sequence[str], rng: random.Random) -> None:
        unknown = [k for k in kinds if k not in BOTS]
        if unknown:
            raise ValueError(f"unknown bot {unknown[0]!r} (known: {', '.join(BOTS)})")
        self.kinds = list(kinds)
        self.rng = rng
        self.greedy = [k == "greedy" for k in self.kinds]
        self.any_greedy = any(self.greedy)

    def plays(self, hand: Hand) -> list[int]:
        """Every seat's card for this turn, chosen seat by seat (the RNG order is the seats')."""
        choice = self.rng.choice
        if not self.any_greedy:
            return [choice(cards) for cards in hand.hands]  # hands are kept ascending
        gaps = greedy_gaps(hand)
        plays = []
        for greedy, cards in zip(self.greedy, hand.hands, strict=True):
            if not greedy:
                plays.append(choice(cards))
                continue
            # The lowest card in the best gap it holds.
            for low, high in gaps:
                j = bisect_right(cards, low)
                if j < len(cards) and cards[j] < high:
                    plays.append(cards[j])
                    break
            else:
                raise ValueError("no card to play")
        return plays
