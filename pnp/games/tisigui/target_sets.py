"""替死鬼 (tisigui): target sets as bit masks, per player count: the prior the players weigh
them with, the lookups a position is weighed by (``Tables``), and a weighed position.

A target set is a bit mask of seats. Everything that depends only on the player count (the
prior, which masks hold a seat, which masks make a statement true, each mask's weight per
class of liars) is computed once per count in ``Tables`` and reused by every game, so a
posterior is one C-level lookup per mask and a chance one sum over a precomputed index.
``Tables`` also holds, per count, the memories of weighed positions (``Weighed``): the first
moves of a big round meet the same positions game after game.

The sums run over the masks in ascending order, as plain ``sum`` does over the whole list:
the weights and chances are the same floats whichever way they are read.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from itertools import accumulate, permutations, repeat
from operator import call, itemgetter, truediv
from typing import Any, Literal

from pnp.games.tisigui.memory import Memory

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
        self.known_orders: dict[int, tuple[tuple[int, ...], ...]] = {}
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
        self.known_liar_bits: dict[tuple[Statement, int, bool, int], int] = {}
        self.nobody: Sequence[int] = self.unpack(0)
        self.weighed: Memory[Weighed] = Memory()
        # The ghost's judgement of its options per position (ghost_answers.py), remembered likewise.
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
        orders = self.known_orders.get(confirmed)
        if orders is None:
            seats = [s for s in range(self.n) if not confirmed >> s & 1]
            orders = self.known_orders[confirmed] = (
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
        bits = self.known_liar_bits.get(key)
        if bits is None:
            width = self.width
            bits = self.known_liar_bits[key] = sum(
                marks << (m * width) for m, marks in enumerate(self.liar(*key)))
        return bits

    def unpack(self, packed: int) -> Sequence[int]:
        """A packed table of liars as a sequence of seat masks, one per mask (bytes up to
        eight seats: one C call)."""
        size = 1 << self.n
        if self.width == 8:
            return packed.to_bytes(size, "little")
        return tuple((packed >> (m * 16)) & 0xFFFF for m in range(size))


# A position as one player weighs it, in the start player's frame (``deduce.Deductions``). A dict
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


def size_chances(weights: Sequence[float], total: float, n: int) -> list[float]:
    """Chance of each number of targets, 0 to ``n``."""
    return [sum([w / total for w in pick(weights)]) for pick in tables(n).pick_size]
