"""The bots: which card each seat reveals, and which row a low card takes (docs/rulings.md)."""

from __future__ import annotations

import random
from bisect import bisect_right
from collections.abc import Sequence

from pnp.games.niutouwang.rules import BOTS
from pnp.games.niutouwang.state import Hand

# (rank, lowest card excluded, highest card excluded) of a stretch of cards that land alike.
Gap = tuple[int, int, int]


def greedy_gaps(hand: Hand) -> list[Gap]:
    """The stretches between row ends, best first for the greedy bot.

    The greedy bot plays the card that takes the fewest heads if played alone, then the one
    that fills its row least, then the lowest. Every card between the same two row ends
    lands alike, so the rows are ranked once a turn, not once per card and seat.
    """
    rows, row_heads, limit = hand.rows, hand.row_heads, hand.row_limit
    order = hand.order  # the row ends, ascending
    # The k-th gap lies above the k-th lowest end (gap 0 below every end, where the
    # fewest-heads row is taken). Its rank is (heads taken, cards in the row after, k),
    # packed in one integer (size < limit + 1, k < n) that is unique, so the sort compares
    # integers only.
    n = len(order) + 1
    by_size = (limit + 1) * n
    ranked = [(min(row_heads) * by_size, -1, order[0])]
    append = ranked.append
    highs = order[1:]
    highs.append(len(hand.heads))
    for k, low, high, i in zip(range(1, n), order, highs, hand.order_rows, strict=True):
        size = len(rows[i]) + 1
        append((row_heads[i] * by_size + k if size >= limit else size * n + k, low, high))
    ranked.sort()
    return ranked


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
        plays: list[int] = []
        append = plays.append
        for greedy, cards in zip(self.greedy, hand.hands, strict=True):
            if not greedy:
                append(choice(cards))
                continue
            # The lowest card in the best gap it holds.
            for _, low, high in gaps:
                j = bisect_right(cards, low)
                if j < len(cards) and cards[j] < high:
                    append(cards[j])
                    break
            else:
                raise ValueError("no card to play")
        return plays
