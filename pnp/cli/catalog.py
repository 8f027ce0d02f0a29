"""``pnp list``."""

from __future__ import annotations

import click

from pnp.cli.options import command, echo_data, echo_json, format_option, workspace
from pnp.data.catalog import catalog
from pnp.games.registry import load_problem, tables_from_engine


@command("list")
@format_option("text", "json")
@click.pass_context
def list_games(ctx: click.Context, fmt: str) -> None:
    """List the games in card_data/ with their components and counts."""
    games = catalog(workspace(ctx), tables_from_engine)
    # A game whose registered package does not import is listed with why, not as if it played.
    for game in games:
        problem = load_problem(game["slug"])
        if problem is not None:
            game["engine_error"] = problem
    if fmt == "json":
        echo_json({"games": games})
        return
    for game in games:
        players = f"{game['players']['min']}–{game['players']['max']}"
        echo_data(f"{game['slug']}  {game['name']}  ({players} players, source {game['source_lang']}, "
                  f"version {game['version']})")
        if "engine_error" in game:
            echo_data(f"    engine cannot be loaded: {game['engine_error']}")
        for component in game["components"]:
            echo_data(f"    {component['count']:>4} × {component['name']} ({component['id']})")
