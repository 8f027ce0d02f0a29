"""無人生還 (wurenshenghuan): the reference engine.

Rules as settled in shared/RULINGS.md (section wurenshenghuan). The engine is pure: no I/O,
randomness only from a passed ``random.Random``.

Vocabulary used throughout:

- *characters* are the lettered cards A, B, C, ... on the table; each player secretly plays
  one of them (seat -> letter) and characters no player holds are still in play.
- *items* are strings: ``"W1"`` ... ``"W10"`` for the weapon kinds (numbered in the order of
  the item deck in card_data) and ``"KEY"`` for the key. Copies of one kind are
  indistinguishable, so a kind string identifies a card well enough to conserve the deck.
- a character's *row* is its items left to right; the last one is the one shown at setup.
- the *pile* is the murderer's draw pile, top card first.

Night and day are separate pure steps (``apply_night`` / ``apply_day``) over a frozen
``State``; ``play`` drives them with bots and writes the event log, ``replay`` drives the
same steps from a log and reports every way the log departs from the rules.

Event log (seats from 0; letters for characters; items as above)::

    {"game": "wurenshenghuan", "seed", "players", "bots": "greedy"|"random",
     "murderer": seat, "characters": [letter per seat],
     "setup": {"deal": {letter: [3 items, left to right]}, "shown": {letter: item},
               "pile": [items, top first]},
     "nights": [{"night", "action": "kill"|"frame"|"none", "killed": [letters],
                 "feigned": bool, "discarded": [items, all shown at daybreak],
                 "drawn": [items from the pile], "swap": null | {"character", "position",
                 "gave", "took"}, "key": bool (held when acting), "imprisoned": [letters
                 in force], "murderer_imprisoned": bool, "arranged": [the murderer's row
                 after], "pile_left": n, "table": {letter: [items]} after the night}],
     "days": [{"day", "dead": [letters], "alive": n, "searches": n, "prisoners": n,
               "decision": "search"|"imprison", "looks": [{"character", "position"
               (null for a dead character), "cards": [items]}], "imprisoned": [letters]}],
     "guesses": [{"seat", "character", "day", "correct"}],
     "end": "days_out"|"all_dead", "kills": real kills,
     "final": [{"seat", "character", "role", "alive", "died": night|null, "kills"
                (murderer only), "murderer_points", "guess_points", "survival_points",
                "points"}]}

When every character is dead the game ends at that daybreak, so the last night has no day.

Rulings beyond shared/RULINGS.md (each where the seed is silent):

- Kill targets are living characters; a frame may swap with a dead character's row.
- The key is judged when the murderer acts: discarding it in the kill or giving it away in
  the frame still ignores imprisonment that night.
- Every discarded item is shown at daybreak, a discarded key included.
- The allowances are maxima; one character may be looked at more than once; a look at a
  living character picks a position (the rows lie face down but their sizes are public).
- A correct guess is "before death" when its day is earlier than the night of the death.
- Guessing is optional; the murderer never guesses and never earns the survival bonus.
- With overlapping bands the first listed counts; a guess table shorter than the days pays
  0 for the missing days (lint reports both).

Bots (``bot="greedy"``; ``"random"`` is a legal-move fuzzer). All of them reason only from
public play (``_PublicView``): shown and searched cards, deaths and discards, who was locked
up, and which nights were quiet. Its suspicion scores add up evidence as rough log-odds
(a quiet night with the murderer's character locked up, a kill that clears the prisoners, a
row seen to change or shrink, discards matching cards seen, the dead counting only when
their death may have been feigned), and ``confidence`` turns them into chances.

- The murderer kills as many as it can with the weapons the table has not seen under its
  own character (with every weapon seen, one kill with the kind seen most elsewhere), leaves
  the cards it keeps where they lay, fakes its own death when it is the table's clear top
  suspect, and frames someone when it cannot kill.
- The table locks up the likeliest living suspects every day but the last (searching told
  it less), and searches on the last day.
- Each other player hands in a guess, for the likeliest suspect, once today's points times
  its chance beat tomorrow's points times a somewhat better chance (how much better differs
  from player to player), guarding the survival bonus against tonight's kills too; everyone
  guesses on the last day or when the game may end tonight.
"""

from __future__ import annotations

import math
import random
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Literal

from pnp.games.base import RulesError, Table
from pnp.games.params import Params, is_integer, raise_problems

SLUG = "wurenshenghuan"
slug = SLUG
variants: tuple[str, ...] = ()

KEY = "KEY"
MURDERER = "murderer"
INNOCENT = "innocent"
Role = Literal["murderer", "innocent"]
BOTS = ("greedy", "random")

_LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"


def weapon(kind: int) -> str:
    """The item string of weapon kind ``kind`` (1-based)."""
    return f"W{kind}"


# --------------------------------------------------------------------------------------
# Rules
# --------------------------------------------------------------------------------------


@dataclass(frozen=True)
class ScoreBand:
    """``points`` for the murderer when real kills fall in kills_min..kills_max (inclusive)."""

    kills_min: int
    kills_max: int
    points: int

    def covers(self, kills: int) -> bool:
        return self.kills_min <= kills <= self.kills_max


# RULINGS prints the last band as "9 → 5": the seed's "9–10" cannot reach 10 because the
# murderer's own death is never a kill, so the shipped data says 9–9 and lints clean while
# the seed fixture keeps 9–10 for lint to find.
DEFAULT_BANDS: tuple[ScoreBand, ...] = (
    ScoreBand(1, 3, 1),
    ScoreBand(4, 5, 2),
    ScoreBand(6, 7, 3),
    ScoreBand(8, 8, 4),
    ScoreBand(9, 9, 5),
)


@dataclass(frozen=True)
class WurenshenghuanRules:
    min_players: int = 2
    max_players: int = 10
    default_players: int = 6
    characters: int = 10
    weapon_kinds: int = 10
    copies_per_weapon: int = 4
    keys: int = 1
    items_per_character: int = 3
    max_kills_per_night: int = 3
    days: int = 5
    search_divisor: int = 2
    imprison_divisor: int = 3
    murderer_bands: tuple[ScoreBand, ...] = DEFAULT_BANDS
    # Index d-1 holds the points for a correct guess handed in on day d.
    guess_points: tuple[int, ...] = (5, 4, 3, 2, 1)
    survival_bonus: int = 2

    @property
    def letters(self) -> tuple[str, ...]:
        return tuple(_LETTERS[: self.characters])

    @property
    def deck_size(self) -> int:
        return self.weapon_kinds * self.copies_per_weapon + self.keys

    @property
    def pile_size(self) -> int:
        return self.deck_size - self.characters * self.items_per_character

    def deck(self) -> list[str]:
        """The item deck in its canonical (unshuffled) order."""
        items = [weapon(k) for k in range(1, self.weapon_kinds + 1)
                 for _ in range(self.copies_per_weapon)]
        return items + [KEY] * self.keys


# (mapping key = dataclass field, lowest allowed value)
_INT_FIELDS: tuple[tuple[str, int], ...] = (
    ("characters", 2),
    ("weapon_kinds", 1),
    ("copies_per_weapon", 1),
    ("keys", 0),
    ("items_per_character", 1),
    ("max_kills_per_night", 1),
    ("days", 1),
    ("search_divisor", 1),
    ("imprison_divisor", 1),
    ("survival_bonus", 0),
)
_KEYS = frozenset(k for k, _ in _INT_FIELDS) | {"players", "murderer_bands", "guess_points"}
_BAND_KEYS = ("kills_min", "kills_max", "points")


def rules_from_mapping(
    mapping: Mapping[str, Any] | None, variant: str | None = None
) -> WurenshenghuanRules:
    """Rules from game.yaml's ``rules:`` mapping; a missing key takes its RULINGS value.

    Raises ``RulesError`` listing every problem at once.
    """
    base = WurenshenghuanRules()
    read = Params(mapping)
    if variant:
        read.problems.append(f"variant: unknown variant {variant!r} (wurenshenghuan has none)")
    values: dict[str, Any] = {
        key: read.integer(key, getattr(base, key), minimum=low) for key, low in _INT_FIELDS
    }
    if values["characters"] > len(_LETTERS):
        read.problem("characters", f"at most {len(_LETTERS)} (one letter each), "
                                   f"got {values['characters']}")
        values["characters"] = base.characters

    players = read.sub("players")
    if players is not None:
        values["min_players"] = players.integer("min", base.min_players)
        values["max_players"] = players.integer("max", base.max_players)
        values["default_players"] = players.integer("default", base.default_players)
        players.finish(("min", "max", "default"))

    bands = read.items("murderer_bands")
    if bands is not None:
        parsed: list[ScoreBand] = []
        for band in bands:
            lo, hi, points = (band.required_integer(key, minimum=0) for key in _BAND_KEYS)
            band.finish(_BAND_KEYS)
            if lo is not None and hi is not None and points is not None:
                if lo > hi:
                    band.problem(None, f"kills_min {lo} is above kills_max {hi}")
                parsed.append(ScoreBand(lo, hi, points))
        values["murderer_bands"] = tuple(parsed)

    # An empty table is allowed here so that lint can name the mismatch with the days.
    values["guess_points"] = read.integer_list("guess_points", base.guess_points, minimum=0,
                                               nonempty=False)
    read.finish(_KEYS)
    # Invalid values fell back to their defaults above, so the cross-checks still run and
    # the designer sees every problem in one go.
    rules = replace(base, **values)
    raise_problems(read.problems + validate_rules(rules))
    return rules


def validate_rules(rules: WurenshenghuanRules) -> list[str]:
    """Problems that make the rules unplayable (lint covers the merely questionable)."""
    problems: list[str] = []
    if rules.min_players < 2:
        # One murderer and at least one guesser, or there is no game.
        problems.append(f"players.min: at least 2 (a murderer and a guesser), "
                        f"got {rules.min_players}")
    if rules.max_players < rules.min_players:
        problems.append(f"players.max: {rules.max_players} is below players.min "
                        f"{rules.min_players}")
    if rules.max_players > rules.characters:
        problems.append(f"players.max: {rules.max_players} players need as many characters, "
                        f"only {rules.characters}")
    if not rules.min_players <= rules.default_players <= rules.max_players:
        problems.append(f"players.default: {rules.default_players} is outside "
                        f"{rules.min_players}–{rules.max_players}")
    return problems


def player_range(rules: WurenshenghuanRules) -> tuple[int, int]:
    return rules.min_players, rules.max_players


def default_players(rules: WurenshenghuanRules) -> int:
    return rules.default_players


# --------------------------------------------------------------------------------------
# Tables and scoring helpers
# --------------------------------------------------------------------------------------


def search_allowance(rules: WurenshenghuanRules, alive: int) -> int:
    """Looks a search day allows when ``alive`` characters are known alive."""
    return alive // rules.search_divisor


def prison_allowance(rules: WurenshenghuanRules, alive: int) -> int:
    """Characters an imprisonment day may lock up when ``alive`` are known alive."""
    return alive // rules.imprison_divisor


def max_kills(rules: WurenshenghuanRules) -> int:
    """Most real kills a murderer could ever score (their own character never counts)."""
    return rules.characters - 1


def murderer_points(rules: WurenshenghuanRules, kills: int) -> int:
    """Points for ``kills`` real kills: the first band covering it, 0 when none does."""
    if not is_integer(kills) or not 0 <= kills <= max_kills(rules):
        raise ValueError(f"kills must be 0–{max_kills(rules)} (the murderer's own character "
                         f"is never a kill), got {kills!r}")
    for band in rules.murderer_bands:
        if band.covers(kills):
            return band.points
    return 0


def guess_points(rules: WurenshenghuanRules, day: int) -> int:
    """Points for a correct guess handed in on ``day`` (0 past the end of a short table)."""
    if not is_integer(day) or not 1 <= day <= rules.days:
        raise ValueError(f"guess day must be 1–{rules.days}, got {day!r}")
    return rules.guess_points[day - 1] if day <= len(rules.guess_points) else 0


@dataclass(frozen=True)
class Score:
    """One player's final score, split the way the narration explains it."""

    murderer: int = 0
    guess: int = 0
    survival: int = 0

    @property
    def total(self) -> int:
        return self.murderer + self.guess + self.survival


def score_parts(
    rules: WurenshenghuanRules,
    *,
    role: Role,
    kills: int = 0,
    guess_correct: bool = False,
    guess_day: int | None = None,
    alive_at_end: bool = False,
    guessed_before_death: bool = False,
) -> Score:
    """A player's score from the facts a player at the table knows at the end.

    - ``role``: ``"murderer"`` or ``"innocent"`` (every other player).
    - murderer: ``kills`` = characters really killed, their own feigned death not counted.
      A murderer never guesses and never earns the survival bonus.
    - innocent: ``guess_correct`` and ``guess_day`` (the day written on the slip; needed
      of any guess handed in; points only when correct); ``alive_at_end`` = their character
      was never killed; ``guessed_before_death`` = the slip was handed in on a day before
      the night their character was killed. The survival bonus is paid once, when the
      character is alive at the end or when a *correct* guess came before the death.

    Raises ``ValueError`` for facts that cannot go together (a murderer's guess, an
    innocent's kills, a correct guess without its day, a day outside the game, a character
    alive at the end whose guess came "before its death": it was never killed).
    """
    if role == MURDERER:
        if guess_correct or guess_day is not None or guessed_before_death:
            raise ValueError("the murderer hands in no guess")
        return Score(murderer=murderer_points(rules, kills))
    if role != INNOCENT:
        raise ValueError(f"role must be {MURDERER!r} or {INNOCENT!r}, got {role!r}")
    if kills:
        raise ValueError("only the murderer kills; an innocent player's kills must be 0")
    if alive_at_end and guessed_before_death:
        raise ValueError("alive_at_end and guessed_before_death contradict: a character alive "
                         "at the end was never killed, so no guess came before its death")
    if guess_day is None:
        if guess_correct or guessed_before_death:
            raise ValueError("a guess needs the day it was handed in (guess_day)")
        points = 0
    else:
        day_points = guess_points(rules, guess_day)  # checks the day even for a wrong guess
        points = day_points if guess_correct else 0
    survived = alive_at_end or (guess_correct and guessed_before_death)
    return Score(guess=points, survival=rules.survival_bonus if survived else 0)


def player_score(rules: WurenshenghuanRules, **facts: Any) -> int:
    """Total points of one player, from the same facts ``score_parts`` takes."""
    return score_parts(rules, **facts).total


def compute_tables(rules: WurenshenghuanRules) -> dict[str, Table]:
    return {
        "allowances": [
            {"alive": alive, "searches": search_allowance(rules, alive),
             "prisoners": prison_allowance(rules, alive)}
            for alive in range(1, rules.characters + 1)
        ],
        "murderer_score": [
            {"kills": kills, "points": murderer_points(rules, kills)}
            for kills in range(0, max_kills(rules) + 1)
        ],
        "guess_score": [
            {"day": day, "points": guess_points(rules, day)}
            for day in range(1, rules.days + 1)
        ],
    }


# --------------------------------------------------------------------------------------
# Lint
# --------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Finding:
    code: str
    message: str
    where: str


def reachable_kills(rules: WurenshenghuanRules) -> tuple[int, str]:
    """The most real kills any game can reach, and what caps it."""
    caps = [
        (max_kills(rules), f"only {max_kills(rules)} characters besides the murderer's own, "
                           f"whose death is never a kill"),
        (rules.days * rules.max_kills_per_night,
         f"{rules.days} nights × at most {rules.max_kills_per_night} kills"),
        # Frames swap one for one, so only the starting row and the pile ever reach the
        # murderer's hand; at best none of them is a key.
        (min(rules.weapon_kinds * rules.copies_per_weapon,
             rules.items_per_character + max(rules.pile_size, 0)),
         f"the murderer can discard at most {rules.items_per_character} starting items + "
         f"{max(rules.pile_size, 0)} from the pile"),
    ]
    return min(caps, key=lambda cap: cap[0])


def lint(rules: WurenshenghuanRules) -> list[Finding]:
    """Questionable rules: unreachable or overlapping score bands, gaps, short tables, supply."""
    findings: list[Finding] = []
    need = rules.characters * rules.items_per_character
    if rules.deck_size < need:
        findings.append(Finding(
            "item-supply",
            f"{rules.deck_size} items cannot deal {rules.items_per_character} under each of "
            f"{rules.characters} characters ({need} needed)",
            "rules.weapon_kinds"))
    elif rules.pile_size == 0:
        findings.append(Finding(
            "item-supply",
            "no items are left for the murderer's draw pile: after the first kill the "
            "murderer's row shrinks and gives the murderer away",
            "rules.weapon_kinds"))

    top, cap = reachable_kills(rules)
    covered: dict[int, list[int]] = {}
    for i, band in enumerate(rules.murderer_bands):
        where = f"rules.murderer_bands[{i}]"
        if band.kills_max > top:
            never = _ranges(list(range(max(band.kills_min, top + 1), band.kills_max + 1)))
            findings.append(Finding(
                "unreachable-band",
                f"band {band.kills_min}–{band.kills_max} → {band.points}: kills {never} can "
                f"never happen, at most {top} real kills: {cap}",
                where))
        for kills in range(band.kills_min, min(band.kills_max, top) + 1):
            covered.setdefault(kills, []).append(i)
    # One finding per pair of bands, not per kill count, so a wide overlap reads as one.
    overlaps: dict[tuple[int, int], list[int]] = {}
    for kills in sorted(covered):
        for other in covered[kills][1:]:
            overlaps.setdefault((covered[kills][0], other), []).append(kills)
    for (first, other), kills_list in overlaps.items():
        findings.append(Finding(
            "band-overlap",
            f"kills {_ranges(kills_list)} fall in murderer_bands[{first}] and "
            f"murderer_bands[{other}]; the first one counts",
            f"rules.murderer_bands[{other}]"))
    gaps = [k for k in range(1, top + 1) if k not in covered]
    if gaps:
        findings.append(Finding(
            "band-gap",
            f"no band covers {_ranges(gaps)} kills: the murderer would score 0",
            "rules.murderer_bands"))

    if len(rules.guess_points) != rules.days:
        findings.append(Finding(
            "guess-table-length",
            f"the guess table has {len(rules.guess_points)} entries for {rules.days} days",
            "rules.guess_points"))

    for name, divisor, what in (("search_divisor", rules.search_divisor, "search"),
                                ("imprison_divisor", rules.imprison_divisor, "imprisonment")):
        if rules.characters // divisor == 0:
            findings.append(Finding(
                "allowance-never",
                f"with {rules.characters} characters at most, a {what} never allows anything",
                f"rules.{name}"))
    return findings


def _ranges(values: list[int]) -> str:
    """[1, 2, 3, 5] -> "1–3, 5"."""
    runs: list[list[int]] = []
    for value in values:
        if runs and value == runs[-1][-1] + 1:
            runs[-1].append(value)
        else:
            runs.append([value])
    return ", ".join(str(r[0]) if len(r) == 1 else f"{r[0]}–{r[-1]}" for r in runs)


# --------------------------------------------------------------------------------------
# State and the pure night / day steps
# --------------------------------------------------------------------------------------


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

    def items(self, letter: str) -> tuple[str, ...]:
        return self.rows[self.letters.index(letter)]

    def with_row(self, letter: str, row: Iterable[str]) -> State:
        rows = list(self.rows)
        rows[self.letters.index(letter)] = tuple(row)
        return replace(self, rows=tuple(rows))

    @property
    def alive(self) -> tuple[str, ...]:
        """Characters not publicly dead (a feigned death counts as dead)."""
        return tuple(c for c in self.letters if c not in self.dead)

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
        raise RulesError([f"weapon_kinds: {len(deck)} items cannot deal {n} under each of "
                          f"{rules.characters} characters"])
    rows = tuple(tuple(deck[i * n:(i + 1) * n]) for i in range(rules.characters))
    return State(letters=rules.letters, rows=rows, pile=tuple(deck[need:]), murderer=murderer)


def deal(rules: WurenshenghuanRules, rng: random.Random, murderer: str) -> State:
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


def _without(row: Sequence[str], items: Iterable[str]) -> tuple[str, ...] | None:
    rest = list(row)
    for item in items:
        if item not in rest:
            return None
        rest.remove(item)
    return tuple(rest)


def _refill(rules: WurenshenghuanRules, row: tuple[str, ...],
            pile: tuple[str, ...]) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """Draw up to a full row from the pile top; an empty pile simply gives nothing."""
    count = max(0, min(rules.items_per_character - len(row), len(pile)))
    return pile[:count], pile[count:]


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
    return _night(rules, state, action)[0]


def _night(rules: WurenshenghuanRules, state: State,
           action: NightAction) -> tuple[list[str], State, NightResult]:
    own = state.murderer
    row = state.items(own)
    key = KEY in row
    base = NightResult(action="none", key=key, imprisoned=tuple(sorted(state.imprisoned)),
                       murderer_imprisoned=own in state.imprisoned, arranged=row)
    problems: list[str] = []
    if isinstance(action, Idle):
        return problems, state, base
    if own in state.imprisoned and not key:
        problems.append(f"the murderer's character {own} is imprisoned without the key: "
                        f"no kill and no frame tonight")

    if isinstance(action, Kill):
        targets, discard = tuple(action.targets), tuple(action.discard)
        rest = _without(row, discard)
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
        drawn, pile = _refill(rules, rest, state.pile)
        arranged = _arrangement(rest + drawn, action.arrange, problems)
        if problems:
            return problems, state, base
        after = replace(state.with_row(own, arranged), pile=pile,
                        discards=state.discards + discard,
                        dead=state.dead | frozenset(targets))
        return problems, after, replace(
            base, action="kill", killed=tuple(sorted(targets)), feigned=own in targets,
            discarded=discard, drawn=drawn, arranged=arranged)

    if isinstance(action, Frame):
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

    raise TypeError(f"not a night action: {action!r}")


def apply_night(rules: WurenshenghuanRules, state: State,
                action: NightAction) -> tuple[State, NightResult]:
    """The state after the murderer's night action; raises ``IllegalAction`` if forbidden."""
    problems, after, result = _night(rules, state, action)
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
    decision: str  # "search" | "imprison"
    alive: int
    searches: int
    prisoners: int
    looks: tuple[LookResult, ...] = ()
    imprisoned: tuple[str, ...] = ()


def day_problems(rules: WurenshenghuanRules, state: State, decision: DayDecision) -> list[str]:
    return _day(rules, state, decision)[0]


def _day(rules: WurenshenghuanRules, state: State,
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
            elif not is_integer(position) or not 0 <= position < len(row):
                problems.append(f"{who} is alive: a look needs a position 0–{len(row) - 1}, "
                                f"got {position!r}")
            else:
                results.append(LookResult(who, position, (row[position],)))
        # Imprisonment lasts until this decision, so a search sets everyone free.
        after = replace(state, imprisoned=frozenset())
        return problems, after, DayResult("search", alive, searches, prisoners,
                                          looks=tuple(results))
    if isinstance(decision, Imprison):
        chosen = tuple(decision.characters)
        if len(chosen) > prisoners:
            problems.append(f"{alive} known alive allow {prisoners} prisoners, got "
                            f"{len(chosen)}")
        if len(set(chosen)) != len(chosen):
            problems.append(f"prisoners must be distinct, got {list(chosen)}")
        problems += [f"unknown character {c!r}" for c in chosen if c not in state.letters]
        after = replace(state, imprisoned=frozenset(chosen))
        return problems, after, DayResult("imprison", alive, searches, prisoners,
                                          imprisoned=tuple(sorted(chosen)))
    raise TypeError(f"not a day decision: {decision!r}")


def apply_day(rules: WurenshenghuanRules, state: State,
              decision: DayDecision) -> tuple[State, DayResult]:
    """The state after the table's day decision; raises ``IllegalAction`` if forbidden."""
    problems, after, result = _day(rules, state, decision)
    if problems:
        raise IllegalAction(problems)
    return after, result


# --------------------------------------------------------------------------------------
# Bots
# --------------------------------------------------------------------------------------


def _overlap(a: Iterable[str], b: Iterable[str]) -> int:
    return sum((Counter(a) & Counter(b)).values())


@dataclass
class _KillMemory:
    night: int
    weapons: tuple[str, ...]
    key_discarded: bool
    imprisoned: frozenset[str]
    key_seen_at: str | None
    seen_before: dict[str, tuple[str, ...]]


@dataclass
class _PublicView:
    """What every player at the table knows: shown cards, deaths, discards, searches.

    Internal to the bots; it never reads hidden cards from ``State``.
    """

    rules: WurenshenghuanRules
    seen: dict[str, dict[int, str]] = field(default_factory=dict)
    sizes: dict[str, int] = field(default_factory=dict)
    dead: set[str] = field(default_factory=set)
    imprisoned: frozenset[str] = frozenset()
    kills: list[_KillMemory] = field(default_factory=list)
    key_seen_at: str | None = None
    # Nights nobody died while these characters were locked up, shared among the prisoners.
    quiet: dict[str, float] = field(default_factory=dict)
    # Looks that found a card other than the one seen there before: the row was reached.
    changed: dict[str, int] = field(default_factory=dict)
    # Characters killed while they were the table's top suspect: a feigned death fits.
    died_suspected: set[str] = field(default_factory=set)

    @classmethod
    def at_setup(cls, rules: WurenshenghuanRules, state: State) -> _PublicView:
        view = cls(rules)
        for letter in state.letters:
            row = state.items(letter)
            view.sizes[letter] = len(row)
            view.seen[letter] = {len(row) - 1: row[-1]} if row else {}
            if row and row[-1] == KEY:
                view.key_seen_at = letter
        return view

    def observe_night(self, night: int, result: NightResult, sizes: dict[str, int]) -> None:
        if result.killed:
            before = self.suspicion()
            living = [c for c in self.rules.letters if c not in self.dead]
            top = max(before[c] for c in living)
            runner_up = max((before[c] for c in living if before[c] < top), default=top)
            self.died_suspected |= {c for c in result.killed
                                    if before[c] == top and top > 0 and top > runner_up}
        elif result.imprisoned:
            # The murderer kills whenever they can, so a quiet night points at the prisoners.
            for letter in result.imprisoned:
                self.quiet[letter] = self.quiet.get(letter, 0.0) + 1 / len(result.imprisoned)
        if result.killed:
            weapons = tuple(i for i in result.discarded if i != KEY)
            self.kills.append(_KillMemory(
                night, weapons, KEY in result.discarded, frozenset(result.imprisoned),
                self.key_seen_at,
                {c: tuple(s.values()) for c, s in self.seen.items()}))
            if KEY in result.discarded:
                self.key_seen_at = None
        self.dead |= set(result.killed)
        for letter, size in sizes.items():
            if size != self.sizes[letter]:
                # Only the murderer's row changes size, and whatever was seen there is gone.
                self.seen[letter] = {}
                self.sizes[letter] = size

    def observe_day(self, result: DayResult) -> None:
        self.imprisoned = frozenset(result.imprisoned)
        for look in result.looks:
            seen = self.seen[look.character]
            cards = dict(enumerate(look.cards)) if look.position is None else {
                look.position: look.cards[0]}
            if any(seen.get(i, item) != item for i, item in cards.items()):
                # Only the murderer's own row and a framed row ever change.
                self.changed[look.character] = self.changed.get(look.character, 0) + 1
            if look.position is None:
                self.seen[look.character] = cards
            else:
                seen.update(cards)
            if KEY in look.cards:
                self.key_seen_at = look.character

    def feigned_plausible(self, letter: str) -> bool:
        """Could ``letter``'s public death be the murderer's feigned one?

        Yes when it died as the table's clear top suspect (the murderer's reason to fake
        it), or when its row changed afterwards or is short (the dead hold still).
        """
        return (letter in self.died_suspected or self.changed.get(letter, 0) > 0
                or self.sizes[letter] < self.rules.items_per_character)

    def suspicion(self) -> dict[str, float]:
        """Log-odds-like scores: higher = likelier the murderer's character (public only).

        Each piece of evidence adds roughly the log of how much likelier it is if the
        character is the murderer's: so ``confidence`` can turn the scores into chances.
        """
        used = {w for memory in self.kills for w in memory.weapons}
        scores: dict[str, float] = {}
        for letter in self.rules.letters:
            score = 0.0
            for memory in self.kills:
                before = memory.seen_before.get(letter, ())
                # A weak hint: a careful murderer kills with cards nobody has seen.
                score += 0.5 * _overlap(memory.weapons, before)
                if memory.key_discarded and KEY in before:
                    score += 3
                # An imprisoned murderer cannot kill unless they hold the key.
                if letter in memory.imprisoned and memory.key_seen_at != letter:
                    score -= 3
            score += 0.25 * sum(1 for item in self.seen[letter].values() if item in used)
            if self.sizes[letter] < self.rules.items_per_character:
                score += 10  # only the murderer's row ever shrinks
            score += QUIET_WEIGHT * self.quiet.get(letter, 0.0)
            score += CHANGED_WEIGHT * self.changed.get(letter, 0)
            if letter in self.dead:
                # The dead do not kill, unless the death was feigned.
                score -= 1.5 if self.feigned_plausible(letter) else 5
            scores[letter] = score
        return scores


# A quiet night is about ten times likelier with the murderer among the prisoners (a free
# murderer kills whenever they can); a row seen to change is the murderer's or a framed one.
QUIET_WEIGHT = 2.3
CHANGED_WEIGHT = 1.5


def _ranked(scores: Mapping[str, float], rng: random.Random,
            among: Iterable[str]) -> list[str]:
    """Letters by score, highest first; ties in a seeded random order."""
    letters = list(among)
    rng.shuffle(letters)
    return sorted(letters, key=lambda c: -scores[c])


def _murderer_greedy(rules: WurenshenghuanRules, state: State, view: _PublicView,
                     rng: random.Random) -> NightAction:
    own = state.murderer
    row = state.items(own)
    if own in state.imprisoned and not state.murderer_has_key:
        return Idle()
    weapons = [item for item in row if item != KEY]
    targets = [c for c in state.alive if c != own and state.free(c)]
    scores = view.suspicion()
    if weapons and targets:
        # Kill with the weapons the table has not seen under the murderer's own character,
        # so what is shown at daybreak points elsewhere; with every weapon seen, kill with
        # one only, of the kind seen under the most other characters.
        seen_here = Counter(view.seen[own].values())
        unseen = list(weapons)
        for item, count in seen_here.items():
            for _ in range(count):
                if item in unseen:
                    unseen.remove(item)
        if unseen:
            discard = unseen[: rules.max_kills_per_night]
        else:
            elsewhere = Counter(item for c in state.letters if c != own
                                for item in view.seen[c].values())
            discard = [max(weapons, key=lambda item: (elsewhere[item], rng.random()))]
        count = min(len(discard), len(targets))
        discard = discard[:count]
        chosen = rng.sample(targets, count)
        ranked = _ranked(scores, rng, rules.letters)
        # The table's top suspect fakes their own death, if a kill slot can spare it.
        if (count >= 2 and own in state.alive and state.free(own) and ranked[0] == own
                and scores[own] >= scores[ranked[1]] + 1):
            chosen[-1] = own
        return Kill(tuple(chosen), tuple(discard), _keep_places(rules, row, discard,
                                                                state.pile))
    others = [c for c in state.letters if c != own and state.free(c) and state.items(c)]
    if not others or not row:
        return Idle()
    # A living character's row is where a later search would find the planted item.
    target = rng.choice([c for c in others if c not in state.dead] or others)
    theirs = state.items(target)
    if weapons:
        used = {w for memory in view.kills for w in memory.weapons}
        # Hand over the most incriminating item: one of a kind already used to kill.
        give = max(weapons, key=lambda item: (item in used, item in view.seen[own].values()))
        position = rng.randrange(len(theirs))
    else:
        give = row[0]  # holding only keys, trade one for a weapon to kill again
        choices = [i for i, item in enumerate(theirs) if item != KEY]
        if not choices:
            return Idle()
        position = rng.choice(choices)
    return Frame(target, position, give)


def _keep_places(rules: WurenshenghuanRules, row: Sequence[str], discard: Sequence[str],
                 pile: Sequence[str]) -> tuple[str, ...]:
    """The murderer's row after a kill with every kept card left where it lay and the drawn
    cards in the gaps, so that a card the table saw there is still there."""
    rest = _without(row, discard) or ()
    drawn = list(_refill(rules, rest, pile)[0])
    gone = Counter(discard)
    arranged: list[str] = []
    for item in row:
        if gone[item]:
            gone[item] -= 1
            if drawn:
                arranged.append(drawn.pop(0))
        else:
            arranged.append(item)
    return tuple(arranged + drawn)


def _murderer_random(rules: WurenshenghuanRules, state: State,
                     rng: random.Random) -> NightAction:
    own = state.murderer
    row = state.items(own)
    options: list[NightAction] = [Idle()]
    if own in state.imprisoned and not state.murderer_has_key:
        return Idle()
    weapons = [item for item in row if item != KEY]
    targets = [c for c in state.alive if state.free(c)]
    if weapons and targets:
        count = rng.randint(1, min(len(weapons), rules.max_kills_per_night, len(targets)))
        discard = rng.sample(weapons, count)
        if KEY in row and rng.random() < 0.3:
            discard.append(KEY)
        rest = _without(row, discard) or ()
        drawn, _ = _refill(rules, rest, state.pile)
        arranged = list(rest + drawn)
        rng.shuffle(arranged)
        options.append(Kill(tuple(rng.sample(targets, count)), tuple(discard), tuple(arranged)))
    others = [c for c in state.letters if c != own and state.free(c) and state.items(c)]
    if row and others:
        target = rng.choice(others)
        theirs = state.items(target)
        position = rng.randrange(len(theirs))
        give = rng.choice(row)
        mine = list(row)
        mine[mine.index(give)] = theirs[position]
        rng.shuffle(mine)
        options.append(Frame(target, position, give, tuple(mine)))
    return rng.choice(options)


def _table_greedy(rules: WurenshenghuanRules, state: State, view: _PublicView, day: int,
                  rng: random.Random) -> DayDecision:
    alive = state.alive
    searches = search_allowance(rules, len(alive))
    prisoners = prison_allowance(rules, len(alive))
    scores = view.suspicion()
    ranked = _ranked(scores, rng, rules.letters)
    # Locking up the likeliest living suspects stops the murderer if they are among them,
    # and the night tells: a quiet one points at the prisoners, a kill clears them. It
    # only matters if another night follows.
    # (In seeded games this beat searching at every player count: a careful murderer kills
    # with cards nobody has seen, so looks find little.)
    suspects = [c for c in ranked if c in alive]
    if day < rules.days and prisoners and suspects:
        return Imprison(tuple(suspects[:prisoners]))
    looks: list[Look] = []
    dead_unseen = [c for c in rules.letters if c in view.dead
                   and len(view.seen[c]) < view.sizes[c]]
    for c in dead_unseen[:searches]:
        looks.append(Look(c))
    living = sorted(alive, key=lambda c: (-scores[c], len(view.seen[c]), rng.random()))
    picked: dict[str, set[int]] = {}
    while len(looks) < searches and living:
        progressed = False
        for c in living:
            if len(looks) >= searches:
                break
            unseen = [p for p in range(view.sizes[c])
                      if p not in view.seen[c] and p not in picked.get(c, set())]
            if unseen:
                picked.setdefault(c, set()).add(unseen[0])
                looks.append(Look(c, unseen[0]))
                progressed = True
        if not progressed:
            # Everything is seen already: recheck a random card of the top suspects.
            for c in living:
                if len(looks) >= searches:
                    break
                if view.sizes[c]:
                    looks.append(Look(c, rng.randrange(view.sizes[c])))
            break
    return Search(tuple(looks))


def _table_random(rules: WurenshenghuanRules, state: State,
                  rng: random.Random) -> DayDecision:
    alive = len(state.alive)
    if rng.random() < 0.5:
        count = rng.randint(0, prison_allowance(rules, alive))
        return Imprison(tuple(rng.sample(rules.letters, count)))
    looks = []
    for _ in range(search_allowance(rules, alive)):
        who = rng.choice(rules.letters)
        size = len(state.items(who))  # row sizes are public: the cards lie on the table
        if who in state.dead:
            looks.append(Look(who))
        elif size:
            looks.append(Look(who, rng.randrange(size)))
    return Search(tuple(looks))


def confidence(view: _PublicView, own: str) -> tuple[list[str], dict[str, float]]:
    """Suspects for a player holding ``own``, likeliest first, with the chance of each.

    The chances are a softmax of the public suspicion scores (one point of score is worth a
    factor e), which matched how often the top suspect really was the murderer in seeded
    games. A publicly dead character is no suspect unless its death may have been feigned.
    """
    scores = view.suspicion()
    letters = [c for c in view.rules.letters if c != own
               and (c not in view.dead or view.feigned_plausible(c))]
    if not letters:
        return [], {}
    top = max(scores[c] for c in letters)
    weights = {c: math.exp(scores[c] - top) for c in letters}
    total = sum(weights.values())
    chances = {c: weights[c] / total for c in letters}
    return sorted(letters, key=lambda c: (-chances[c], c)), chances


def _guess_greedy(rules: WurenshenghuanRules, own: str, view: _PublicView, day: int,
                  alive: int, patience: float) -> str | None:
    """Hand in a guess once waiting a day no longer looks worth it.

    Guessing today pays ``p`` × today's points; waiting pays tomorrow's points with a
    sharper guess, ``p + patience``. A player whose character still lives also guards the
    survival bonus by guessing before tonight's kills (a correct guess handed in before
    one's death keeps it). Everyone guesses on the last day, or when tonight's kills could
    leave nobody alive.
    """
    ranked, chances = confidence(view, own)
    if not ranked:
        return None
    best = ranked[0]
    if day >= rules.days or alive <= rules.max_kills_per_night:
        return best
    p = chances[best]
    risk = 0.0
    if own not in view.dead:
        risk = min(1.0, EXPECTED_KILLS / max(1, alive)) * rules.survival_bonus
    now = p * (guess_points(rules, day) + risk)
    later = min(1.0, p + patience) * guess_points(rules, day + 1)
    return best if now >= later else None


EXPECTED_KILLS = 2.0  # what a player expects the murderer to kill in a night


# --------------------------------------------------------------------------------------
# Whole games
# --------------------------------------------------------------------------------------


def _night_entry(night: int, result: NightResult, state: State) -> dict[str, Any]:
    return {
        "night": night,
        "action": result.action,
        "killed": list(result.killed),
        "feigned": result.feigned,
        "discarded": list(result.discarded),
        "drawn": list(result.drawn),
        "swap": None if result.swap is None else {
            "character": result.swap.character, "position": result.swap.position,
            "gave": result.swap.gave, "took": result.swap.took},
        "key": result.key,
        "imprisoned": list(result.imprisoned),
        "murderer_imprisoned": result.murderer_imprisoned,
        "arranged": list(result.arranged),
        "pile_left": len(state.pile),
        "table": {c: list(state.items(c)) for c in state.letters},
    }


def _day_entry(day: int, result: DayResult, state: State) -> dict[str, Any]:
    return {
        "day": day,
        "dead": sorted(state.dead),
        "alive": result.alive,
        "searches": result.searches,
        "prisoners": result.prisoners,
        "decision": result.decision,
        "looks": [{"character": look.character, "position": look.position,
                   "cards": list(look.cards)} for look in result.looks],
        "imprisoned": list(result.imprisoned),
    }


def _final(rules: WurenshenghuanRules, murderer_seat: int, characters: Sequence[str],
           state: State, death_night: Mapping[str, int],
           guesses: Mapping[int, tuple[str, int]]) -> list[dict[str, Any]]:
    rows = []
    for seat, letter in enumerate(characters):
        died = death_night.get(letter)
        entry: dict[str, Any] = {"seat": seat, "character": letter,
                                 "alive": letter not in state.dead, "died": died}
        if seat == murderer_seat:
            score = score_parts(rules, role=MURDERER, kills=state.real_kills)
            entry.update(role=MURDERER, kills=state.real_kills)
        else:
            guess = guesses.get(seat)
            correct = guess is not None and guess[0] == state.murderer
            score = score_parts(
                rules, role=INNOCENT, guess_correct=correct,
                guess_day=None if guess is None else guess[1],
                alive_at_end=died is None,
                guessed_before_death=guess is not None and died is not None
                and guess[1] < died)
            entry.update(role=INNOCENT)
        entry.update(murderer_points=score.murderer, guess_points=score.guess,
                     survival_points=score.survival, points=score.total)
        rows.append(entry)
    return rows


def play(rules: WurenshenghuanRules, players: int, rng: random.Random, seed: int = 1,
         *, bot: str = "greedy") -> dict[str, Any]:
    """One whole game with the engine's bots (``"greedy"`` or ``"random"``), as an event log."""
    low, high = player_range(rules)
    if not is_integer(players) or not low <= players <= high:
        raise ValueError(f"players must be {low}–{high}, got {players!r}")
    if bot not in BOTS:
        raise ValueError(f"bot must be one of {', '.join(BOTS)}, got {bot!r}")
    murderer_seat = rng.randrange(players)
    characters = rng.sample(rules.letters, players)
    state = deal(rules, rng, characters[murderer_seat])
    view = _PublicView.at_setup(rules, state)
    log: dict[str, Any] = {
        "game": SLUG, "seed": seed, "players": players, "bots": bot,
        "murderer": murderer_seat, "characters": list(characters),
        "setup": {
            "deal": {c: list(state.items(c)) for c in state.letters},
            "shown": {c: state.items(c)[-1] for c in state.letters},
            "pile": list(state.pile),
        },
        "nights": [], "days": [], "guesses": [],
    }
    death_night: dict[str, int] = {}
    guesses: dict[int, tuple[str, int]] = {}
    # Each random innocent settles in advance on the day they will guess.
    guess_day = {seat: rng.randint(1, rules.days) for seat in range(players)}
    # How much sharper each greedy player expects a guess to get by waiting a day.
    patience = {seat: rng.uniform(0.1, 0.3) for seat in range(players)}
    end = "days_out"
    for day in range(1, rules.days + 1):
        if bot == "greedy":
            action = _murderer_greedy(rules, state, view, rng)
        else:
            action = _murderer_random(rules, state, rng)
        state, night = apply_night(rules, state, action)
        for letter in night.killed:
            death_night[letter] = day
        log["nights"].append(_night_entry(day, night, state))
        view.observe_night(day, night, {c: len(state.items(c)) for c in state.letters})
        if state.all_dead:
            end = "all_dead"
            break
        if bot == "greedy":
            decision = _table_greedy(rules, state, view, day, rng)
        else:
            decision = _table_random(rules, state, rng)
        state, result = apply_day(rules, state, decision)
        log["days"].append(_day_entry(day, result, state))
        view.observe_day(result)
        for seat, letter in enumerate(characters):
            if seat == murderer_seat or seat in guesses:
                continue
            if bot == "greedy":
                pick = _guess_greedy(rules, letter, view, day, len(state.alive),
                                     patience[seat])
            else:
                others = [c for c in rules.letters if c != letter]
                pick = rng.choice(others) if guess_day[seat] == day else None
            if pick is not None:
                guesses[seat] = (pick, day)
                log["guesses"].append({"seat": seat, "character": pick, "day": day,
                                       "correct": pick == state.murderer})
    log["end"] = end
    log["kills"] = state.real_kills
    log["final"] = _final(rules, murderer_seat, characters, state, death_night, guesses)
    return log


# --------------------------------------------------------------------------------------
# Replay
# --------------------------------------------------------------------------------------


class _Stop(Exception):
    """A step went wrong; later steps would only repeat the damage."""


def replay(rules: WurenshenghuanRules, log: Mapping[str, Any]) -> list[str]:
    """Check a log step by step against the rules; every problem found (empty = legal)."""
    problems: list[str] = []
    try:
        _replay(rules, log, problems)
    except _Stop:
        pass
    except (KeyError, TypeError, ValueError, AttributeError, IndexError) as exc:
        problems.append(f"malformed log: {type(exc).__name__}: {exc}")
    return problems


def _expect(problems: list[str], where: str, field_name: str, logged: Any, actual: Any) -> bool:
    if logged != actual:
        problems.append(f"{where}: {field_name} is {logged!r}, the rules give {actual!r}")
        return False
    return True


def _replay(rules: WurenshenghuanRules, log: Mapping[str, Any], problems: list[str]) -> None:
    if log.get("game") != SLUG:
        problems.append(f"game: expected {SLUG!r}, got {log.get('game')!r}")
    players = log["players"]
    low, high = player_range(rules)
    if not is_integer(players) or not low <= players <= high:
        problems.append(f"players: must be {low}–{high}, got {players!r}")
        raise _Stop
    characters = list(log["characters"])
    murderer_seat = log["murderer"]
    if len(characters) != players or len(set(characters)) != players or any(
            c not in rules.letters for c in characters):
        problems.append(f"characters: need {players} distinct letters of "
                        f"{''.join(rules.letters)}, got {characters}")
        raise _Stop
    if not is_integer(murderer_seat) or not 0 <= murderer_seat < players:
        problems.append(f"murderer: no seat {murderer_seat!r}")
        raise _Stop

    setup = log["setup"]
    deal_rows = setup["deal"]
    deck: list[str] = []
    for letter in rules.letters:
        row = list(deal_rows.get(letter, []))
        if len(row) != rules.items_per_character:
            problems.append(f"setup: {letter} was dealt {len(row)} items, the rules deal "
                            f"{rules.items_per_character}")
        deck += row
        shown = setup["shown"].get(letter)
        if row and shown != row[-1]:
            problems.append(f"setup: {letter} shows {shown!r}, its rightmost item is {row[-1]!r}")
    deck += list(setup["pile"])
    if Counter(deck) != Counter(rules.deck()):
        problems.append(f"setup: the deal and pile are not the {rules.deck_size}-item deck")
    if problems:
        raise _Stop
    state = new_state(rules, deck, characters[murderer_seat])
    total = state.inventory()

    nights, days = list(log["nights"]), list(log["days"])
    death_night: dict[str, int] = {}
    end = "days_out"
    if len(nights) > rules.days:
        problems.append(f"nights: {len(nights)} nights in a {rules.days}-day game")
    for index, entry in enumerate(nights[: rules.days]):
        number = index + 1
        where = f"night {number}"
        _expect(problems, where, "night", entry["night"], number)
        state = _replay_night(rules, state, entry, where, problems)
        for letter in entry["killed"]:
            death_night[letter] = number
        if state.inventory() != total:
            problems.append(f"{where}: items not conserved")
            raise _Stop
        if state.all_dead:
            end = "all_dead"
            if len(nights) > number or len(days) > index:
                problems.append(f"{where}: every character is dead, the game ends at "
                                f"daybreak, yet play goes on")
            break
        if len(days) <= index:
            problems.append(f"day {number}: missing (the game ends only after day "
                            f"{rules.days} or when every character is dead)")
            raise _Stop
        day_entry = days[index]
        _expect(problems, f"day {number}", "day", day_entry["day"], number)
        state = _replay_day(rules, state, day_entry, f"day {number}", problems)
    else:
        if len(nights) < rules.days:
            problems.append(f"nights: {len(nights)} nights, the game lasts {rules.days} days "
                            f"unless every character dies")
            raise _Stop
    if len(days) > len(nights):
        problems.append(f"days: {len(days)} days after {len(nights)} nights")
    if "end" in log:
        _expect(problems, "end", "end", log["end"], end)
    if "kills" in log:
        _expect(problems, "kills", "kills", log["kills"], state.real_kills)

    guesses: dict[int, tuple[str, int]] = {}
    for i, guess in enumerate(log["guesses"]):
        seat, letter, day = guess["seat"], guess["character"], guess["day"]
        where = f"guesses[{i}]"
        if not is_integer(seat) or not 0 <= seat < players:
            problems.append(f"{where}: no seat {seat!r}")
        elif seat == murderer_seat:
            problems.append(f"{where}: the murderer (seat {seat}) hands in no guess")
        elif seat in guesses:
            problems.append(f"{where}: seat {seat} already guessed; one guess each")
        elif letter not in rules.letters:
            problems.append(f"{where}: unknown character {letter!r}")
        elif not is_integer(day) or not 1 <= day <= len(days):
            problems.append(f"{where}: day {day!r} was not played (days 1–{len(days)})")
        else:
            guesses[seat] = (letter, day)
            if "correct" in guess:
                _expect(problems, where, "correct", guess["correct"], letter == state.murderer)
    final = _final(rules, murderer_seat, characters, state, death_night, guesses)
    logged = {row["seat"]: row for row in log["final"]}
    if sorted(logged) != list(range(players)):
        problems.append(f"final: expected one entry per seat 0–{players - 1}")
    for row in final:
        entry = logged.get(row["seat"])
        if entry is None:
            continue
        for key, value in row.items():
            if key in entry or key == "points":
                _expect(problems, f"final seat {row['seat']}", key, entry.get(key), value)


def _replay_night(rules: WurenshenghuanRules, state: State, entry: Mapping[str, Any],
                  where: str, problems: list[str]) -> State:
    kind = entry["action"]
    arranged = tuple(entry["arranged"])
    action: NightAction
    if kind == "kill":
        action = Kill(tuple(entry["killed"]), tuple(entry["discarded"]), arranged)
    elif kind == "frame":
        swap = entry["swap"]
        action = Frame(swap["character"], swap["position"], swap["gave"], arranged)
    elif kind == "none":
        action = Idle()
    else:
        problems.append(f"{where}: unknown action {kind!r}")
        raise _Stop
    found, after, result = _night(rules, state, action)
    if found:
        problems.extend(f"{where}: {p}" for p in found)
        raise _Stop
    ok = all([
        _expect(problems, where, "killed", list(entry["killed"]), list(result.killed)),
        _expect(problems, where, "feigned", entry.get("feigned", result.feigned),
                result.feigned),
        _expect(problems, where, "drawn", list(entry.get("drawn", result.drawn)),
                list(result.drawn)),
        _expect(problems, where, "key", entry.get("key", result.key), result.key),
        _expect(problems, where, "imprisoned", list(entry.get("imprisoned", [])),
                list(result.imprisoned)),
        _expect(problems, where, "murderer_imprisoned",
                entry.get("murderer_imprisoned", result.murderer_imprisoned),
                result.murderer_imprisoned),
        _expect(problems, where, "arranged", list(arranged), list(result.arranged)),
    ])
    if kind == "frame" and result.swap is not None:
        ok &= _expect(problems, where, "swap.took", entry["swap"].get("took"),
                      result.swap.took)
    if kind != "kill":
        ok &= _expect(problems, where, "discarded", list(entry.get("discarded", [])), [])
    if "pile_left" in entry:
        ok &= _expect(problems, where, "pile_left", entry["pile_left"], len(after.pile))
    if "table" in entry:
        table = {c: list(after.items(c)) for c in after.letters}
        ok &= _expect(problems, where, "table", {c: list(r) for c, r in entry["table"].items()},
                      table)
    if not ok:
        raise _Stop
    return after


def _replay_day(rules: WurenshenghuanRules, state: State, entry: Mapping[str, Any],
                where: str, problems: list[str]) -> State:
    kind = entry["decision"]
    decision: DayDecision
    if kind == "search":
        decision = Search(tuple(Look(look["character"], look["position"])
                                for look in entry["looks"]))
    elif kind == "imprison":
        decision = Imprison(tuple(entry["imprisoned"]))
    else:
        problems.append(f"{where}: unknown decision {kind!r}")
        raise _Stop
    found, after, result = _day(rules, state, decision)
    if found:
        problems.extend(f"{where}: {p}" for p in found)
        raise _Stop
    ok = all([
        _expect(problems, where, "dead", list(entry.get("dead", sorted(state.dead))),
                sorted(state.dead)),
        _expect(problems, where, "alive", entry.get("alive", result.alive), result.alive),
        _expect(problems, where, "searches", entry.get("searches", result.searches),
                result.searches),
        _expect(problems, where, "prisoners", entry.get("prisoners", result.prisoners),
                result.prisoners),
        _expect(problems, where, "imprisoned", sorted(entry.get("imprisoned", [])),
                list(result.imprisoned)),
    ])
    if kind == "search":
        ok &= _expect(problems, where, "looks",
                      [list(look["cards"]) for look in entry["looks"]],
                      [list(look.cards) for look in result.looks])
    elif entry.get("looks"):
        problems.append(f"{where}: an imprisonment day has no looks")
        ok = False
    if not ok:
        raise _Stop
    return after


# --------------------------------------------------------------------------------------
# The protocol object for the registry
# --------------------------------------------------------------------------------------
