"""What bench_images.py and bench_vertical.py share: a private copy of tisigui's workspace
(edited by the caller), and the CPU time of one cold `pnp build tisigui --lang all` of it."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def build_cpu(root: Path) -> float:
    """User plus system CPU seconds of one build in a new process (os.wait4: that process
    alone), pnp's disk cache off."""
    out = Path(tempfile.mkdtemp(prefix="bench-build-"))
    env = {**os.environ, "PNP_CACHE_DIR": ""}
    proc = subprocess.Popen([sys.executable, "-m", "pnp", "--root", str(root), "-q", "build", "tisigui",
                             "--lang", "all", "--force", "--out", str(out)], env=env,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _, status, usage = os.wait4(proc.pid, 0)
    assert status == 0, "build failed"
    shutil.rmtree(out)
    return usage.ru_utime + usage.ru_stime


def workspace(edit: Callable[[str], str] | None = None) -> Path:
    """A copy of tisigui's card data and templates, its components.yaml through ``edit``."""
    root = Path(tempfile.mkdtemp(prefix="bench-ws-"))
    shutil.copytree(ROOT / "card_data" / "tisigui", root / "card_data" / "tisigui")
    shutil.copytree(ROOT / "templates" / "tisigui", root / "templates" / "tisigui")
    if edit is not None:
        components = root / "card_data" / "tisigui" / "components.yaml"
        components.write_text(edit(components.read_text(encoding="utf-8")), encoding="utf-8")
    return root
