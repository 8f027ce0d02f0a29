"""The rules commands of ``pnp``: ``check``, ``tables`` and ``calc``.

Registered on the main group in pnp/cli.py. Each command parses its options, calls the core
(pnp.check, pnp.tables, pnp.calc) and prints; formats are documented in docs/check-and-calc.md.
"""

from __future__ import annotations

import json
import unicodedata
from collections.abc import Callable, Sequence
from typing import Any

import click

from pnp import calc as calculators
from pnp.errors import CheckFailed, PnpError
from pnp.workspace import Workspace, find_workspace


def _workspace(ctx: click.Context) -> Workspace:
    """The workspace chosen by the main group (``--root`` or the current folder)."""
    workspace = getattr(ctx.find_root().obj, "workspace", None)
    return workspace if isinstance(workspace, Workspace) else find_workspace()


def _echo_json(data: Any) -> None:
    click.echo(json.dumps(data, ensure_ascii=False, indent=2))


class ChecksFound(CheckFailed):
    """``pnp check`` found problems: the report is already printed, so the error is one line."""

    def __init__(self, summary: str, problems: Sequence[str]) -> None:
        self.problems = list(problems)
        PnpError.__init__(self, summary)


# --------------------------------------------------------------------------------------------
# pnp check


@click.command()
@click.argument("game")
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text",
              show_default=True)
@click.pass_context
def check(ctx: click.Context, game: str, fmt: str) -> None:
    """Check GAME (or all): printed tables against the rules, rules lint, script purity, glyphs.

    Exit status 0 when clean, 1 when anything is found.
    """
    from pnp.check import check as run_check

    report = run_check(_workspace(ctx), game)
    if fmt == "json":
        _echo_json(report.as_json())
    else:
        click.echo(report.text())
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


@click.command()
@click.argument("game")
@click.option("--format", "fmt", type=click.Choice(["text", "json", "md"]), default="text",
              show_default=True)
@click.option("--update", is_flag=True,
              help="Rewrite the printed rows in card_data/GAME/tables.yaml from the rules.")
@click.pass_context
def tables(ctx: click.Context, game: str, fmt: str, update: bool) -> None:
    """Print the tables the rules engine computes for GAME; --update rewrites the printed ones."""
    from pnp.check import engine_tables
    from pnp.data.load import TABLES_FILE
    from pnp.tables import update_tables

    workspace = _workspace(ctx)
    loaded, computed = engine_tables(workspace, game)
    if update:
        changed = update_tables(workspace.game_dir(game), loaded)
        if fmt == "json":
            _echo_json({"game": game, "updated": changed})
            return
        path = workspace.game_dir(game) / TABLES_FILE
        shown = str(path.relative_to(workspace.root)) if path.is_relative_to(workspace.root) else str(path)
        if changed:
            click.echo(f"updated {shown}: {', '.join(changed)}")
        else:
            click.echo(f"{shown} is up to date")
        return
    if fmt == "json":
        _echo_json({"game": game, "tables": computed})
        return
    titles = {name: table.title.value for name, table in loaded.tables.items()}
    click.echo(_render_tables(computed, titles, md=fmt == "md"))


# --------------------------------------------------------------------------------------------
# pnp calc


class _Dispatch(click.Group):
    """A group whose unknown sub-command is the user's error (exit 1), not a usage error."""

    def __init__(self, *args: Any, unknown: Callable[[str], PnpError], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._unknown = unknown

    def resolve_command(self, ctx: click.Context,
                        args: list[str]) -> tuple[str | None, click.Command | None, list[str]]:
        name = args[0]
        command = self.get_command(ctx, name)
        if command is None and not ctx.resilient_parsing:
            if name.startswith("-"):
                return super().resolve_command(ctx, args)
            raise self._unknown(name)
        return name, command, args[1:]


def _unknown_game(name: str) -> PnpError:
    known = ", ".join(calculators.CALCULATORS)
    return PnpError(f"no calculators for game {name!r} (calculators exist for: {known})")


def _unknown_what(game: str) -> Callable[[str], PnpError]:
    def unknown(name: str) -> PnpError:
        known = ", ".join(calculators.CALCULATORS[game])
        return PnpError(f"unknown calculator {name!r} for {game} (known: {known})")
    return unknown


@click.group(cls=_Dispatch, unknown=_unknown_game)
def calc() -> None:
    """Playtest-night calculators: pnp calc GAME WHAT ARGS... [--json].

    Rules come from card_data/GAME/game.yaml (the engine's defaults when the game has no
    card_data). Seats count from 1.
    """


def _rules(slug: str) -> Any:
    ctx = click.get_current_context()
    try:
        workspace: Workspace | None = _workspace(ctx)
    except PnpError:
        workspace = None
    found = calculators.game_rules(workspace, slug)
    if found.note:
        click.echo(f"note: {found.note}", err=True)
    return found.rules


def _show(result: calculators.CalcResult, as_json: bool) -> None:
    if as_json:
        _echo_json(result.as_json())
    else:
        click.echo(result.text())


JSON_OPTION = click.option("--json", "as_json", is_flag=True, help="Print JSON instead of text.")
# Negative numbers are values for the calculator to refuse (exit 1), not unknown options.
NUMBERS = {"ignore_unknown_options": True}


@calc.group("aizhewudi", cls=_Dispatch, unknown=_unknown_what("aizhewudi"))
def calc_aizhewudi() -> None:
    """愛者無敵: split."""


@calc_aizhewudi.command("split", context_settings=NUMBERS)
@click.option("--sharers", "-k", type=int, required=True, help="Players sharing (standing).")
@click.argument("bills", nargs=-1)
@JSON_OPTION
def calc_split(sharers: int, bills: tuple[str, ...], as_json: bool) -> None:
    """The largest equal share of BILLS for K sharers, one group each; the rest carries."""
    _show(calculators.split(_rules("aizhewudi"), sharers, bills), as_json)


@calc.group("niutouwang", cls=_Dispatch, unknown=_unknown_what("niutouwang"))
def calc_niutouwang() -> None:
    """誰是牛頭王 SP: heads, punish."""


@calc_niutouwang.command("heads")
@click.argument("card", type=int)
@JSON_OPTION
def calc_heads(card: int, as_json: bool) -> None:
    """Bull heads on CARD."""
    _show(calculators.heads(_rules("niutouwang"), card), as_json)


@calc_niutouwang.command("punish", context_settings=NUMBERS)
@click.argument("penalties", nargs=-1, required=True)
@click.option("--base", type=int, default=None, help="Hits per penalty point (default: the rules').")
@click.option("--paired/--unpaired", default=None,
              help="The k-th highest hits the k-th lowest (default: the rules').")
@JSON_OPTION
def calc_punish(penalties: tuple[str, ...], base: int | None, paired: bool | None,
                as_json: bool) -> None:
    """The SP ending for PENALTIES given in seat order (seat 1 first)."""
    _show(calculators.punish(_rules("niutouwang"), penalties, base, paired), as_json)


@calc.group("wurenshenghuan", cls=_Dispatch, unknown=_unknown_what("wurenshenghuan"))
def calc_wurenshenghuan() -> None:
    """無人生還: score."""


@calc_wurenshenghuan.command("score")
@click.option("--murderer", is_flag=True, help="The player was the murderer.")
@click.option("--kills", type=int, default=None,
              help="Murderer: characters really killed (their own feigned death not counted).")
@click.option("--guess-day", type=int, default=None, help="Day written on the guess slip.")
@click.option("--correct", is_flag=True, help="The guess named the murderer's character.")
@click.option("--alive", is_flag=True, help="The player's character was alive at the end.")
@click.option("--guessed-before-death", is_flag=True,
              help="The correct guess was handed in before the character was killed.")
@JSON_OPTION
def calc_score(murderer: bool, kills: int | None, guess_day: int | None, correct: bool,
               alive: bool, guessed_before_death: bool, as_json: bool) -> None:
    """One player's final score, with its breakdown."""
    result = calculators.score(_rules("wurenshenghuan"), murderer=murderer, kills=kills,
                               guess_day=guess_day, correct=correct, alive=alive,
                               guessed_before_death=guessed_before_death)
    _show(result, as_json)


@calc.group("tisigui", cls=_Dispatch, unknown=_unknown_what("tisigui"))
def calc_tisigui() -> None:
    """替死鬼: naming, ghost, no-targets."""


@calc_tisigui.command("naming")
@click.option("--round-value", type=int, required=True, help="What the small round is worth.")
@click.option("--named", type=int, required=True, help="Players named (all of them targets).")
@JSON_OPTION
def calc_naming(round_value: int, named: int, as_json: bool) -> None:
    """Points for a correct naming."""
    _show(calculators.naming(_rules("tisigui"), round_value, named), as_json)


@calc_tisigui.command("ghost")
@click.option("--players", type=int, required=True, help="Players at the table.")
@click.option("--confirmed", type=int, required=True, help="Targets confirmed.")
@JSON_OPTION
def calc_ghost(players: int, confirmed: int, as_json: bool) -> None:
    """The ghost's score when the small rounds run out."""
    _show(calculators.ghost(_rules("tisigui"), players, confirmed), as_json)


@calc_tisigui.command("no-targets")
@click.option("--players", type=int, required=True, help="Players at the table.")
@JSON_OPTION
def calc_no_targets(players: int, as_json: bool) -> None:
    """Points for asking "no targets at all?" correctly."""
    _show(calculators.no_targets(_rules("tisigui"), players), as_json)
