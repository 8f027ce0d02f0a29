"""Where a ``pnp check`` finding points: one game's places, relative to the workspace.

A finding's ``where`` is ``file:line: field.path`` with the file relative to the workspace
root, so a report reads the same on every machine. ``GamePlaces`` owns that rewriting and the
game's YAML documents read with their line marks (read once per check, ``None`` when a file
does not load: the loader reports that), so every check locates a rules field in game.yaml
the same way.
"""

from __future__ import annotations

from dataclasses import replace

from pnp.core.errors import DataError
from pnp.core.problems import Problem
from pnp.core.workspace import Workspace
from pnp.data.fieldpaths import parse_path
from pnp.data.load import GAME_FILE
from pnp.data.yamlmarks import Located, PathKey, load_yaml


class GamePlaces:
    """Makes every ``where`` relative to the workspace and finds lines in game.yaml."""

    def __init__(self, workspace: Workspace, slug: str) -> None:
        self.root = str(workspace.root.resolve()) + "/"
        self.game_dir = workspace.game_dir(slug)
        self._docs: dict[str, Located | None] = {}

    def rel(self, where: str) -> str:
        return where.replace(self.root, "")

    def doc(self, name: str) -> Located | None:
        if name not in self._docs:
            try:
                self._docs[name] = load_yaml(self.game_dir / name)
            except DataError:
                self._docs[name] = None
        return self._docs[name]

    def game_yaml(self, path: PathKey) -> str:
        doc = self.doc(GAME_FILE)
        if doc is None:
            return self.rel(str(self.game_dir / GAME_FILE))
        return self.rel(doc.where(path))

    def rules(self, field_path: str) -> str:
        """``rules.setup[2].small_rounds`` (a lint finding's ``where``) or ``setup[2]...`` (a
        RulesError problem's field) -> ``game.yaml:line: rules.setup[2].small_rounds``."""
        return self.game_yaml(("rules", *parse_path(field_path.removeprefix("rules."))))


    def problem(self, problem: Problem) -> Problem:
        """``problem`` with its file (and any path its message names) relative to the workspace."""
        return replace(problem, file=None if problem.file is None else self.rel(problem.file),
                       message=self.rel(problem.message))
