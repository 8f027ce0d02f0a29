"""Checks of one layout property value each: a coordinate, a font size, a colour, a list of
points, a count… Each returns None for an acceptable value, else why not (the loader adds
where). :mod:`pnp.data.spec` says which property takes which check.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from dataclasses import field
from typing import Any, Protocol

from pnp.core.limits import (
    MAX_COORD_MM,
    MAX_COORD_PERCENT,
    MAX_FONT_PT,
    MAX_TEXT_CHARS,
    MIN_FONT_PT,
)
from pnp.core.records import record
from pnp.data.refsyntax import COUNT_REF, RULES_REF
from pnp.data.schema import COLOR, COORD, FIELD_REF, FONT_SIZE, describe


@record
class SpecContext:
    """What a property check may consult besides the value."""

    tables: Mapping[str, Any] = field(default_factory=dict)
    symbols: Mapping[str, Any] = field(default_factory=dict)


class Bounds(Protocol):
    """The limits a property declares (a :class:`pnp.data.spec.Prop`)."""

    @property
    def minimum(self) -> float | None: ...

    @property
    def maximum(self) -> float | None: ...

    @property
    def max_items(self) -> int | None: ...


Check = Callable[[Any, Bounds, SpecContext], "str | None"]


def _is_number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def _finite_error(value: float) -> str | None:
    return None if math.isfinite(value) else f"expected a finite number, got {value!r}"


def _range_error(value: float, low: float | None, high: float | None, unit: str,
                 low_inclusive: bool = True) -> str | None:
    if low is not None and (value < low if low_inclusive else value <= low):
        return f"must be {'at least' if low_inclusive else 'more than'} {low:g}{unit}, got {value:g}{unit}"
    if high is not None and value > high:
        return f"must be at most {high:g}{unit} (the limit for this field), got {value:g}{unit}"
    return None


def coord_check(value: Any) -> str | None:
    """A coordinate: a number (mm), 'Nmm' or 'N%' of the trim, finite and within limits."""
    if _is_number(value):
        return _finite_error(value) or _range_error(abs(value), None, MAX_COORD_MM, " mm")
    if isinstance(value, str):
        match = COORD.match(value)
        if match:
            number = abs(float(match.group(1)))
            if match.group(2) == "%":
                return _range_error(number, None, MAX_COORD_PERCENT, "%")
            return _range_error(number, None, MAX_COORD_MM, " mm")
    if isinstance(value, bool) or not isinstance(value, str):
        return f"expected a length in mm or a percentage, got {describe(value)}"
    return f"expected a length in mm (e.g. 12 or '12mm') or a percentage ('50%'), got {value!r}"


def font_size_check(value: Any) -> str | None:
    if _is_number(value):
        number = float(value)
        if not math.isfinite(number):
            return f"expected a font size such as '9pt', got {value!r}"
    elif isinstance(value, str) and FONT_SIZE.match(value):
        number = float(FONT_SIZE.match(value).group(1))  # type: ignore[union-attr]
    else:
        return f"expected a font size such as '9pt', got {value!r}"
    return _range_error(number, MIN_FONT_PT, MAX_FONT_PT, " pt")


def listed(value: Any, prop: Bounds, what: str, item: Callable[[Any], str | None],
            length: int | None = None) -> str | None:
    if not isinstance(value, list) or (length is not None and len(value) != length):
        return f"expected {what}, got {value!r}"
    if prop.max_items is not None and len(value) > prop.max_items:
        return f"at most {prop.max_items} items (the limit for this field), got {len(value)}"
    for entry in value:
        message = item(entry)
        if message:
            return message
    return None


def point_check(item: Any) -> str | None:
    if not isinstance(item, list) or len(item) != 2:
        return f"expected a point [x, y], got {item!r}"
    return coord_check(item[0]) or coord_check(item[1])


def bounded_number(prop: Bounds, positive: bool) -> Callable[[Any], str | None]:
    def check(item: Any) -> str | None:
        if not _is_number(item):
            return f"expected a {'positive' if positive else 'non-negative'} number, got {item!r}"
        if prop.minimum is not None:
            return _finite_error(item) or _range_error(float(item), prop.minimum, prop.maximum, "")
        return _finite_error(item) or _range_error(float(item), 0.0, prop.maximum, "",
                                                   low_inclusive=not positive)
    return check


def text_item_check(item: Any) -> str | None:
    if not (isinstance(item, str | int | float) and not isinstance(item, bool)):
        return f"expected text, got {describe(item)}"
    if isinstance(item, float) and not math.isfinite(item):
        return f"expected text, got {item!r}"
    if len(str(item)) > MAX_TEXT_CHARS:
        return f"text of {len(str(item))} characters is longer than the limit of {MAX_TEXT_CHARS}"
    return None


def whole_check(value: Any, low: int, high: int | None, what: str) -> str | None:
    if not (isinstance(value, int) and not isinstance(value, bool)):
        return f"expected {what}, got {value!r}"
    return _range_error(value, low, high, "")


# A grid's row label printed on many rows: {row} numbers those rows from 1 (pnp.data.labelranges).
ROW_NUMBER = "{row}"


def is_number_reference(value: Any) -> bool:
    """``'{rules.days}'``, ``'{rules.days+1}'``, ``'{count.character}'``: a whole number the
    game's rules or components.yaml give, resolved when the game loads."""
    return isinstance(value, str) and bool(RULES_REF.fullmatch(value) or COUNT_REF.fullmatch(value))


def rows_check(value: Any, prop: Bounds, ctx: SpecContext) -> str | None:
    if is_number_reference(value):
        return None
    if isinstance(value, str):
        return ("expected a whole number of rows (at least 1), or one {rules.…} or {count.…} "
                f"reference giving it, got {value!r}")
    return whole_check(value, 1, int(prop.maximum or 0) or None, "a whole number of rows (at least 1)")


def count_check(value: Any, prop: Bounds, ctx: SpecContext) -> str | None:
    if isinstance(value, str) and FIELD_REF.fullmatch(value):
        return None
    if not (isinstance(value, int) and not isinstance(value, bool)) or value < 0:
        return f"expected a whole number of icons or a {{field}} holding one, got {value!r}"
    return _range_error(value, 0, prop.maximum, "")


def symbol_check(value: Any, prop: Bounds, ctx: SpecContext) -> str | None:
    if isinstance(value, str) and (value in ctx.symbols or FIELD_REF.fullmatch(value)):
        return None
    return f"unknown symbol {value!r} (components.yaml symbols: {', '.join(ctx.symbols) or 'none'})"


def table_check(value: Any, prop: Bounds, ctx: SpecContext) -> str | None:
    if isinstance(value, str) and value in ctx.tables:
        return None
    return f"unknown table {value!r} (tables.yaml defines: {', '.join(ctx.tables) or 'none'})"


def choice(options: tuple[str, ...]) -> Check:
    def check(value: Any, prop: Bounds, ctx: SpecContext) -> str | None:
        return None if value in options else f"expected one of {', '.join(options)}, got {value!r}"
    return check


def color_check(value: Any) -> str | None:
    if isinstance(value, str) and (COLOR.fullmatch(value) or FIELD_REF.fullmatch(value)):
        return None
    return f"expected a colour '#rrggbb' (or a {{field}}), got {value!r}"


ALIGN = ("left", "center", "right")
VALIGN = ("top", "middle", "bottom")
DIRECTIONS = ("horizontal", "vertical")  # a text element's: lines across, or columns (直排)
# An element drawn turned half round about the trim's centre ("half"), or both as placed and
# turned ("both"): a corner index, readable from either end of a card, is one element.
TURNS = ("half", "both")
