"""What a playtest-night calculator takes, declared; numbers parsed and range-checked in one place.

A calculator declares its parameters as values (:class:`Option`, :class:`Argument`,
:class:`Flag`, :class:`Toggle`) and the command line spells them: an option named
``round_value`` is typed ``--round-value``. What a typed string becomes is its
:class:`Kind`: one parse function per kind, so a bad number is the same message in every game.
Numbers go through :data:`WHOLE` (or :func:`whole_number` for a list of them): grouping commas
are accepted only where a reader would put them (``20,000``, never ``2,0000``), and a negative
number reaches the calculator as a value to refuse rather than as an unknown option. A number
has at most 18 digits (pnp.core.numbers): longer text is refused before Python converts it.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any, Generic, TypeVar

from pnp.core.errors import PnpError
from pnp.core.numbers import shown, too_long
from pnp.core.records import record

T = TypeVar("T")

# Plain digits, or digits grouped in threes by commas (or underscores, as Python writes them).
_WHOLE = re.compile(r"[+-]?(?:\d+|\d{1,3}(?:,\d{3})+|\d{1,3}(?:_\d{3})+)")


def whole_number(text: str, what: str) -> int:
    """``"20000"``, ``"20,000"`` or ``"20_000"`` -> 20000; anything else is the user's error."""
    cleaned = text.strip()
    if not _WHOLE.fullmatch(cleaned):
        hint = " (commas group digits in threes, e.g. 20,000)" if "," in cleaned else ""
        raise PnpError(f"{what} {text[:40]!r} is not a whole number{hint}")
    digits = cleaned.lstrip("+-").replace(",", "").replace("_", "")
    reason = too_long(digits)
    if reason is not None:
        raise PnpError(f"{what} {reason}")
    return int(cleaned.replace(",", "").replace("_", ""))


def in_range(value: int, low: int, high: int | None, what: str) -> int:
    """``value`` if ``low <= value <= high`` (no upper bound when ``high`` is None)."""
    if value < low or (high is not None and value > high):
        allowed = f"{low:,} or more" if high is None else f"{low:,}–{high:,}"
        raise PnpError(f"{what} must be {allowed}, got {shown(value)}")
    return value


def _as_typed(text: str, what: str) -> str:
    return text


@record
class Kind(Generic[T]):
    """How a typed string becomes a value.

    ``parse(text, what)`` returns the value, or raises :class:`PnpError` with a message that
    names ``what`` (the parameter as the user typed it, e.g. ``--players``) and the text. Text
    that is not of the kind at all is a usage error (exit 2); a value of the right kind that
    the rules do not allow is for the calculator to refuse (exit 1). ``name`` is what help
    shows after an option (``--players INTEGER``).
    """

    name: str
    parse: Callable[[str, str], T]


WHOLE: Kind[int] = Kind("integer", whole_number)
# Text as typed: for values the calculator reads itself, e.g. a list of bills it numbers
# one by one in its messages ("penalty of seat 2").
TEXT: Kind[str] = Kind("text", _as_typed)


@record
class Option:
    """``--name VALUE`` (``name`` in snake_case, typed in kebab-case); ``short`` adds ``-s``."""

    name: str
    help: str
    kind: Kind[Any]
    required: bool = False
    default: Any = None
    short: str | None = None


@record
class Argument:
    """A positional value, shown as ``NAME`` in help; ``many`` takes every one left, as a tuple.

    A calculator with arguments takes them as numbers that may be negative: ``-1`` reaches
    it as a value to refuse, not as an unknown option.
    """

    name: str
    kind: Kind[Any]
    many: bool = False
    required: bool = True


@record
class Flag:
    """``--name``: True when given."""

    name: str
    help: str


@record
class Toggle:
    """A yes-or-no the rules answer unless the table says: ``--name`` (True) or ``--off``
    (False), neither (None); both at once is a contradiction the user is told about."""

    name: str
    help: str
    off: str
    off_help: str


Param = Option | Argument | Flag | Toggle
