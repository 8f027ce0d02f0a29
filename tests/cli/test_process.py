"""Process-wide settings are the command line's: the library registers fonts and runs worker
pools without touching the garbage collector or a signal handler, and the ``pnp`` command
sets them up for itself (pnp.cli.process)."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from pnp.cli.play import POOL_SIGNALS
from pnp.core.workspace import BUNDLED_FONTS, Workspace
from pnp.play import simulate
from tests.conftest import ROOT

FREEZE_COUNT_AFTER_FONTS = textwrap.dedent("""
    import gc, sys
    from pathlib import Path
    if sys.argv[1] == "cli":
        from pnp.cli import process
        process.install()
    from pnp.text.fonts import load_family
    before = gc.get_freeze_count()
    load_family(Path(sys.argv[2]), "zh-Hant")
    from reportlab.pdfbase import pdfdoc
    print(before, gc.get_freeze_count(), pdfdoc.pdfdocEnc.__module__, pdfdoc.PDFName.__module__)
""")


def _after_fonts(entry: str) -> tuple[int, int, str, str]:
    """(objects frozen before, after) registering a family in a new interpreter, and the modules
    of the functions reportlab then encodes text and names with."""
    done = subprocess.run([sys.executable, "-c", FREEZE_COUNT_AFTER_FONTS, entry, str(BUNDLED_FONTS)],
                          capture_output=True, text=True, timeout=120, cwd=ROOT, check=True)
    before, after, encoding, names = done.stdout.split()
    return int(before), int(after), encoding, names


def test_registering_fonts_leaves_the_collector_and_reportlab_alone() -> None:
    assert _after_fonts("library") == (0, 0, "reportlab.pdfbase.pdfdoc", "reportlab.pdfbase.pdfdoc")


def test_the_command_line_freezes_the_collector_once_fonts_are_registered() -> None:
    before, after, encoding, names = _after_fonts("cli")
    assert before == 0
    assert after > 0  # everything alive then, the faces' tables among it
    assert encoding == names == "pnp.render.pdfencoding"


COLLECTOR_AFTER_A_COMMAND = textwrap.dedent("""
    import gc, sys
    from pnp.__main__ import run
    sys.argv = ["pnp", "--root", sys.argv[1], "list"]
    try:
        run()
    except SystemExit:
        pass
    print(gc.isenabled(), gc.get_freeze_count())
""")


def test_the_command_starts_without_collecting_then_collects_what_it_makes() -> None:
    """The ``pnp`` script imports with the collector off; the command runs with it on, the
    start-up's objects frozen (``list`` registers no font, so nothing else froze them)."""
    done = subprocess.run([sys.executable, "-c", COLLECTOR_AFTER_A_COMMAND, str(ROOT)],
                          capture_output=True, text=True, timeout=120, cwd=ROOT, check=True)
    enabled, frozen = done.stdout.split()[-2:]
    assert enabled == "True"
    assert int(frozen) > 10_000  # the modules of the command line and of the command


def _handlers_while_pooled(signals: simulate.PoolSignals) -> list[tuple[object, bool]]:
    """(SIGTERM's handler, whether SIGINT is blocked) in this process each time a chunk of a
    pooled simulation comes back."""
    seen: list[tuple[object, bool]] = []

    def progress(count: int) -> None:
        blocked = signal.SIGINT in signal.pthread_sigmask(signal.SIG_BLOCK, [])
        seen.append((signal.getsignal(signal.SIGTERM), blocked))

    simulate.simulate(Workspace(ROOT), "niutouwang", simulate.PARALLEL_FROM, jobs=2, progress=progress,
                      signals=signals)
    return seen


@pytest.mark.skipif(not hasattr(signal, "pthread_sigmask"), reason="POSIX signal masks")
def test_a_worker_pool_changes_no_signal_handling_of_its_own() -> None:
    before = signal.getsignal(signal.SIGTERM)
    seen = _handlers_while_pooled(simulate.NO_SIGNALS)
    assert seen and set(seen) == {(before, False)}
    assert signal.getsignal(signal.SIGTERM) == before


@pytest.mark.skipif(not hasattr(signal, "pthread_sigmask"), reason="POSIX signal masks")
def test_the_command_lines_pool_turns_sigterm_into_an_unwinding_exit_while_it_runs() -> None:
    before = signal.getsignal(signal.SIGTERM)
    seen = _handlers_while_pooled(POOL_SIGNALS)
    assert seen and all(handler not in (before, signal.SIG_DFL) and not blocked for handler, blocked in seen)
    assert signal.getsignal(signal.SIGTERM) == before  # undone once the pool is gone


# The ``pnp`` script running one command, with an atexit handler of its own that prints a
# line the usual end of the interpreter would run and an ended-at-once process skips; a
# thread left waiting (a daemon: the usual end does not wait for it) when asked.
ENDING = textwrap.dedent("""
    import atexit, os, sys, threading
    from pnp.__main__ import run
    atexit.register(lambda: os.write(2, b"torn down\\n"))
    if sys.argv[1] == "thread":
        threading.Thread(target=threading.Event().wait, daemon=True).start()
    sys.argv = ["pnp", "--root", *sys.argv[2:]]
    run()
""")


def _ended(how: str, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-c", ENDING, how, *args], capture_output=True, text=True,
                          timeout=300, cwd=ROOT)


def test_a_build_ends_its_process_at_once_with_its_report_written_whole(tmp_path) -> None:
    out = tmp_path / "out"
    done = _ended("alone", str(ROOT), "build", "tisigui", "--lang", "zh-Hant", "--out", str(out),
                  "--format", "json")
    assert done.returncode == 0, done.stderr
    assert "torn down" not in done.stderr  # no teardown, so no atexit handler either
    report = json.loads(done.stdout)  # flushed whole before the end
    assert {Path(item["path"]).name for item in report["written"]} >= {"components.pdf", "rulebook.pdf", "aid.pdf"}
    assert (out / "tisigui" / "zh-Hant" / "components.pdf").stat().st_size > 10_000


def test_other_commands_failed_builds_and_builds_that_leave_a_thread_end_as_usual(tmp_path) -> None:
    listed = _ended("alone", str(ROOT), "list")
    assert listed.returncode == 0 and "torn down" in listed.stderr
    failed = _ended("alone", str(tmp_path), "build", "tisigui")  # no workspace there
    assert failed.returncode == 1 and "torn down" in failed.stderr
    threaded = _ended("thread", str(ROOT), "build", "tisigui", "--lang", "zh-Hant", "--out", str(tmp_path / "out"))
    assert threaded.returncode == 0 and "torn down" in threaded.stderr
