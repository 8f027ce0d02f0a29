"""Label ranges: ``{count: '{rules.players.max}', label: '{n}'}`` in a label list, grid
``column_widths`` one per column as written, and a ``{row}`` label among fixed row labels.

The fixture game's score pad (tests/fixtures/vocab_game) is edited into each form; problems
must name the file, line, element and field. A shipped game's copy, its player count changed,
is built and read back with pypdf: the boxes and columns printed follow the rules.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pypdf
import pytest
from click.testing import CliRunner

from pnp.build.pipeline import build
from pnp.cli import cli
from pnp.core.workspace import Workspace
from pnp.data.load import load_game
from pnp.data.spec import ELEMENTS, SpecContext, prop_error
from pnp.games.registry import tables_from_engine
from tests.conftest import edit, game_workspace
from tests.data.test_vocabulary import SLUG, line_of, make_workspace, problems_of

PAD = "layouts.pad_front.elements"
GRID = ('{type: grid, box: [5, 18, 90, 97], rows: 8, columns: ["", 甲, 乙, 丙],\n'
        '         row_labels: [第一輪, 第二輪, 第三輪, 第四輪, 第五輪, 第六輪, 第七輪, 合計],\n'
        '         column_widths: [1.4, 1, 1, 1],')
TITLE = "{type: text, box: [5, 5, 90, 10], text: 計分表, size: 16pt, bold: true, align: center}"


@pytest.fixture
def game_dir(tmp_path: Path) -> Path:
    return make_workspace(tmp_path / "ws") / "card_data" / SLUG


def _pad(game_dir: Path, *, rules: str = "{players: {max: 4}}", rows: str = "8",
         columns: str = '["", {count: "{rules.players.max}", label: "{n} 號"}]',
         labels: str = '[名字, "第 {row} 輪", 合計]', widths: str = "[1.4, 1]",
         boxes: str | None = None) -> Path:
    """The fixture's score pad with the given grid (and its title turned into boxes)."""
    with (game_dir / "game.yaml").open("a", encoding="utf-8") as out:
        out.write(f"rules: {rules}\n")
    path = game_dir / "components.yaml"
    edit(path, GRID, f"{{type: grid, box: [5, 18, 90, 97], rows: {rows}, columns: {columns},\n"
                     f"         row_labels: {labels},\n"
                     f"         column_widths: {widths},")
    if boxes is not None:
        edit(path, TITLE, f"{{type: boxes, box: [5, 5, 90, 10], labels: {boxes}, size: 10pt}}")
    return path


def _element(game_dir: Path, kind: str):  # noqa: ANN202 - a pnp.data.model.Element
    return next(e for e in load_game(game_dir, tables_from_engine).layouts["pad_front"].elements if e.kind == kind)


# -- the forms that load ----------------------------------------------------------------------

def test_a_column_range_and_a_row_label_between_fixed_ones(game_dir):
    """座位-style heading, then a column per player; a name row, numbered rounds, a total row;
    the range's one width is every one of its columns'."""
    _pad(game_dir)
    grid = _element(game_dir, "grid")
    assert list(grid.get("columns")) == ["", "1 號", "2 號", "3 號", "4 號"]
    assert list(grid.get("column_widths")) == [1.4, 1, 1, 1, 1]
    assert grid.get("rows") == 8
    assert list(grid.get("row_labels")) == ["名字", *(f"第 {n} 輪" for n in range(1, 7)), "合計"]


def test_boxes_take_a_range_among_labels_of_their_own(game_dir):
    _pad(game_dir, boxes='[座, {count: "{rules.players.max}", label: "{n}"}, 空]')
    assert list(_element(game_dir, "boxes").get("labels")) == ["座", "1", "2", "3", "4", "空"]


def test_typed_counts_ranges_in_row_labels_and_a_component_count(game_dir):
    _pad(game_dir, columns='[{count: 2, label: 甲}, {count: "{count.deck}", label: "{n}"}]',
         widths="[2, 1]", rows='"{rules.players.max}"',
         labels='[{count: 3, label: "第 {n} 輪"}, 合計]')
    grid = _element(game_dir, "grid")
    assert list(grid.get("columns")) == ["甲", "甲", *(str(n) for n in range(1, 13))]
    assert list(grid.get("column_widths")) == [2, 2, *[1] * 12]
    assert list(grid.get("row_labels")) == ["第 1 輪", "第 2 輪", "第 3 輪", "合計"]


def test_a_row_label_at_either_end_and_a_rules_reference_in_a_label(game_dir):
    _pad(game_dir, rules="{players: {max: 4}, unit: 分}", rows="3",
         labels='["{row}", "合計（{rules.unit}）"]', columns='[名字, {count: 1, label: "{rules.unit}"}]')
    grid = _element(game_dir, "grid")
    assert list(grid.get("row_labels")) == ["1", "2", "合計（分）"]
    assert list(grid.get("columns")) == ["名字", "分"]


def test_the_printed_pad_shows_the_ranges(tmp_path):
    root = make_workspace(tmp_path / "ws")
    _pad(root / "card_data" / SLUG, boxes='[{count: "{rules.players.max}", label: "座{n}"}]')
    build(Workspace(root), SLUG, "zh-Hant")
    text = " ".join(page.extract_text() for page in
                    pypdf.PdfReader(root / "output" / SLUG / "zh-Hant" / "components.pdf").pages)
    for label in ("座1", "座4", "1 號", "4 號", "名字", "第 1 輪", "第 6 輪", "合計"):
        assert label in text, label
    assert "座5" not in text and "5 號" not in text and "第 7 輪" not in text


# -- problems name the file, line, element and field ---------------------------------------

@pytest.mark.parametrize(("edits", "field", "fragment"), [
    # at load, from the element spec
    ({"columns": '["", {count: 3, label: "{n}", from: 2}]'}, "columns",
     "[1]: a range {count: '{rules.players.max}', label: '{n}'} takes only count and label, got 'from'"),
    ({"columns": '["", {count: 3}]'}, "columns", "needs label"),
    ({"columns": '["", {label: "{n}"}]'}, "columns", "needs count"),
    ({"columns": '["", {count: three, label: "{n}"}]'}, "columns",
     "[1].count: expected a whole number of labels from 1 to 50, or one {rules.…} or {count.…} "
     "reference giving it, got 'three'"),
    ({"columns": '["", {count: 0, label: "{n}"}]'}, "columns", "[1].count: must be from 1 to 50"),
    ({"columns": '["", {count: 3, label: [a]}]'}, "columns", "[1].label: expected text"),
    ({"columns": '["", {count: 3, label: "{row}"}]'}, "columns",
     "[1].label: a range numbers its labels with {n}, not {row}"),
    ({"labels": '[名字, "第 {row} 輪", "第 {row} 次"]'}, "row_labels",
     "only one row label may hold {row}"),
    # at load, the grid's shape
    ({"widths": "[1.4, 1, 1, 1]"}, "column_widths",
     "4 widths for 2 columns as written (a range of columns takes one width)"),
    ({"rows": "2"}, "row_labels", "2 row labels besides '第 {row} 輪' leave it no row of the 2"),
    ({"labels": '[名字, {count: 3, label: "第 {n} 輪"}]'}, "row_labels",
     "4 row labels for 8 rows (its ranges counted)"),
    # when the references resolve
    ({"rules": "{players: {max: 0}}"}, "columns[1].count",
     "{rules.players.max} gives '0', not a whole number of labels from 1 to 50"),
    ({"columns": '["", {count: "{rules.players.mx}", label: "{n}"}]'}, "columns[1].count",
     "game.yaml's rules: has no 'players.mx'"),
    ({"rows": '"{rules.players.max}"', "labels": '[名字, "第 {row} 輪", 合計, 甲, 乙]'}, "row_labels",
     "4 row labels besides '第 {row} 輪' leave it no row of the 4; add rows or drop a label "
     "(rows: {rules.players.max})"),
    ({"labels": '[名字, {count: "{rules.players.max}", label: "第 {n} 輪"}]'}, "row_labels",
     "5 row labels for 8 rows (its ranges counted)"),
])
def test_range_problems_name_the_file_element_and_field(game_dir, edits, field, fragment):
    path = _pad(game_dir, **edits)
    problems = problems_of(game_dir)
    first = line_of(path, "type: grid")
    at = [f"components.yaml:{line}: {PAD}[1].{field}: " for line in range(first, first + 3)]
    assert any(fragment in p and any(a in p for a in at) for p in problems), problems
    assert not any("field {row}" in p for p in problems), problems  # no echo of the {row} label


# -- limits ---------------------------------------------------------------------------------

@pytest.mark.parametrize(("edits", "field", "fragment"), [
    ({"columns": '["", {count: 51, label: "{n}"}]'}, "columns",
     "[1].count: must be from 1 to 50 (the limit for this field), got 51"),
    ({"columns": '["", {count: 30, label: "{n}"}, {count: 30, label: "{n}"}]', "widths": "[1, 1, 1]"},
     "columns", "at most 50 items (the limit for this field), got 61 once its ranges are counted"),
    ({"rules": "{players: {max: 60}}"}, "columns[1].count",
     "{rules.players.max} gives '60', not a whole number of labels from 1 to 50"),
    ({"rules": "{players: {max: 30}, more: 30}", "widths": "[1, 1, 1]",
      "columns": '["", {count: "{rules.players.max}", label: "{n}"}, {count: "{rules.more}", label: "{n}"}]'},
     "columns", "61 labels once its ranges are counted, more than the limit of 50 for this field"),
    ({"rows": "201", "labels": '[{count: 201, label: "{n}"}]'}, "rows", "at most 200"),
    ({"rules": "{players: {max: 101}}", "boxes": '[{count: "{rules.players.max}", label: "{n}"}]'},
     None, "{rules.players.max} gives '101', not a whole number of labels from 1 to 100"),
])
def test_range_limits(game_dir, edits, field, fragment):
    path = _pad(game_dir, **edits)
    problems = problems_of(game_dir)
    if field is None:  # the boxes element, the layout's first
        at = [f"components.yaml:{line_of(path, 'type: boxes')}: {PAD}[0].labels[0].count: "]
    else:
        first = line_of(path, "type: grid")
        at = [f"components.yaml:{line}: {PAD}[1].{field}: " for line in range(first, first + 3)]
    assert any(fragment in p and any(a in p for a in at) for p in problems), problems


@pytest.mark.parametrize(("kind", "prop", "value", "fragment"), [
    ("boxes", "labels", [{"count": 101, "label": "{n}"}], "must be from 1 to 100"),
    ("boxes", "labels", [{"count": 60, "label": "{n}"}, {"count": 60, "label": "{n}"}],
     "got 120 once its ranges are counted"),
    ("boxes", "labels", [{"count": True, "label": "{n}"}], "expected a whole number of labels"),
    ("boxes", "labels", [{"count": "{days}", "label": "{n}"}], "or one {rules.…} or {count.…} reference"),
    ("boxes", "labels", [{"count": 2, "label": "字" * 1001}], "limit of 1000"),
    ("grid", "row_labels", [{"count": 201, "label": "{n}"}], "must be from 1 to 200"),
    ("grid", "columns", {"count": 3, "label": "{n}"}, "an item may be a range"),
])
def test_range_spec_limits(kind, prop, value, fragment):
    message = prop_error(ELEMENTS[kind], prop, value, SpecContext({}, {}))
    assert message is not None and fragment in message, message


def test_the_schema_takes_ranges_and_refuses_what_the_loader_refuses():
    from tests.data.test_vocabulary import _schema_validator

    validator = _schema_validator()
    base = {"type": "grid", "box": [0, 0, 1, 1], "rows": 3, "size": "9pt",
            "columns": ["a", {"count": "{rules.players.max}", "label": "{n}"}],
            "row_labels": ["a", "{row}", "b"], "column_widths": [2, 1]}

    def errors(**changes: object) -> list[str]:
        element = {**base, **changes}
        doc = {"components": [], "layouts": {"x": {"background": "#ffffff", "elements": [element]}}}
        return [e.message for e in validator.iter_errors(doc)]

    assert errors() == []
    assert errors(columns=[{"count": 3, "label": "{n}"}]) == []
    for bad in ([{"count": 51, "label": "{n}"}], [{"count": 0, "label": "{n}"}],
                [{"count": "{days}", "label": "{n}"}], [{"count": 3}], [{"label": "{n}"}],
                [{"count": 3, "label": "{n}", "from": 2}], [{"count": 3, "label": "{row}"}]):
        assert errors(columns=bad), bad


# -- the rules decide what is printed ----------------------------------------------------------

def _shipped(tmp_path: Path, slug: str) -> Path:
    """A workspace with a copy of a shipped game's data and the fonts (no templates: the build
    makes components.pdf only)."""
    return game_workspace(tmp_path, slug)


def _page_text(pdf: Path, needle: str) -> str:
    """The text of the first page holding ``needle``."""
    return next(text for page in pypdf.PdfReader(pdf).pages if needle in (text := page.extract_text()))


def _pad_columns(root: Path) -> list[str]:
    build(Workspace(root), "niutouwang", "zh-Hant")
    text = _page_text(root / "output/niutouwang/zh-Hant/components.pdf", "計分表")
    header = re.search(r"座位(.*?)姓名", text, re.S)
    assert header is not None, text
    return header[1].split()


def test_the_score_pad_has_a_column_per_seat_of_players_max(tmp_path):
    root = _shipped(tmp_path, "niutouwang")
    assert _pad_columns(root) == [str(n) for n in range(1, 11)]
    game = root / "card_data/niutouwang/game.yaml"
    edit(game, "players: {min: 2, max: 10, common: 5}", "players: {min: 2, max: 7, common: 5}")
    edit(game, "players: {min: 2, max: 10, default: 5}", "players: {min: 2, max: 7, default: 5}")
    assert _pad_columns(root) == [str(n) for n in range(1, 8)]  # game.yaml changed: rebuilt


def test_the_identity_card_has_a_box_per_seat_of_players_max(tmp_path):
    root = _shipped(tmp_path, "tisigui")
    game = root / "card_data/tisigui/game.yaml"
    edit(game, "players: {min: 3, max: 6, common: 5}", "players: {min: 3, max: 5, common: 5}")
    edit(game, "players: {min: 3, max: 6}", "players: {min: 3, max: 5}")
    build(Workspace(root), "tisigui", "zh-Hant")
    text = " ".join(_page_text(root / "output/tisigui/zh-Hant/components.pdf", "活人").split())
    # Each card's boxes, 1 up, after its line of text (the sheet's dice nets print digits too).
    strips = re.findall(r"(?:說謊|就得分) (1(?: \d+)+)(?![\d.])", text)
    assert len(strips) == 6 and set(strips) == {"1 2 3 4 5"}, text


# -- pnp check: a typed count behind {n} is a literal ----------------------------------------

def test_a_typed_range_count_behind_numbered_labels_is_a_literal(tmp_path):
    root = _shipped(tmp_path, "niutouwang")
    components = root / "card_data/niutouwang/components.yaml"
    edit(components, 'columns: [座位, {count: "{rules.players.max}", label: "{n}"}]',
         'columns: [座位, {count: 10, label: "{n}"}, {count: 2, label: 空}]')
    edit(components, "column_widths: [1.6, 1]", "column_widths: [1.6, 1, 1]")
    result = CliRunner().invoke(cli, ["--root", str(root), "check", "niutouwang", "--format", "json"])
    findings = json.loads(result.stdout)["games"]["niutouwang"]["findings"]
    line = line_of(components, "count: 10")
    assert result.exit_code == 1
    assert [(f["code"], f["number"], f["where"]) for f in findings] == [
        ("literal-number", "10",
         f"card_data/niutouwang/components.yaml:{line}: layouts.scorepad.elements[2].columns[1].count")]
