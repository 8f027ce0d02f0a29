"""Small validators that collect problems instead of stopping at the first one."""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Iterable
from typing import Any

from pnp.core.limits import MAX_TEXT_CHARS
from pnp.core.numbers import MAX_DIGITS, shown
from pnp.core.problems import Place, Problem
from pnp.data.textchars import control_message
from pnp.data.yamlmarks import Located, PathKey

COLOR = re.compile(r"^#[0-9a-fA-F]{6}$")
FIELD_REF = re.compile(r"\{([A-Za-z_][A-Za-z0-9_]*)\}")
COORD = re.compile(r"^\s*(-?\d+(?:\.\d+)?)\s*(mm|%)?\s*$")
FONT_SIZE = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*pt\s*$")
IDENT = re.compile(r"^[a-z0-9][a-z0-9_-]*$")

_MISSING = object()


class Problems:
    """Every problem found in one validation pass, each placed at its file, line and field. A
    holder, so a plain class (docs/architecture.md, "Start-up")."""

    def __init__(self) -> None:
        self.items: list[Problem] = []

    def add(self, doc: Located, path: PathKey, message: str) -> None:
        self.items.append(doc.problem(path, message))

    def add_raw(self, problem: Problem | str) -> None:
        """A problem found outside a document's reader (a bare string has no known place)."""
        self.items.append(problem if isinstance(problem, Problem) else Problem(problem))

    def __bool__(self) -> bool:
        return bool(self.items)


def describe(value: Any) -> str:
    if isinstance(value, int) and not isinstance(value, bool):
        return f"int {shown(value)}"
    return f"{type(value).__name__} {value!r}"


def _too_large(value: int | float) -> bool:
    # YAML reads `1:00:00:…` as a base-60 whole number: thousands of digits no float holds.
    return isinstance(value, int) and len(shown(value)) > MAX_DIGITS + 1


class Reader:
    """Typed access to one YAML document that records problems and returns safe fallbacks."""

    def __init__(self, doc: Located, problems: Problems) -> None:
        self.doc = doc
        self.problems = problems

    def where(self, path: PathKey) -> Place:
        return self.doc.where(path)

    def fail(self, path: PathKey, message: str) -> None:
        self.problems.add(self.doc, path, message)

    def mapping(self, value: Any, path: PathKey, allowed: Iterable[str],
                required: Iterable[str] = ()) -> dict[str, Any]:
        if not isinstance(value, dict):
            self.fail(path, f"expected a mapping, got {describe(value)}")
            return {}
        allowed = tuple(allowed)
        for key in value:
            if key not in allowed:
                self.fail((*path, key), f"unknown key {key!r} (expected one of: {', '.join(allowed)})")
        for key in required:
            if key not in value:
                self.fail(path, f"missing required field {key!r}")
        return value

    def sequence(self, value: Any, path: PathKey) -> list[Any]:
        if not isinstance(value, list):
            self.fail(path, f"expected a list, got {describe(value)}")
            return []
        return value

    def string(self, obj: dict[str, Any], key: str, path: PathKey, default: Any = _MISSING,
               pattern: re.Pattern[str] | None = None, what: str = "", max_chars: int = MAX_TEXT_CHARS) -> str:
        """``obj[key]`` as text: a plain scalar of at most ``max_chars`` characters (every text
        field has a limit, checked here as the file is read, before anything is typeset) with no
        control characters; "" after reporting a problem."""
        value = obj.get(key, default)
        if value is _MISSING:
            return ""  # missing required fields were reported by mapping()
        if isinstance(value, bool) or not isinstance(value, str | int | float) \
                or (isinstance(value, float) and not math.isfinite(value)):
            self.fail((*path, key), f"expected text, got {describe(value)}")
            return ""
        text = str(value)
        if len(text) > max_chars:
            self.fail((*path, key), f"text of {len(text)} characters is longer than the limit of {max_chars}")
            return ""
        if not self.no_controls(text, (*path, key)):
            return ""
        if pattern is not None and not pattern.fullmatch(text):
            self.fail((*path, key), f"expected {what or pattern.pattern}, got {text!r}")
        return text

    def no_controls(self, text: str, path: PathKey) -> bool:
        """Whether ``text`` is free of :data:`pnp.data.textchars.CONTROL` characters; reports the
        first at ``path`` if not."""
        message = control_message(text)
        if message is None:
            return True
        self.fail(path, message)
        return False

    def integer(self, obj: dict[str, Any], key: str, path: PathKey, default: Any = _MISSING,
                minimum: int | None = None, maximum: int | None = None) -> int:
        value = obj.get(key, default)
        if value is _MISSING:
            return minimum or 0
        if isinstance(value, bool) or not isinstance(value, int):
            self.fail((*path, key), f"expected a whole number, got {describe(value)}")
            return minimum or 0
        if minimum is not None and value < minimum:
            self.fail((*path, key), f"must be at least {minimum}, got {shown(value)}")
            return minimum
        if maximum is not None and value > maximum:
            self.fail((*path, key), f"must be at most {maximum}, got {shown(value)}")
            return maximum
        return value

    def number(self, value: Any, path: PathKey, minimum: float | None = None,
               maximum: float | None = None) -> float:
        """A finite number within the bounds; NaN and infinities are refused."""
        if isinstance(value, bool) or not isinstance(value, int | float):
            self.fail(path, f"expected a number, got {describe(value)}")
            return 0.0
        if _too_large(value):
            self.fail(path, f"expected a number of at most {MAX_DIGITS} digits, got {shown(int(value))}")
            return minimum or 0.0
        if not math.isfinite(value):
            self.fail(path, f"expected a finite number, got {value!r}")
            return minimum or 0.0
        if minimum is not None and value < minimum:
            self.fail(path, f"must be at least {minimum:g}, got {value:g}")
        if maximum is not None and value > maximum:
            self.fail(path, f"must be at most {maximum:g} (the limit for this field), got {value:g}")
        return float(value)

    def boolean(self, value: Any, path: PathKey) -> bool:
        if not isinstance(value, bool):
            self.fail(path, f"expected true or false, got {describe(value)}")
            return False
        return value

    def check_each(self, values: Iterable[tuple[PathKey, Any]],
                   check: Callable[[Any], str | None]) -> None:
        for path, value in values:
            message = check(value)
            if message:
                self.fail(path, message)


def coord_error(value: Any) -> str | None:
    """None when value is a coordinate: a number (mm), 'Nmm' or 'N%' of the trim."""
    if isinstance(value, bool):
        return f"expected a length in mm or a percentage, got {describe(value)}"
    if isinstance(value, int | float):
        return None
    if isinstance(value, str) and COORD.match(value):
        return None
    return f"expected a length in mm (e.g. 12 or '12mm') or a percentage ('50%'), got {value!r}"


def resolve_coord(value: Any, extent: float) -> float:
    """Millimetres for a validated coordinate; percentages are of ``extent`` (mm)."""
    if isinstance(value, int | float):
        return float(value)
    match = COORD.match(str(value))
    assert match, value  # validated before
    number = float(match.group(1))
    return number * extent / 100.0 if match.group(2) == "%" else number


def font_size_error(value: Any) -> str | None:
    if isinstance(value, int | float) and not isinstance(value, bool) and value > 0:
        return None
    if isinstance(value, str) and FONT_SIZE.match(value):
        return None
    return f"expected a font size such as '9pt', got {value!r}"


def font_size(value: Any) -> float:
    if isinstance(value, int | float):
        return float(value)
    match = FONT_SIZE.match(str(value))
    assert match, value
    return float(match.group(1))


def color_error(value: Any) -> str | None:
    if isinstance(value, str) and (COLOR.fullmatch(value) or FIELD_REF.fullmatch(value)):
        return None
    return f"expected a colour '#rrggbb' (or a {{field}}), got {value!r}"
