"""A long-running ``pnp`` in a subprocess (serve, build --watch) whose output a test waits on."""

from __future__ import annotations

import queue
import re
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path


class Live:
    """``python -m pnp ARGS`` in ``cwd``, stdout and stderr merged and read line by line."""

    def __init__(self, *args: str, cwd: Path) -> None:
        self.process = subprocess.Popen([sys.executable, "-m", "pnp", *args], cwd=cwd, stdin=subprocess.DEVNULL,
                                        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                                        encoding="utf-8")
        self.lines: list[str] = []
        self._queue: queue.Queue[str | None] = queue.Queue()
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()

    def _read(self) -> None:
        assert self.process.stdout is not None
        for line in self.process.stdout:
            self._queue.put(line.rstrip("\n"))
        self._queue.put(None)

    def expect(self, pattern: str, timeout: float) -> re.Match[str]:
        """The first new line matching ``pattern``; fails with everything read after ``timeout`` s."""
        deadline = time.monotonic() + timeout
        while True:
            left = deadline - time.monotonic()
            try:
                line = self._queue.get(timeout=max(left, 0.01))
            except queue.Empty:
                line = ""
                if left <= 0:
                    raise AssertionError(f"no line matching {pattern!r} in {timeout} s; output:\n"
                                         + "\n".join(self.lines)) from None
                continue
            if line is None:
                raise AssertionError(f"pnp ended before printing {pattern!r}; output:\n" + "\n".join(self.lines))
            self.lines.append(line)
            match = re.search(pattern, line)
            if match:
                return match

    def interrupt(self, timeout: float = 30) -> int:
        """Ctrl-C, as a terminal sends it; the exit status once pnp has ended and its output is read."""
        self.process.send_signal(signal.SIGINT)
        status = self.process.wait(timeout=timeout)
        self._reader.join(timeout=5)
        while True:
            try:
                line = self._queue.get_nowait()
            except queue.Empty:
                break
            if line is not None:
                self.lines.append(line)
        return status

    @property
    def output(self) -> str:
        return "\n".join(self.lines)

    def close(self) -> None:
        if self.process.poll() is None:
            self.process.kill()
            self.process.wait(timeout=10)
        if self.process.stdout is not None:
            self.process.stdout.close()
