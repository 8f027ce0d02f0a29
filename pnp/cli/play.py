"""The sample-game commands of ``pnp``: ``sample`` and ``simulate``.

Each command parses its options, calls the core
(pnp.play.narrate, pnp.play.simulate) and prints or writes the result; the JSON formats are documented
in docs/sample-and-simulate.md.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import click

from pnp.build.pipeline import Artifact, write_atomically
from pnp.cli import process
from pnp.cli.options import (
    chosen_format,
    command,
    echo_data,
    format_option,
    game_argument,
    lang_option,
    message,
    output_root,
    paper_option,
    shown,
    workspace,
)
from pnp.core.errors import PnpError
from pnp.games.base import DEFAULT_BUDGET
from pnp.games.registry import game_slugs, get_game, has_game
from pnp.play import narrate
from pnp.play import simulate as sim

ABILITIES = "abilities"


def _variant(game: str, variant: str | None, abilities: bool) -> str | None:
    """``--abilities`` is the spelling of ``--variant abilities`` for games that have it."""
    if not abilities:
        return variant
    if not has_game(game) or ABILITIES not in get_game(game).rules.variants:
        owners = " / ".join(s for s in game_slugs() if ABILITIES in get_game(s).rules.variants)
        raise PnpError(f"--abilities is an {owners or 'ability-card'} option; {game} has no ability cards")
    if variant not in (None, ABILITIES):
        raise PnpError(f"--abilities and --variant {variant} do not go together")
    return ABILITIES


def _write(path: Path, data: bytes) -> Path:
    """Write beside the target and rename into place: never a half-written file."""
    path = path.resolve()
    written = write_atomically(path.parent, [Artifact(Path(path.name), data)])
    return written[0].path


def play_options(command: Callable[..., Any]) -> Callable[..., Any]:
    """--variant, --abilities, --bots and --budget: how the games are played, shared by sample and simulate."""
    for option in reversed((
        click.option("--variant", help="Named rules variant of GAME (an unknown name lists them)."),
        click.option("--abilities", is_flag=True, help="Deal the ability cards, for a game that "
                     "has them (same as --variant abilities)."),
        click.option("--bots", default="greedy", show_default=True, metavar="NAME[,NAME...]",
                     help="The bot at every seat, or one per seat in seat order "
                     "(ismcts,random,random,random). Every game takes random and ismcts; a "
                     "game names its own (an unknown name lists them)."),
        click.option("--budget", type=int, default=DEFAULT_BUDGET, show_default=True,
                     help="ISMCTS iterations a decision (1–100,000)."),
    )):
        command = option(command)
    return command


# A worker pool in the pnp process: workers leave Ctrl-C to it, Ctrl-C waits while they are
# forked, SIGTERM stops them too (pnp.cli.process).
POOL_SIGNALS = sim.PoolSignals(worker_init=process.ignore_interrupts, while_forking=process.hold_interrupts,
                               while_running=process.terminate_raises)


def _json_text(data: Any) -> str:
    return json.dumps(data, ensure_ascii=False, indent=2) + "\n"


@command()
@game_argument
@click.option("--players", type=int, help="Number of players (default: the game's most common).")
@click.option("--seed", type=int, default=1, show_default=True,
              help="The same seed always gives the same game.")
@lang_option(None, allow_all=False, help="Script of the narration (default: the game's source script).")
@format_option("md", "json", "pdf", default="md", json_alias=True,
               help="md: narrated transcript; json: the engine's event log; "
               "pdf: the transcript typeset like the rulebook.")
@play_options
@paper_option(help="Paper size of --format pdf.")
@click.option("--out", type=click.Path(dir_okay=False, path_type=Path),
              help="Write to FILE instead of stdout (pdf default: "
              "output/GAME/LANG/sample-seedS-pN.pdf).")
@click.option("--force", is_flag=True,
              help="With --format pdf: write the PDF again even when nothing it is made from changed.")
@click.pass_context
def sample(ctx: click.Context, game: str, players: int | None, seed: int, lang: str | None,
           fmt: str, variant: str | None, abilities: bool, bots: str, budget: int, paper: str,
           out: Path | None, force: bool) -> None:
    """Play one seeded game of GAME with bots and narrate it turn by turn.

    Seats count from 1 in the narration and from 0 in the JSON event log. A PDF is written
    again only when the game, its narration template, the fonts or the arguments changed.
    """
    fmt = chosen_format(fmt)
    ws = workspace(ctx)
    played = narrate.play_sample(ws, game, players, seed, _variant(game, variant, abilities),
                                 bots=bots, budget=budget)
    lang = lang or played.game.info.source_lang
    if fmt == "pdf":
        from pnp.play.sample_pdf import sample_pdf

        made = sample_pdf(ws, played, lang, paper, bots, out, output_root(ws), force, budget)
        if made.written is None:
            message(f"{shown(made.path)} up to date")
        else:
            message(f"wrote {shown(made.written.path)} ({made.written.size / 1024:.0f} KiB)")
        return
    text = _json_text(played.log) if fmt == "json" else narrate.narration(ws, played, lang)
    if out is not None:
        path = _write(out, text.encode("utf-8"))
        message(f"wrote {shown(path)} ({len(text.encode('utf-8')) / 1024:.0f} KiB)")
        return
    echo_data(text, nl=False)


@command()
@game_argument
@click.option("--games", type=int, default=1000, show_default=True, help="How many games.")
@click.option("--players", type=int, help="Number of players (default: the game's most common).")
@click.option("--seed", type=int, default=1, show_default=True,
              help="Seed of the first game; game i uses seed + i.")
@format_option("text", "json", json_alias=True)
@play_options
@click.option("--jobs", type=click.IntRange(min=1),
              help="Worker processes (default: one per CPU; the report never depends on it).")
@click.pass_context
def simulate(ctx: click.Context, game: str, games: int, players: int | None, seed: int, fmt: str,
             variant: str | None, abilities: bool, bots: str, budget: int,
             jobs: int | None) -> None:
    """Play many bot games of GAME and report length, scores, wins, end conditions and supply."""
    fmt = chosen_format(fmt)
    ws = workspace(ctx)
    chosen = _variant(game, variant, abilities)
    if sys.stderr.isatty():
        with click.progressbar(length=max(games, 1), label=f"{game}: playing", file=sys.stderr,
                               show_pos=True) as bar:
            data = sim.simulate(ws, game, games, players, seed, chosen, bots, jobs,
                                progress=bar.update, signals=POOL_SIGNALS, budget=budget)
    else:
        data = sim.simulate(ws, game, games, players, seed, chosen, bots, jobs,
                            signals=POOL_SIGNALS, budget=budget)
    echo_data(_json_text(data) if fmt == "json" else sim.text_report(data), nl=False)


@command()
@game_argument
@click.argument("log_file", type=click.Path(dir_okay=False, path_type=Path))
@click.pass_context
def replay(ctx: click.Context, game: str, log_file: Path) -> None:
    """Replay LOG_FILE (from pnp sample GAME --format json, or edited by hand) under GAME's
    rules in game.yaml: every step must be legal and every recorded result the one the engine
    reaches. The first that is not is an error naming its step."""
    from pnp.play.replay import replay_file

    found = replay_file(workspace(ctx), game, log_file)
    if found.problems:
        raise PnpError(f"{shown(log_file)}: " + "; ".join(found.problems))
    message(f"{shown(log_file)}: every step of the {found.players}-player game replays clean")
