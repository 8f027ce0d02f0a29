"""The boundary between pnp and a game: the one object a game package exposes.

A game with an engine is a package (``pnp/games/<slug>/`` for the built-in ones, or any
distribution registering an entry point in the ``pnp.games`` group) whose ``GAME`` is a
:class:`GamePlugin`. Generic code (build, check, tables, calc, sample, simulate, the CLI)
asks the plugin for everything game-specific and names no game itself.

Engines are pure: no I/O, no drawing, no printing; randomness only from a passed
``random.Random``. A designer's rules parameters (the ``rules:`` mapping of
card_data/<slug>/game.yaml) reach an engine through its ``rules.read``; the engine's
defaults are the rulings.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import field
from typing import Any, Protocol

from pnp.core.errors import PnpError
from pnp.core.problems import Problem
from pnp.core.records import record
from pnp.data.model import Game
from pnp.games.calculators import Calculator

# A computed table: a list of row objects, each mapping a column name to a value.
TableRows = list[dict[str, Any]]
Table = TableRows  # the older name, kept for the engines' annotations

# One game reduced to the few numbers a simulation report needs (JSON-ready).
Summary = dict[str, Any]


class RulesError(ValueError):
    """A rules mapping is invalid; ``records`` are its problems, each with the field path from
    the ``rules:`` mapping (placed in game.yaml by the data layer); ``problems`` their text,
    'field: message'."""

    def __init__(self, problems: Sequence[Problem]) -> None:
        self.records = tuple(problems)
        self.problems = [str(p) for p in self.records]
        super().__init__("; ".join(self.problems))


class GameCodeError(PnpError):
    """A game's own code broke pnp's contract with it: a method missing or of the wrong shape,
    a value of the wrong kind returned, an exception raised inside it. The message names the
    game, the method and what was expected against what came, so a designer can fix the game
    without reading pnp's traceback. Raised without a game by code that does not know which
    game it plays (the kit's driver and bots); the place that called the game names it
    (:meth:`for_game`)."""

    def __init__(self, method: str, problem: str, game: str | None = None) -> None:
        self.method, self.problem, self.game = method, problem, game
        super().__init__(f"{game + ': ' if game else ''}{method}: {problem}")

    def for_game(self, game: str) -> GameCodeError:
        return self if self.game else type(self)(self.method, self.problem, game)

    def __reduce__(self) -> tuple[Any, ...]:
        # A simulation's worker sends the error to the parent process by pickling it.
        return type(self), (self.method, self.problem, self.game)


class GameUnavailable(GameCodeError):
    """A game's package is registered but cannot be loaded (it fails to import, or what it
    registers is not a plugin for that slug)."""


@record
class LintFinding:
    """One problem an engine's lint finds in a set of rules; every game's lint returns these."""

    code: str
    """Stable kebab-case code, e.g. ``unreachable-band`` (what game.yaml acknowledges)."""
    message: str
    """One sentence for the designer, naming the numbers involved."""
    where: str
    """The rules field at fault as a path from the ``rules:`` mapping, always starting with
    ``rules.``: ``rules.murderer_bands[4]``, ``rules.variants.classic.setup[0]``."""


class RulesFactory(Protocol):
    def __call__(self, mapping: Mapping[str, Any], variant: str | None) -> Any:
        """Frozen rules from game.yaml's ``rules:`` (missing keys = rulings); RulesError if bad."""


# Iterations a decision of a searching bot (ISMCTS) when the command line names none.
DEFAULT_BUDGET = 50


class Play(Protocol):
    def __call__(self, rules: Any, players: int, rng: random.Random, *, seed: int,
                 variant: str | None, bots: Sequence[str],
                 budget: int = DEFAULT_BUDGET) -> dict[str, Any]:
        """One whole game as its JSON event log; ``bots`` names each seat's bot, ``budget``
        is a searching bot's iterations a decision (passed only to a plugin with ``play.kit``)."""


@record
class Sample:
    """One seeded game: its data, the rules it was played under and the engine's event log."""

    game: Game
    rules: Any
    players: int
    seed: int
    variant: str | None
    log: Mapping[str, Any]


@record
class Plan:
    """Everything a simulation worker needs to play its chunk: plain data, cheap to send to a
    process."""

    slug: str
    rules_mapping: Mapping[str, Any]
    variant: str | None
    players: int
    bots: str
    supply: Mapping[str, Any]
    budget: int = DEFAULT_BUDGET


@record
class Requirement:
    """How many of one component (or of each matching card design) the rules need.

    Keys of the mapping a plugin's ``supply.requirements`` returns say what is counted: ``"bill"`` is a whole
    component (the sum of its cards), ``"bill/bill-5000"`` one card design, and a key with
    shell wildcards (``"action/*-rush"``) each card design it matches; ``"cards#bull"``
    counts the ``bull`` icons the cards' faces draw (see ``per_card``). ``why`` says, with
    the numbers, which rules give the count (a card with a key of its own is exempt from its
    component's wildcard keys) (shown when components.yaml disagrees).
    """

    count: int
    why: str
    per_card: Mapping[str, int] | None = None
    """Only for a key ``"component#symbol"``: how many ``symbol`` icons each card id's faces
    show in every icons element that draws that symbol (``count`` is their total; without
    ``per_card`` only the total is compared). So a face that prints the wrong number of icons
    (a bull head too few) is a count the rules check."""


@record
class TableColumn:
    """One column of a table the engine computes, as the printed table must show it.

    ``label`` is the printed heading, in either script: ``pnp check`` converts both sides to
    each printed script through the game's glossary and accepts a match in either.
    ``kind`` is ``int`` (every cell a whole number; ``6.0`` is refused) or ``text``.
    """

    key: str
    label: str
    kind: str = "int"


def _no_lines(section: Mapping[str, Any]) -> list[str]:
    return []


def _no_sections(plan: Plan, rules: Any, summaries: Sequence[Summary]) -> dict[str, Any]:
    return {}


def _no_findings(rules: Any) -> Sequence[LintFinding]:
    return []


def _no_tables(rules: Any) -> dict[str, TableRows]:
    return {}


@record
class RulesPart:
    """How a game's rules are read and checked."""

    read: RulesFactory
    """game.yaml's ``rules:`` (and a variant's name) into the engine's frozen rules."""
    variants: tuple[str, ...] = ()
    """The names ``--variant`` accepts besides the canonical rules (None); ``read`` takes each."""
    lint: Callable[[Any], Sequence[LintFinding]] = _no_findings
    """What ``pnp check`` reports of a set of rules (rules that load but play badly)."""
    doc: str = ""
    """Where a designer reads which rules keys the engine takes (named in error messages)."""
    declared_variants: Callable[[Mapping[str, Any]], tuple[str, ...]] | None = None
    """The variants a ``rules:`` mapping declares itself, for a game whose variants are data
    (a kit game's ``rules.variants``): ``--variant`` takes these names too."""

    def variant_names(self, mapping: Mapping[str, Any]) -> tuple[str, ...]:
        """Every name ``--variant`` takes under the rules ``mapping``."""
        declared = self.declared_variants(mapping) if self.declared_variants else ()
        return (*self.variants, *(name for name in declared if name not in self.variants))


@record
class PlayPart:
    """How a game is played, replayed and seated."""

    run: Play
    """One whole seeded game as its JSON event log."""
    replay: Callable[[Any, Mapping[str, Any]], list[str]]
    """Every way a logged game departs from the rules (none: the log is a legal game)."""
    player_range: Callable[[Any], tuple[int, int]]
    default_players: Callable[[Any], int]
    bots: tuple[str, ...] = ("greedy", "random")
    """The bot kinds a seat can take, the first being the default."""
    playable: Callable[[Any], list[int]] | None = None
    """Player counts the rules can seat (absent: every count of ``player_range``)."""
    kit: Any = None
    """The game written to the engine kit (pnp.games.kit.KitGame): its state machine, rules
    and bot styles, for what drives any game alike (ISMCTS, the bot-strength benchmark)."""

    def playable_counts(self, rules: Any) -> list[int]:
        if self.playable is not None:
            return list(self.playable(rules))
        low, high = self.player_range(rules)
        return list(range(low, high + 1))


@record
class TablesPart:
    """The tables the engine computes from the rules, and how each must be printed."""

    compute: Callable[[Any], dict[str, TableRows]] = _no_tables
    columns: Mapping[str, tuple[TableColumn, ...]] = field(default_factory=dict)
    """The columns of each computed table (key, printed label, type), in printed order: what
    ``pnp check`` holds tables.yaml's headings and cell types to."""


@record
class NarrationPart:
    """What ``pnp sample`` and the rulebook tell of played games."""

    facts: Callable[[Sample], dict[str, Any]]
    """The facts the game's narration template reads about one game."""
    example_moments: Callable[[Mapping[str, Any], Sequence[str]], dict[str, Any]] | None = None
    """The rulebook's worked example: the few moments of those facts it shows, as plain values."""
    worked_examples: Mapping[str, Callable[..., Any]] = field(default_factory=dict)
    """The rulebook's hand-worked examples: functions its template calls as
    ``worked.<name>(...)`` with inputs its author picked (a fund of bills, a script of plays);
    each gets the rules (from game.yaml) first and returns what the engine makes of those
    inputs, so every result the text states is computed. A function raises ValueError for
    inputs the rules refuse; the build names the template line that called it."""


@record
class ReportPart:
    """What ``pnp simulate`` reports: one game's summary, the game's own sections and their
    text lines, and how scores read."""

    summarise: Callable[[Mapping[str, Any], Any, Plan], Summary]
    sections: Callable[[Plan, Any, Sequence[Summary]], dict[str, Any]] = _no_sections
    role_lines: Callable[[Mapping[str, Any]], list[str]] = _no_lines
    supply_lines: Callable[[Mapping[str, Any]], list[str]] = _no_lines
    ends_per: str = "game"
    """What one "end" counts in a report: "game" or e.g. "big_round"."""
    lower_score_wins: bool = False
    money_scores: bool = False
    """Scores are sums of money, shown with thousands separators."""


@record
class SupplyPart:
    """What the rules need of the printed components, checked by ``pnp check``."""

    requirements: Callable[[Any], Mapping[str, Requirement]] | None = None
    """How many of each component the rules need, against components.yaml."""
    hands: Callable[[Any], Mapping[str, str]] | None = None
    """The components the rules deal into players' hands, several cards each (so the players
    hold them fanned), each with the rule that does it in a few words naming the numbers;
    ``pnp check`` holds their fronts to a corner index (a layout's ``index:``)."""


@record
class GamePlugin:
    """Everything pnp asks of one game, declared once: a record per concern.

    ``rules`` and ``play`` every game has; the other parts are optional and default to
    absent, so a small game writes only what it has: without ``tables`` it computes none,
    without ``narration`` ``pnp sample`` cannot narrate it, without ``report`` ``pnp
    simulate`` cannot summarise it. ``calculators`` declares what ``pnp calc <slug>`` offers
    (pnp/games/calculators.py), in the order its help lists them.
    """

    slug: str
    title: str  # the game's name as printed, in its source script
    rules: RulesPart
    play: PlayPart
    tables: TablesPart = field(default_factory=TablesPart)
    narration: NarrationPart | None = None
    report: ReportPart | None = None
    supply: SupplyPart = field(default_factory=SupplyPart)
    calculators: tuple[Calculator, ...] = ()
