"""Ctrl-C stops ``pnp simulate`` with worker processes at once: no traceback, nothing left running."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import click
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


# Ctrl-C while the command line is still being imported: the process sends itself SIGINT at
# the first import of a module the command line needs, so the moment is the same every run.
STARTUP_PROBE = """
import builtins, os, signal, sys
real_import = builtins.__import__
def importing(name, *args, **kwargs):
    if name == {module!r}:
        builtins.__import__ = real_import
        os.kill(os.getpid(), signal.SIGINT)
    return real_import(name, *args, **kwargs)
builtins.__import__ = importing
sys.argv = ["pnp", "--root", {root!r}, *{args!r}]
import pnp.__main__
pnp.__main__.run()
print("not interrupted")
"""


@pytest.mark.parametrize(("module", "args"), [
    ("click", ["--help"]),  # pnp.cli's own imports
    ("yaml", ["list"]),  # the data loader, imported by a command after the handler changed
    ("tomllib", ["list"]),  # pnp.toml, read while click parses
])
def test_ctrl_c_during_start_up_stops_quietly(module: str, args: list[str]) -> None:
    probe = STARTUP_PROBE.format(module=module, root=str(ROOT), args=args)
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=120,
                          preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    assert done.returncode == 130, done.stderr
    assert done.stderr.strip() == "pnp: interrupted"
    assert "not interrupted" not in done.stdout


@pytest.mark.parametrize("entry", ["module", "script"])
def test_ctrl_c_at_any_moment_of_a_short_command(entry: str) -> None:
    """Real Ctrl-C at spread-out moments of `pnp list`, from interpreter start to the end.
    Before pnp's first line Python itself owns SIGINT (its traceback then names no pnp
    module); from pnp's first line on, every interruption is the one quiet line."""
    script = Path(sys.executable).with_name("pnp")
    if entry == "script" and not script.exists():
        pytest.skip("the pnp script is not installed beside this Python")
    command = [sys.executable, "-m", "pnp"] if entry == "module" else [str(script)]
    for delay in (0.05, 0.1, 0.15, 0.2, 0.3, 0.4, 0.6, 0.9, 1.5):
        proc = subprocess.Popen([*command, "--root", str(ROOT), "list"], stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, text=True,
                                preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
        time.sleep(delay)
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=60)
        if proc.returncode == 0:
            assert "tisigui" in out  # finished before Ctrl-C
            continue
        if "Traceback" in err:  # still in Python's own start-up, before pnp's code ran
            assert f"{os.sep}pnp{os.sep}" not in err.split("Traceback", 1)[1], err
            continue
        # 130, or death by SIGINT itself (which a shell shows as 130 too): CPython 3.11 marks
        # the process for that when Ctrl-C lands in code run by exec() (dataclasses build
        # their methods so while pnp's modules import), even though pnp handles it.
        assert proc.returncode in (130, -signal.SIGINT), (delay, err)
        assert err.strip() == "pnp: interrupted", (delay, err)


def test_ctrl_c_wrapped_by_python_while_a_command_module_is_imported_is_the_quiet_line() -> None:
    # Python 3.11 raises RuntimeError("Error calling __set_name__ ...") from a KeyboardInterrupt
    # that lands while a dataclass is made: Ctrl-C all the same, not a traceback.
    from click.testing import CliRunner

    from pnp.cli import LazyGroup

    @click.command()
    def slow() -> None:
        try:
            raise KeyboardInterrupt
        except KeyboardInterrupt as exc:
            raise RuntimeError("Error calling __set_name__ on 'Field' instance") from exc

    class OneCommand(LazyGroup):
        def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
            return slow if cmd_name == "slow" else None

    done = CliRunner().invoke(OneCommand(), ["slow"])
    assert done.exit_code == 130, done.output
    assert "pnp: interrupted" in done.output
