"""How ``pnp build`` shows its progress and its outcome on stderr (the CLI side of the build).

On a terminal one status line is redrawn in place; when stderr is piped or captured, each step
is a plain line, so logs stay readable.
"""

from __future__ import annotations

import sys
from typing import TextIO

import click

from pnp.build.pipeline import BuildReport, Progress
from pnp.build.staging import Recovery


class BuildProgress:
    def __init__(self, stream: TextIO | None = None) -> None:
        self.stream = stream or sys.stderr
        self.live = self.stream.isatty()
        self._drawn = False

    def __call__(self, event: Progress) -> None:
        if event.stage == "render":
            text = f"[{event.done + 1}/{event.total}] rendering {event.slug} {event.lang}: {', '.join(event.outputs)}"
        elif event.stage == "write":
            text = "writing the outputs"
        else:
            self._end()
            return
        if self.live:
            width = max(20, _columns() - 1)
            self.stream.write("\r\x1b[K" + text[:width])
            self._drawn = True
        else:
            self.stream.write(text + "\n")
        self.stream.flush()

    def _end(self) -> None:
        if self._drawn:
            self.stream.write("\r\x1b[K")
            self.stream.flush()
            self._drawn = False

    def summary(self, report: BuildReport) -> None:
        """One line per game and script: what was rebuilt and why, what was up to date."""
        self._end()
        lines: dict[tuple[str, str], list[str]] = {}
        removed = {str(path.relative_to(path.parents[2])) if len(path.parents) > 2 else str(path)
                   for path in report.removed}
        for outcome in report.outcomes:
            out = outcome.output
            if outcome.status == "up-to-date":
                text = f"{out.label} up to date"
            elif outcome.status == "no-template":
                gone = f"{out.slug}/{out.lang}/{out.label}" in removed
                what = (out.kind.title or out.kind.name).lower()
                text = f"no {what} ({outcome.reason}{f'; removed the old {out.label}' if gone else ''})"
            else:
                text = f"{out.label} rebuilt ({outcome.reason})"
            lines.setdefault((out.slug, out.lang), []).append(text)
        for (slug, lang), parts in lines.items():
            click.echo(f"{slug} {lang}: {'; '.join(parts)}", err=True)
        for recovery in report.recovered:
            click.echo(recovered_line(recovery), err=True)


def recovered_line(recovery: Recovery) -> str:
    """What became of a write a killed pnp left unfinished."""
    return f"pnp: {recovery.journal.parent}: a write that was cut short was {recovery.outcome}"


def _columns() -> int:
    import shutil

    return shutil.get_terminal_size((80, 20)).columns


def outcomes_json(report: BuildReport) -> list[dict[str, str | None]]:
    """Each output of a build or an export: its game (None for a kind that is not a game's),
    script, kind (``output``), status and why."""
    return [{"game": o.output.slug or None, "lang": o.output.lang, "output": o.output.kind.name,
             "status": o.status, "reason": o.reason} for o in report.outcomes]


class GamesProgress:
    """A sweep's progress on a terminal: games done of the total, games a second and the time
    left, redrawn in place at most a few times a second. Nothing when stderr is not a terminal
    (a log gets the report, not a stream of carriage returns)."""

    def __init__(self, label: str, stream: TextIO | None = None) -> None:
        self.stream = stream or sys.stderr
        self.live = self.stream.isatty()
        self.label = label
        self.total = 0
        self.done = 0
        self._began = 0.0
        self._drawn_at = 0.0

    def start(self, total: int) -> None:
        import time

        self.total = total
        self._began = self._drawn_at = time.monotonic()

    def update(self, games: int) -> None:
        import time

        self.done += games
        now = time.monotonic()
        if self.live and (now - self._drawn_at >= 0.2 or self.done >= self.total):
            self._drawn_at = now
            self.stream.write("\r\x1b[K" + progress_line(self.label, self.done, self.total, now - self._began))
            self.stream.flush()

    def end(self) -> None:
        if self.live and self.done:
            self.stream.write("\r\x1b[K")
            self.stream.flush()


def progress_line(label: str, done: int, total: int, seconds: float) -> str:
    """``niutouwang: playing 1,200/12,000 games, 850 games/s, 13 s left``."""
    rate = done / seconds if seconds > 0 else 0.0
    left = (total - done) / rate if rate > 0 else None
    when = "?" if left is None else f"{left:.0f} s" if left < 120 else f"{left / 60:.0f} min"
    return f"{label} {done:,}/{total:,} games, {rate:,.0f} games/s, {when} left"
