"""替死鬼 (tisigui): what the table can deduce from a big round's public play.

A target set is a bit mask of seats. ``Deductions`` keeps, for every mask, the seats whose
answers it would make false (packed in one integer, which also names the position in every
memory); ``posterior`` weighs the masks from that. Everything that
depends only on the player count (the prior, which masks hold a seat, which masks make a
statement true, each mask's weight per class of liars) is computed once per count in
``Tables`` and reused by every game, so a posterior is one C-level lookup per mask and a
chance one sum over a precomputed index. Posteriors are also remembered per public position
(``Weighed``): the first moves of a big round meet the same positions game after game.

The sums run over the masks in ascending order, as plain ``sum`` does over the whole list:
the weights and chances are the same floats whichever way they are read.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from itertools import accumulate, chain, permutations, repeat
from operator import call, getitem, itemgetter, or_, truediv
from typing import Any, Literal

from pnp.games.tisigui.choices import _ALL, _ANY, _COUNT, _GHOST, _NONE, Choice, mask_of
from pnp.games.tisigui.memory import Memory
from pnp.games.tisigui.state import Event

# What a player expects the ghost to do when picking targets: a weight per number of targets
# (0, 1, 2, ...), shared out evenly over the target sets of that size.
SIZE_WEIGHTS = (1.0, 3.0, 3.0, 2.0, 1.0, 0.5, 0.25)

Statement = Literal["all", "any", "count"]
Pick = Callable[[Sequence[float]], tuple[float, ...]]


def _picker(indexes: Sequence[int]) -> Pick:
    """A function reading ``indexes`` out of a list, as a tuple (C speed via itemgetter)."""
    if len(indexes) == 1:
        only = indexes[0]
        return lambda values: (values[only],)
    if not indexes:
        return lambda values: ()
    return itemgetter(*indexes)


class Tables:
    """Per player count: the prior over target masks and the lookups posteriors reuse."""

    def __init__(self, n: int) -> None:
        self.n = n
        self.full = (1 << n) - 1
        masks = range(1 << n)
        self.members = tuple(tuple(s for s in range(n) if mask >> s & 1) for mask in masks)
        sizes = [0] * (n + 1)
        for seats in self.members:
            sizes[len(seats)] += 1
        self.prior = tuple(
            SIZE_WEIGHTS[min(len(seats), len(SIZE_WEIGHTS) - 1)] / sizes[len(seats)]
            for seats in self.members
        )
        self.holding = tuple(tuple(m for m in masks if m >> s & 1) for s in range(n))
        # The prior summed mask by mask: one draw picks a target set as players expect.
        self.prior_cumulative = tuple(accumulate(self.prior))
        # Per set of confirmed seats, every order of the others (up to six: 720 orders).
        self._orders: dict[int, tuple[tuple[int, ...], ...]] = {}
        # Per rotation r (seat s of the table is seat (s - r) % n of the start player's
        # frame): each mask turned into that frame, and a reader turning a frame's weights
        # back into the table's masks.
        self.turn = tuple(
            tuple(sum(1 << (s - r) % n for s in self.members[m]) for m in masks)
            for r in range(n)
        )
        self.back_masks = tuple(_picker(turn) for turn in self.turn)
        self.pick_holding = tuple(_picker(h) for h in self.holding)
        self.pick_size = tuple(
            _picker([m for m in masks if m.bit_count() == k]) for k in range(n + 1)
        )
        self._said: dict[tuple[Statement, int], tuple[tuple[int, ...], tuple[int, ...]]] = {}
        self._pick_all: dict[int, Pick] = {}
        self._given: dict[int, tuple[float, ...]] = {}
        self._classes: dict[int, tuple[int, ...]] = {}
        self._rows: dict[tuple[int, float], tuple[tuple[float, ...], ...]] = {}
        self._lies: dict[tuple[Statement, int, bool], tuple[int, ...]] = {}
        self._cells: dict[tuple[int, float, int, int], tuple[tuple[float, ...], ...]] = {}
        self._liar: dict[tuple[Statement, int, bool, int], tuple[int, ...]] = {}
        self._after: dict[tuple[Statement, int, bool], Pick] = {}
        self.now = _picker(range(0, 2 << n, 2))  # the first of each pair (``after``)
        # A table of liars (per mask, the seats whose answers it makes false) packed in one
        # integer, a field of ``width`` bits per mask: an answer marks its liars with one
        # ``|`` (in C), and the integer itself names the table in every memory key.
        self.width = 8 if n <= 8 else 16
        self._liar_bits: dict[tuple[Statement, int, bool, int], int] = {}
        self.nobody: Sequence[int] = self.unpack(0)
        self.weighed: Memory[Weighed] = Memory()
        # The ghost's judgement of its options per position (bots.py), remembered likewise.
        self.dangers: Memory[tuple[float, tuple[Any, ...], float, tuple[int, ...]]] = Memory()

    def said(self, kind: Statement, value: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
        """(masks where a statement is false, masks where it is true).

        ``kind`` is ``all`` (every seat of the mask ``value`` is a target), ``any`` (some seat
        of it is) or ``count`` (exactly ``value`` targets).
        """
        key = (kind, value)
        cached = self._said.get(key)
        if cached is None:
            masks = range(1 << self.n)
            if kind == "all":
                truth = [m & value == value for m in masks]
            elif kind == "any":
                truth = [bool(m & value) for m in masks]
            else:
                truth = [m.bit_count() == value for m in masks]
            cached = self._said[key] = (
                tuple(m for m, t in enumerate(truth) if not t),
                tuple(m for m, t in enumerate(truth) if t),
            )
        return cached

    def orders(self, confirmed: int) -> tuple[tuple[int, ...], ...]:
        """Every order of the seats not in ``confirmed``; empty above six seats."""
        orders = self._orders.get(confirmed)
        if orders is None:
            seats = [s for s in range(self.n) if not confirmed >> s & 1]
            orders = self._orders[confirmed] = (
                tuple(permutations(seats)) if len(seats) <= 6 else ())
        return orders

    def pick_all(self, named: int) -> Pick:
        """Reads the weights of the masks holding every seat of ``named``, ascending."""
        pick = self._pick_all.get(named)
        if pick is None:
            pick = self._pick_all[named] = _picker(self.said("all", named)[1])
        return pick

    def prior_given(self, confirmed: int) -> tuple[float, ...]:
        """The prior with the masks ruled out by ``confirmed`` at 0.0: confirmed seats are
        targets, and the big round goes on, so someone else is too."""
        given = self._given.get(confirmed)
        if given is None:
            if confirmed:
                keep = set(self.said("all", confirmed)[1]) - {confirmed}
                given = tuple(p if m in keep else 0.0 for m, p in enumerate(self.prior))
            else:
                given = self.prior
            self._given[confirmed] = given
        return given

    def classes(self, sure: int) -> tuple[int, ...]:
        """Per set of liars (a mask of seats): 0 for none, 1 for one, 2 for more, 3 when a
        seat in ``sure`` lied."""
        table = self._classes.get(sure)
        if table is None:
            table = self._classes[sure] = tuple(
                0 if not b else 3 if b & sure else min(b.bit_count(), 2)
                for b in range(1 << self.n)
            )
        return table

    def rows(self, confirmed: int, doubt: float) -> tuple[tuple[float, ...], ...]:
        """Per mask, its weight by class of liars (see ``classes``): the prior, times
        ``doubt`` for one liar, a tenth of that for more (only the ghost lies, so a target
        set that needs two liars is next to impossible), and 0.0 when a sure seat lied."""
        key = (confirmed, doubt)
        table = self._rows.get(key)
        if table is None:
            factors = (1.0, doubt, doubt * 0.1, 0.0)
            table = self._rows[key] = tuple(
                tuple(p * f for f in factors) for p in self.prior_given(confirmed)
            )
        return table

    def cells(self, confirmed: int, doubt: float, sure: int,
              unmasked: int) -> tuple[tuple[float, ...], ...]:
        """Per mask, its weight for each set of liars (a mask of seats): ``rows`` read
        through ``classes(sure)``; with an unmasked ghost, only the liars in ``sure``
        count. The same floats as reading the two tables one after the other."""
        key = (confirmed, doubt, sure, unmasked)
        table = self._cells.get(key)
        if table is None:
            classes = self.classes(sure)
            keep = sure if unmasked else self.full
            # Per set of liars, its class: then each row is read through it in C.
            read = _picker([classes[b & keep] for b in range(1 << self.n)])
            table = self._cells[key] = tuple(map(read, self.rows(confirmed, doubt)))
        return table

    def lies(self, kind: Statement, value: int, answer: bool) -> tuple[int, ...]:
        """Per mask, 1 where answering ``answer`` about a statement would be a lie, else 0."""
        key = (kind, value, answer)
        lies = self._lies.get(key)
        if lies is None:
            false, true = self.said(kind, value)
            lied = set(true if not answer else false)
            lies = self._lies[key] = tuple(int(m in lied) for m in range(1 << self.n))
        return lies

    def after(self, kind: Statement, value: int, answer: bool) -> Pick:
        """Reads the weights after an answer out of a flat list of pairs per mask (weight
        as things stand, weight with the answering seat lying there; see
        ``Deductions.table_after``): per mask, the second where the answer would be a lie."""
        key = (kind, value, answer)
        pick = self._after.get(key)
        if pick is None:
            pick = self._after[key] = _picker(
                [2 * m + lie for m, lie in enumerate(self.lies(kind, value, answer))])
        return pick

    def liar(self, kind: Statement, value: int, answer: bool, seat: int) -> tuple[int, ...]:
        """Per mask, ``seat``'s bit where its answer ``answer`` about a statement would be a
        lie, else 0."""
        key = (kind, value, answer, seat)
        marks = self._liar.get(key)
        if marks is None:
            bit = 1 << seat
            marks = self._liar[key] = tuple(bit if lie else 0 for lie in self.lies(*key[:3]))
        return marks

    def liar_bits(self, kind: Statement, value: int, answer: bool, seat: int) -> int:
        """``liar`` packed as a table of liars (``width`` bits per mask)."""
        key = (kind, value, answer, seat)
        bits = self._liar_bits.get(key)
        if bits is None:
            width = self.width
            bits = self._liar_bits[key] = sum(
                marks << (m * width) for m, marks in enumerate(self.liar(*key)))
        return bits

    def unpack(self, packed: int) -> Sequence[int]:
        """A packed table of liars as a sequence of seat masks, one per mask (bytes up to
        eight seats: one C call)."""
        size = 1 << self.n
        if self.width == 8:
            return packed.to_bytes(size, "little")
        return tuple((packed >> (m * 16)) & 0xFFFF for m in range(size))


# A position as one player weighs it, in the start player's frame (``Deductions``). A dict
# rather than a class: a memory holds tens of thousands, and once a dict holds only plain
# values the collector stops visiting it, while it visits every class instance at every
# full collection (a twentieth of a classic simulation's time). Its keys:
#   POSTERIOR -> (the weight of each mask, their total, each seat's chance of being a target)
#   SIZES -> the chance of each number of targets, 0 to n (``size_chances_of``)
#   a mask (an int) -> the chance that every seat in it is a target (``chance_all``)
#   a tuple -> what a bot remembers of the position (a greedy player's plans, bots.py)
Weighed = dict[Any, Any]
POSTERIOR = "posterior"
SIZES = "sizes"


def weigh(weights: tuple[float, ...], t: Tables) -> Weighed:
    """A new position weighed: its total, and per seat the sum of the weights of the masks
    holding it over the total (in C)."""
    total = sum(weights)
    marginal = (tuple(map(truediv, map(sum, map(call, t.pick_holding, repeat(weights))),
                          repeat(total)))
                if total > 0 else ())
    return {POSTERIOR: (weights, total, marginal)}


def chance_all(weighed: Weighed, t: Tables, named: int) -> float:
    """Chance that every seat in ``named`` is a target (remembered with the position)."""
    chance: float | None = weighed.get(named)
    if chance is None:
        weights, total, _ = weighed[POSTERIOR]
        chance = weighed[named] = sum(t.pick_all(named)(weights)) / total
    return chance


def size_chances_of(weighed: Weighed, n: int) -> tuple[float, ...]:
    """Chance of each number of targets, 0 to ``n`` (remembered with the position)."""
    sizes: tuple[float, ...] | None = weighed.get(SIZES)
    if sizes is None:
        weights, total, _ = weighed[POSTERIOR]
        sizes = weighed[SIZES] = tuple(size_chances(weights, total, n))
    return sizes


_TABLES: dict[int, Tables] = {}


def tables(n: int) -> Tables:
    cached = _TABLES.get(n)
    if cached is None:
        cached = _TABLES[n] = Tables(n)
    return cached


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
        # Per seat of the table, its seat in the start player's frame, and back
        self.to_here = tuple((s - self.r) % n for s in range(n))
        self.to_table = tuple((s + self.r) % n for s in range(n))

    def orders(self) -> tuple[tuple[int, ...], ...]:
        """Every order of the unconfirmed seats (this frame); empty above six seats."""
        orders = self._tables._orders.get(self.confirmed)
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
        bits = t._liar_bits.get((kind, value, answer, seat))
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
        # theirs): the common cases read it instead of the choice's fields.
        code, value = choice.test
        if code == _ALL and answer is not None:
            if choice.kind == "name":
                self._named(seat, self._turn[value], answer, event.confirms)
            else:  # is_target
                self._contradicts(seat, "all", self._turn[value], answer)
        elif code == _ANY and value and answer is not None:
            self._contradicts(seat, "any", self._turn[value], answer)
        elif code == _COUNT and answer is not None:
            self.count_asked = True
            self._contradicts(seat, "count", value, answer)
        elif code == _NONE and answer is not None:
            if answer:
                self.ghost = seat  # a true "no targets" would have ended the big round
            else:
                self._contradicts(seat, "count", 0, False)  # true only for the empty mask
        elif code == _GHOST and answer is not None:
            self.ghost_answers.append((seat, (value - self.r) % self.n, answer))
        else:
            self._observe(seat, choice, answer, event.confirms)

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

    def _observe(self, seat: int, choice: Choice, answer: bool | None,
                 confirms: tuple[int, ...]) -> None:
        """``observe`` read from the choice's fields: a pass, and whatever ``observe``
        does not read from ``Choice.test``."""
        turn = self._turn
        n = self.n
        if choice.question is not None and choice.question.asks == "target_count":
            self.count_asked = True
        if choice.kind == "pass":
            self.ghost = seat  # only the ghost may pass
        elif choice.kind == "name":
            self._named(seat, turn[mask_of(choice.named)], bool(answer), confirms)
        elif choice.kind == "no_targets":
            if answer:
                self.ghost = seat  # a true "no targets" would have ended the big round
            else:
                self._contradicts(seat, "count", 0, False)  # true only for the empty mask
        elif choice.kind == "question" and choice.question is not None and answer is not None:
            q = choice.question
            if q.asks == "is_ghost" and q.about is not None:
                self.ghost_answers.append((seat, (q.about - self.r) % n, answer))
            elif q.asks == "is_target" and q.about is not None:
                self._contradicts(seat, "all", 1 << (q.about - self.r) % n, answer)
            elif q.asks == "any_target" and q.among:
                self._contradicts(seat, "any", turn[mask_of(q.among)], answer)
            elif q.asks == "target_count" and q.value is not None:
                self._contradicts(seat, "count", q.value, answer)

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


def size_chances(weights: Sequence[float], total: float, n: int) -> list[float]:
    """Chance of each number of targets, 0 to ``n``."""
    return [sum([w / total for w in pick(weights)]) for pick in tables(n).pick_size]
