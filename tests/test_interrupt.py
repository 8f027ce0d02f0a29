"""Ctrl-C stops ``pnp simulate`` with worker processes at once: no traceback, nothing left running."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.conftest import ROOT

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="process groups are POSIX")


def group_members(pgid: int) -> list[int]:
    """Live (not zombie) processes whose process group is ``pgid``."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        # Fields after the parenthesised command: state, ppid, pgrp, ...
        state, _ppid, pgrp = stat.rsplit(")", 1)[1].split()[:3]
        if int(pgrp) == pgid and state != "Z":
            found.append(int(entry.name))
    return found


def wait_for(condition, limit: float) -> bool:  # type: ignore[no-untyped-def]
    end = time.monotonic() + limit
    while time.monotonic() < end:
        if condition():
            return True
        time.sleep(0.05)
    return condition()


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="needs /proc")
def test_ctrl_c_stops_simulate_and_its_workers() -> None:
    command = [sys.executable, "-m", "pnp", "--root", str(ROOT), "simulate", "tisigui",
               "--games", "100000", "--jobs", "2"]
    proc = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            process_group=0,
                            # a shell may have started us with SIGINT ignored; a user's
                            # terminal would not have
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    try:
        # The parent and both workers are up and playing before Ctrl-C arrives.
        assert wait_for(lambda: len(group_members(proc.pid)) >= 3, 60), "workers never started"
        os.killpg(proc.pid, signal.SIGINT)  # what a terminal sends on Ctrl-C
        # A hang bound, not a benchmark: a pool that ignores Ctrl-C runs for minutes.
        out, err = proc.communicate(timeout=5)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
    text = err.decode()
    assert proc.returncode == 130, text
    assert "Traceback" not in text, text
    assert text.strip() == "pnp: interrupted"
    assert wait_for(lambda: not group_members(proc.pid), 2), "worker processes left behind"


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="needs /proc")
def test_sigterm_takes_the_workers_down_too() -> None:
    command = [sys.executable, "-m", "pnp", "--root", str(ROOT), "simulate", "tisigui",
               "--games", "100000", "--jobs", "2"]
    proc = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            process_group=0)
    try:
        assert wait_for(lambda: len(group_members(proc.pid)) >= 3, 60), "workers never started"
        proc.terminate()  # the parent alone, as `kill PID` does
        proc.communicate(timeout=5)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
    assert wait_for(lambda: not group_members(proc.pid), 2), "worker processes left behind"
