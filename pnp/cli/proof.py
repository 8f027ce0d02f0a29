"""The rules commands of ``pnp``: ``check`` and ``tables``.

Each command parses its options, calls the core (pnp.check.proof, pnp.check.tables) and prints; formats
are documented in docs/check-and-calc.md.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence
from typing import Any

import click

from pnp.check.proof import check as run_check
from pnp.check.proof import engine_tables
from pnp.check.tables import update_tables
from pnp.cli.options import (
    chosen_format,
    command,
    echo_data,
    echo_json,
    format_option,
    game_argument,
    message,
    workspace,
)
from pnp.core.errors import CheckFailed, PnpError
from pnp.data.load import TABLES_FILE


class ChecksFound(CheckFailed):
    """``pnp check`` found problems: the report is already printed, so the error is one line."""

    def __init__(self, summary: str, problems: Sequence[str]) -> None:
        self.problems = list(problems)
        PnpError.__init__(self, summary)


# --------------------------------------------------------------------------------------------
# pnp check


@command()
@game_argument
@format_option("text", "json", json_alias=True)
@click.pass_context
def check(ctx: click.Context, game: str, fmt: str) -> None:
    """Check GAME (or all): printed tables and counts against the rules, typed numbers, rules lint,
    script purity, glyphs.

    Exit status 0 when clean, 1 when anything is found.
    """
    report = run_check(workspace(ctx), game)
    if chosen_format(fmt) == "json":
        echo_json(report.as_json())
    else:
        echo_data(report.text())
    if not report.ok:
        problems = [f"{g.slug}: {f.describe()}" for g in report.games for f in g.findings]
        raise ChecksFound(report.summary(), problems)


# --------------------------------------------------------------------------------------------
# pnp tables


def _width(text: str) -> int:
    return sum(2 if unicodedata.east_asian_width(ch) in "WF" else 1 for ch in text)


def _cell(value: Any) -> str:
    return "" if value is None else str(value)


def _text_table(rows: list[dict[str, Any]]) -> list[str]:
    columns = list(dict.fromkeys(key for row in rows for key in row))
    cells = [[_cell(row.get(c)) for c in columns] for row in rows]
    widths = [max([_width(c)] + [_width(r[i]) for r in cells]) for i, c in enumerate(columns)]
    numeric = [all(isinstance(row.get(c), int | float) for row in rows) for c in columns]

    def line(values: list[str]) -> str:
        padded = [" " * (w - _width(v)) + v if right else v + " " * (w - _width(v))
                  for v, w, right in zip(values, widths, numeric, strict=True)]
        return "  ".join(padded).rstrip()

    return [line(columns), line(["-" * w for w in widths]), *(line(r) for r in cells)]


def _md_table(rows: list[dict[str, Any]]) -> list[str]:
    columns = list(dict.fromkeys(key for row in rows for key in row))

    def esc(value: Any) -> str:
        return _cell(value).replace("|", "\\|")

    numeric = [all(isinstance(row.get(c), int | float) for row in rows) for c in columns]
    lines = ["| " + " | ".join(columns) + " |",
             "|" + "|".join("---:" if n else "---" for n in numeric) + "|"]
    lines += ["| " + " | ".join(esc(row.get(c)) for c in columns) + " |" for row in rows]
    return lines


def _render_tables(tables: dict[str, list[dict[str, Any]]], titles: dict[str, str], md: bool) -> str:
    out: list[str] = []
    for name, rows in tables.items():
        title = f"{name} — {titles[name]}" if titles.get(name, name) != name else name
        if md:
            out += [f"## {title}", "", *(_md_table(rows) if rows else ["(no rows)"]), ""]
        else:
            out += [title, *(_text_table(rows) if rows else ["(no rows)"]), ""]
    return "\n".join(out).rstrip("\n")


@command()
@game_argument
@format_option("text", "json", "md", json_alias=True)
@click.option("--update", is_flag=True,
              help="Rewrite the printed rows in card_data/GAME/tables.yaml from the rules.")
@click.pass_context
def tables(ctx: click.Context, game: str, fmt: str, update: bool) -> None:
    """Print the tables the rules engine computes for GAME; --update rewrites the printed ones."""
    fmt = chosen_format(fmt)
    ws = workspace(ctx)
    loaded, computed = engine_tables(ws, game)
    if update:
        changed = update_tables(ws.game_dir(game), loaded)
        if fmt == "json":
            echo_json({"game": game, "updated": changed})
            return
        path = ws.game_dir(game) / TABLES_FILE
        shown = str(path.relative_to(ws.root)) if path.is_relative_to(ws.root) else str(path)
        if changed:
            message(f"updated {shown}: {', '.join(changed)}")
        else:
            message(f"{shown} is up to date")
        return
    if fmt == "json":
        echo_json({"game": game, "tables": computed})
        return
    titles = {name: table.title.value for name, table in loaded.tables.items()}
    echo_data(_render_tables(computed, titles, md=fmt == "md"))
