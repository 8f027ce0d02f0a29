"""Any paper, and sheet templates (issue 21, item 4), read back from the PDFs pnp writes: page
sizes, where each card's form is drawn on a template's sheet and on its back, and the errors of a
bad template or paper."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner
from pypdf import PdfReader

from pnp.cli import cli
from tests.sheetprobe import sheet_items

MM = 72 / 25.4
# The papers by name, and their sizes in mm as the standards give them (not read from pnp).
PAPER_MM = {"a4": (210, 297), "letter": (215.9, 279.4), "a3": (297, 420), "a5": (148, 210),
            "b5": (176, 250), "b4": (250, 353), "legal": (215.9, 355.6), "tabloid": (279.4, 431.8),
            "200x280": (200, 280)}


@pytest.fixture(scope="module")
def deck_workspace(tmp_path_factory) -> Path:
    """A workspace of `pnp new`'s game cut down to its poker cards (12 of them, with backs), and
    without a rulebook template: the component sheets are the subject."""
    root = tmp_path_factory.mktemp("deck") / "ws"
    root.mkdir()
    result = CliRunner().invoke(cli, ["--root", str(root), "new", "demo"])
    assert result.exit_code == 0, result.output
    components = root / "card_data" / "demo" / "components.yaml"
    text = components.read_text(encoding="utf-8")
    components.write_text(text[:text.index("  - id: marker")] + text[text.index("layouts:"):], encoding="utf-8")
    shutil.rmtree(root / "templates")
    return root


def build(root: Path, out: Path, *args: str) -> tuple[int, str]:
    result = CliRunner().invoke(cli, ["--root", str(root), "build", "demo", "--lang", "zh-Hant",
                                      "--out", str(out), *args])
    return result.exit_code, result.output + (result.stderr if result.stderr_bytes else "")


def page_mm(page) -> tuple[float, float]:  # noqa: ANN001 - a pypdf page
    return round(float(page.mediabox.width) / MM, 1), round(float(page.mediabox.height) / MM, 1)


def same_places(expected: list[tuple[float, float, float, float, bool]]) -> object:
    """Compares equal to a list of card places within 0.01 mm (pytest.approx takes no tuples)."""

    class Places:
        def __eq__(self, found: object) -> bool:
            return isinstance(found, list) and len(found) == len(expected) and all(
                a[4] == b[4] and all(abs(x - y) <= 0.01 for x, y in zip(a[:4], b[:4], strict=True))
                for a, b in zip(found, expected, strict=True))

        def __repr__(self) -> str:
            return repr(expected)

    return Places()


def cards(page) -> list[tuple[float, float, float, float, bool]]:  # noqa: ANN001
    """Each card form the page draws: left, bottom, width, height of its form (mm, y up), turned."""
    return [(round(f.box.x, 2), round(f.box.y, 2), round(f.box.width, 2), round(f.box.height, 2), f.turned)
            for f in sheet_items(page).forms if f.name.startswith("face-cards-")]


# --------------------------------------------------------------------------------------------
# Paper


@pytest.mark.parametrize("paper", sorted(PAPER_MM))
def test_every_paper_gives_its_page_size(deck_workspace, tmp_path, paper):
    code, output = build(deck_workspace, tmp_path / "out", "--paper", paper.upper())
    assert code == 0, output
    reader = PdfReader(tmp_path / "out" / "demo" / "zh-Hant" / "components.pdf")
    assert {page_mm(page) for page in reader.pages} == {PAPER_MM[paper]}
    record = json.loads((tmp_path / "out" / ".pnp-build.json").read_text())
    # The record keeps the canonical name, whatever case was typed.
    assert record["outputs"]["demo/zh-Hant/components"]["inputs"]["option:paper"] == paper


def test_a_custom_paper_typesets_the_rulebook(tmp_path):
    """The rulebook and aid are laid out per page: a custom paper and A5 both typeset."""
    root = tmp_path / "ws"
    root.mkdir()
    assert CliRunner().invoke(cli, ["--root", str(root), "new", "demo"]).exit_code == 0
    for paper, size in (("200X280", (200, 280)), ("a5", (148, 210))):
        code, output = build(root, tmp_path / paper, "--paper", paper)
        assert code == 0, output
        book = PdfReader(tmp_path / paper / "demo" / "zh-Hant" / "rulebook.pdf")
        assert {page_mm(page) for page in book.pages} == {size}
        assert "遊戲" in book.pages[0].extract_text() or book.pages[0].extract_text().strip()


def test_paper_in_pnp_toml_any_case(deck_workspace, tmp_path):
    root = tmp_path / "ws"
    shutil.copytree(deck_workspace, root)
    (root / "pnp.toml").write_text('paper = "B5"\n', encoding="utf-8")
    code, output = build(root, root / "out")
    assert code == 0, output
    reader = PdfReader(root / "out" / "demo" / "zh-Hant" / "components.pdf")
    assert page_mm(reader.pages[0]) == (176, 250)


def test_a_bad_paper_in_pnp_toml_names_the_line(deck_workspace, tmp_path):
    root = tmp_path / "ws"
    shutil.copytree(deck_workspace, root)
    (root / "pnp.toml").write_text('lang = "zh-Hant"\npaper = "B9"\n', encoding="utf-8")
    code, output = build(root, root / "out")
    assert code == 1
    assert "pnp.toml:2" in output and "tabloid" in output and "WxH" in output
    assert not (root / "out").exists()


@pytest.mark.parametrize("paper", ["foo", "20x280", "a4x", "2000x3000"])
def test_an_unknown_paper_is_a_usage_error_listing_the_names(deck_workspace, tmp_path, paper):
    code, output = build(deck_workspace, tmp_path / "out", "--paper", paper)
    assert code == 2
    assert "is not a paper pnp knows" in output
    for name in ("a4", "letter", "a3", "a5", "b5", "b4", "legal", "tabloid", "WxH"):
        assert name in output
    assert "Traceback" not in output
    assert not (tmp_path / "out").exists()


def test_calibrate_names_its_file_by_the_canonical_paper(deck_workspace, tmp_path):
    root = tmp_path / "ws"
    shutil.copytree(deck_workspace, root)
    result = CliRunner().invoke(cli, ["--root", str(root), "calibrate", "--paper", "Tabloid"])
    assert result.exit_code == 0, result.output
    reader = PdfReader(root / "output" / "calibrate-tabloid.pdf")
    assert page_mm(reader.pages[0]) == (279.4, 431.8)


# --------------------------------------------------------------------------------------------
# Sheet templates


def test_poker_3x3_a4_puts_each_card_in_its_slot(deck_workspace, tmp_path):
    code, output = build(deck_workspace, tmp_path / "out", "--sheet", "poker-3x3-a4")
    assert code == 0, output
    reader = PdfReader(tmp_path / "out" / "demo" / "zh-Hant" / "components.pdf")
    assert len(reader.pages) == 4  # 12 cards: a full sheet and one of three, each with its back
    assert {page_mm(page) for page in reader.pages} == {(210, 297)}
    # The template's slots: 63 × 88 mm trims from (10.5, 16.5), three by three, top-left origin;
    # the form is the trim with its 3 mm bleed, and the probe reads it from the bottom-left.
    slots = [(10.5 + 63 * col, 16.5 + 88 * row) for row in range(3) for col in range(3)]
    front = [(x - 3, 297 - (y + 88) - 3, 69, 94, False) for x, y in slots]
    assert cards(reader.pages[0]) == same_places(front)
    assert cards(reader.pages[2]) == same_places(front[:3])
    # Backs mirrored left to right (long-edge duplex): the same column positions, reversed.
    back = [(210 - (x + 63) - 3, 297 - (y + 88) - 3, 69, 94, False) for x, y in slots]
    assert cards(reader.pages[1]) == same_places(back)
    assert all(name.endswith("-back") for name in
               (f.name for f in sheet_items(reader.pages[1]).forms if f.name.startswith("face-")))


def test_poker_3x3_letter(deck_workspace, tmp_path):
    code, output = build(deck_workspace, tmp_path / "out", "--sheet", "POKER-3x3-Letter")
    assert code == 0, output
    reader = PdfReader(tmp_path / "out" / "demo" / "zh-Hant" / "components.pdf")
    assert page_mm(reader.pages[0]) == (215.9, 279.4)
    assert len(cards(reader.pages[0])) == 9


CUSTOM = """\
paper: 200x280
bleed: 2
slots:
  - {id: tall, at: [10, 10], size: [63, 88]}
  - {id: wide, at: [90, 20], size: [88, 63], rotate: 90}
backs:
  - {slot: wide, at: [20, 150]}
  - {slot: tall, at: [120, 160]}
"""


def test_a_workspace_template_with_declared_backs_and_a_turned_slot(deck_workspace, tmp_path):
    root = tmp_path / "ws"
    shutil.copytree(deck_workspace, root)
    (root / "sheets").mkdir()
    (root / "sheets" / "two-up.yaml").write_text(CUSTOM, encoding="utf-8")
    code, output = build(root, root / "out", "--sheet", "two-up")
    assert code == 0, output
    reader = PdfReader(root / "out" / "demo" / "zh-Hant" / "components.pdf")
    assert len(reader.pages) == 12  # 12 cards, two to a sheet, each sheet with its back
    assert page_mm(reader.pages[0]) == (200, 280)
    # Fronts: the upright slot's form (69 × 94 with its bleed) and the turned one's (94 × 69).
    assert cards(reader.pages[0]) == same_places([
        (10 - 3, 280 - 98 - 3, 69, 94, False),
        (90 - 3, 280 - 83 - 3, 94, 69, True),
    ])
    # Backs at the declared back slots, not mirrored: the same order of cards as their fronts.
    assert cards(reader.pages[1]) == same_places([
        (120 - 3, 280 - 248 - 3, 69, 94, False),
        (20 - 3, 280 - 213 - 3, 94, 69, True),
    ])
    # Each face shows its bleed only as far as the template's 2 mm.
    shown = [f.shown for f in sheet_items(reader.pages[0]).forms if f.name.startswith("face-cards-")]
    assert (round(shown[0].x, 2), round(shown[0].width, 2)) == (8, 67)


def test_a_template_change_rebuilds_the_sheets(deck_workspace, tmp_path):
    root = tmp_path / "ws"
    shutil.copytree(deck_workspace, root)
    (root / "sheets").mkdir()
    template = root / "sheets" / "two-up.yaml"
    template.write_text(CUSTOM, encoding="utf-8")
    assert build(root, root / "out", "--sheet", "two-up")[0] == 0
    code, output = build(root, root / "out", "--sheet", "two-up")
    assert "components.pdf up to date" in output
    template.write_text(CUSTOM.replace("bleed: 2", "bleed: 1"), encoding="utf-8")
    code, output = build(root, root / "out", "--sheet", "two-up")
    assert code == 0 and "components.pdf rebuilt (--sheet option changed)" in output
    code, output = build(root, root / "out")
    assert "components.pdf rebuilt (--sheet option changed)" in output


# Each bad template, the line its error names and words of the message.
BAD = {
    "overlap": ("paper: a4\nslots:\n  - {at: [10, 10], size: [63, 88]}\n  - {at: [70, 10], size: [63, 88]}\n",
                4, "overlaps slot '1' (line 3)"),
    "off-page": ("paper: a5\nslots:\n  - {at: [10, 10], size: [63, 88]}\n  - {at: [100, 10], size: [63, 88]}\n",
                 4, "runs off the 148 × 210 mm page"),
    "back-of-nothing": ("paper: a4\nslots:\n  - {at: [10, 10], size: [63, 88]}\nbacks:\n"
                        "  - {slot: 1, at: [137, 10]}\n  - {slot: 7, at: [10, 10]}\n", 6, "names no slot: 7"),
    "slot-without-back": ("paper: a4\nslots:\n  - {at: [10, 10], size: [63, 88]}\n"
                          "  - {at: [80, 10], size: [63, 88]}\nbacks:\n  - {slot: 1, at: [137, 10]}\n",
                          4, "slot '2' has no back"),
    "two-backs": ("paper: a4\nslots:\n  - {at: [10, 10], size: [63, 88]}\nbacks:\n"
                  "  - {slot: 1, at: [137, 10]}\n  - {slot: 1, at: [10, 150]}\n", 6, "a second back for slot '1'"),
    "too-many": ("paper: a4\nslots:\n" + "  - {at: [10, 10], size: [10, 10]}\n" * 201, 2, "at most 200"),
    "bad-rotate": ("paper: a4\nslots:\n  - {at: [10, 10], size: [63, 88], rotate: 45}\n", 3, "expected 0 or 90"),
    "bad-paper": ("paper: a9\nslots:\n  - {at: [10, 10], size: [63, 88]}\n", 1, "WxH"),
    "python-tag": ("paper: !!python/object:os.system a4\nslots: []\n", 1, "is not allowed"),
}


@pytest.mark.parametrize("case", sorted(BAD))
def test_a_bad_template_is_an_error_with_file_and_line(deck_workspace, tmp_path, case):
    text, line, words = BAD[case]
    root = tmp_path / "ws"
    shutil.copytree(deck_workspace, root)
    (root / "sheets").mkdir()
    (root / "sheets" / "bad.yaml").write_text(text, encoding="utf-8")
    code, output = build(root, root / "out", "--sheet", "bad")
    assert code == 1, output
    assert output.startswith("Error: ")
    assert f"sheets/bad.yaml:{line}:" in output and words in output, output
    assert "Traceback" not in output
    assert not (root / "out").exists()


@pytest.mark.parametrize("name", ["../card_data/demo/game", "/etc/passwd", "nope", "a/b"])
def test_a_template_name_stays_in_sheets(deck_workspace, tmp_path, name):
    code, output = build(deck_workspace, tmp_path / "out", "--sheet", name)
    assert code == 1 and output.startswith("Error: --sheet")
    assert "poker-3x3-a4" in output  # the known names are listed
    assert not (tmp_path / "out").exists()


def test_a_template_linked_out_of_the_workspace_is_refused(deck_workspace, tmp_path):
    root = tmp_path / "ws"
    shutil.copytree(deck_workspace, root)
    (root / "sheets").mkdir()
    outside = tmp_path / "outside.yaml"
    outside.write_text("paper: a4\nslots:\n  - {at: [10, 10], size: [63, 88]}\n", encoding="utf-8")
    (root / "sheets" / "linked.yaml").symlink_to(outside)
    code, output = build(root, root / "out", "--sheet", "linked")
    assert code == 1 and "leads outside the workspace" in output
