"""Where a single-file --out may go (issue 23): anywhere of the user's, the workspace root
included (a file there is not the output folder), never into the game's sources."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from pypdf import PdfReader

ROOT = Path(__file__).resolve().parents[2]


def _pnp(cwd: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.run([sys.executable, "-m", "pnp", *args], cwd=cwd, env=env, capture_output=True,
                          text=True, timeout=300, stdin=subprocess.DEVNULL)


def test_calibrate_out_a_file_in_the_workspace_root(tmp_path: Path) -> None:
    root = tmp_path / "ws"
    (root / "card_data").mkdir(parents=True)
    done = _pnp(root, "calibrate", "--out", "cal.pdf")
    assert done.returncode == 0, done.stderr
    assert "workspace root" not in done.stdout + done.stderr
    reader = PdfReader(root / "cal.pdf")
    assert len(reader.pages) == 2  # the duplex sheet: front and back
    assert sorted(p.name for p in root.iterdir()) == ["cal.pdf", "card_data"]


def test_calibrate_out_beside_the_workspace_is_the_users_choice(tmp_path: Path) -> None:
    root = tmp_path / "ws"
    (root / "card_data").mkdir(parents=True)
    done = _pnp(root, "calibrate", "--out", "../beside.pdf")
    assert done.returncode == 0, done.stderr
    assert len(PdfReader(tmp_path / "beside.pdf").pages) == 2


def test_calibrate_out_over_a_source_is_refused(tmp_path: Path) -> None:
    root = tmp_path / "ws"
    (root / "card_data" / "g").mkdir(parents=True)
    (root / "card_data" / "g" / "game.yaml").write_text("mine\n", encoding="utf-8")
    done = _pnp(root, "calibrate", "--out", "card_data/g/game.yaml")
    assert done.returncode == 1 and "Traceback" not in done.stderr, done.stderr
    assert "card_data/g/game.yaml" in done.stderr and "inside card_data/" in done.stderr
    assert (root / "card_data" / "g" / "game.yaml").read_text(encoding="utf-8") == "mine\n"
