"""無人生還: the table state and the pure night / day steps, each checking its action."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace

from pnp.core.problems import Problem
from pnp.games.base import RulesError
from pnp.games.params import is_integer
from pnp.games.wurenshenghuan.rules import KEY, WurenshenghuanRules
from pnp.games.wurenshenghuan.tables import prison_allowance, search_allowance

# letters -> {letter: index}; every state of a game shares its letters.
_INDEXES: dict[tuple[str, ...], dict[str, int]] = {}


@dataclass(frozen=True)
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


def deal(rules: WurenshenghuanRules, rng: random.Random, murderer: str) -> State:
    """The rules' deck shuffled by ``rng`` and dealt."""
    deck = rules.deck()
    rng.shuffle(deck)
    return new_state(rules, deck, murderer)


@dataclass(frozen=True)
class Kill:
    """Discard ``discard`` (item kinds, key allowed alongside) to kill ``targets``.

    ``arrange`` is the murderer's row afterwards, left to right; None keeps the remaining
    items in place and adds the drawn ones on the right.
    """

    targets: tuple[str, ...]
    discard: tuple[str, ...]
    arrange: tuple[str, ...] | None = None


@dataclass(frozen=True)
class Frame:
    """Swap the murderer's ``give`` with the card at ``position`` of ``target``'s row."""

    target: str
    position: int
    give: str
    arrange: tuple[str, ...] | None = None


@dataclass(frozen=True)
class Idle:
    """The murderer does nothing (the only choice while imprisoned without the key)."""


NightAction = Kill | Frame | Idle


@dataclass(frozen=True)
class Swap:
    character: str
    position: int
    gave: str
    took: str


@dataclass(frozen=True)
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


class IllegalAction(ValueError):
    """An action the rules forbid; ``problems`` says every reason."""

    def __init__(self, problems: list[str]) -> None:
        self.problems = problems
        super().__init__("; ".join(problems))


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


def _arrangement(result: tuple[str, ...], arrange: tuple[str, ...] | None,
                 problems: list[str]) -> tuple[str, ...]:
    if arrange is None:
        return result
    if Counter(arrange) != Counter(result):
        problems.append(f"arrangement {list(arrange)} is not a reordering of the murderer's "
                        f"items {list(result)}")
        return result
    return tuple(arrange)


def night_problems(rules: WurenshenghuanRules, state: State, action: NightAction) -> list[str]:
    """Every reason ``action`` is illegal tonight (empty = legal)."""
    return night_step(rules, state, action)[0]


def night_step(rules: WurenshenghuanRules, state: State,
               action: NightAction) -> tuple[list[str], State, NightResult]:
    """(every reason ``action`` is illegal tonight, the state after it, what it did); an
    illegal action leaves the state as it was."""
    own = state.murderer
    row = state.items(own)
    key = KEY in row
    base = NightResult(action="none", key=key, imprisoned=tuple(sorted(state.imprisoned)),
                       murderer_imprisoned=own in state.imprisoned, arranged=row)
    problems: list[str] = []
    if isinstance(action, Idle):
        return problems, state, base
    if state.murderer_locked:
        problems.append(f"the murderer's character {own} is imprisoned without the key: "
                        f"no kill and no frame tonight")
    if isinstance(action, Kill):
        return _kill(rules, state, action, base, problems)
    if isinstance(action, Frame):
        return _frame(state, action, base, problems)
    raise TypeError(f"not a night action: {action!r}")


def _kill(rules: WurenshenghuanRules, state: State, action: Kill, base: NightResult,
          problems: list[str]) -> tuple[list[str], State, NightResult]:
    """``night_step`` for a kill; ``problems`` holds what was found before it."""
    own = state.murderer
    row = state.items(own)
    targets, discard = tuple(action.targets), tuple(action.discard)
    rest = without(row, discard)
    if rest is None:
        problems.append(f"cannot discard {list(discard)}: {own} holds {list(row)}")
        rest = row
    weapons = [item for item in discard if item != KEY]
    if not 1 <= len(weapons) <= rules.max_kills_per_night:
        problems.append(f"a kill discards 1–{rules.max_kills_per_night} non-key items, "
                        f"got {len(weapons)} ({list(discard)})")
    if len(targets) != len(weapons):
        problems.append(f"{len(weapons)} non-key items discarded kill exactly "
                        f"{len(weapons)} characters, {len(targets)} named")
    if len(set(targets)) != len(targets):
        problems.append(f"kill targets must be distinct, got {list(targets)}")
    for target in targets:
        if target not in state.letters:
            problems.append(f"unknown character {target!r}")
        elif target in state.dead:
            problems.append(f"character {target} is already dead")
        elif not state.free(target):
            problems.append(f"character {target} is imprisoned and the murderer holds "
                            f"no key")
    drawn, pile = refill(rules, rest, state.pile)
    arranged = _arrangement(rest + drawn, action.arrange, problems)
    if problems:
        return problems, state, base
    after = state.with_row(own, arranged).evolve(pile=pile,
                    discards=state.discards + discard,
                    dead=state.dead | frozenset(targets))
    return problems, after, replace(
        base, action="kill", killed=tuple(sorted(targets)), feigned=own in targets,
        discarded=discard, drawn=drawn, arranged=arranged)


def _frame(state: State, action: Frame, base: NightResult,
           problems: list[str]) -> tuple[list[str], State, NightResult]:
    """``night_step`` for a frame; ``problems`` holds what was found before it."""
    own = state.murderer
    row = state.items(own)
    target, position, give = action.target, action.position, action.give
    theirs: tuple[str, ...] = ()
    if target not in state.letters:
        problems.append(f"unknown character {target!r}")
    elif target == own:
        problems.append("a frame swaps with another character, not the murderer's own")
    else:
        theirs = state.items(target)
        if not state.free(target):
            problems.append(f"character {target} is imprisoned and the murderer holds "
                            f"no key")
        if not is_integer(position) or not 0 <= position < len(theirs):
            problems.append(f"{target} has no item at position {position!r} "
                            f"({len(theirs)} items)")
    if give not in row:
        problems.append(f"cannot give {give!r}: {own} holds {list(row)}")
    if problems:
        return problems, state, base
    took = theirs[position]
    mine = list(row)
    # The received card takes the given card's place; the murderer may then reorder.
    mine[mine.index(give)] = took
    arranged = _arrangement(tuple(mine), action.arrange, problems)
    if problems:
        return problems, state, base
    new_theirs = list(theirs)
    new_theirs[position] = give
    after = state.with_row(own, arranged).with_row(target, new_theirs)
    return problems, after, replace(
        base, action="frame", swap=Swap(target, position, give, took), arranged=arranged)


def apply_night(rules: WurenshenghuanRules, state: State,
                action: NightAction) -> tuple[State, NightResult]:
    """The state after the murderer's night action; raises ``IllegalAction`` if forbidden."""
    problems, after, result = night_step(rules, state, action)
    if problems:
        raise IllegalAction(problems)
    return after, result


@dataclass(frozen=True)
class Look:
    """One look of a search; ``position`` picks the card of a living character's row."""

    character: str
    position: int | None = None


@dataclass(frozen=True)
class Search:
    looks: tuple[Look, ...] = ()


@dataclass(frozen=True)
class Imprison:
    characters: tuple[str, ...] = ()


DayDecision = Search | Imprison


@dataclass(frozen=True)
class LookResult:
    character: str
    position: int | None
    cards: tuple[str, ...]


@dataclass(frozen=True)
class DayResult:
    alive: int
    searches: int
    prisoners: int
    decision: str  # "search" | "imprison"
    looks: tuple[LookResult, ...] = ()
    imprisoned: tuple[str, ...] = ()


def day_problems(rules: WurenshenghuanRules, state: State, decision: DayDecision) -> list[str]:
    return day_step(rules, state, decision)[0]


def day_step(rules: WurenshenghuanRules, state: State,
         decision: DayDecision) -> tuple[list[str], State, DayResult]:
    alive = len(state.alive)
    searches, prisoners = search_allowance(rules, alive), prison_allowance(rules, alive)
    problems: list[str] = []
    if isinstance(decision, Search):
        if len(decision.looks) > searches:
            problems.append(f"{alive} known alive allow {searches} looks, got "
                            f"{len(decision.looks)}")
        results: list[LookResult] = []
        for look in decision.looks:
            who, position = look.character, look.position
            if who not in state.letters:
                problems.append(f"unknown character {who!r}")
                continue
            row = state.items(who)
            if who in state.dead:
                # A dead character's items are all turned up at once.
                if position is not None:
                    problems.append(f"{who} is dead: a look shows all items, no position")
                results.append(LookResult(who, None, row))
            elif position is None or not is_integer(position) or not 0 <= position < len(row):
                problems.append(f"{who} is alive: a look needs a position 0–{len(row) - 1}, "
                                f"got {position!r}")
            else:
                results.append(LookResult(who, position, (row[position],)))
        # Imprisonment lasts until this decision, so a search sets everyone free.
        after = state.evolve(imprisoned=frozenset())
        return problems, after, DayResult(alive, searches, prisoners, "search",
                                          looks=tuple(results))
    if isinstance(decision, Imprison):
        chosen = tuple(decision.characters)
        if len(chosen) > prisoners:
            problems.append(f"{alive} known alive allow {prisoners} prisoners, got "
                            f"{len(chosen)}")
        if len(set(chosen)) != len(chosen):
            problems.append(f"prisoners must be distinct, got {list(chosen)}")
        problems += [f"unknown character {c!r}" for c in chosen if c not in state.letters]
        after = state.evolve(imprisoned=frozenset(chosen))
        return problems, after, DayResult(alive, searches, prisoners, "imprison",
                                          imprisoned=tuple(sorted(chosen)))
    raise TypeError(f"not a day decision: {decision!r}")


def apply_day(rules: WurenshenghuanRules, state: State,
              decision: DayDecision) -> tuple[State, DayResult]:
    """The state after the table's day decision; raises ``IllegalAction`` if forbidden."""
    problems, after, result = day_step(rules, state, decision)
    if problems:
        raise IllegalAction(problems)
    return after, result


# --------------------------------------------------------------------------------------
