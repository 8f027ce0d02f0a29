"""Whole numbers a user types or writes, parsed and shown without Python's big-integer traps.

Python turns a string of more than 4,300 digits into an int only with a ValueError, and turns
such an int back into text with the same error (``sys.int_info.str_digits_check_threshold``);
YAML 1.1 reads ``1:00:00:…`` as a base-60 number, so a short-looking value can be a number of
thousands of digits. Every count, seed, size or bill pnp takes fits in 18 digits, so text longer
than that is refused before it is converted, and a message quoting an over-long number names
its size instead of printing it.
"""

from __future__ import annotations

import math

# 18 digits hold every number pnp takes, with room to spare: any longer text is a mistake or
# a hostile input.
MAX_DIGITS = 18
# Numbers up to this size are quoted in full in messages; larger ones by their size.
_QUOTED = 10 ** MAX_DIGITS


def shown(value: int) -> str:
    """``value`` for a message: in full when it has at most 18 digits, else by its size."""
    if -_QUOTED < value < _QUOTED:
        return str(value)
    digits = int(abs(value).bit_length() * math.log10(2)) + 1
    sign = "a negative number" if value < 0 else "a number"
    return f"{sign} of about {digits:,} digits"


def too_long(digits: str) -> str | None:
    """Why the digits ``digits`` (sign and grouping removed) are too long to be a number pnp
    takes, or None when they are short enough to convert."""
    if len(digits) > MAX_DIGITS:
        return f"has {len(digits):,} digits, more than the {MAX_DIGITS} any number pnp takes needs"
    return None
