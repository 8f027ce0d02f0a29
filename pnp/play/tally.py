"""Running sums of many games' summaries: what a sweep keeps instead of the games.

A :class:`Tally` takes one game's summary at a time and keeps counts, exact sums and sums of
squares (integers and fractions, never floats) and a histogram of each integer figure, so its
size does not grow with the number of games and two tallies merge into exactly the tally of
all their games in any order: the report is the same however the games were shared among
worker processes.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from numbers import Rational
from typing import Any

from pnp.games.base import Summary
from pnp.play.intervals import wilson

Exact = int | Fraction
# A histogram keeps at most this many distinct values; past it the distribution is dropped
# (the mean and its interval stay): a figure with so many values is no bar chart anyway.
HISTOGRAM_VALUES = 400


def exact(value: Any) -> Exact:
    """A summary's number as an exact value (a float becomes its nearest fraction)."""
    if isinstance(value, bool):
        return int(value)
    if isinstance(value, (int, Fraction)):
        return value
    if isinstance(value, Rational):
        return Fraction(value)
    return Fraction(value).limit_denominator(1_000_000)


@dataclass
class Moments:
    """Count, exact sum and sum of squares, range and (for integers) histogram of one figure."""

    n: int = 0
    total: Exact = 0
    squares: Exact = 0
    low: Exact | None = None
    high: Exact | None = None
    histogram: Counter[int] | None = field(default_factory=Counter)

    def add(self, raw: Any) -> None:
        value = exact(raw)
        self.n += 1
        self.total += value
        self.squares += value * value
        self.low = value if self.low is None or value < self.low else self.low
        self.high = value if self.high is None or value > self.high else self.high
        if self.histogram is not None:
            if isinstance(value, int):
                self.histogram[value] += 1
                if len(self.histogram) > HISTOGRAM_VALUES:
                    self.histogram = None
            else:
                self.histogram = None

    def merge(self, other: Moments) -> None:
        self.n += other.n
        self.total += other.total
        self.squares += other.squares
        for bound in (other.low, other.high):
            if bound is not None:
                self.low = bound if self.low is None or bound < self.low else self.low
                self.high = bound if self.high is None or bound > self.high else self.high
        if self.histogram is None or other.histogram is None:
            self.histogram = None
        else:
            self.histogram.update(other.histogram)
            if len(self.histogram) > HISTOGRAM_VALUES:
                self.histogram = None

    @property
    def mean(self) -> float:
        return float(Fraction(self.total) / self.n) if self.n else 0.0

    @property
    def variance(self) -> float:
        """The sample variance (n − 1), computed exactly before it becomes a float."""
        if self.n < 2:
            return 0.0
        n = self.n
        return float((Fraction(self.squares) - Fraction(self.total) ** 2 / n) / (n - 1))

    def as_triple(self) -> tuple[int, float, float]:
        return self.n, self.mean, self.variance


def _leaves(value: Any, path: str) -> Iterator[tuple[str, Any]]:
    """Every number of a summary section with its dotted path; a list of numbers is one figure
    (each element one value: a player's cards taken); None (not applicable) is left out."""
    if isinstance(value, Mapping):
        for key in value:
            yield from _leaves(value[key], f"{path}.{key}" if path else str(key))
    elif isinstance(value, (list, tuple)):
        for item in value:
            if isinstance(item, (int, float)) and not isinstance(item, bool):
                yield path, item
    elif isinstance(value, (int, float)) and value is not None:
        yield path, value


def add_role_wins(role_wins: dict[str, Moments], summary: Summary) -> None:
    """Add one game to ``role_wins``: for each seat its role held (``summary["seat_roles"]``,
    absent in a game without roles), the seat's share of the win (1/k of a win shared by k)."""
    winners = summary["winners"]
    part = Fraction(1, len(winners)) if winners else Fraction(0)
    for seat, role in enumerate(summary.get("seat_roles") or ()):
        role_wins.setdefault(role, Moments(histogram=None)).add(part if seat in winners else 0)


def role_win_figures(role_wins: Mapping[str, Moments]) -> dict[str, dict[str, float | None]]:
    """Each role's win share per seat that held it (the murderer's, one innocent's) with its
    95 % interval, worked as a seat's is (Wilson, the seats that held the role its trials)."""
    return {role: wilson(float(m.total), m.n).as_json()
            for role, m in sorted(role_wins.items()) if m.n}


@dataclass
class Tally:
    """Everything a balance report says about one setting, summed game by game."""

    players: int
    lower_is_better: bool
    games: int = 0
    length: dict[str, Moments] = field(default_factory=dict)
    scores: dict[str, Moments] = field(default_factory=dict)
    seat_wins: list[Moments] = field(default_factory=list)
    shared_games: int = 0
    no_winner_games: int = 0
    ends: Counter[str] = field(default_factory=Counter)
    game_end: Counter[str] = field(default_factory=Counter)
    roles: dict[str, Moments] = field(default_factory=dict)
    supply: dict[str, Moments] = field(default_factory=dict)
    role_wins: dict[str, Moments] = field(default_factory=dict)
    """Per role, one value per seat that held it in a game: its share of that game's win
    (a game whose summary names no ``seat_roles`` adds nothing)."""

    def __post_init__(self) -> None:
        if not self.seat_wins:
            self.seat_wins = [Moments(histogram=None) for _ in range(self.players)]

    def add(self, summary: Summary) -> None:
        self.games += 1
        for key, value in summary["length"].items():
            self.length.setdefault(key, Moments()).add(value)
        scores = summary["scores"]
        for value in scores:
            self.scores.setdefault("all", Moments()).add(value)
        if scores:
            best = min(scores) if self.lower_is_better else max(scores)
            self.scores.setdefault("winning", Moments()).add(best)
            self.scores.setdefault("spread", Moments()).add(max(scores) - min(scores))
        self._add_wins(summary["winners"])
        add_role_wins(self.role_wins, summary)
        self.ends.update(summary["ends"])
        if summary.get("game_end"):
            self.game_end[summary["game_end"]] += 1
        for section, target in (("roles", self.roles), ("supply", self.supply)):
            for path, value in _leaves(summary.get(section) or {}, ""):
                target.setdefault(path, Moments()).add(value)

    def _add_wins(self, winners: list[int]) -> None:
        if not winners:
            self.no_winner_games += 1
        elif len(winners) > 1:
            self.shared_games += 1
        part = Fraction(1, len(winners)) if winners else Fraction(0)
        for seat, moments in enumerate(self.seat_wins):
            moments.add(part if seat in winners else 0)

    def merge(self, other: Tally) -> None:
        self.games += other.games
        for mine, theirs in ((self.length, other.length), (self.scores, other.scores),
                             (self.roles, other.roles), (self.supply, other.supply)):
            for key, moments in theirs.items():
                mine.setdefault(key, Moments()).merge(moments)
        for role, moments in other.role_wins.items():
            self.role_wins.setdefault(role, Moments(histogram=None)).merge(moments)
        for seat, moments in enumerate(other.seat_wins):
            self.seat_wins[seat].merge(moments)
        self.shared_games += other.shared_games
        self.no_winner_games += other.no_winner_games
        self.ends.update(other.ends)
        self.game_end.update(other.game_end)
