"""無人生還: what lies on the table (``State``, frozen) and what a night or a day did, as the
event log writes it; the state machine that changes them is machine.py."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import field
from typing import Any

from pnp.core.problems import Problem
from pnp.core.records import record
from pnp.games.base import RulesError
from pnp.games.events import to_json_object
from pnp.games.wurenshenghuan.rules import KEY, WurenshenghuanRules

# letters -> {letter: index}; every state of a game shares its letters.
_INDEXES: dict[tuple[str, ...], dict[str, int]] = {}


@record
class State:
    """Everything on the table; ``rows[i]`` belongs to ``letters[i]``."""

    letters: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]
    pile: tuple[str, ...]  # top first
    murderer: str  # the murderer's character
    discards: tuple[str, ...] = ()
    dead: frozenset[str] = frozenset()
    imprisoned: frozenset[str] = frozenset()
    # letter -> index into rows; derived, kept because every step and bot looks rows up.
    index: Mapping[str, int] = field(init=False, repr=False, compare=False)
    # Characters not publicly dead (a feigned death counts as dead), in letter order.
    alive: tuple[str, ...] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        index = _INDEXES.get(self.letters)
        if index is None:
            index = _INDEXES.setdefault(self.letters, {c: i for i, c in enumerate(self.letters)})
        object.__setattr__(self, "index", index)
        object.__setattr__(self, "alive", tuple(c for c in self.letters if c not in self.dead))

    def items(self, letter: str) -> tuple[str, ...]:
        return self.rows[self.index[letter]]

    def with_row(self, letter: str, row: Iterable[str]) -> State:
        rows = list(self.rows)
        rows[self.index[letter]] = tuple(row)
        return self.evolve(rows=tuple(rows))

    def evolve(self, *, rows: tuple[tuple[str, ...], ...] | None = None,
               pile: tuple[str, ...] | None = None, discards: tuple[str, ...] | None = None,
               dead: frozenset[str] | None = None,
               imprisoned: frozenset[str] | None = None) -> State:
        """A copy with the given parts changed (``dataclasses.replace`` without its cost)."""
        return State(self.letters, self.rows if rows is None else rows,
                     self.pile if pile is None else pile, self.murderer,
                     self.discards if discards is None else discards,
                     self.dead if dead is None else dead,
                     self.imprisoned if imprisoned is None else imprisoned)

    @property
    def all_dead(self) -> bool:
        return len(self.dead) == len(self.letters)

    @property
    def real_kills(self) -> int:
        return len(self.dead - {self.murderer})

    @property
    def murderer_has_key(self) -> bool:
        return KEY in self.items(self.murderer)

    def free(self, letter: str) -> bool:
        """Can the murderer reach ``letter`` tonight (not imprisoned, or the key held)?"""
        return letter not in self.imprisoned or self.murderer_has_key

    @property
    def murderer_locked(self) -> bool:
        """Is the murderer's character imprisoned without the key (no kill, no frame tonight)?"""
        return self.murderer in self.imprisoned and not self.murderer_has_key

    def victims(self) -> list[str]:
        """The characters a kill may take tonight: alive, and free or the key held."""
        return [c for c in self.letters if c not in self.dead and self.free(c)]

    def frame_targets(self) -> list[str]:
        """The other characters whose rows a frame may reach tonight."""
        own = self.murderer
        return [c for c in self.letters if c != own and self.free(c) and self.items(c)]

    def inventory(self) -> Counter[str]:
        """Every item on the table, in the pile and in the discards."""
        total: Counter[str] = Counter(self.pile)
        total.update(self.discards)
        for row in self.rows:
            total.update(row)
        return total


def new_state(rules: WurenshenghuanRules, deck: Sequence[str], murderer: str) -> State:
    """Deal ``deck`` (top first): the first items to A, the next to B, ..., the rest as pile."""
    if sorted(deck) != sorted(rules.deck()):
        raise ValueError("the deck is not the rules' item deck")
    if murderer not in rules.letters:
        raise ValueError(f"unknown murderer character {murderer!r}")
    n = rules.items_per_character
    need = rules.characters * n
    if len(deck) < need:
        raise RulesError([Problem(f"{len(deck)} items cannot deal {n} under each of "
                                  f"{rules.characters} characters", path=("weapon_kinds",))])
    rows = tuple(tuple(deck[i * n:(i + 1) * n]) for i in range(rules.characters))
    return State(letters=rules.letters, rows=rows, pile=tuple(deck[need:]), murderer=murderer)


@record
class Swap:
    character: str
    position: int
    gave: str
    took: str


@record
class NightResult:
    action: str  # "kill" | "frame" | "none"
    killed: tuple[str, ...] = ()
    feigned: bool = False
    discarded: tuple[str, ...] = ()
    drawn: tuple[str, ...] = ()
    swap: Swap | None = None
    key: bool = False  # the murderer's character held a key when acting
    imprisoned: tuple[str, ...] = ()  # in force tonight
    murderer_imprisoned: bool = False
    arranged: tuple[str, ...] = ()  # the murderer's row after the night


def without(row: Sequence[str], items: Iterable[str]) -> tuple[str, ...] | None:
    rest = list(row)
    for item in items:
        if item not in rest:
            return None
        rest.remove(item)
    return tuple(rest)


def refill(rules: WurenshenghuanRules, row: tuple[str, ...],
           pile: Sequence[str]) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """Draw up to a full row from the pile top; an empty pile simply gives nothing."""
    count = max(0, min(rules.items_per_character - len(row), len(pile)))
    return tuple(pile[:count]), tuple(pile[count:])


@record
class LookResult:
    character: str
    position: int | None
    cards: tuple[str, ...]


@record
class DayResult:
    alive: int
    searches: int
    prisoners: int
    decision: str  # "search" | "imprison"
    looks: tuple[LookResult, ...] = ()
    imprisoned: tuple[str, ...] = ()


# -- the events a night, a day and a slip emit ---------------------------------------------


@record
class NightEvent:
    night: int
    result: NightResult
    pile_left: int
    table: tuple[tuple[str, tuple[str, ...]], ...]  # (letter, row) after the night

    def to_json(self) -> dict[str, Any]:
        return {"night": self.night, **to_json_object(self.result), "pile_left": self.pile_left,
                "table": {c: list(row) for c, row in self.table}}


@record
class DayEvent:
    day: int
    dead: tuple[str, ...]  # sorted
    result: DayResult

    def to_json(self) -> dict[str, Any]:
        return {"day": self.day, "dead": list(self.dead), **to_json_object(self.result)}


@record
class GuessEvent:
    seat: int
    character: str
    day: int
    correct: bool
