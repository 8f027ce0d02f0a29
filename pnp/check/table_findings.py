"""The ``table`` and ``reference`` findings of ``pnp check``: tables as the books print them.

A printed table is held against the engine's (each ``CellDiff`` of :mod:`pnp.check.tables`
becomes one finding: a cell, row, column or heading that differs, a table the engine does not
compute, a decimal in a column of whole numbers), and every table a rulebook template, a
layout or components.yaml names must be one the engine computes; a rulebook that no longer
renders is reported here too, since it is found while looking for those names.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from pnp.check.places import GamePlaces
from pnp.check.report import CheckFinding
from pnp.check.tables import CellDiff, diff_tables
from pnp.core.errors import DataError
from pnp.core.workspace import Workspace
from pnp.data.load import COMPONENTS_FILE
from pnp.data.model import Game
from pnp.data.textfile import read_text
from pnp.play.examples import book_engine
from pnp.rulebook.source import rulebook_markdown, template_path

# --------------------------------------------------------------------------------------------
# Printed tables against the engine


def table_findings(game: Game, places: GamePlaces) -> list[CheckFinding]:
    return [diff_finding(diff, places) for diff in diff_tables(game)]


def diff_finding(diff: CellDiff, places: GamePlaces) -> CheckFinding:
    where = places.rel(diff.where)
    extra: dict[str, Any] = {"table": diff.table, "row": diff.row, "column": diff.column,
                             "printed": diff.printed, "computed": diff.computed}
    if diff.kind == "table-not-computed":
        return CheckFinding("table", "table-not-computed",
                       f"table {diff.table!r} is printed but the rules engine computes no such table",
                       where, {"table": diff.table})
    if diff.kind == "label-differs":
        return CheckFinding("table", "label-differs",
                            f"table {diff.table!r}, column {diff.column!r}: the heading "
                            f"{diff.printed!r} is not the engine's {diff.computed!r} for that column "
                            "(pnp tables --update writes the engine's headings)", where, extra)
    if diff.kind == "column-unknown":
        return CheckFinding("table", "column-unknown",
                            f"table {diff.table!r}: column {diff.column!r} is printed, but the rules "
                            "engine declares no such column", where, extra)
    if diff.kind == "column-missing":
        return CheckFinding("table", "column-missing",
                            f"table {diff.table!r}: the engine's column {diff.column!r} "
                            f"({diff.computed}) is not printed", where, extra)
    if diff.kind == "not-integer":
        return CheckFinding("data", "not-integer",
                            f"table {diff.table!r}, row {diff.row + 1}, column {diff.column!r}: "
                            f"{diff.printed!r} is not a whole number, and the column holds whole "
                            f"numbers{_whole(diff.printed)}", f"{where}.{diff.column}", extra)
    if diff.kind == "row-missing":
        return CheckFinding("table", "row-missing",
                       f"table {diff.table!r}, row {diff.row + 1}: not printed; the rules give "
                       f"{diff.computed!r}", where, extra)
    if diff.kind == "row-extra":
        return CheckFinding("table", "row-extra",
                       f"table {diff.table!r}, row {diff.row + 1}: printed {diff.printed!r}, but "
                       "the rules give no such row", where, extra)
    return CheckFinding("table", "cell-differs",
                   f"table {diff.table!r}, row {diff.row + 1}, column {diff.column!r}: printed "
                   f"{diff.printed!r}, the rules give {diff.computed!r}",
                   f"{where}.{diff.column}", extra)


def _whole(value: Any) -> str:
    if isinstance(value, float) and value.is_integer():
        return f" (write {int(value)}, not {value})"
    return ""


# --------------------------------------------------------------------------------------------
# Tables named by the rulebook and the layouts

_TEMPLATE_TABLE = re.compile(
    r"""\btable\(\s*["']([^"']+)["']\s*\)|\btables\.([A-Za-z_]\w*)|\btables\[\s*["']([^"']+)["']\s*\]"""
)


def reference_findings(workspace: Workspace, game: Game, computed: Mapping[str, Any] | None,
                       places: GamePlaces) -> list[CheckFinding]:
    findings: list[CheckFinding] = []
    known = ", ".join(computed or ()) or "none"

    def unknown(name: str, user: str, where: str) -> None:
        if computed is not None and name not in computed:
            findings.append(CheckFinding("reference", "unknown-table",
                                    f"{user} table {name!r}, which the rules engine does not "
                                    f"compute (it computes: {known})", where, {"table": name}))

    source = template_path(workspace.templates, game.slug)
    if source.is_file():
        for number, line in enumerate(read_text(source).splitlines(), start=1):
            for match in _TEMPLATE_TABLE.finditer(line):
                name = next(group for group in match.groups() if group)
                unknown(name, "the rulebook uses", f"{places.rel(str(source))}:{number}")
        try:
            rulebook_markdown(workspace, game, book_engine(workspace, game))
        except DataError as exc:
            shown = places.rel(str(source))
            for problem in exc.records:
                problem = places.problem(problem)
                if not problem.place:
                    problem = problem.at(shown)
                findings.append(CheckFinding.of("reference", "rulebook-render", problem))
    covered: set[tuple[int, str]] = set()  # (line, table) an element's flow mapping may span
    for layout in game.layouts.values():
        for element in layout.elements:
            if element.kind == "table":
                start = element.where.line or 0
                covered.update((line, str(element.get("table"))) for line in range(start, start + 8))
                unknown(str(element.get("table")), "a layout prints",
                        places.rel(f"{element.where}.table"))
    # Other `table:` keys (e.g. a generated card's field looked up in a table), found by line.
    path = places.game_dir / COMPONENTS_FILE
    if path.is_file():
        for number, line in enumerate(read_text(path).splitlines(), start=1):
            if line.lstrip().startswith("#"):
                continue
            for match in _TABLE_KEY.finditer(line):
                if (number, match[1]) not in covered:
                    unknown(match[1], "components.yaml looks up", f"{places.rel(str(path))}:{number}")
    return findings


_TABLE_KEY = re.compile(r"""\btable:\s*["']?([A-Za-z0-9_]+)""")
