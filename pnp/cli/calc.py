"""``pnp calc GAME WHAT ARGS...``: each game's calculators, mounted from its plugin.

A game's package builds its calculator commands (``GamePlugin.calculators``) with the helpers
here: :func:`calc_rules` for the rules, :func:`show` to print a result, ``JSON_OPTION`` for
``--format text|json`` (alias ``--json``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import click

from pnp.cli.options import chosen_format, echo_data, echo_json, format_option, message, verbosity_options
from pnp.cli.options import workspace as chosen_workspace
from pnp.core.errors import PnpError
from pnp.core.workspace import Workspace
from pnp.games.calculators import CalcResult, calculator_games, game_rules, unknown_game
from pnp.games.registry import get_game, has_game


def JSON_OPTION(f: Callable[..., Any]) -> Callable[..., Any]:  # noqa: N802  (reads as a constant)
    """``--format text|json`` and ``--json``, handed to the command as ``as_json``."""

    def wrapped(*args: Any, fmt: str, **kwargs: Any) -> Any:
        return f(*args, as_json=chosen_format(fmt) == "json", **kwargs)

    wrapped.__name__, wrapped.__doc__ = f.__name__, f.__doc__
    if hasattr(f, "__click_params__"):
        wrapped.__click_params__ = f.__click_params__  # type: ignore[attr-defined]
    return verbosity_options(format_option("text", "json", json_alias=True)(wrapped))


def calc_rules(slug: str) -> Any:
    """The game's rules for a calculator (its card_data, or the rulings with a note)."""
    try:
        workspace: Workspace | None = chosen_workspace()
    except PnpError:
        workspace = None
    found = game_rules(workspace, slug)
    if found.note:
        message(f"note: {found.note}")
    return found.rules


def show(result: CalcResult, as_json: bool) -> None:
    if as_json:
        echo_json(result.as_json())
    else:
        echo_data(result.text())


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


def _unknown_what(game: str, known: list[str]) -> Callable[[str], PnpError]:
    def unknown(name: str) -> PnpError:
        return PnpError(f"unknown calculator {name!r} for {game} (known: {', '.join(known)})")
    return unknown


def _game_group(slug: str) -> click.Group | None:
    if not has_game(slug):
        return None
    plugin = get_game(slug)
    if plugin.calculators is None:
        return None
    commands = plugin.calculators()
    names = [command.name or "" for command in commands]
    group = _Dispatch(slug, help=f"{plugin.title}: {', '.join(names)}.",
                      unknown=_unknown_what(slug, names))
    for command in commands:
        group.add_command(command)
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
