"""``pnp build --watch``: builds, rebuilds after a save, reports a broken save, stops on Ctrl-C."""

from __future__ import annotations

import hashlib
from pathlib import Path

from tests.conftest import edit
from tests.liveproc import Live


def _digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def test_build_watch_rebuilds_on_save_and_survives_a_broken_save(workspace_copy: Path) -> None:
    components = workspace_copy / "card_data" / "tisigui" / "components.yaml"
    pdf = workspace_copy / "output" / "tisigui" / "zh-Hant" / "components.pdf"
    live = Live("build", "tisigui", "--lang", "zh-Hant", "--watch", cwd=workspace_copy)
    try:
        live.expect(r"^watching card_data/, templates/ and fonts/", timeout=180)
        assert "components.pdf rebuilt" in live.output
        first = _digest(pdf)

        edit(components, "title: 碟仙,", "title: 碟仙王,")
        live.expect(r"^changed: card_data/tisigui/components\.yaml$", timeout=60)
        live.expect(r"components\.pdf rebuilt", timeout=180)
        live.expect(r"^done in \d+\.\d s$", timeout=60)
        live.expect(r"^watching", timeout=30)
        edited = _digest(pdf)
        assert edited != first

        lines = components.read_text(encoding="utf-8").splitlines()
        line = next(number for number, text in enumerate(lines, start=1) if "title: 碟仙王," in text)
        edit(components, "title: 碟仙王,", "title: [碟仙王,")
        live.expect(r"^Error: 1 problem found:$", timeout=60)
        # The parser names the line where it noticed: the edited one, or the next when the
        # unclosed bracket swallows the rest of a long flow mapping.
        live.expect(rf"components\.yaml:({line}|{line + 1}): malformed YAML", timeout=10)
        live.expect(r"^failed in \d+\.\d s$", timeout=10)
        live.expect(r"^watching", timeout=10)
        assert _digest(pdf) == edited  # a broken save writes nothing

        status = live.interrupt()
        assert status == 0, live.output
        assert live.lines[-1] == "stopped watching"
        assert "Traceback" not in live.output
    finally:
        live.close()
