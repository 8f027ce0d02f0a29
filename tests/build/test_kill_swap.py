"""A build or export killed at any step of its swap is finished or undone by the next pnp run.

Each case makes outputs A, changes what they are built from, then runs the command that makes
outputs B in a real ``pnp`` process that kills itself (SIGKILL, nothing of Python runs after)
at step k of the swap, for every k: the fault point ``pnp.build.staging._swap_step`` is
replaced in that process only (see its docstring). Then any other pnp command runs, and the
output folder must hold exactly A's files (killed before the commit mark) or B's (after it),
compared by hash, with no journal, temporary or backup left, and a record that matches.
"""

from __future__ import annotations

import hashlib
import json
import re
import shutil
import signal
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.conftest import ROOT, edit, game_workspace

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="SIGKILL is POSIX")

# Replaces the fault point, then runs the command line as the `pnp` script does.
PROBE = """
import os, signal, sys
import pnp.build.staging as staging
def fault(step):
    if step == {step}:
        os.kill(os.getpid(), signal.{signal})
staging._swap_step = fault
sys.argv = ["pnp", *{args!r}]
import pnp.__main__
pnp.__main__.run()
"""
RECORD = ".pnp-build.json"


def pnp(root: Path, *args: str, step: int | None = None, sig: str = "SIGKILL") -> subprocess.CompletedProcess[str]:
    argv = ["--root", str(root), *args]
    if step is None:
        command = [sys.executable, "-m", "pnp", *argv]
    else:
        command = [sys.executable, "-c", PROBE.format(step=step, signal=sig, args=argv)]
    return subprocess.run(command, capture_output=True, text=True, timeout=300, cwd=root)


def snapshot(folder: Path) -> dict[str, str]:
    """Every file under ``folder``, hidden ones too (a leftover temporary shows), by hash; the
    record is left out (it holds the time of its build) and checked by :func:`assert_record_holds`."""
    return {path.relative_to(folder).as_posix(): hashlib.sha256(path.read_bytes()).hexdigest()
            for path in sorted(folder.rglob("*")) if path.is_file() and path.name != RECORD}


def record_holds(root: Path) -> bool:
    """The record's files are there, with the hashes it says."""
    record = json.loads((root / RECORD).read_text(encoding="utf-8"))
    return all((root / path).is_file() and hashlib.sha256((root / path).read_bytes()).hexdigest() == digest
               for output in record["outputs"].values() for path, digest in output["files"].items())


def restore(saved: Path, folder: Path) -> None:
    shutil.rmtree(folder, ignore_errors=True)
    shutil.copytree(saved, folder, symlinks=True)


def kill_at_every_step(tmp_path: Path, ws: Path, folder: Path, make: list[str],
                       change: Callable[[], None], next_run: list[str], next_run_makes: bool = False) -> int:
    """Make A, change, make B once whole; then for every step k restore A, make B killed at k,
    run ``next_run`` and compare (with B, if ``next_run_makes`` it). Returns how many steps
    were killed."""
    assert pnp(ws, *make).returncode == 0
    old = snapshot(folder)
    saved = tmp_path / "saved-a"
    shutil.copytree(folder, saved, symlinks=True)
    change()
    assert pnp(ws, *make).returncode == 0
    new = snapshot(folder)
    changed = {path for path in old.keys() | new.keys() if old.get(path) != new.get(path)}
    assert changed, "A and B must differ (and their records do) for a mix to show"
    record_root = folder if (folder / RECORD).exists() else ws / "output"
    mixes = 0
    step = 0
    while True:
        restore(saved, folder)
        killed = pnp(ws, *make, step=step)
        if killed.returncode == 0:
            break  # past the last step: the run finished
        assert killed.returncode == -signal.SIGKILL, killed.stderr
        cut = snapshot(folder)
        mixes += cut not in (old, new) or not record_holds(record_root)
        after = pnp(ws, *next_run)
        assert after.returncode == 0, after.stderr
        assert "Traceback" not in after.stderr
        if any(path.startswith(".pnp-swap.") for path in cut):  # killed before the journal went
            outcome = "rolled back" if step == 0 else "finished"
            assert f"a write that was cut short was {outcome}" in after.stderr, (step, after.stderr)
        assert snapshot(folder) == (new if next_run_makes or step else old), (step, after.stderr)
        assert record_holds(record_root), step
        step += 1
    assert step >= len(changed) + 3, step  # the journal, the commit mark, every rename, the record
    assert mixes, "no kill left a mix before recovery: the test did not reach the swap"
    return step


def tiling_workspace(tmp_path: Path) -> Path:
    """A workspace of the test game with two components (a board and a card): exports of a few files."""
    root = tmp_path / "ws"
    shutil.copytree(ROOT / "tests/fixtures/tiling_game", root / "card_data" / "tiling_game")
    (root / "templates").mkdir()
    # Six cards: a deck a tuck box is made for.
    edit(root / "card_data/tiling_game/components.yaml", "back: card_back\n    count: 1",
         "back: card_back\n    count: 6")
    return root


def recolour(ws: Path) -> Callable[[], None]:
    """Changes every face of tiling_game (each side's background), hence every file an export makes."""
    def change() -> None:
        path = ws / "card_data/tiling_game/components.yaml"
        text = path.read_text(encoding="utf-8")
        assert text.count("background: \"") >= 2
        # The first hex digit of each background, to another one.
        text = re.sub(r'background: "#([0-9a-fA-F])',
                      lambda m: 'background: "#' + ("1" if m.group(1) == "0" else "0"), text)
        path.write_text(text, encoding="utf-8")
    return change


def test_a_build_killed_at_any_step_is_whole_after_the_next_command(tmp_path: Path) -> None:
    ws = game_workspace(tmp_path, "tisigui", templates=True)
    # Another paper changes every PDF of the build, and the record.
    config = ws / "pnp.toml"

    def change() -> None:
        config.write_text('paper = "letter"\n', encoding="utf-8")
    steps = kill_at_every_step(tmp_path, ws, ws / "output", ["build", "tisigui", "--lang", "zh-Hant"], change,
                               ["list"])
    assert steps >= 6


@pytest.mark.parametrize("kind", ["tts", "print-shop", "contact", "tuckbox"])
def test_an_export_killed_at_any_step_is_whole_after_the_next_command(tmp_path: Path, kind: str) -> None:
    ws = tiling_workspace(tmp_path)
    make = ["export", kind, "tiling_game", "--lang", "zh-Hant"]
    change = recolour(ws)
    if kind == "tuckbox":  # one file: the paper changes it, and the record with it
        def change() -> None:
            (ws / "pnp.toml").write_text('paper = "letter"\n', encoding="utf-8")
    kill_at_every_step(tmp_path, ws, ws / "output", make, change, ["list"])


def test_a_contact_export_killed_in_a_folder_an_earlier_export_made_is_whole_again(tmp_path: Path) -> None:
    """--out DIR: the next write to DIR (any export there) finishes or undoes the killed one
    first; before, the folder was neither export and was then refused as not pnp's."""
    ws = tiling_workspace(tmp_path)
    make = ["export", "contact", "tiling_game", "--lang", "zh-Hant", "--out", "sheets-out"]
    kill_at_every_step(tmp_path, ws, ws / "sheets-out", make, recolour(ws), make, next_run_makes=True)


@pytest.mark.parametrize("sig", ["SIGTERM", "SIGINT"])
def test_sigterm_mid_swap_rolls_back_at_once_like_ctrl_c(tmp_path: Path, sig: str) -> None:
    ws = game_workspace(tmp_path, "tisigui", templates=True)
    make = ["build", "tisigui", "--lang", "zh-Hant"]
    assert pnp(ws, *make).returncode == 0
    old = snapshot(ws / "output")
    (ws / "pnp.toml").write_text('paper = "letter"\n', encoding="utf-8")
    stopped = pnp(ws, *make, step=3, sig=sig)  # two files already renamed
    assert stopped.returncode == 130, stopped.stderr
    assert "Traceback" not in stopped.stderr
    assert stopped.stderr.strip().splitlines()[-1] == "pnp: interrupted"
    assert snapshot(ws / "output") == old  # put back by the process itself: nothing to recover
    assert record_holds(ws / "output")
    assert "cut short" not in pnp(ws, "list").stderr


def test_the_probe_reaches_pnp(tmp_path: Path) -> None:
    """The fault point is the one the commit calls: a kill at step 0 really kills."""
    ws = tiling_workspace(tmp_path)
    done = pnp(ws, "export", "tuckbox", "tiling_game", "--lang", "zh-Hant", step=0)
    assert done.returncode == -signal.SIGKILL
    assert [path.name for path in (ws / "output").iterdir() if path.name.startswith(".pnp-swap.")]
