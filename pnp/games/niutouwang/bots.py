"""The bots: which card each seat reveals, and which row a low card takes (docs/rulings.md)."""

from __future__ import annotations

import random
from bisect import bisect_right
from collections.abc import Sequence

from pnp.games.kit import Action, BotKind, Match
from pnp.games.niutouwang.machine import NiutouwangState
from pnp.games.niutouwang.state import Hand


def greedy_gaps(hand: Hand) -> tuple[list[int], list[int], int]:
    """The stretches between row ends, best first for the greedy bot.

    The greedy bot plays the card that takes the fewest heads if played alone, then the one
    that fills its row least, then the lowest. Every card between the same two row ends
    lands alike, so the rows are ranked once a turn, not once per card and seat.

    Gap k holds the cards above ``bounds[k]`` and below ``bounds[k + 1]``: gap 0 lies below
    every row end (the fewest-heads row is taken), gap k above the k-th lowest end. Returns
    the gaps' ranks, best first, each packed in one integer whose remainder by ``n`` (the
    number of gaps) is k; ``bounds``; and ``n``. A rank is (heads taken, cards in the row
    after, k) packed so (the size is below limit + 1, k below n), and the ranks are unique,
    so the sort compares plain integers and the gap's bounds are read only when a seat
    looks at it.
    """
    rows, row_heads, limit = hand.rows, hand.row_heads, hand.row_limit
    order = hand.order  # the row ends, ascending
    n = len(order) + 1
    by_size = (limit + 1) * n
    ranks = [min(row_heads) * by_size]
    append = ranks.append
    for k, i in enumerate(hand.order_rows, 1):  # the row of each end, in the ends' order
        size = len(rows[i]) + 1
        append(row_heads[i] * by_size + k if size >= limit else size * n + k)
    ranks.sort()
    return ranks, [-1, *order, len(hand.heads)], n


# --------------------------------------------------------------------------- the kit's styles


def greedy_card(cards: Sequence[int], gaps: tuple[list[int], list[int], int]) -> int:
    """The greedy bot's card from ``cards``: the lowest card in the best gap it holds."""
    ranks, bounds, n = gaps
    for rank in ranks:
        k = rank % n
        j = bisect_right(cards, bounds[k])
        if j < len(cards) and cards[j] < bounds[k + 1]:
            return cards[j]
    raise ValueError("no card to play")


class Style:
    """A hand-written bot at one seat of the kit's play loop: the greedy card, or any card of
    the hand; a low card takes the fewest-heads row for every bot (docs/rulings.md)."""

    def __init__(self, greedy: bool = True) -> None:
        self.greedy = greedy

    def choose(self, match: Match, seat: int, rng: random.Random) -> Action:
        state: NiutouwangState = match.state  # type: ignore[assignment]
        hand = state.hand
        assert hand is not None
        if len(state.pending) == state.players:
            return state.row_actions[hand.fewest_heads_row()]
        if not self.greedy:
            return rng.choice(hand.hands[seat])
        if state.gaps is None:  # ranked once a turn, for every greedy seat
            state.gaps = greedy_gaps(hand)
        return greedy_card(hand.hands[seat], state.gaps)  # type: ignore[arg-type]


STYLES = {
    "greedy": BotKind("greedy", lambda budget: Style(),
                      "the card taking the fewest heads if played alone"),
    "random": BotKind("random", lambda budget: Style(greedy=False), "any card of the hand"),
}
