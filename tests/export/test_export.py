"""pnp export: Tabletop Simulator sheets, print-shop files and contact sheets, read back from
the files written (PNG sizes with Pillow, PDF boxes with pypdf)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner
from PIL import Image
from pypdf import PdfReader

from pnp.cli import cli
from tests.conftest import ROOT

PT_PER_MM = 72 / 25.4


def export(*args: str) -> None:
    result = CliRunner().invoke(cli, ["--root", str(ROOT), "export", *args])
    assert result.exit_code == 0, result.output


@pytest.fixture(scope="module")
def tts(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("tts") / "tts"
    export("tts", "niutouwang", "--lang", "zh-Hant", "--out", str(out))
    return out


def test_tts_sheets_hold_every_number_card_within_tts_limits(tts: Path) -> None:
    manifest = json.loads((tts / "manifest.json").read_text(encoding="utf-8"))
    decks = {deck["component"]: deck for deck in manifest["decks"]}
    cards = decks["cards"]
    assert sum(sheet["count"] for sheet in cards["sheets"]) == 104 == cards["count"]
    for deck in manifest["decks"]:
        cell_w, cell_h = deck["card_px"]
        for sheet in deck["sheets"]:
            assert 1 <= sheet["columns"] <= 10 and 1 <= sheet["rows"] <= 7
            assert sheet["count"] <= sheet["columns"] * sheet["rows"]
            assert sheet["count"] > (sheet["rows"] - 1) * sheet["columns"]  # no empty row
            with Image.open(tts / sheet["file"]) as image:
                assert max(image.size) <= 4096
                assert image.size == (sheet["columns"] * cell_w, sheet["rows"] * cell_h)
        back = deck["back"] or deck["sheets"][0]["back"]
        assert (tts / back).is_file()
    # The number cards share one back, of one card's size.
    with Image.open(tts / cards["back"]) as image:
        assert image.size == tuple(cards["card_px"])


def test_tts_cells_are_the_cards_in_deck_order(tts: Path) -> None:
    """Card 1 (one head, white) and card 55 (seven heads, purple) differ; cards 1 and 2 share a
    frame colour: compare the mean colour of cells, read from the written sheet."""
    manifest = json.loads((tts / "manifest.json").read_text(encoding="utf-8"))
    cards = next(deck for deck in manifest["decks"] if deck["component"] == "cards")
    w, h = cards["card_px"]
    with Image.open(tts / cards["sheets"][0]["file"]) as sheet:
        def cell(n: int) -> tuple[float, ...]:
            index = n - 1
            box = ((index % 10) * w, (index // 10) * h, (index % 10 + 1) * w, (index // 10 + 1) * h)
            small = sheet.crop(box).convert("RGB").resize((1, 1), Image.Resampling.BOX)
            return small.getpixel((0, 0))

        def distance(a: tuple[float, ...], b: tuple[float, ...]) -> float:
            return sum(abs(x - y) for x, y in zip(a, b, strict=True))

        assert distance(cell(1), cell(2)) < 10
        assert distance(cell(1), cell(55)) > 30


def test_print_shop_pdfs_have_trim_and_bleed_boxes_and_png_sizes(tmp_path: Path) -> None:
    out = tmp_path / "ps"
    export("print-shop", "tisigui", "--lang", "zh-Hant", "--out", str(out))
    reader = PdfReader(out / "identity.pdf")
    # 6 identity cards (1 ghost, 5 humans), each a front page and a back page.
    assert len(reader.pages) == 12
    bleed = 3 * PT_PER_MM
    for page in reader.pages:
        assert [float(v) for v in page.mediabox] == pytest.approx([0, 0, 69 * PT_PER_MM, 94 * PT_PER_MM], abs=0.01)
        assert [float(v) for v in page.bleedbox] == pytest.approx([float(v) for v in page.mediabox], abs=0.01)
        assert [float(v) for v in page.trimbox] == pytest.approx(
            [bleed, bleed, bleed + 63 * PT_PER_MM, bleed + 88 * PT_PER_MM], abs=0.01)
    # 63×88 mm with 3 mm bleed at 300 dpi is the 815×1110 px print shops ask for.
    names = sorted(p.name for p in out.glob("identity-*.png"))
    assert names == ["identity-01-ghost-front.png", "identity-02-human-x5-front.png", "identity-back.png"]
    for name in names:
        with Image.open(out / name) as image:
            assert image.size == (815, 1110)
            assert round(image.info["dpi"][0]) == 300


def test_contact_sheet_per_component_and_same_bytes_twice(tmp_path: Path) -> None:
    export("contact", "tisigui", "--lang", "zh-Hans", "--out", str(tmp_path / "a"))
    export("contact", "tisigui", "--lang", "zh-Hans", "--out", str(tmp_path / "b"))
    files = sorted(p.name for p in (tmp_path / "a").glob("*.png"))
    components = ["identity", "reference", "shield", "board", "plate", "score", "question", "cube", "big_die",
                  "small_die"]
    assert files == sorted(f"{name}.png" for name in components)
    for name in files:
        assert (tmp_path / "a" / name).read_bytes() == (tmp_path / "b" / name).read_bytes()


def test_export_replaces_its_own_folder_but_never_a_foreign_one(tmp_path: Path) -> None:
    out = tmp_path / "mine"
    export("contact", "tisigui", "--lang", "zh-Hans", "--out", str(out))
    (out / "stale.png").write_bytes(b"old")
    export("contact", "tisigui", "--lang", "zh-Hans", "--out", str(out))
    assert not (out / "stale.png").exists()  # the folder is swapped whole
    foreign = tmp_path / "photos"
    foreign.mkdir()
    (foreign / "holiday.jpg").write_bytes(b"x")
    result = CliRunner().invoke(cli, ["--root", str(ROOT), "export", "contact", "tisigui", "--lang", "zh-Hans",
                                      "--out", str(foreign)])
    assert result.exit_code == 1
    assert "not made by pnp export" in result.output
    assert sorted(p.name for p in foreign.iterdir()) == ["holiday.jpg"]
