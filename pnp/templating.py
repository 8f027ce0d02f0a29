"""The one Jinja2 environment for rulebook and narration templates (Markdown out).

Undefined names are errors, so a template can never print an empty hole where a number or a
name should be; nothing is HTML-escaped, since the output is Markdown.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

import jinja2


def money(value: int) -> str:
    """20000 -> "$20,000"; a negative amount gets a real minus sign."""
    return f"−${-value:,}" if value < 0 else f"${value:,}"


@cache
def markdown_environment(templates: Path) -> jinja2.Environment:
    """One environment per templates folder: compiling a template costs far more than
    rendering it, and the loader still notices an edited template by its mtime."""
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(str(templates)),
        undefined=jinja2.StrictUndefined,
        autoescape=False,
        keep_trailing_newline=True,
        trim_blocks=True,
        lstrip_blocks=True,
    )
    env.filters["money"] = money
    env.filters["thousands"] = lambda value: f"{value:,}"
    return env
