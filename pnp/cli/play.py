"""The sample-game commands of ``pnp``: ``sample`` and ``simulate``.

Each command parses its options, calls the core
(pnp.play.narrate, pnp.play.simulate) and prints or writes the result; the JSON formats are documented
in docs/sample-and-simulate.md.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import click

from pnp.build.pipeline import Artifact, write_atomically
from pnp.cli import process
from pnp.cli.options import (
    WholeNumber,
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
from pnp.cli.progress import GamesProgress
from pnp.core.errors import PnpError
from pnp.games.base import DEFAULT_BUDGET
from pnp.games.registry import game_slugs, get_game, has_game
from pnp.play import narrate
from pnp.play import simulate as sim
from pnp.play.simulate import MAX_GAMES, MAX_JOBS

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
        click.option("--bots", metavar="NAME[,NAME...]",
                     help="The bot at every seat, or one per seat in seat order "
                     "(ismcts,random,random,random). Every game takes random and ismcts; a "
                     "game names its own (an unknown name lists them). Default: the game's "
                     "first, greedy when it has one."),
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
@click.option("--players", type=WholeNumber(), help="Number of players (default: the game's most common).")
@click.option("--seed", type=WholeNumber(), default=1, show_default=True,
              help="The same seed always gives the same game (at most 18 digits).")
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
           fmt: str, variant: str | None, abilities: bool, bots: str | None, budget: int,
           paper: str, out: Path | None, force: bool) -> None:
    """Play one seeded game of GAME with bots and narrate it turn by turn.

    Seats count from 1 in the narration and from 0 in the JSON event log. A PDF is written
    again only when the game, its narration template, the fonts or the arguments changed.
    """
    fmt = chosen_format(fmt)
    ws = workspace(ctx)
    bots = bots or narrate.default_bot(game)
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
        path = _write(ws.out_file(out), text.encode("utf-8"))
        message(f"wrote {shown(path)} ({len(text.encode('utf-8')) / 1024:.0f} KiB)")
        return
    echo_data(text, nl=False)


_PLAYERS = re.compile(r"\d{1,9}(\.\.\d{1,9})?(,\d{1,9}(\.\.\d{1,9})?)*")


def _cluster_address(ctx: click.Context, param: click.Parameter, value: str | None) -> str | None:
    if value is None:
        return None
    from pnp.play.cluster import check_address

    try:
        return check_address(value)
    except PnpError as error:
        raise click.BadParameter(error.message, ctx, param) from None


def _players_text(ctx: click.Context, param: click.Parameter, value: str | None) -> str | None:
    if value is not None and not _PLAYERS.fullmatch(value.replace(" ", "")):
        raise click.BadParameter(f"{value!r}: a whole number, a list (4,5) or a range (3..6)", ctx, param)
    return None if value is None else value.replace(" ", "")


@command()
@game_argument
@click.option("--games", type=WholeNumber(), default=1000, show_default=True,
              help=f"How many games (1–{MAX_GAMES:,}); with --sweep, of every setting.")
@click.option("--players", callback=_players_text, metavar="N|N..M|N,M",
              help="Number of players (default: the game's most common); a range (3..6) or a "
              "list (4,5) plays each count.")
@click.option("--sweep", "sweeps", multiple=True, metavar="rules.PATH=V1,V2",
              help="Play every value of a rules field (5,6,7 or 3..8); repeat for a grid. "
              "Every setting plays the same seeds.")
@click.option("--seed", type=WholeNumber(), default=1, show_default=True,
              help="Seed of the first game; game i uses seed + i (at most 18 digits).")
@format_option("text", "json", "html", "pdf", json_alias=True,
               help="text and json; html and pdf are the balance report with charts (need --out).")
@play_options
@click.option("--jobs", type=WholeNumber(1, MAX_JOBS),
              help=f"Worker processes, 1–{MAX_JOBS} (default: one per CPU; the report never depends on it).")
@click.option("--cluster", callback=_cluster_address, metavar="tcp://HOST:PORT",
              help="Play on this Dask distributed scheduler instead of local processes (needs the "
              "cluster extra; the report is the same bytes as a local run's).")
@lang_option(None, allow_all=False, help="Script of --format pdf (default: the game's source script).")
@paper_option(help="Paper size of --format pdf.")
@click.option("--out", type=click.Path(dir_okay=False, path_type=Path),
              help="Write to FILE instead of stdout (needed by html and pdf).")
@click.pass_context
def simulate(ctx: click.Context, game: str, games: int, players: str | None, sweeps: tuple[str, ...],
             seed: int, fmt: str, variant: str | None, abilities: bool, bots: str | None,
             budget: int, jobs: int | None, cluster: str | None, lang: str | None, paper: str,
             out: Path | None) -> None:
    """Play many bot games of GAME and report length, scores, wins, end conditions and supply.

    With --sweep, a --players range or list, or --format html/pdf: the balance report, every
    figure with its 95 % interval and what is significant flagged with the test used.
    """
    fmt = chosen_format(fmt)
    if cluster is not None and jobs is not None:
        raise click.UsageError("--jobs is the number of local processes: with --cluster the cluster's "
                               "workers play; give one or the other", ctx)
    ws = workspace(ctx)
    chosen = _variant(game, variant, abilities)
    bots = bots or narrate.default_bot(game)
    if fmt in ("html", "pdf") and out is None:
        raise PnpError(f"--format {fmt} writes a file: give --out FILE")
    if sweeps or fmt in ("html", "pdf") or (players is not None and not players.isdigit()):
        _balance(ctx, game, games, players, sweeps, seed, fmt, chosen, bots, budget, jobs, cluster, lang, paper,
                 out)
        return
    count = int(players) if players is not None else None
    progress = GamesProgress(f"{game}: playing")
    progress.start(games)
    try:
        data = sim.simulate(ws, game, games, count, seed, chosen, bots, jobs,
                            progress=progress.update if progress.live else None, signals=POOL_SIGNALS,
                            budget=budget, cluster=cluster)
    finally:
        progress.end()
    text = _json_text(data) if fmt == "json" else sim.text_report(data)
    _emit(text, out)


def _emit(text: str, out: Path | None) -> None:
    if out is None:
        echo_data(text, nl=False)
        return
    path = _write(out, text.encode("utf-8"))
    message(f"wrote {shown(path)} ({len(text.encode('utf-8')) / 1024:.0f} KiB)")


def _balance(ctx: click.Context, game: str, games: int, players: str | None, sweeps: tuple[str, ...],
             seed: int, fmt: str, variant: str | None, bots: str, budget: int, jobs: int | None,
             cluster: str | None, lang: str | None, paper: str, out: Path | None) -> None:
    """The sweep: checked whole before a game is played, played with a progress line, then
    written in one piece."""
    from pnp.play import balance
    from pnp.play.sweep import sweep

    ws = workspace(ctx)
    progress = GamesProgress(f"{game}: playing")
    try:
        run = sweep(ws, game, sweeps, players, games, seed, variant, bots, jobs,
                    progress=progress.update if progress.live else None, signals=POOL_SIGNALS,
                    budget=budget, on_plan=progress.start, cluster=cluster)
    finally:
        progress.end()
    data = balance.report(run)
    if fmt == "json":
        _emit(_json_text(data), out)
    elif fmt == "text":
        _emit(balance.text_report(data), out)
    elif fmt == "html":
        from pnp.play.balance_html import balance_html

        _emit(balance_html(data), out)
    else:
        from pnp.play.balance_pdf import balance_pdf

        assert out is not None
        pdf = balance_pdf(ws, data, lang, paper)
        path = _write(out, pdf)
        message(f"wrote {shown(path)} ({len(pdf) / 1024:.0f} KiB)")


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
