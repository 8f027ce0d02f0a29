"""One piece of printed text read from a YAML value: a plain scalar (text or a finite number,
never a list, a mapping or a boolean, whose repr would be printed), no longer than the limit
for one text, and kept with the place it was written so that later checks can point at it.
The readers of every card_data file take their printed texts through these."""

from __future__ import annotations

import math
from typing import Any

from pnp.core.limits import MAX_TEXT_CHARS
from pnp.data.model import Text
from pnp.data.schema import Reader
from pnp.data.yamlmarks import PathKey


def located_text(reader: Reader, obj: dict[str, Any], key: str, path: PathKey,
                 default: str | None = None, max_chars: int = MAX_TEXT_CHARS) -> Text:
    """``obj[key]`` as text kept with its place (an absent optional key reads as ``default``),
    refused past ``max_chars``."""
    value = reader.string(obj, key, path, default="" if default is None else default, max_chars=max_chars)
    return Text(value, reader.where((*path, key)))


def is_plain_text(value: Any) -> bool:
    """Whether a YAML value may print as text: not a list, mapping, boolean, NaN or infinity."""
    return isinstance(value, str | int | float) and not isinstance(value, bool) \
        and not (isinstance(value, float) and not math.isfinite(value))


def within_text_limit(r: Reader, text: str, path: PathKey) -> bool:
    """Whether the text is within the limit for one text and holds no control characters
    (:data:`pnp.data.textchars.CONTROL`); reports it at ``path`` if not."""
    if len(text) > MAX_TEXT_CHARS:
        r.fail(path, f"text of {len(text)} characters is longer than the limit of {MAX_TEXT_CHARS}")
        return False
    return r.no_controls(text, path)
