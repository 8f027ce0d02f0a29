"""無人生還 (wurenshenghuan): the rules parameters, read from game.yaml's ``rules:``."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from functools import cached_property
from typing import Any, Literal

from pnp.core.problems import Problem
from pnp.core.records import record
from pnp.games.params import Params, field_problem, raise_problems

SLUG = "wurenshenghuan"
slug = SLUG
variants: tuple[str, ...] = ()

KEY = "KEY"
MURDERER = "murderer"
INNOCENT = "innocent"
Role = Literal["murderer", "innocent"]
BOTS = ("greedy", "random", "ismcts")

_LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"


def weapon(kind: int) -> str:
    """The item string of weapon kind ``kind`` (1-based)."""
    return f"W{kind}"


# --------------------------------------------------------------------------------------
# Rules
# --------------------------------------------------------------------------------------


@record
class ScoreBand:
    """``points`` for the murderer when real kills fall in kills_min..kills_max (inclusive)."""

    kills_min: int
    kills_max: int
    points: int

    def covers(self, kills: int) -> bool:
        return self.kills_min <= kills <= self.kills_max


# docs/rulings.md prints the last band as "9 → 5": the seed's "9–10" cannot reach 10 because the
# murderer's own death is never a kill, so the shipped data says 9–9 and lints clean while
# the seed fixture keeps 9–10 for lint to find.
DEFAULT_BANDS: tuple[ScoreBand, ...] = (
    ScoreBand(1, 3, 1),
    ScoreBand(4, 5, 2),
    ScoreBand(6, 7, 3),
    ScoreBand(8, 8, 4),
    ScoreBand(9, 9, 5),
)


@record
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

    # Derived once per rules object: the bots and steps ask for them thousands of times a game.
    @cached_property
    def letters(self) -> tuple[str, ...]:
        return tuple(_LETTERS[: self.characters])

    @property
    def deck_size(self) -> int:
        return self.weapon_kinds * self.copies_per_weapon + self.keys

    @property
    def pile_size(self) -> int:
        return self.deck_size - self.characters * self.items_per_character

    def deck(self) -> list[str]:
        """The item deck in its canonical (unshuffled) order (a new list each call)."""
        return list(self._deck)

    @cached_property
    def _deck(self) -> tuple[str, ...]:
        items = [weapon(k) for k in range(1, self.weapon_kinds + 1)
                 for _ in range(self.copies_per_weapon)]
        return tuple(items + [KEY] * self.keys)


# The range of every whole number the rules mapping holds (docs/number-ranges.md lists them):
# one letter per character, and counts small enough that a sample game and check's
# simulations finish in seconds. Player counts below 2 are read, then refused with the reason.
_SEATS = (0, len(_LETTERS))
_POINTS = (0, 1000)
RANGES: dict[str, tuple[int, int]] = {
    "characters": (2, len(_LETTERS)),
    "weapon_kinds": (1, 100),
    "copies_per_weapon": (1, 100),
    "keys": (0, 100),
    "items_per_character": (1, 100),
    "max_kills_per_night": (1, 100),
    "days": (1, 100),
    "search_divisor": (1, 100),
    "imprison_divisor": (1, 100),
    "survival_bonus": _POINTS,
    "players.min": _SEATS,
    "players.max": _SEATS,
    "players.default": _SEATS,
    "murderer_bands[].kills_min": _POINTS,
    "murderer_bands[].kills_max": _POINTS,
    "murderer_bands[].points": _POINTS,
    "guess_points[]": _POINTS,
}
# The dataclass fields game.yaml sets by their own name.
_INT_FIELDS: tuple[str, ...] = (
    "characters", "weapon_kinds", "copies_per_weapon", "keys", "items_per_character",
    "max_kills_per_night", "days", "search_divisor", "imprison_divisor", "survival_bonus",
)
_KEYS = frozenset(_INT_FIELDS) | {"players", "murderer_bands", "guess_points"}
_BAND_KEYS = ("kills_min", "kills_max", "points")


def rules_from_mapping(
    mapping: Mapping[str, Any] | None, variant: str | None = None
) -> WurenshenghuanRules:
    """Rules from game.yaml's ``rules:`` mapping; a missing key takes its docs/rulings.md value.

    Raises ``RulesError`` listing every problem at once.
    """
    base = WurenshenghuanRules()
    read = Params(mapping, ranges=RANGES)
    if variant:
        read.problems.append(field_problem("variant", f"unknown variant {variant!r} (wurenshenghuan has none)"))
    values: dict[str, Any] = {
        key: read.integer(key, getattr(base, key)) for key in _INT_FIELDS
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
            lo, hi, points = (band.required_integer(key) for key in _BAND_KEYS)
            band.finish(_BAND_KEYS)
            if lo is not None and hi is not None and points is not None:
                if lo > hi:
                    band.problem(None, f"kills_min {lo} is above kills_max {hi}")
                parsed.append(ScoreBand(lo, hi, points))
        values["murderer_bands"] = tuple(parsed)

    # An empty table is allowed here so that lint can name the mismatch with the days.
    values["guess_points"] = read.integer_list("guess_points", base.guess_points,
                                               nonempty=False)
    read.finish(_KEYS)
    # Invalid values fell back to their defaults above, so the cross-checks still run and
    # the designer sees every problem in one go.
    rules = replace(base, **values)
    raise_problems(read.problems + validate_rules(rules))
    return rules


def validate_rules(rules: WurenshenghuanRules) -> list[Problem]:
    """Problems that make the rules unplayable (lint covers the merely questionable)."""
    problems: list[Problem] = []
    if rules.min_players < 2:
        # One murderer and at least one guesser, or there is no game.
        problems.append(field_problem("players.min", f"at least 2 (a murderer and a guesser), "
                        f"got {rules.min_players}"))
    if rules.max_players < rules.min_players:
        problems.append(field_problem("players.max", f"{rules.max_players} is below players.min "
                        f"{rules.min_players}"))
    if rules.max_players > rules.characters:
        problems.append(field_problem("players.max", f"{rules.max_players} players need as many characters, "
                        f"only {rules.characters}"))
    if not rules.min_players <= rules.default_players <= rules.max_players:
        problems.append(field_problem("players.default", f"{rules.default_players} is outside "
                        f"{rules.min_players}–{rules.max_players}"))
    return problems


def player_range(rules: WurenshenghuanRules) -> tuple[int, int]:
    return rules.min_players, rules.max_players


def default_players(rules: WurenshenghuanRules) -> int:
    return rules.default_players
