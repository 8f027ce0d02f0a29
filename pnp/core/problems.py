"""A problem the user can fix, as a value: where it is (file, line, column, field path), what it
is (message, an optional stable code) and how to fix it (an optional hint).

Every layer builds these records, from the YAML reader to the engines' rules checks, and every
report reads their fields: ``str(problem)`` is the text rendering (``file:line: field.path:
message``), :meth:`Problem.as_json` the JSON one. Nothing parses a rendered problem back.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import replace
from typing import Any

from pnp.core.records import record

# A field's place in a document: keys and list indices from its top, ("setup", 0, "players").
PathKey = tuple[str | int, ...]


def format_path(path: PathKey) -> str:
    """("setup", 0, "players") -> ``setup[0].players``; the document itself is ``(top)``."""
    out = ""
    for part in path:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out or "(top)"


_PATH_PART = re.compile(r"([^.\[\]]+)|\[(\d+)\]")


def parse_path(text: str) -> PathKey:
    """``a.b[2].c`` -> ("a", "b", 2, "c"): a field path as an engine writes it in its code."""
    if text in ("", "rules"):
        return ()
    return tuple(int(index) if index else name for name, index in _PATH_PART.findall(text))


@record
class Problem:
    """One problem, located as precisely as its finder knows."""

    message: str
    file: str | None = None
    """The file as messages name it (relative to the current folder when inside it)."""
    line: int | None = None
    column: int | None = None
    path: PathKey = ()
    """The field at fault, from the top of ``file`` (or of the engine's ``rules:`` mapping)."""
    code: str | None = None
    hint: str | None = None
    """How to fix it, when that is a separate sentence from what is wrong."""
    cell: str | None = None
    """A workbook's cell as the spreadsheet names it (``Cards!E4``)."""

    @property
    def place(self) -> str:
        """``file:line:column: field.path``, each part only when known ("" when none is)."""
        return _place_text(self.file, self.line, self.column, self.path, self.cell)

    @property
    def text(self) -> str:
        """The message and its hint, as one sentence."""
        return f"{self.message}; {self.hint}" if self.hint else self.message

    def __str__(self) -> str:
        place = self.place
        return f"{place}: {self.text}" if place else self.text

    def at(self, file: str | None = None, line: int | None = None, path: PathKey | None = None) -> Problem:
        """The same problem placed in ``file`` (at ``line``, under ``path``); the engines find
        the field, the data layer the file and line it is written on."""
        return replace(self, file=self.file if file is None else file,
                       line=self.line if line is None else line,
                       path=self.path if path is None else path)

    def as_json(self) -> dict[str, Any]:
        """Every field; ``path`` as a list of keys and indices, unknown parts as null."""
        return {"message": self.message, "file": self.file, "line": self.line, "column": self.column,
                "path": list(self.path), "cell": self.cell, "code": self.code, "hint": self.hint}


def _place_text(file: str | None, line: int | None, column: int | None, path: PathKey, cell: str | None) -> str:
    """A problem's or a value's place as messages show it (:attr:`Problem.place`)."""
    at = file or ""
    if at and line is not None:
        at += f":{line}"
        if column is not None:
            at += f":{column}"
    if cell:
        at = f"{at}: {cell}" if at else cell
    field = format_path(path) if path else ""
    return f"{at}: {field}" if at and field else at or field


def as_problems(problems: Iterable[Problem | str] | Problem | str) -> tuple[Problem, ...]:
    """Problems as records; a bare string is a problem nobody located."""
    if isinstance(problems, str | Problem):
        problems = [problems]
    return tuple(p if isinstance(p, Problem) else Problem(p) for p in problems)


class Place(str):
    """Where a loaded value was written, as the text every message shows (``file:line:
    field.path``) that keeps its parts: a problem about the value is built from the parts, so
    no one reads the text back. Being a ``str``, it goes wherever a ``where`` string went."""

    file: str
    line: int | None
    path: PathKey
    column: int | None
    cell: str | None

    def __new__(cls, file: str, line: int | None = None, path: PathKey = (), column: int | None = None,
                cell: str | None = None) -> Place:
        # The text straight from the parts: no Problem made for it (a game's load makes thousands).
        place = super().__new__(cls, _place_text(file, line, column, path, cell))
        place.file, place.line, place.path, place.column, place.cell = file, line, path, column, cell
        return place

    def __reduce__(self) -> tuple[Any, ...]:
        return Place, (self.file, self.line, self.path, self.column, self.cell)

    def child(self, *keys: str | int) -> Place:
        """The place of a field below this value (on the same line as far as is known)."""
        return Place(self.file, self.line, (*self.path, *keys), self.column, self.cell)

    def problem(self, message: str, code: str | None = None, hint: str | None = None) -> Problem:
        return Problem(message, self.file, self.line, self.column, self.path, code, hint, self.cell)


def problem_at(where: str, message: str, code: str | None = None) -> Problem:
    """A problem about the value written at ``where`` (a :class:`Place`, or a place only known
    as text, which then stays part of the message)."""
    if isinstance(where, Place):
        return where.problem(message, code)
    return Problem(f"{where}: {message}" if where else message, code=code)
