"""Arguments of the playtest-night calculators, parsed and range-checked in one place.

Every calculator takes its numbers through :data:`WHOLE` (or :func:`whole_number` for a list
of them), so a bad number is the same ``Error:`` (exit 1) in every game: a negative number
reaches the calculator as a value to refuse rather than as an unknown option, and grouping
commas are accepted only where a reader would put them (``20,000``, never ``2,0000``).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import click

from pnp.core.errors import PnpError

# Plain digits, or digits grouped in threes by commas (or underscores, as Python writes them).
_WHOLE = re.compile(r"[+-]?(?:\d+|\d{1,3}(?:,\d{3})+|\d{1,3}(?:_\d{3})+)")

# A calculator's positional numbers may be negative: "-1" must reach it as a value (which it
# then refuses with a clear message), not be parsed as an unknown option.
NUMBERS: dict[str, Any] = {"ignore_unknown_options": True}


def whole_number(text: str, what: str) -> int:
    """``"20000"``, ``"20,000"`` or ``"20_000"`` -> 20000; anything else is the user's error."""
    cleaned = text.strip()
    if not _WHOLE.fullmatch(cleaned):
        hint = " (commas group digits in threes, e.g. 20,000)" if "," in cleaned else ""
        raise PnpError(f"{what} {text!r} is not a whole number{hint}")
    return int(cleaned.replace(",", "").replace("_", ""))


def in_range(value: int, low: int, high: int | None, what: str) -> int:
    """``value`` if ``low <= value <= high`` (no upper bound when ``high`` is None)."""
    if value < low or (high is not None and value > high):
        allowed = f"{low} or more" if high is None else f"{low}–{high}"
        raise PnpError(f"{what} must be {allowed}, got {value}")
    return value


class WholeNumber(click.ParamType):  # type: ignore[type-arg]  # generic only in newer click
    """A whole number as :func:`whole_number` reads it.

    Text that is no number at all is a usage error (exit 2), as for any click option; a
    number the rules do not allow is for the calculator to refuse (exit 1).
    """

    name = "integer"

    def convert(self, value: Any, param: click.Parameter | None,
                ctx: click.Context | None) -> int:
        if isinstance(value, int) and not isinstance(value, bool):
            return value
        try:
            return whole_number(str(value), _param_label(param))
        except PnpError as exc:
            self.fail(exc.message, param, ctx)


def _param_label(param: click.Parameter | None) -> str:
    if param is None:
        return "value"
    if isinstance(param, click.Option):
        return max(param.opts, key=len)
    return (param.name or "value").upper()


WHOLE = WholeNumber()


def one_of_two_flags(first: bool, second: bool, names: tuple[str, str]) -> bool | None:
    """Two opposite flags: True for the first, False for the second, None for neither.

    click's ``--a/--b`` lets the last one typed win silently; giving both is a contradiction
    the user should hear about.
    """
    if first and second:
        raise PnpError(f"{names[0]} and {names[1]} contradict: give one of them")
    return True if first else False if second else None


def calculator(name: str, *, numbers: bool = False) -> Callable[[Callable[..., Any]], click.Command]:
    """``click.command`` for a calculator; ``numbers=True`` when it takes positional numbers."""
    return click.command(name, context_settings=NUMBERS if numbers else None)
