"""Read a designer's ``rules:`` mapping into typed values, collecting every problem.

An engine builds its frozen rules dataclass through a :class:`Params` reader. Each accessor
returns the value found, or the default when the key is absent, and records a
``'field.path: message'`` problem instead of raising, so one run shows a designer every
mistake at once. The engine calls :func:`raise_problems` when it is done.

    RANGES = {"big_die_sides": (1, 20), "players.min": (2, 20), "players.max": (2, 20)}
    p = Params(mapping, ranges=RANGES)
    sides = p.integer("big_die_sides", 6)
    lo, hi = p.integer_range("players", (3, 6))
    p.finish(allowed={"players", "big_die_sides"})
    raise_problems(p.problems)

Every whole number has a range, checked before the engine sees it: an engine declares one
per field in its ``RANGES`` table (field path -> (lowest, highest); list items as ``setup[]``;
a field under ``variants.<name>.`` has the range of the same field at the top unless the
table names it), and docs/number-ranges.md lists them. An engine without a table (a plugin)
gives bounds at each call, and every number stays within :data:`ANY_NUMBER` whatever it says.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from pnp.core.numbers import shown
from pnp.core.problems import Problem, parse_path
from pnp.games.base import RulesError

_ABSENT: Any = object()

Bounds = tuple[int, int]
RangeTable = Mapping[str, Bounds]
# The widest range any rules number may have, declared or not: a count, size or score past a
# million is no table game, and the bound keeps arithmetic and messages on it cheap.
ANY_NUMBER: Bounds = (-1_000_000, 1_000_000)
_INDEX = re.compile(r"\[\d+\]")
_VARIANT = re.compile(r"^variants\.[^.\[]+\.")


def range_key(field: str) -> str:
    """The key of ``field`` in a range table: ``setup[2].players`` -> ``setup[].players``."""
    return _INDEX.sub("[]", field)


def declared_range(table: RangeTable, field: str) -> Bounds:
    """The range ``table`` declares for the rules field ``field`` (see the module docstring)."""
    key = range_key(field)
    for candidate in (key, _VARIANT.sub("", key)):
        if candidate in table:
            return table[candidate]
    raise LookupError(f"rules field {key} has no declared range: add it to the engine's RANGES")


def describe(value: Any) -> str:
    """A short name for what the designer wrote, for messages."""
    if value is None:
        return "nothing (null)"
    if isinstance(value, bool):
        return f"a yes/no value ({str(value).lower()})"
    if isinstance(value, int):
        return f"the number {shown(value)}"
    if isinstance(value, str):
        return f"the text {value!r}"
    if isinstance(value, Mapping):
        return "a mapping"
    if isinstance(value, Sequence):
        return "a list"
    return type(value).__name__


def is_integer(value: Any) -> bool:
    # YAML's true/false are Python ints too; a designer who wrote `yes` meant no number.
    return isinstance(value, int) and not isinstance(value, bool)


def is_list(value: Any) -> bool:
    return isinstance(value, Sequence) and not isinstance(value, (str, bytes))


def field_problem(field: str, message: str) -> Problem:
    """A problem with the rules field ``field`` (``players.default``, ``setup[2]``)."""
    return Problem(message, path=parse_path(field))


def raise_problems(problems: Iterable[Problem]) -> None:
    problems = list(problems)
    if problems:
        raise RulesError(problems)


class Params:
    """A validating view of one mapping; nested readers share the same problem list."""

    def __init__(self, mapping: Any, path: str = "", problems: list[Problem] | None = None,
                 ranges: RangeTable | None = None) -> None:
        self.path = path
        self.problems: list[Problem] = [] if problems is None else problems
        self.ranges = ranges
        if mapping is None:
            mapping = {}
        if not isinstance(mapping, Mapping):
            self.problem(None, f"expected a mapping, got {describe(mapping)}")
            mapping = {}
        self.mapping: Mapping[str, Any] = mapping

    # -- paths and raw access -------------------------------------------------------------

    def where(self, key: str | int | None = None) -> str:
        if key is None:
            return self.path or "rules"
        if isinstance(key, int):
            return f"{self.path}[{key}]"
        return f"{self.path}.{key}" if self.path else key

    def problem(self, key: str | int | None, message: str) -> None:
        self.problems.append(field_problem(self.where(key), message))

    def child(self, key: str | int) -> Params:
        """An empty reader at ``key``: an absent section, whose defaults apply."""
        return Params({}, self.where(key), self.problems, self.ranges)

    def section(self, key: str) -> Params:
        """A nested reader; an absent section reads as empty so its defaults apply."""
        return self.sub(key) or self.child(key)

    def bounds(self, key: str | int | None, minimum: int | None, maximum: int | None) -> Bounds:
        """The range of the number at ``key``: the engine's declared one, or (an engine with no
        table) the call's bounds; either way within :data:`ANY_NUMBER`."""
        if self.ranges is not None:
            if minimum is not None or maximum is not None:
                raise TypeError(f"{self.where(key)}: an engine with a RANGES table declares "
                                "its bounds there, not at the call")
            low, high = declared_range(self.ranges, self.where(key))
        else:
            low = ANY_NUMBER[0] if minimum is None else minimum
            high = ANY_NUMBER[1] if maximum is None else maximum
        return max(low, ANY_NUMBER[0]), min(high, ANY_NUMBER[1])

    def has(self, key: str) -> bool:
        return key in self.mapping and self.mapping[key] is not None

    def raw(self, key: str, default: Any = None) -> Any:
        value = self.mapping.get(key, _ABSENT)
        return default if value is _ABSENT or value is None else value

    def finish(self, allowed: Iterable[str]) -> None:
        """Report keys the engine does not know: a typo must not silently fall back to a default."""
        allowed = set(allowed)
        for key in self.mapping:
            if key not in allowed:
                known = ", ".join(sorted(allowed))
                self.problem(str(key), f"unknown key (known keys: {known})")

    # -- typed accessors ------------------------------------------------------------------

    def check_integer(
        self,
        key: str | int | None,
        value: Any,
        *,
        minimum: int | None = None,
        maximum: int | None = None,
    ) -> bool:
        low, high = self.bounds(key, minimum, maximum)
        if not is_integer(value):
            self.problem(key, f"expected a whole number, got {describe(value)}")
            return False
        if value < low:
            self.problem(key, f"must be at least {low}, got {shown(value)}")
            return False
        if value > high:
            self.problem(key, f"must be at most {high}, got {shown(value)}")
            return False
        return True

    def integer(
        self, key: str, default: int, *, minimum: int | None = None, maximum: int | None = None
    ) -> int:
        if not self.has(key):
            return default
        value = self.mapping[key]
        return (
            value if self.check_integer(key, value, minimum=minimum, maximum=maximum) else default
        )

    def required_integer(
        self, key: str, *, minimum: int | None = None, maximum: int | None = None
    ) -> int | None:
        """An integer that must be present; None (with a problem) when missing or invalid."""
        if not self.has(key):
            self.problem(key, "missing")
            return None
        value = self.mapping[key]
        return value if self.check_integer(key, value, minimum=minimum, maximum=maximum) else None

    def optional_integer(
        self,
        key: str,
        default: int | None = None,
        *,
        minimum: int | None = None,
        maximum: int | None = None,
    ) -> int | None:
        """An integer where an explicit ``null`` means "not set" (e.g. no limit)."""
        if key not in self.mapping:
            return default
        value = self.mapping[key]
        if value is None:
            return None
        return (
            value if self.check_integer(key, value, minimum=minimum, maximum=maximum) else default
        )

    def boolean(self, key: str, default: bool) -> bool:
        if not self.has(key):
            return default
        value = self.mapping[key]
        if not isinstance(value, bool):
            self.problem(key, f"expected true or false, got {describe(value)}")
            return default
        return value

    def choice(self, key: str, default: str, choices: Sequence[str]) -> str:
        if not self.has(key):
            return default
        value = self.mapping[key]
        if value not in choices:
            options = ", ".join(choices)
            self.problem(key, f"expected one of {options}; got {describe(value)}")
            return default
        return str(value)

    def integer_range(
        self,
        key: str,
        default: tuple[int, int] | None,
        *,
        minimum: int | None = None,
        maximum: int | None = None,
    ) -> tuple[int, int] | None:
        """A ``{min: a, max: b}`` mapping with a <= b; ``null`` or absent gives the default."""
        if not self.has(key):
            return default
        sub = self.sub(key)
        if sub is None:
            return default
        for end in ("min", "max"):
            if end not in sub.mapping:
                sub.problem(end, "missing")
        lo = sub.integer("min", default[0] if default else 0, minimum=minimum, maximum=maximum)
        hi = sub.integer("max", default[1] if default else 0, minimum=minimum, maximum=maximum)
        sub.finish(("min", "max"))
        if lo > hi:
            self.problem(key, f"min ({lo}) is greater than max ({hi})")
            return default
        return lo, hi

    def integer_list(
        self,
        key: str,
        default: tuple[int, ...],
        *,
        minimum: int | None = None,
        maximum: int | None = None,
        nonempty: bool = True,
    ) -> tuple[int, ...]:
        if not self.has(key):
            return default
        value = self.mapping[key]
        if not is_list(value):
            self.problem(key, f"expected a list of whole numbers, got {describe(value)}")
            return default
        if nonempty and not value:
            self.problem(key, "must not be empty")
            return default
        where = self.where(key)
        ok = True
        for i, item in enumerate(value):
            item_reader = Params({}, f"{where}[{i}]", self.problems, self.ranges)
            ok = item_reader.check_integer(None, item, minimum=minimum, maximum=maximum) and ok
        return tuple(value) if ok else default

    def sub(self, key: str) -> Params | None:
        """A reader for a nested mapping, or None (with a problem) when it is not a mapping."""
        if not self.has(key):
            return None
        value = self.mapping[key]
        if not isinstance(value, Mapping):
            self.problem(key, f"expected a mapping, got {describe(value)}")
            return None
        return Params(value, self.where(key), self.problems, self.ranges)

    def items(self, key: str) -> list[Params] | None:
        """Readers for a list of mappings (e.g. table rows), or None when absent or malformed."""
        if not self.has(key):
            return None
        value = self.mapping[key]
        if not is_list(value):
            self.problem(key, f"expected a list, got {describe(value)}")
            return None
        where = self.where(key)
        readers = []
        for i, item in enumerate(value):
            reader = Params(item, f"{where}[{i}]", self.problems, self.ranges)
            readers.append(reader)
        return readers
