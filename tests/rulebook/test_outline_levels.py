"""A rulebook whose headings skip a level (opening on ``##``, or ``#`` then ``####``) still
builds: the PDF outline nests one level at a time (issue 13; reportlab raised ValueError)."""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner
from pypdf import PdfReader

from pnp.cli import cli
from tests.conftest import edit


def _depths(items: list, depth: int = 0) -> list[tuple[str, int]]:  # type: ignore[type-arg]
    out: list[tuple[str, int]] = []
    for item in items:
        if isinstance(item, list):
            out += _depths(item, depth + 1)
        else:
            out.append((item.title, depth))
    return out


def test_rulebook_opening_on_a_second_level_heading_builds(workspace_copy: Path) -> None:
    template = workspace_copy / "templates" / "tisigui" / "rulebook.md.j2"
    edit(template, "\n# {{ game.name }}\n", "\n## {{ game.name }}\n")
    edit(template, "\n## 故事背景\n", "\n#### 故事背景\n")
    result = CliRunner().invoke(cli, ["--root", str(workspace_copy), "build", "tisigui",
                                      "--lang", "zh-Hant"])
    assert result.exit_code == 0, result.output
    assert "Traceback" not in result.output
    pdf = workspace_copy / "output" / "tisigui" / "zh-Hant" / "rulebook.pdf"
    depths = _depths(PdfReader(pdf).outline)
    # The "##" title is the outline's first, top-level entry; the "####" under it sits one
    # level down, beside the "##" sections that follow.
    assert depths[0] == ("替死鬼", 0)
    assert depths[1] == ("故事背景", 1)
    assert depths[2][1] == 1
