"""pnp simulate --format pdf: the balance report typeset like the rulebook, its figures and its
chart labels in the text of the pages, and --format text for people."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner
from pypdf import PdfReader

from pnp.cli import cli

ARGS = ["simulate", "niutouwang", "--sweep", "rules.row_limit=5,7", "--players", "4", "--games", "60",
        "--jobs", "1"]


def test_pdf_report_holds_the_figures_and_the_charts(tmp_path: Path) -> None:
    out = tmp_path / "balance.pdf"
    runner = CliRunner()
    result = runner.invoke(cli, [*ARGS, "--format", "pdf", "--out", str(out)], catch_exceptions=False)
    assert result.exit_code == 0, result.output
    data = json.loads(runner.invoke(cli, [*ARGS, "--format", "json"]).stdout)
    reader = PdfReader(out)
    text = "\n".join(page.extract_text() for page in reader.pages)
    assert "balance report" in text and "Welch's t-test" in text
    for section in data["settings"]:
        winning = section["scores"]["winning"]
        assert f"{winning['value']:.2f} ({winning['low']:.2f} – {winning['high']:.2f})" in text
        assert f"Win share by seat: {section['label'].replace('_', ' ')}"[:20] in text
    # The book's page furniture: the game's title and version run at the top of every page.
    assert all("SP" in page.extract_text() for page in reader.pages)
    again = tmp_path / "again.pdf"
    runner.invoke(cli, [*ARGS, "--format", "pdf", "--out", str(again)], catch_exceptions=False)
    assert again.read_bytes() == out.read_bytes()


def test_text_report_shows_intervals_and_flags() -> None:
    result = CliRunner().invoke(cli, ARGS, catch_exceptions=False)
    assert result.exit_code == 0
    assert "row_limit=5, 4 players" in result.stdout and "(95 % intervals)" in result.stdout
    assert "Welch's t-test" in result.stdout or "Nothing significant at 95 %" in result.stdout
