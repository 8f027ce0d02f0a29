"""What every ``pnp`` command shares: its options, the workspace it runs in, and where its
output goes (data on stdout, messages such as ``wrote …`` on stderr)."""

from __future__ import annotations

import json
import logging
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar, cast

import click
from click.shell_completion import CompletionItem

from pnp.core.choices import INKS, LANGS, PAPERS, canonical_lang, canonical_paper, lang_names, paper_names
from pnp.core.errors import PnpError
from pnp.core.numbers import too_long
from pnp.core.units import parse_offset
from pnp.core.workspace import Workspace, find_workspace

F = TypeVar("F", bound=Callable[..., Any])

_QUIET = "pnp.quiet"


class WorkspaceRef:
    """The main group's ``--root``, resolved to a workspace when a command first asks."""

    def __init__(self, root: Path | None) -> None:
        self._root = root

    @property
    def workspace(self) -> Workspace:
        return find_workspace(self._root)

    @property
    def start(self) -> Path:
        """Where the search for a workspace starts (``--root`` or the current folder): where
        ``pnp new`` starts one when there is none."""
        return (self._root or Path.cwd()).absolute()


class WholeNumber(click.ParamType[int]):
    """A whole number option: text longer than any number pnp takes is refused before Python
    converts it (a 5,000-digit string is a ValueError, a 4,000-digit one an int no message can
    print), then the range ``low``–``high`` when given. A bound left out is for the command to
    check with its own reason (``--players`` against the game's player range)."""

    name = "integer"

    def __init__(self, low: int | None = None, high: int | None = None) -> None:
        self.low, self.high = low, high

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> int:
        if isinstance(value, int) and not isinstance(value, bool):
            number = value
        else:
            text = str(value).strip()
            digits = text.removeprefix("-").removeprefix("+")
            if not digits.isascii() or not digits.isdigit():
                self.fail(f"{str(value)[:40]!r} is not a whole number", param, ctx)
            reason = too_long(digits)
            if reason is not None:
                self.fail(f"the value {reason}", param, ctx)
            number = int(text)
        if (self.low is not None and number < self.low) or (self.high is not None and number > self.high):
            low = "" if self.low is None else f"{self.low:,}"
            high = "" if self.high is None else f"{self.high:,}"
            self.fail(f"must be {low}–{high}, got {number:,}", param, ctx)
        return number


def workspace(ctx: click.Context | None = None) -> Workspace:
    """The workspace chosen by the main group (``--root`` or the current folder)."""
    ctx = ctx or click.get_current_context()
    ref = ctx.find_root().obj
    return ref.workspace if isinstance(ref, WorkspaceRef) else find_workspace()


def output_root(found: Workspace) -> Path:
    """Where a command writes when it is not told: pnp.toml's ``out``, else output/."""
    from pnp.cli.config import load_settings

    configured = load_settings(found.root)[0].get("out")
    return configured if isinstance(configured, Path) else found.output_folder()


# --------------------------------------------------------------------------------------------
# Output


def echo_data(text: str, nl: bool = True) -> None:
    """What the command was asked for: stdout, whatever -q says."""
    click.echo(text, nl=nl)


def echo_json(data: Any) -> None:
    click.echo(json.dumps(data, ensure_ascii=False, indent=2))


def quiet() -> bool:
    """Whether -q asked for the data alone, without notes."""
    ctx = click.get_current_context(silent=True)
    return bool(ctx is not None and ctx.meta.get(_QUIET))


def message(text: str) -> None:
    """A note about what was done (``wrote …``): stderr, silenced by -q."""
    if not quiet():
        click.echo(text, err=True)


def json_path(found: Workspace, path: Path) -> str:
    """A path in JSON output: relative to the workspace root when inside it (so the report
    does not depend on the folder pnp ran from), else absolute."""
    resolved = path.resolve()
    root = found.root.resolve()
    return str(resolved.relative_to(root)) if resolved.is_relative_to(root) else str(resolved)


def written_json(found: Workspace, written: Any) -> list[dict[str, Any]]:
    """``[{"path", "bytes"}]`` of files written (items with ``.path`` and ``.size``)."""
    return [{"path": json_path(found, item.path), "bytes": item.size} for item in written]


def shown(path: Path) -> Path:
    try:
        return path.relative_to(Path.cwd())
    except ValueError:
        return path


# --------------------------------------------------------------------------------------------
# Options


def _complete_game(ctx: click.Context, param: click.Parameter, incomplete: str) -> list[CompletionItem]:
    try:
        slugs = workspace(ctx).game_slugs()
    except Exception:  # completion must never fail loudly
        return []
    return [CompletionItem(slug) for slug in [*slugs, "all"] if slug.startswith(incomplete)]


def game_argument(f: F) -> F:
    """GAME, completed from the workspace's card_data/ folders."""
    return click.argument("game", shell_complete=_complete_game)(f)


class LangType(click.ParamType):  # type: ignore[type-arg]  # generic only in newer click
    """A script as people write it, any case: zh-Hant, zh-TW, zh-hk … -> zh-Hant; zh-Hans,
    zh-CN, zh-sg … -> zh-Hans; ``all`` where a command makes both. Gives the canonical tag."""

    name = "lang"

    def __init__(self, allow_all: bool = True) -> None:
        self.allow_all = allow_all

    def get_metavar(self, param: click.Parameter, ctx: click.Context | None = None) -> str:
        return "[" + "|".join([*LANGS, *(["all"] if self.allow_all else [])]) + "]"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> str:
        found = canonical_lang(str(value), self.allow_all)
        if found is None:
            self.fail(f"{value!r} is not a script pnp knows; accepted: {lang_names(self.allow_all)}", param, ctx)
        return found

    def shell_complete(self, ctx: click.Context, param: click.Parameter, incomplete: str) -> list[CompletionItem]:
        names = [*LANGS, *(["all"] if self.allow_all else [])]
        return [CompletionItem(name) for name in names if name.lower().startswith(incomplete.lower())]


def lang_option(default: str | None = "all", allow_all: bool = True,
                help: str = "Script to build.") -> Callable[[F], F]:
    # The tags people write are accepted too; the help says so once, after the command's words.
    return click.option("--lang", type=LangType(allow_all), default=default,
                        show_default=default is not None,
                        help=f"{help} Any case; zh-TW, zh-HK, zh-MO mean zh-Hant and zh-CN, zh-SG, zh-MY zh-Hans.")


class PaperType(click.ParamType):  # type: ignore[type-arg]  # generic only in newer click
    """A paper as people write it: a name in any case (``B5``) or ``WxH`` in mm (``200x280``).
    Gives the canonical name, which output folders and the build record use."""

    name = "paper"

    def get_metavar(self, param: click.Parameter, ctx: click.Context | None = None) -> str:
        return "[" + "|".join([*PAPERS, "WxH"]) + "]"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> str:
        found = canonical_paper(str(value))
        if found is None:
            self.fail(f"{value!r} is not a paper pnp knows; accepted: {paper_names()}", param, ctx)
        return found

    def shell_complete(self, ctx: click.Context, param: click.Parameter, incomplete: str) -> list[CompletionItem]:
        return [CompletionItem(name) for name in PAPERS if name.startswith(incomplete.lower())]


def paper_option(help: str | None = None) -> Callable[[F], F]:
    words = "Paper size: a name, or WxH in mm (e.g. 200x280)."
    return click.option("--paper", type=PaperType(), default="a4", show_default=True,
                        help=f"{help} {words}" if help else words)


class OffsetType(click.ParamType):  # type: ignore[type-arg]  # generic only in newer click
    """``X,Y`` in millimetres, for --back-offset."""

    name = "X,Y"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None
                ) -> tuple[float, float]:
        if isinstance(value, tuple):
            return value
        try:
            return parse_offset(str(value))
        except PnpError as exc:
            self.fail(exc.message, param, ctx)


BACK_OFFSET = OffsetType()


def back_offset_option(function: F) -> F:
    return click.option("--back-offset", type=BACK_OFFSET, default="0,0", show_default=True,
                        help="Move every back sheet X mm right and Y mm down (read X,Y off "
                             "`pnp calibrate`).")(function)


def ink_option(help: str) -> Callable[[F], F]:
    return click.option("--ink", type=click.Choice(list(INKS)), default=INKS[0], show_default=True, help=help)


def format_option(*choices: str, default: str = "text", json_alias: bool = False,
                  help: str | None = None) -> Callable[[F], F]:
    """``--format`` (first choices text and json); ``json_alias`` adds ``--json`` for it."""

    def decorate(f: F) -> F:
        f = click.option("--format", "fmt", type=click.Choice(list(choices or ("text", "json"))),
                         default=default, show_default=True, help=help)(f)
        if json_alias:
            def as_json(ctx: click.Context, param: click.Parameter, value: bool) -> None:
                if value:
                    ctx.meta["pnp.json"] = True

            f = click.option("--json", is_flag=True, expose_value=False, callback=as_json,
                             help="Same as --format json.")(f)
        return f

    return decorate


def chosen_format(fmt: str) -> str:
    """--format, or json when --json was given."""
    return "json" if click.get_current_context().meta.get("pnp.json") else fmt


def _verbosity(ctx: click.Context, param: click.Parameter, value: bool) -> None:
    if not value:
        return
    if param.name == "quiet":
        ctx.meta[_QUIET] = True
        logging.getLogger().setLevel(logging.ERROR)
    else:
        logging.getLogger().setLevel(logging.INFO)


def verbosity_options(f: F) -> F:
    """-q/--quiet and -v/--verbose on a command (also accepted before it, on ``pnp``)."""
    f = click.option("-q", "--quiet", is_flag=True, expose_value=False, callback=_verbosity,
                     help="Print only the data asked for (no 'wrote …' notes).")(f)
    f = click.option("-v", "--verbose", is_flag=True, expose_value=False, callback=_verbosity,
                     help="Log what pnp is doing to stderr.")(f)
    return f


class UserError(click.ClickException):
    """A problem the user can fix (a :class:`pnp.core.errors.PnpError` of the core), shown
    as ``Error: …`` with exit status 1."""

    def __init__(self, error: PnpError) -> None:
        super().__init__(error.message)


class Command(click.Command):
    """A pnp command: the core's :class:`PnpError` becomes the user's ``Error: …``."""

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except PnpError as exc:
            raise UserError(exc) from None


def command(name: str | None = None, **settings: Any) -> Callable[[Callable[..., Any]], click.Command]:
    """``click.command`` with the options every pnp command takes (-q/-v)."""

    def decorate(f: Callable[..., Any]) -> click.Command:
        make = cast(Callable[[Callable[..., Any]], click.Command], click.command(name, cls=Command, **settings))
        return make(verbosity_options(f))

    return decorate
