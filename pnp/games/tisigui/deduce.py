"""替死鬼 (tisigui): what the table can deduce from a big round's public play.

``Deductions`` keeps, for every target set (a bit mask of seats, ``target_sets.py``), the
seats whose answers it would make false (packed in one integer, which also names the
position in every memory); ``posterior`` weighs the masks from that with the lookups of
``target_sets.Tables``, and remembers what it weighed per public position.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from itertools import chain, repeat
from operator import getitem, or_

from pnp.games.tisigui.choices import (
    TRUE_IF_ALL,
    TRUE_IF_ANY,
    TRUE_IF_COUNT,
    TRUE_IF_GHOST,
    TRUE_IF_NONE,
    Event,
)
from pnp.games.tisigui.target_sets import POSTERIOR, Pick, Statement, Weighed, tables, weigh

# How far a greedy player believes an answer given on another player's turn: a seat whose
# answers would all have to be lies keeps this share of the weight (bots.py; the ghost
# judges what the table makes of its answers with the same doubt).
DOUBT = 0.65


_FRAMES: dict[tuple[int, int], tuple[tuple[int, ...], tuple[int, ...]]] = {}


class Deductions:
    """What a player makes of one big round's public play.

    Each possible target set T (a bit mask of seats) is weighed by the prior and by the
    answers it would make false. Only the ghost lies, and only on its own turn, but nobody
    knows who the ghost is: a player trusts for certain only their own answers, the answers
    of a seat whose naming confirmed someone (the ghost's namings never confirm), and, once
    the ghost is unmasked (a pass, a "yes" that confirmed nobody or ended nothing), every
    other seat's. Any other seat's answers are only believed: a seat that would have lied
    for T to hold costs T the factor ``doubt``, and a second such seat nearly rules T out,
    since only the ghost lies.

    ``bad[T]`` holds the seats with an answer false under T; a player's own "is X the
    ghost?" answered yes unmasks X for that player alone.

    Seats and masks are kept in the start player's frame: with ``start`` r, the table's
    seat s is seat (s - r) % n here (``to_here``, ``mask``; back: ``to_table``,
    ``table_seat``). Two big rounds whose play differs only by where the start player sits
    are then one position, and share what is remembered of it. ``posterior`` takes and
    gives the table's seats; every attribute and the other methods are in the start
    player's frame.
    """

    __slots__ = ("n", "r", "bad", "ghost", "not_ghost", "confirmed", "failed",
                 "ghost_answers", "events", "spoke", "count_asked", "covered", "failed_bits",
                 "to_here", "to_table", "packed", "_tables", "_turn")

    def __init__(self, n: int, start: int = 0) -> None:
        self.n = n
        self.r = start % n
        self._tables = t = tables(n)
        self.packed = 0  # ``bad`` packed (``Tables.width``): what positions are looked up by
        self.bad: Sequence[int] = t.nobody  # immutable: replaced, not changed, so it can be shared
        self.ghost: int | None = None
        self.not_ghost = 0
        self.confirmed = 0
        self.failed: list[int] = []  # masks of namings answered X
        self.covered = bytearray(1 << n)  # 1 for each mask holding a naming answered X
        self.failed_bits = 0  # bit m set for each mask m of a naming answered X
        self.ghost_answers: list[tuple[int, int, bool]] = []  # (asker, about, answer)
        self.events = 0
        self.spoke = 0  # seats that have taken an action
        self.count_asked = False  # whether anyone asked "exactly N targets?"
        self._turn = t.turn[self.r]
        # Per seat of the table, its seat in the start player's frame, and back (worked out
        # once per table and start: a big round begins with them)
        frames = _FRAMES.get((n, self.r))
        if frames is None:
            frames = _FRAMES[n, self.r] = (tuple((s - self.r) % n for s in range(n)),
                                           tuple((s + self.r) % n for s in range(n)))
        self.to_here, self.to_table = frames

    def orders(self) -> tuple[tuple[int, ...], ...]:
        """Every order of the unconfirmed seats (this frame); empty above six seats."""
        orders = self._tables.known_orders.get(self.confirmed)
        return self._tables.orders(self.confirmed) if orders is None else orders

    def mask(self, mask: int) -> int:
        """The table's seat mask ``mask`` in the start player's frame."""
        return self._turn[mask]

    def table_seat(self, seat: int) -> int:
        """A seat of the start player's frame at the table."""
        return (seat + self.r) % self.n

    def copy(self) -> Deductions:
        other = Deductions.__new__(Deductions)
        other.n = self.n
        other.r = self.r
        other.bad = self.bad
        other.packed = self.packed
        other.ghost = self.ghost
        other.not_ghost = self.not_ghost
        other.confirmed = self.confirmed
        other.failed = list(self.failed)
        other.covered = bytearray(self.covered)
        other.failed_bits = self.failed_bits
        other.ghost_answers = list(self.ghost_answers)
        other.events = self.events
        other.spoke = self.spoke
        other.count_asked = self.count_asked
        other._tables = self._tables
        other._turn = self._turn
        other.to_here = self.to_here
        other.to_table = self.to_table
        return other

    def _contradicts(self, seat: int, kind: Statement, value: int, answer: bool) -> None:
        """Mark the masks under which ``seat``'s answer about a statement was false."""
        t = self._tables
        bits = t.known_liar_bits.get((kind, value, answer, seat))
        if bits is None:
            bits = t.liar_bits(kind, value, answer, seat)
        packed = self.packed | bits
        if packed != self.packed:
            self.packed = packed
            self.bad = t.unpack(packed)

    def observe(self, event: Event) -> None:
        """Take in one action of the table (the table's seats)."""
        self.events += 1
        choice, answer = event.choice, event.answer
        seat = (event.seat - self.r) % self.n
        self.spoke |= 1 << seat
        # What the choice's true answer tests, worked out once per choice (bots reuse
        # theirs).
        code, value = choice.test
        if code == TRUE_IF_ALL and answer is not None:
            if choice.kind == "name":
                self._named(seat, self._turn[value], answer, event.confirms)
            else:  # is_target
                self._contradicts(seat, "all", self._turn[value], answer)
        elif code == TRUE_IF_ANY and value and answer is not None:
            self._contradicts(seat, "any", self._turn[value], answer)
        elif code == TRUE_IF_COUNT and answer is not None:
            self.count_asked = True
            self._contradicts(seat, "count", value, answer)
        elif code == TRUE_IF_NONE and answer is not None:
            if answer:
                self.ghost = seat  # a true "no targets" would have ended the big round
            else:
                self._contradicts(seat, "count", 0, False)  # true only for the empty mask
        elif code == TRUE_IF_GHOST and answer is not None:
            self.ghost_answers.append((seat, (value - self.r) % self.n, answer))
        elif choice.kind == "pass":
            self.ghost = seat  # only the ghost may pass
        # Else a question no rule can check, which tells nothing for certain. (The codes
        # above cover every other choice the rules allow.)

    def _named(self, seat: int, named: int, answer: bool, confirms: tuple[int, ...]) -> None:
        """A naming of ``named`` (a mask, this frame) by ``seat``, answered ``answer``."""
        if answer and confirms:
            self.confirmed |= named
            self.not_ghost |= 1 << seat
        elif answer:
            self.ghost = seat  # a "yes" that confirms nobody: the ghost's own naming
        else:
            self.failed.append(named)
            self.failed_bits |= 1 << named
            for mask in self._tables.said("all", named)[1]:
                self.covered[mask] = 1
            self._contradicts(seat, "all", named, False)

    def posterior(self, viewer: int | None = None, doubt: float = 0.0) -> tuple[float, ...]:
        """Weight of each target mask (unnormalised) as ``viewer`` sees it, the table's
        seats and masks.

        ``viewer`` is the seat looking, sure of its own answers; None weighs the table as a
        whole (as the ghost judges its lies, ``table_after``).
        """
        if viewer is not None:
            viewer = (viewer - self.r) % self.n
        weights: tuple[float, ...] = self.weighed_here(viewer, doubt)[POSTERIOR][0]
        return self._tables.back_masks[self.r](weights) if self.r else weights

    def weighed_here(self, viewer: int | None = None, doubt: float = 0.0) -> Weighed:
        """The position as ``viewer`` (None: the table as a whole) weighs it, in the start
        player's frame, remembered per player count: the same public play early in a big
        round comes back game after game."""
        t = self._tables
        sure, unmasked = self._trusted(viewer)
        key = (self.packed, self.confirmed, sure, unmasked, doubt)
        memory = t.weighed
        found = memory.young.get(key)
        if found is None:
            found = memory.recall(key)
        if found is None:
            # A mask's weight by its liars, in C: one lookup each.
            weights = tuple(map(getitem, t.cells(self.confirmed, doubt, sure, unmasked),
                                self.bad))
            found = memory.put(key, weigh(weights, t))
        return found

    def table_after(self, seat: int, statements: Iterable[Pick | None],
                    doubt: float) -> list[tuple[float, ...]]:
        """The table's weights (``posterior(None, doubt)``) now, then after ``seat`` makes
        each of ``statements``, given as ``Tables.after`` reads them (None: a pass): for
        weighing many possible answers at one moment. The start player's frame throughout;
        the same floats as observing each and weighing."""
        t = self._tables
        cells = t.cells(self.confirmed, doubt, *self._trusted(None))
        bad = self.bad
        # Per mask both weights, without and with ``seat`` among its liars (in C, once),
        # laid out flat: each statement reads its weights with one precomputed itemgetter
        # (``Tables.after``), the second of a pair where it would be a lie.
        without: Iterable[float] = map(getitem, cells, bad)
        with_seat: Iterable[float] = map(getitem, cells, map(or_, bad, repeat(1 << seat)))
        pairs = tuple(chain.from_iterable(zip(without, with_seat, strict=True)))
        out = [t.now(pairs)]
        for read in statements:
            if read is None:
                # A pass unmasks the ghost: its answers count for nothing, the others' are sure.
                shown = 1 << seat
                out.append(tuple(map(getitem, t.cells(self.confirmed, doubt, t.full & ~shown,
                                                      shown), bad)))
            else:
                out.append(read(pairs))
        return out

    def _trusted(self, viewer: int | None) -> tuple[int, int]:
        """(the seats whose answers ``viewer`` is sure of, the ghost if it knows it, as a
        mask): its own answers, and those of seats whose naming confirmed someone; once the
        ghost is known, its answers count for nothing and everyone else's are certain."""
        ghost = self.ghost
        if ghost is None and self.ghost_answers:
            ghost = self._ghost_for(viewer)
        if ghost is not None and ghost != viewer:
            unmasked = 1 << ghost
            return self._tables.full & ~unmasked, unmasked
        return (self.not_ghost if viewer is None else self.not_ghost | 1 << viewer), 0

    def _ghost_for(self, viewer: int | None) -> int | None:
        """The ghost as ``viewer`` knows it: unmasked in public, or by their own question."""
        ghost = self.ghost
        if viewer is not None and ghost is None:
            for asker, about, answer in self.ghost_answers:
                if asker == viewer and answer:
                    ghost = about
        return ghost
