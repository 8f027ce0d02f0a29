"""The table during one deal of niutouwang: a state machine that a policy drives turn by turn.

``Hand`` keeps the rows, each row's heads, the hands and the heads each seat has taken, all
updated as cards are placed (nothing is recounted). ``push`` takes one turn's revealed
cards and a row choice for low cards, resolves them lowest first and returns
the turn as a typed event. Bots and replay both drive this one machine.

``resolve_turn`` is the same rule for one turn on given rows, without a whole deal.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from pnp.games.events import fast_init
from pnp.games.niutouwang.rules import NiutouwangRules
from pnp.games.niutouwang.tables import head_table

Row = tuple[int, ...]
Rows = tuple[Row, ...]
# A person's pick for a low card: (seat, card, rows) -> index of the row to take.
Chooser = Callable[[int, int, Rows], int]


@fast_init
@dataclass(frozen=True, slots=True)
class Placement:
    """One card put on a row: the row it went to and the cards it took (none, or the row)."""

    seat: int
    card: int
    row: int
    took: tuple[int, ...]


@fast_init
@dataclass(frozen=True, slots=True)
class Turn:
    """One turn: the card each seat revealed, the placements lowest card first, the rows after."""

    plays: tuple[int, ...]  # card per seat
    placements: tuple[Placement, ...]  # lowest card first
    rows: Rows  # after the turn


# Placements that take nothing, shared between deals and games: most placements are these,
# the values are immutable, and building a frozen dataclass costs more than the rest of a
# placement. Bounded, since a designer's deck and table may be large.
_APPENDED: dict[tuple[int, int, int], Placement] = {}
_APPENDED_MAX = 50_000


# Called for a card lower than every row end: (seat, card) -> index of the row to take.
RowChoice = Callable[[int, int], int]

_index = list.index
_pop = list.pop


def resolve_turn(
    rules: NiutouwangRules, rows: Rows, plays: Sequence[int], chooser: Chooser | None = None
) -> tuple[Rows, tuple[Placement, ...]]:
    """One turn's revealed cards (one per seat) resolved lowest first on ``rows``, outside a
    deal: the rulebook's one-turn example and the tests; a low card takes the fewest-heads row
    unless ``chooser`` picks one."""
    hand = Hand(rules, rows, [[c] for c in plays])
    choose = hand.fewest_heads_row if chooser is None else (
        lambda seat, card: chooser(seat, card, tuple(hand.rows)))
    turn = hand.push(plays, choose)
    return turn.rows, turn.placements


class Hand:
    """One deal: rows, hands and taken heads, changed only by ``push``."""

    def __init__(
        self, rules: NiutouwangRules, rows: Rows, hands: Sequence[Sequence[int]]
    ) -> None:
        self.rules = rules
        self.heads = heads = head_table(rules)
        self.row_limit = rules.row_limit
        # Rows are tuples, replaced as they change: a turn's event shares them as they are.
        self.rows: list[Row] = list(map(tuple, rows))
        # The row ends in ascending order and the row of each (row ends are distinct cards):
        # the end just below a card is found by bisection. A card put on a row stays below
        # the next end up, so it takes its row's place in the order.
        ends = [r[-1] for r in self.rows]
        self.order: list[int] = sorted(ends)
        self.order_rows: list[int] = list(map(ends.index, self.order))
        self.row_heads: list[int] = [sum(map(heads.__getitem__, r)) for r in self.rows]
        self.hands: list[list[int]] = list(map(sorted, hands))
        self.penalties: list[int] = [0] * len(self.hands)
        self.turns: list[Turn] = []

    def copy(self) -> Hand:
        """An independent copy (rows and turns are immutable values, shared)."""
        other = object.__new__(Hand)
        other.__dict__.update(self.__dict__)
        other.rows, other.order, other.order_rows = list(self.rows), list(self.order), list(
            self.order_rows)
        other.row_heads, other.penalties = list(self.row_heads), list(self.penalties)
        other.hands, other.turns = [list(h) for h in self.hands], list(self.turns)
        return other

    def over(self) -> bool:
        return not self.hands[0]

    def fewest_heads_row(self, seat: int = 0, card: int = 0) -> int:
        """The bots' pick for a low card (docs/rulings.md): fewest heads, lowest index on a tie."""
        row_heads = self.row_heads
        return row_heads.index(min(row_heads))

    def place(self, seat: int, card: int, choose: RowChoice) -> Placement:
        """Put one card on its row (a low card on the row ``choose`` names), taking as due."""
        rows, order, order_rows = self.rows, self.order, self.order_rows
        below = bisect_left(order, card) - 1
        low = below < 0
        if not low:
            best = order_rows[below]
            order[below] = card
        else:
            best = choose(seat, card)
            # The taken row's end leaves the order; the card becomes the lowest end.
            at = order_rows.index(best)
            del order[at], order_rows[at]
            order.insert(0, card)
            order_rows.insert(0, best)
        took = rows[best]
        if not low and len(took) + 1 < self.row_limit:
            rows[best] = took + (card,)
            self.row_heads[best] += self.heads[card]
            return _appended(seat, card, best)
        rows[best] = (card,)
        self.penalties[seat] += self.row_heads[best]
        self.row_heads[best] = self.heads[card]
        return Placement(seat, card, best, took)

    def push(self, plays: Sequence[int], choose: RowChoice) -> Turn:
        """Reveal one card per seat and resolve them lowest first (the kit's replay has
        checked each card and row is allowed).

        ``place`` for each card that has a row below it, inlined: a game pushes tens of
        thousands of cards.
        """
        hands = self.hands
        where = list(map(_index, hands, plays))  # where each card is in its seat's hand
        list(map(_pop, hands, where))  # take the cards out of the hands
        rows, row_heads, heads = self.rows, self.row_heads, self.heads
        order, order_rows = self.order, self.order_rows
        limit = self.row_limit
        appended = _APPENDED
        placements = []
        seat_of = plays.index  # the cards are distinct
        for card in sorted(plays):
            seat = seat_of(card)
            below = bisect_left(order, card) - 1
            if below < 0:  # a low card: the row is chosen
                placements.append(self.place(seat, card, choose))
                continue
            best = order_rows[below]
            order[below] = card
            row = rows[best]
            if len(row) + 1 < limit:
                rows[best] = row + (card,)
                row_heads[best] += heads[card]
                placement = appended.get((seat, card, best))
                if placement is None:
                    placement = _appended(seat, card, best)
            else:
                rows[best] = (card,)
                self.penalties[seat] += row_heads[best]
                row_heads[best] = heads[card]
                placement = Placement(seat, card, best, row)
            placements.append(placement)
        turn = Turn(tuple(plays), tuple(placements), tuple(rows))
        self.turns.append(turn)
        return turn


def _appended(seat: int, card: int, row: int) -> Placement:
    """The placement of a card that takes nothing, shared while the cache has room."""
    key = (seat, card, row)
    placement = _APPENDED.get(key)
    if placement is None:
        placement = Placement(seat, card, row, ())
        if len(_APPENDED) < _APPENDED_MAX:
            _APPENDED[key] = placement
    return placement
