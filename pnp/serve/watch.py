"""Rebuild on save: watch a workspace's sources and run a rebuild after each burst of changes.

``pnp build --watch`` and ``pnp serve`` share this loop; what a round does (a build, a preview
refresh) and how it is shown is theirs. A round that fails with a PnpError (a broken save) is
reported and the loop goes on waiting for the fix.
"""

from __future__ import annotations

import logging
import queue
import threading
import time
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import Generic, TypeVar

from pnp.core.errors import PnpError
from pnp.core.records import record
from pnp.core.workspace import Workspace

log = logging.getLogger(__name__)

WATCHED = ("card_data", "templates", "fonts")
# An editor's save is often several events (write a temporary file, rename it over the
# original), all within a millisecond or two: a burst ends after this many quiet milliseconds.
# The watcher (inotify, through watchfiles) looks for events at this step, so a save waits
# one to two steps before its rebuild starts: short, since the designer waits for it (at 40 ms
# a write reached the loop after 60 ms, at 10 ms after 12 ms; waking 100 times a second while
# idle costs under 1 ms of CPU a second more)...
QUIET_MS = 10
# ...and is cut off after this many, so a long copy still shows progress.
BURST_MS = 1600

T = TypeVar("T")


@record
class Round(Generic[T]):
    """One rebuild: the workspace-relative paths that changed (none for the first build), what
    the rebuild returned, or the error it stopped with, and how long it took."""

    changed: tuple[str, ...]
    result: T | None
    error: PnpError | None
    seconds: float


def watched_folders(workspace: Workspace) -> list[Path]:
    return [folder for folder in (workspace.root / name for name in WATCHED) if folder.is_dir()]


def _relative(workspace: Workspace, path: str) -> str:
    """``card_data/<slug>/components.yaml``: the path under its watched folder's name, also
    when the folder is a symlink (fonts/ often is) and the event names the real path."""
    target = Path(path)
    for name in WATCHED:
        folder = workspace.root / name
        for base in (folder, folder.resolve()):
            if target.is_relative_to(base):
                return (Path(name) / target.relative_to(base)).as_posix()
    return target.as_posix()


class Watcher:
    """Collects changes under card_data/, templates/ and fonts/ in a thread of its own, from
    the moment it starts: a save made while a rebuild runs is caught and triggers the next one.
    """

    def __init__(self, workspace: Workspace) -> None:
        self.workspace = workspace
        self.folders = watched_folders(workspace)
        if not self.folders:
            raise PnpError(f"nothing to watch in {workspace.root}: none of {', '.join(WATCHED)} is a folder")
        self._stop = threading.Event()
        self._batches: queue.Queue[set[str]] = queue.Queue()
        self._thread = threading.Thread(target=self._watch, name="pnp-watch", daemon=True)

    def __enter__(self) -> Watcher:
        self._thread.start()
        return self

    def __exit__(self, *_exc: object) -> None:
        self._stop.set()
        self._thread.join(timeout=5)

    def _watch(self) -> None:
        from watchfiles import watch

        for batch in watch(*self.folders, stop_event=self._stop, step=QUIET_MS, debounce=BURST_MS,
                           raise_interrupt=False):
            changed = {_relative(self.workspace, path) for path in _lasting(batch)}
            if changed:
                self._batches.put(changed)

    def next(self, stop: threading.Event | None = None, poll: float = 0.2) -> tuple[str, ...] | None:
        """Every change since the last call, waiting for one; None once ``stop`` is set.

        Waits in short steps so Ctrl-C reaches the main thread at once.
        """
        while not (stop is not None and stop.is_set()):
            try:
                changed = self._batches.get(timeout=poll)
            except queue.Empty:
                continue
            while True:  # several bursts queued during a long rebuild make one round
                try:
                    changed |= self._batches.get_nowait()
                except queue.Empty:
                    return tuple(sorted(changed))
        return None


def _lasting(batch: Iterable[tuple[object, str]]) -> set[str]:
    """The paths of a burst without the temporary files an editor (or sed -i) made and removed
    within it: a path both added and gone is no change to the sources."""
    from watchfiles import Change

    added = {path for change, path in batch if change == Change.added}
    return {path for _change, path in batch if path not in added or Path(path).exists()}


def affected_games(changed: Iterable[str], slugs: Sequence[str]) -> list[str]:
    """The games an edit can have changed: a game's own data or templates touch that game;
    fonts and shared templates touch every game."""
    hit: set[str] = set()
    for path in changed:
        parts = Path(path).parts
        if len(parts) >= 3 and parts[0] in ("card_data", "templates") and parts[1] in slugs:
            hit.add(parts[1])
        elif len(parts) >= 3 and parts[0] == "card_data":
            continue  # a game that is not shown
        else:
            return list(slugs)
    return [slug for slug in slugs if slug in hit]


def timed(changed: tuple[str, ...], run: Callable[[tuple[str, ...]], T]) -> Round[T]:
    start = time.perf_counter()
    try:
        result = run(changed)
    except PnpError as exc:
        return Round(changed, None, exc, time.perf_counter() - start)
    return Round(changed, result, None, time.perf_counter() - start)


def rebuild_loop(workspace: Workspace, run: Callable[[tuple[str, ...]], T],
                 report: Callable[[Round[T]], None], stop: threading.Event | None = None,
                 ready: Callable[[], None] | None = None) -> None:
    """Run once, then once after every burst of changes, until ``stop`` is set (or Ctrl-C).

    ``ready`` is called each time the loop starts waiting for changes.
    """
    with Watcher(workspace) as watcher:
        report(timed((), run))
        while True:
            if ready is not None:
                ready()
            changed = watcher.next(stop)
            if changed is None:
                return
            log.info("changed: %s", ", ".join(changed))
            report(timed(changed, run))
