"""The live balance of ``pnp serve``: a small sweep of a game's rules played in a process of its
own, its tallies shown as they come in (the page is pnp.serve.balance_page).

A game's sweep starts the first time its balance page is opened, never before: a preview
nobody balances costs nothing. It plays the game's common player count and the counts just
below and above it that the rules allow, ``games`` games each on seeds 1, 2, …, like
``pnp simulate --sweep`` with ``--players``. After a save of card_data/<slug>/game.yaml (the
file the rules and player counts live in) the sweep starts again as a new generation: the
running worker is told to stop at its next chunk and whatever it still sends is dropped. The
preview's rebuild comes first: while it runs, no new run starts and the workers that go on
(other games') are paused (SIGSTOP, SIGCONT after).

The worker is a spawned process (a fork of the threaded server could inherit a held lock) at
a lower priority, so the preview's builds and answers keep the processor. It plays CHUNK games
of each setting in turn, so every setting fills in together, and sends a tally per chunk: a few
kilobytes, whatever the number of games.
"""

from __future__ import annotations

import contextlib
import enum
import logging
import multiprocessing
import os
import signal
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from multiprocessing.connection import Connection
from multiprocessing.process import BaseProcess
from multiprocessing.synchronize import Event
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pnp.core.errors import PnpError
from pnp.core.records import record
from pnp.core.workspace import Workspace

if TYPE_CHECKING:  # the engines load in the worker, and in the server only once a page is read
    from pnp.games.base import Plan
    from pnp.play.sweep import Setting
    from pnp.play.tally import Tally

log = logging.getLogger(__name__)

GAMES = 200  # games a setting, by default
MAX_GAMES = 100_000  # games a setting at most (--balance-games)
CHUNK = 20  # games of one setting between two tallies sent
SEED = 1
NICENESS = 10  # added to the worker's niceness: the preview runs first
STOP_SECONDS = 10.0  # a stopped worker still running after this long is killed
RULES_FILE = "game.yaml"
# Where the system has them (not on Windows): a worker is paused while the preview rebuilds.
PAUSE, RESUME = getattr(signal, "SIGSTOP", None), getattr(signal, "SIGCONT", None)


class Status(enum.StrEnum):
    """What a game's balance run is doing (the JSON's ``status``)."""

    NOT_STARTED = "not started"  # no balance page of the game opened yet
    WAITING = "waiting"  # for the preview's rebuild to end
    STARTING = "starting"  # the worker is loading the game
    RUNNING = "running"
    DONE = "done"
    ERROR = "error"
    NO_ENGINE = "no engine"


# --------------------------------------------------------------------------------------------
# The worker's messages


@record
class Planned:
    settings: tuple[Setting, ...]


@record
class Played:
    setting: int
    tally: Tally


@record
class Failed:
    message: str


@record
class Finished:
    pass


def live_settings(workspace: Workspace, slug: str, games: int) -> tuple[list[Setting], list[Plan]]:
    """The settings of a game's live sweep: its common player count and the counts one below
    and one above it that its rules allow, under the rules of its game.yaml."""
    from pnp.play.narrate import game_rules, load_game_data, plugin, resolve_players
    from pnp.play.sweep import plan_sweep

    game = load_game_data(workspace, slug)
    rules = game_rules(game, None)
    common = resolve_players(game, rules, None)
    playable = plugin(slug).play.playable_counts(rules)
    counts = [count for count in (common - 1, common, common + 1) if count in playable]
    settings, plans, _axes = plan_sweep(workspace, slug, (), ",".join(map(str, counts)), games, game=game)
    return settings, plans


def _work(root: str, slug: str, games: int, sender: Connection, stop: Event) -> None:
    """The worker process: plan, then play chunk after chunk until done or told to stop."""
    from pnp.play.sweep import play_tally

    # This process is the sweep's alone: Ctrl-C in the terminal reaches the whole process group,
    # and the server, not the worker, decides when the worker ends.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    with contextlib.suppress(OSError):
        os.nice(NICENESS)
    try:
        try:
            settings, plans = live_settings(Workspace(Path(root)), slug, games)
            sender.send(Planned(tuple(settings)))
            for first in range(SEED, SEED + games, CHUNK):
                count = min(CHUNK, SEED + games - first)
                for index, plan in enumerate(plans):
                    if stop.is_set():
                        return
                    sender.send(Played(index, play_tally(plan, first, count)))
            sender.send(Finished())
        except PnpError as exc:
            sender.send(Failed(exc.as_printed()))
        except (BrokenPipeError, EOFError):
            raise
        except Exception as exc:  # a bug of an engine must show on the page, not end silently
            sender.send(Failed(f"internal error while playing {slug}: {exc!r}"))
    except (BrokenPipeError, EOFError):
        return  # the server is gone or stopped listening: nothing to tell
    finally:
        sender.close()


# --------------------------------------------------------------------------------------------
# The server's side


@dataclass
class _Run:
    """One generation of a game's sweep."""

    generation: int
    status: Status
    message: str = ""
    settings: tuple[Setting, ...] = ()
    tallies: list[Tally | None] = field(default_factory=list)
    process: BaseProcess | None = None
    stop: Event | None = None
    worker: int | None = None  # the worker's process id, until it is gone
    paused: bool = False

    @property
    def games(self) -> int:
        return sum(tally.games for tally in self.tallies if tally is not None)


def _rules_touched(slug: str, changed: Sequence[str], run: _Run) -> bool:
    """Whether a save calls for a new generation: the game's game.yaml changed, or the last run
    failed and any file of the game's data changed (the failure may have been there)."""
    folder = f"card_data/{slug}/"
    if run.status == Status.ERROR:
        return any(path.startswith(folder) for path in changed)
    return f"{folder}{RULES_FILE}" in changed


class BalanceLab:
    """The served games' balance runs. HTTP threads open pages and read; the preview's refresh
    holds and releases; a thread per running worker takes its messages."""

    def __init__(self, workspace: Workspace, served: Callable[[], Sequence[str]], games: int = GAMES) -> None:
        if not 1 <= games <= MAX_GAMES:
            raise PnpError(f"--balance-games must be 1–{MAX_GAMES:,}, got {games:,}")
        self.workspace = workspace
        self.games = games
        self._served = served
        self._runs: dict[str, _Run] = {}
        self._held = False
        self._closed = False
        self._version = 0
        self._lock = threading.Lock()
        self._changed = threading.Condition(self._lock)
        self._followers: list[threading.Thread] = []
        # The last view of each game and the version it was made at: every poller of the same
        # version shares one (a view of a few settings takes the server tens of milliseconds).
        self._views: dict[str, tuple[int, dict[str, Any]]] = {}

    def serves(self, slug: str) -> bool:
        return slug in self._served()

    # ----------------------------------------------------------------------------------------
    # Events

    def open(self, slug: str) -> None:
        """A balance page of ``slug`` was opened: its first run starts (once the preview's
        rebuild, if one runs, is over)."""
        with self._lock:
            if slug in self._runs or self._closed:
                return
            note = _no_engine(slug)
            self._runs[slug] = _Run(1, Status.NO_ENGINE if note else Status.WAITING, note)
            if not note and not self._held:
                self._start(slug)
            self._publish()

    def hold(self, changed: Sequence[str]) -> None:
        """A rebuild starts after ``changed``: the runs it makes stale stop now, and no run
        starts until ``release``."""
        with self._lock:
            self._held = True
            for slug, run in list(self._runs.items()):
                if run.status != Status.NO_ENGINE and _rules_touched(slug, changed, run):
                    self._cancel(run)
                    self._runs[slug] = _Run(run.generation + 1, Status.WAITING)
                else:
                    self._signal(run, PAUSE, paused=True)
            self._publish()

    def release(self) -> None:
        """The rebuild is over: the runs that waited for it start."""
        with self._lock:
            self._held = False
            for slug, run in self._runs.items():
                self._signal(run, RESUME, paused=False)
                if run.status == Status.WAITING and not self._closed:
                    self._start(slug)
            self._publish()

    def close(self) -> None:
        """Stop every worker and wait for each to be gone."""
        with self._lock:
            self._closed = True
            for run in self._runs.values():
                self._cancel(run)
            followers = list(self._followers)
        for thread in followers:
            thread.join(timeout=STOP_SECONDS + 5)

    # ----------------------------------------------------------------------------------------
    # Reading

    def view(self, slug: str) -> dict[str, Any]:
        with self._lock:
            return self._view(slug)

    def wait(self, slug: str, after: int, timeout: float) -> dict[str, Any]:
        """The view once the lab's version differs from ``after`` (or after ``timeout`` s)."""
        with self._changed:
            self._changed.wait_for(lambda: self._version != after, timeout=timeout)
            return self._view(slug)

    def _view(self, slug: str) -> dict[str, Any]:
        cached = self._views.get(slug)
        if cached is None or cached[0] != self._version:
            cached = self._views[slug] = (self._version, self._make_view(slug))
        return cached[1]

    def _make_view(self, slug: str) -> dict[str, Any]:
        from pnp.play.balance import flags, setting_section
        from pnp.play.charts import report_charts, svg

        run = self._runs.get(slug)
        if run is None:
            return {"game": slug, "version": self._version, "generation": 0, "status": Status.NOT_STARTED,
                    "message": "", "games_per_setting": self.games, "games": 0, "planned": 0,
                    "worker": None, "paused": False, "settings": [], "flags": [], "charts": []}
        sections = [setting_section(index, setting, tally)
                    for index, (setting, tally) in enumerate(zip(run.settings, run.tallies, strict=True))
                    if tally is not None and tally.games]
        charts = report_charts({"settings": sections, "swept": []}) if sections else []
        return {
            "game": slug,
            "version": self._version,
            "generation": run.generation,
            "status": run.status,
            "message": run.message,
            "games_per_setting": self.games,
            "games": run.games,
            "planned": self.games * len(run.settings),
            "worker": run.worker,
            "paused": run.paused,
            "settings": sections,
            "flags": flags(sections, []),
            "charts": [{"name": chart.name, "setting": _owner(chart.name), "svg": svg(chart)} for chart in charts],
        }

    # ----------------------------------------------------------------------------------------
    # Workers (the lock held)

    def _publish(self) -> None:
        self._version += 1
        self._changed.notify_all()

    def _start(self, slug: str) -> None:
        run = self._runs[slug]
        context = multiprocessing.get_context("spawn")
        receiver, sender = context.Pipe(duplex=False)
        run.stop = context.Event()
        run.process = context.Process(target=_work, name=f"pnp-balance-{slug}", daemon=True,
                                      args=(str(self.workspace.root), slug, self.games, sender, run.stop))
        run.status = Status.STARTING
        try:
            run.process.start()
        except OSError as exc:
            run.status, run.message = Status.ERROR, f"Error: cannot start the balance worker: {exc}"
            receiver.close()
            return
        finally:
            sender.close()  # the worker holds its own copy: the end of the stream is its end
        run.worker = run.process.pid
        follower = threading.Thread(target=self._follow, args=(slug, run, receiver),
                                    name=f"pnp-balance-{slug}-{run.generation}", daemon=True)
        self._followers = [thread for thread in self._followers if thread.is_alive()]
        self._followers.append(follower)
        follower.start()

    def _cancel(self, run: _Run) -> None:
        if run.stop is not None:
            run.stop.set()
        self._signal(run, RESUME, paused=False)  # a paused worker could not see that it must stop

    def _signal(self, run: _Run, signum: int | None, paused: bool) -> None:
        """Pause or resume a running worker. Its id is cleared, under the lock, once it is
        reaped, so the signal cannot reach another process that took the id over."""
        if signum is None or run.worker is None or run.paused == paused:
            return
        if paused and (run.stop is None or run.stop.is_set()):
            return  # a stopped run is left to end
        with contextlib.suppress(ProcessLookupError):
            os.kill(run.worker, signum)
        run.paused = paused

    def _follow(self, slug: str, run: _Run, receiver: Connection) -> None:
        """Take a worker's messages until it ends or is stopped, then see it gone."""
        process, stop = run.process, run.stop
        assert process is not None and stop is not None
        try:
            while not stop.is_set():
                if receiver.poll(0.2):
                    try:
                        message = receiver.recv()
                    except EOFError:
                        break
                    self._take(slug, run, message)
                elif not process.is_alive() and not receiver.poll():
                    break
            # A stopped worker may be sending its last chunk: read and drop it so it can end.
            waited = 0.0
            while process.is_alive() and waited < STOP_SECONDS:
                with contextlib.suppress(EOFError, OSError):
                    if receiver.poll(0.1):
                        receiver.recv()
                        continue
                waited += 0.1
        finally:
            process.join(0.5)
            if process.is_alive():
                process.kill()
            process.join()
            receiver.close()
            with self._lock:
                run.worker, run.paused = None, False
                if self._runs.get(slug) is run and run.status in (Status.STARTING, Status.RUNNING):
                    run.status = Status.ERROR
                    run.message = f"the balance worker ended before it finished (exit code {process.exitcode})"
                self._publish()

    def _take(self, slug: str, run: _Run, message: object) -> None:
        with self._lock:
            if self._runs.get(slug) is not run or run.stop is None or run.stop.is_set():
                return  # an earlier generation's: dropped
            if isinstance(message, Planned):
                run.settings = message.settings
                run.tallies = [None] * len(message.settings)
                run.status = Status.RUNNING
            elif isinstance(message, Played):
                known = run.tallies[message.setting]
                if known is None:
                    run.tallies[message.setting] = message.tally
                else:
                    known.merge(message.tally)
            elif isinstance(message, Finished):
                run.status = Status.DONE
            elif isinstance(message, Failed):
                run.status, run.message = Status.ERROR, message.message
            self._publish()


def _owner(name: str) -> int | None:
    """The setting a chart belongs to (its name ends in ``-<id>``), None for an overview."""
    tail = name.rsplit("-", 1)[-1]
    return int(tail) if tail.isdigit() else None


def _no_engine(slug: str) -> str:
    """Why ``slug`` has no balance (no rules engine plays it), or ''."""
    from pnp.play.narrate import plugin

    try:
        plugin(slug)
    except PnpError as exc:
        return f"{exc.format_message()}: a balance sweep needs a rules engine, and {slug} has none yet."
    return ""
