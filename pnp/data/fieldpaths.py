"""Where a rules problem sits in game.yaml: an engine's field path (``setup[0].players``) turned
into ``card_data/<slug>/game.yaml:<line>: rules.setup[0].players``.

The engines name the field a problem is about; this data-layer module finds its line in the
file as read with its line marks, so every command reports the same place.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from pathlib import Path

from pnp.core.errors import DataError
from pnp.data.yamlmarks import Located, PathKey, load_yaml

_PATH_PART = re.compile(r"([^.\[\]]+)|\[(\d+)\]")


def parse_path(text: str) -> PathKey:
    """``a.b[2].c`` -> ("a", "b", 2, "c"); the engines' rules field paths."""
    if text in ("", "rules"):
        return ()
    return tuple(int(index) if index else name for name, index in _PATH_PART.findall(text))


def locate(doc: Located | None, game_file: Path, problem: str) -> str:
    """``setup[0].players: message`` -> ``game.yaml:line: rules.setup[0].players: message``.

    ``doc`` is game.yaml as read with its line marks (None when it cannot be read: the
    problem is then placed at the file)."""
    field, _, message = problem.partition(": ")
    if not message:
        field, message = "", problem
    path: PathKey = ("rules", *parse_path(field.removeprefix("rules.")))
    if doc is None:
        return f"{game_file}: {'.'.join(str(p) for p in path)}: {message}"
    return f"{doc.where(path)}: {message}"


def located_problems(game_file: Path, problems: Sequence[str]) -> list[str]:
    try:
        doc: Located | None = load_yaml(game_file)
    except DataError:
        doc = None
    return [locate(doc, game_file, problem) for problem in problems]
