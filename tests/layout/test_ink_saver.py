"""``--ink saver``: the same sheets with dark fills printed as light tints, read back from the
PDFs: a rasterised back carries far less ink, and every word still extracts as before."""

from __future__ import annotations

import io

import pypdfium2 as pdfium
import pytest
from PIL import ImageStat
from pypdf import PdfReader

from pnp.build.pipeline import DEFAULT_SHEET, SheetOptions, _options, load_games, render_game
from pnp.core.workspace import Workspace
from pnp.games.registry import tables_from_engine
from pnp.render.ink import ink_color, luminance
from tests.conftest import ROOT


def components(slug: str, ink: str) -> bytes:
    workspace = Workspace(ROOT)
    (game,) = load_games(workspace, [slug], tables_from_engine)
    (artifact,) = render_game(workspace, game, "zh-Hant", "a4", kinds=["components"],
                              sheet=SheetOptions(ink=ink))
    return artifact.data


@pytest.fixture(scope="module", params=["tisigui", "niutouwang"])
def pair(request) -> tuple[str, bytes, bytes]:
    return request.param, components(request.param, "full"), components(request.param, "saver")


def darkness(pdf: bytes, page: int) -> float:
    """Mean ink of a page rasterised at 30 dpi: 0 white paper, 1 solid black."""
    document = pdfium.PdfDocument(pdf)
    try:
        image = document[page].render(scale=30 / 72, fill_color=(255, 255, 255, 255)).to_pil()
    finally:
        document.close()
    (mean,) = ImageStat.Stat(image.convert("L")).mean
    return 1 - mean / 255


# A back page of dark full-bleed card backs in each game: tisigui's identity cards (the back of
# sheet 4) and niutouwang's number cards (the back of sheet 1).
BACKS = {"tisigui": 7, "niutouwang": 1}  # page indices


def test_a_dark_back_sheet_takes_far_less_ink(pair):
    slug, full, saver = pair
    page = BACKS[slug]
    assert darkness(full, page) > 0.35, "the design's backs are dark (is this the right page?)"
    assert darkness(saver, page) < darkness(full, page) / 3


def test_the_whole_file_takes_less_ink_and_keeps_its_pages(pair):
    _, full, saver = pair
    pages = len(PdfReader(io.BytesIO(full)).pages)
    assert len(PdfReader(io.BytesIO(saver)).pages) == pages
    assert sum(darkness(saver, p) for p in range(pages)) < 0.6 * sum(darkness(full, p) for p in range(pages))


def test_every_word_still_extracts(pair):
    _, full, saver = pair
    full_text = [page.extract_text() for page in PdfReader(io.BytesIO(full)).pages]
    saver_text = [page.extract_text() for page in PdfReader(io.BytesIO(saver)).pages]
    assert saver_text == full_text
    assert any("誰是牛頭王" in text or "替死鬼" in text for text in saver_text)


def test_light_text_turns_dark_and_dark_fills_turn_light():
    cream, navy = "#f2e3c2", "#221c2e"
    assert luminance(ink_color(navy, "fill", "saver")) > 0.7
    assert luminance(ink_color(cream, "text", "saver")) < 0.1
    # Dark text and light fills are left as designed; so is everything in full ink.
    assert ink_color(navy, "text", "saver") == navy
    assert ink_color(cream, "fill", "saver") == cream
    assert ink_color(navy, "fill", "full") == navy


def test_the_build_record_names_the_ink_only_when_it_is_not_the_default():
    assert "ink" not in _options("a4", DEFAULT_SHEET)
    assert _options("a4", SheetOptions(ink="saver"))["ink"] == "saver"


def test_pnp_toml_ink_saver_is_the_builds_default_and_the_command_line_wins(workspace_copy):
    from click.testing import CliRunner

    from pnp.cli import cli

    def build(*args: str) -> bytes:
        result = CliRunner().invoke(cli, ["--root", str(workspace_copy), "build", "tisigui", "--lang",
                                          "zh-Hant", *args])
        assert result.exit_code == 0, result.output
        return (workspace_copy / "output" / "tisigui" / "zh-Hant" / "components.pdf").read_bytes()

    (workspace_copy / "pnp.toml").write_text('ink = "saver"\n', encoding="utf-8")
    saver = build()
    full = build("--ink", "full")
    assert darkness(saver, BACKS["tisigui"]) < 0.5 * darkness(full, BACKS["tisigui"])
    # The same file as --ink saver on the command line (builds are deterministic).
    assert build("--ink", "saver") == saver


def test_a_bad_ink_in_pnp_toml_is_located(workspace_copy):
    from click.testing import CliRunner

    from pnp.cli import cli

    (workspace_copy / "pnp.toml").write_text('paper = "a4"\nink = "light"\n', encoding="utf-8")
    result = CliRunner().invoke(cli, ["--root", str(workspace_copy), "build", "tisigui"])
    assert result.exit_code == 1
    assert "pnp.toml:2: ink: expected one of full, saver, got 'light'" in result.output
    assert "Traceback" not in result.output
    assert not (workspace_copy / "output" / "tisigui").exists()
