"""Where a rules problem sits in game.yaml: an engine's problem about a field of its ``rules:``
mapping (path ``setup[0].players``) placed at ``card_data/<slug>/game.yaml:<line>:
rules.setup[0].players``.

The engines name the field a problem is about; this data-layer module finds its line in the
file as read with its line marks, so every command reports the same place.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from pnp.core.errors import DataError
from pnp.core.problems import Problem, parse_path
from pnp.data.yamlmarks import Located, PathKey, display_path, load_yaml

__all__ = ["locate", "located_problems", "parse_path"]


def locate(doc: Located | None, game_file: Path, problem: Problem) -> Problem:
    """An engine's problem (its path from the ``rules:`` mapping) placed in game.yaml.

    ``doc`` is game.yaml as read with its line marks (None when it cannot be read: the
    problem is then placed at the file)."""
    path: PathKey = ("rules", *problem.path)
    if doc is None:
        return problem.at(str(game_file), path=path)
    return problem.at(str(display_path(doc.file)), doc.line(path), path)


def located_problems(game_file: Path, problems: Sequence[Problem]) -> list[Problem]:
    try:
        doc: Located | None = load_yaml(game_file)
    except DataError:
        doc = None
    return [locate(doc, game_file, problem) for problem in problems]
