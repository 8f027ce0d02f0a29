"""``pnp calc GAME WHAT ARGS...``: each game's calculators, mounted from their declarations.

A game declares its calculators (``GamePlugin.calculators``, pnp/games/calculators.py): plain
functions and the parameters they take. Here each becomes a click command: a parameter
``round_value`` is typed ``--round-value``, a declared kind is read through one click type
(:class:`_Typed`), and every calculator takes ``--format text|json`` (alias ``--json``) and
-q/-v. The command finds the game's rules (its card_data, or the rulings with a note), runs
the function and prints what it answers.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import click

from pnp.cli.options import (
    Command,
    UserError,
    chosen_format,
    echo_data,
    echo_json,
    format_option,
    message,
    verbosity_options,
)
from pnp.cli.options import workspace as chosen_workspace
from pnp.core.errors import PnpError
from pnp.core.workspace import Workspace
from pnp.games.calcargs import Argument, Flag, Kind, Option, Param, Toggle
from pnp.games.calclookup import calculator_games, game_rules, unknown_game
from pnp.games.calculators import CalcResult, Calculator
from pnp.games.registry import get_game, has_game

_Decorator = Callable[[Callable[..., Any]], Callable[..., Any]]

# A calculator's positional numbers may be negative: "-1" must reach it as a value (which it
# then refuses with a clear message), not be parsed as an unknown option.
_NUMBERS: dict[str, Any] = {"ignore_unknown_options": True}


class _Typed(click.ParamType):  # type: ignore[type-arg]  # generic only in newer click
    """A declared :class:`Kind` as click reads it.

    Text that is not of the kind is a usage error (exit 2), as for any click option; a value
    the rules do not allow is for the calculator to refuse (exit 1).
    """

    def __init__(self, kind: Kind[Any]) -> None:
        self.kind = kind
        self.name = kind.name

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        if not isinstance(value, str):  # a default: already a value
            return value
        try:
            return self.kind.parse(value, _param_label(param))
        except PnpError as exc:
            self.fail(exc.message, param, ctx)


def _param_label(param: click.Parameter | None) -> str:
    if param is None:
        return "value"
    if isinstance(param, click.Option):
        return max(param.opts, key=len)
    return (param.name or "value").upper()


def _spelled(name: str) -> str:
    """A parameter's name as typed: ``round_value`` -> ``--round-value``."""
    return "--" + name.replace("_", "-")


def _decorators(param: Param) -> list[_Decorator]:
    """The click parameters one declared parameter is typed as, in the order help lists them."""
    if isinstance(param, Argument):
        return [click.argument(param.name, type=_Typed(param.kind), nargs=-1 if param.many else 1,
                               required=param.required)]
    if isinstance(param, Option):
        short = [f"-{param.short}"] if param.short else []
        # Only a real default is handed on: click counts an explicit None as one, and a
        # required option with a default is never missing.
        default = {} if param.default is None else {"default": param.default}
        return [click.option(_spelled(param.name), *short, param.name, type=_Typed(param.kind),
                             required=param.required, help=param.help, **default)]
    if isinstance(param, Flag):
        return [click.option(_spelled(param.name), param.name, is_flag=True, help=param.help)]
    return [click.option(_spelled(param.name), param.name, is_flag=True, help=param.help),
            click.option(_spelled(param.off), param.off, is_flag=True, help=param.off_help)]


def _values(params: tuple[Param, ...], typed: dict[str, Any]) -> dict[str, Any]:
    """The keywords a calculator's ``run`` takes: each toggle's two flags folded into one value.

    click's ``--a/--b`` lets the last one typed win silently; giving both is a contradiction
    the user should hear about (before any rules are looked up).
    """
    values = dict(typed)
    for param in params:
        if isinstance(param, Toggle):
            on, off = values.pop(param.name), values.pop(param.off)
            if on and off:
                raise PnpError(f"{_spelled(param.name)} and {_spelled(param.off)} contradict: "
                               "give one of them")
            values[param.name] = True if on else False if off else None
    return values


def _calc_rules(slug: str) -> Any:
    """The game's rules for a calculator (its card_data, or the rulings with a note)."""
    try:
        workspace: Workspace | None = chosen_workspace()
    except PnpError:
        workspace = None
    found = game_rules(workspace, slug)
    if found.note:
        message(f"note: {found.note}")
    return found.rules


def _show(result: CalcResult, as_json: bool) -> None:
    if as_json:
        echo_json(result.as_json())
    else:
        echo_data(result.text())


def calculator_command(slug: str, calculator: Calculator) -> click.Command:
    """``pnp calc <slug> <calculator.name>``: the declared parameters, --format/--json and -q/-v."""

    def run(fmt: str, **typed: Any) -> None:
        values = _values(calculator.params, typed)
        _show(calculator.run(_calc_rules(slug), **values), chosen_format(fmt) == "json")

    callback: Callable[..., Any] = verbosity_options(format_option("text", "json", json_alias=True)(run))
    for decorate in reversed([d for param in calculator.params for d in _decorators(param)]):
        callback = decorate(callback)
    numbers = any(isinstance(param, Argument) for param in calculator.params)
    make = click.command(calculator.name, cls=Command, help=calculator.help,
                         context_settings=_NUMBERS if numbers else None)
    return make(callback)


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
            raise UserError(self._unknown(name))
        return name, command, args[1:]


def _unknown_what(game: str, known: list[str]) -> Callable[[str], PnpError]:
    def unknown(name: str) -> PnpError:
        return PnpError(f"unknown calculator {name!r} for {game} (known: {', '.join(known)})")
    return unknown


def _game_group(slug: str) -> click.Group | None:
    if not has_game(slug):
        return None
    plugin = get_game(slug)
    if not plugin.calculators:
        return None
    names = [calculator.name for calculator in plugin.calculators]
    group = _Dispatch(slug, help=f"{plugin.title}: {', '.join(names)}.",
                      unknown=_unknown_what(slug, names))
    for calculator in plugin.calculators:
        group.add_command(calculator_command(slug, calculator))
    return group


class _Games(_Dispatch):
    """``pnp calc``: one sub-group per game with calculators, built from its plugin."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return calculator_games()

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        return _game_group(cmd_name)


@click.group(cls=_Games, unknown=unknown_game)
def calc() -> None:
    """Playtest-night calculators: pnp calc GAME WHAT ARGS... [--format json].

    Rules come from card_data/GAME/game.yaml (the engine's defaults when the game has no
    card_data). Seats count from 1.
    """
