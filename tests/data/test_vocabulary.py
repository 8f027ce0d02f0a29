"""The layout vocabulary's newer words: generated cards, symbols and icons, grids, figures.

A small fixture game (tests/fixtures/vocab_game) uses each of them; its PDFs are read back
with pypdf so the tests check what is printed, not what the code meant to print.
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pypdf
import pytest

from pnp.build.pipeline import build
from pnp.core.errors import BuildError, DataError
from pnp.core.workspace import Workspace
from pnp.data.icons import place_icons
from pnp.data.load import load_game
from pnp.data.svgpath import PathSyntaxError, parse_path
from pnp.games.registry import tables_from_engine
from pnp.rulebook.source import render_markdown
from tests.conftest import ROOT, edit

FIXTURES = Path(__file__).parents[1] / "fixtures"
SLUG = "vocab_game"
LANG = "zh-Hant"


def make_workspace(root: Path) -> Path:
    """A workspace holding only the fixture game, its rulebook template and the fonts."""
    root.mkdir(parents=True)
    shutil.copytree(FIXTURES / SLUG, root / "card_data" / SLUG)
    shutil.copytree(FIXTURES / "vocab_templates" / SLUG, root / "templates" / SLUG)
    return root


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = make_workspace(tmp_path_factory.mktemp("vocab") / "ws")
    build(Workspace(root), SLUG, LANG)
    return root / "output" / SLUG / LANG


@pytest.fixture
def game_dir(tmp_path: Path) -> Path:
    return make_workspace(tmp_path / "ws") / "card_data" / SLUG


def forms_of(pdf: Path) -> dict[str, bytes]:
    """Every form XObject placed on a page, by name, with its content stream."""
    forms = {}
    for page in pypdf.PdfReader(pdf).pages:
        xobjects = page.get("/Resources", {}).get("/XObject", {})
        for name, ref in xobjects.items():
            forms[name] = ref.get_object().get_data()
    return forms


def problems_of(game_dir: Path) -> list[str]:
    with pytest.raises(DataError) as caught:
        load_game(game_dir, tables_from_engine)
    return caught.value.problems


def line_of(path: Path, needle: str) -> int:
    lines = path.read_text(encoding="utf-8").splitlines()
    return next(i for i, line in enumerate(lines, start=1) if needle in line)


# -- generated cards -----------------------------------------------------------------------

def test_generated_cards_take_lookups_and_maps():
    game = load_game(FIXTURES / SLUG, tables_from_engine)
    deck = game.component("deck")
    assert [card.id for card in deck.cards] == [f"card-{n}" for n in range(1, 13)]
    card = game.card("deck", "card-11")
    assert (card.fields["number"].value, card.fields["pips"].value, card.fields["color"].value) \
        == ("11", "7", "#6b2d3a")
    # A looked-up value remembers the table row it came from, for glyph and overflow errors.
    assert "tables.yaml" in card.fields["pips"].where and "tables.pips.rows[10]" in card.fields["pips"].where


def test_icon_count_per_card_is_the_table_value(built):
    forms = forms_of(built / "components.pdf")
    pips = {row["card"]: row["pips"] for row in load_game(FIXTURES / SLUG, tables_from_engine).tables["pips"].rows}
    for n, expected in pips.items():
        content = forms[f"/FormXob.face-deck-card-{n}-front"]
        assert content.count(b"/FormXob.sym-star Do") == expected, n
    assert "/FormXob.sym-star" not in forms  # placed inside faces, never directly on a sheet


def test_symbol_with_colour_override_is_its_own_form(built):
    # One back form serves the whole deck: the back layout shows no card field.
    back = forms_of(built / "components.pdf")["/FormXob.face-deck-_all-back"]
    assert back.count(b"/FormXob.sym-ring.ff6efe1 Do") == 1
    reader = pypdf.PdfReader(built / "components.pdf")
    names: set[str] = set()
    for page in reader.pages:
        for ref in page["/Resources"].get("/XObject", {}).values():
            names.update(ref.get_object().get("/Resources", {}).get("/XObject", {}).keys())
    assert {"/FormXob.sym-star", "/FormXob.sym-ring.ff6efe1"} <= names


# -- grid -----------------------------------------------------------------------------------

def test_grid_labels_are_printed(built):
    reader = pypdf.PdfReader(built / "components.pdf")
    text = "".join(page.extract_text() for page in reader.pages)
    for label in ("甲", "乙", "丙", "第一輪", "第七輪", "合計"):
        assert label in text


def test_grid_label_outside_the_safe_zone_is_refused(game_dir):
    edit(game_dir / "components.yaml", "box: [5, 18, 90, 97]", "box: [1, 18, 94, 97]")
    text = "\n".join(problems_of(game_dir))
    assert "leaves the safe zone" in text and "card 'pad'" in text


def test_grid_shape_problems(game_dir):
    path = game_dir / "components.yaml"
    edit(path, "column_widths: [1.4, 1, 1, 1]", "column_widths: [1.4, 1, 1]")
    edit(path, "第七輪, 合計]", "合計]")
    text = "\n".join(problems_of(game_dir))
    assert "column_widths: 3 widths for 4 columns" in text
    assert "row_labels: 7 row labels for 8 rows" in text


GRID_ROWS = "rows: 8, columns"
GRID_LABELS = "row_labels: [第一輪, 第二輪, 第三輪, 第四輪, 第五輪, 第六輪, 第七輪, 合計]"


def _grid_from_rules(game_dir: Path, rules: str, rows: str, labels: str) -> None:
    with (game_dir / "game.yaml").open("a", encoding="utf-8") as out:
        out.write(f"rules: {rules}\n")
    edit(game_dir / "components.yaml", GRID_ROWS, f"rows: {rows}, columns")
    edit(game_dir / "components.yaml", GRID_LABELS, f"row_labels: {labels}")


def test_grid_rows_from_the_rules_with_one_numbered_label(game_dir):
    """rows: "{rules.x}" and row_labels: "第 {row} 輪": a row per round, labelled from 1."""
    _grid_from_rules(game_dir, "{rounds: 6}", '"{rules.rounds}"', '"第 {row} 輪"')
    grid = next(e for e in load_game(game_dir, tables_from_engine).layouts["pad_front"].elements if e.kind == "grid")
    assert grid.get("rows") == 6
    assert list(grid.get("row_labels")) == [f"第 {n} 輪" for n in range(1, 7)]


def test_grid_rows_from_a_component_count(game_dir):
    """rows: "{count.deck}": a row per card of the deck."""
    _grid_from_rules(game_dir, "{}", '"{count.deck}"', '"{row} 號"')
    grid = next(e for e in load_game(game_dir, tables_from_engine).layouts["pad_front"].elements if e.kind == "grid")
    assert grid.get("rows") == 12
    assert grid.get("row_labels")[-1] == "12 號"


@pytest.mark.parametrize(("rules", "rows", "labels", "fragment"), [
    ("{rounds: 0}", '"{rules.rounds}"', '"第 {row} 輪"', "gives '0', not a whole number of rows from 1 to 200"),
    ("{rounds: 300}", '"{rules.rounds}"', '"第 {row} 輪"', "gives '300', not a whole number of rows"),
    ("{rounds: 6}", '"{rules.round}"', '"第 {row} 輪"', "game.yaml's rules: has no 'round'"),
    ("{rounds: 6}", '"{rules.rounds}"', GRID_LABELS.split(": ", 1)[1], "row_labels: 8 row labels for 6 rows"),
    ("{rounds: 6}", '"{rules.rounds}"', '"每一輪"', "must hold {row}"),
    ("{rounds: 6}", '"{rounds}"', '"第 {row} 輪"', "or one {rules.…} or {count.…} reference"),
])
def test_grid_row_reference_problems_name_the_element(game_dir, rules, rows, labels, fragment):
    _grid_from_rules(game_dir, rules, rows, labels)
    problems = problems_of(game_dir)
    first = line_of(game_dir / "components.yaml", "type: grid")  # the element's lines
    at = [f"components.yaml:{line}: layouts.pad_front.elements" for line in range(first, first + 4)]
    assert any(fragment in p and any(a in p for a in at) for p in problems), problems


def test_grid_label_too_long_is_a_build_error_naming_the_card(tmp_path):
    root = make_workspace(tmp_path / "ws")
    edit(root / "card_data" / SLUG / "components.yaml", 'columns: ["", 甲, 乙, 丙]',
         'columns: ["", 甲甲甲甲甲甲甲甲甲甲甲甲甲甲甲甲甲甲甲甲甲甲甲甲, 乙, 丙]')
    with pytest.raises(BuildError) as caught:
        build(Workspace(root), SLUG, LANG)
    text = "\n".join(caught.value.problems)
    assert "grid column label" in text and "card 'pad'" in text and "columns" in text
    assert not (root / "output").exists()


# -- rulebook figures -----------------------------------------------------------------------

def test_figure_draws_the_real_card_faces(built):
    reader = pypdf.PdfReader(built / "rulebook.pdf")
    page = next(p for p in reader.pages if "/XObject" in p.get("/Resources", {}))
    placed = set(re.findall(rb"/(FormXob\.[\w.-]+) Do", page.get_contents().get_data()))
    assert placed == {f"FormXob.face-deck-card-{n}-front".encode() for n in (1, 5, 11, 10, 3)}
    face = page["/Resources"]["/XObject"]["/FormXob.face-deck-card-11-front"].get_object()
    assert face.get_data().count(b"/FormXob.sym-star Do") == 7  # the card itself, not a copy
    text = page.extract_text()
    assert "9 顆星" in text and "7 顆星" in text and "兩列牌的例子" in text


def test_unknown_figure_in_a_template(tmp_path):
    root = make_workspace(tmp_path / "ws")
    edit(root / "templates" / SLUG / "rulebook.md.j2", 'figure("hand")', 'figure("hands")')
    with pytest.raises(DataError) as caught:
        render_markdown(root / "templates", load_game(root / "card_data" / SLUG, tables_from_engine))
    assert "unknown figure 'hands'" in str(caught.value)


def test_figure_problems(game_dir):
    path = game_dir / "figures.yaml"
    edit(path, "[card-10, card-3]", "[card-10, card-13]")
    edit(path, 'labels: ["9 顆星", "7 顆星"]', 'labels: ["9 顆星"]\n    size: 3')
    problems = problems_of(game_dir)
    text = "\n".join(problems)
    assert len(problems) == 3, text
    assert f"{path}:{line_of(path, 'card-13')}: figures.hand.rows[1][1]: component 'deck' has no card 'card-13'" \
        in text
    assert "figures.hand.labels: 1 labels for 2 rows" in text
    assert "figures.hand.size: unknown key 'size'" in text


# -- validation of generate / symbols / icons ----------------------------------------------

def test_lookup_miss_names_the_card(game_dir):
    edit(game_dir / "tables.yaml", "{card: 7, pips: 1}", "{card: 70, pips: 1}")
    path = game_dir / "components.yaml"
    (problem,) = problems_of(game_dir)
    assert problem.startswith(f"{path}:{line_of(path, 'pips: {table: pips')}: "
                              "components[0].generate.fields.pips: card 'card-7':")
    assert "no row whose 'card' is 7" in problem


def test_map_miss_names_the_card(game_dir):
    edit(game_dir / "tables.yaml", "{card: 9, pips: 1}", "{card: 9, pips: 4}")
    (problem,) = problems_of(game_dir)
    assert "components[0].generate.fields.color: card 'card-9': pips = '4' is not in the map" in problem


def test_unknown_symbol_and_table_references(game_dir):
    path = game_dir / "components.yaml"
    edit(path, "symbol: star", "symbol: stars")
    edit(path, "{table: pips, key: card", "{table: pip, key: card")
    edit(path, "{field: pips, map:", "{field: pipz, map:")
    text = "\n".join(problems_of(game_dir))
    assert f"{path}:{line_of(path, 'symbol: stars')}: layouts.deck_front.elements[2].symbol: " \
           "unknown symbol 'stars'" in text
    assert "generate.fields.pips.table: unknown table 'pip'" in text
    assert "generate.fields.color.field: unknown field 'pipz'" in text


def test_icons_that_do_not_fit_name_the_card(game_dir):
    path = game_dir / "components.yaml"
    edit(path, "size: 9, gap: 1.5", "size: 12, gap: 1.5")
    problems = problems_of(game_dir)
    text = "\n".join(problems)
    # 34×30 mm holds 2×2 icons of 12 mm: the 5- and 7-icon cards fail, each named once.
    assert len(problems) == 2, text
    line = line_of(path, "type: icons")
    assert f"{path}:{line}: layouts.deck_front.elements[2]: 5 icons" in text and "card 'card-10'" in text
    assert "7 icons" in text and "card 'card-11'" in text and "it holds 4" in text


def test_field_icon_count_must_be_a_number(game_dir):
    edit(game_dir / "tables.yaml", "{card: 2, pips: 1}", "{card: 2, pips: many}")
    edit(game_dir / "components.yaml", 'map: {"1"', 'map: {"many": "#000000", "1"')
    text = "\n".join(problems_of(game_dir))
    assert "icon count {pips} must be a whole number, got 'many' on card 'card-2'" in text
    assert "tables.pips.rows[1]" in text  # pointed at the table row the value came from


def test_every_new_problem_is_reported_at_once(game_dir):
    path = game_dir / "components.yaml"
    edit(path, "range: [1, 12]", "range: [1, 12]\n      ranges: 3")
    edit(path, 'id: "card-{n}"', 'id: "card-{m}"')
    edit(path, "fill_rule: evenodd", "fill_rule: odd")
    edit(path, 'd: "M 50 4 L 61 38', 'd: "M 50 4 X 61 38')
    edit(path, "count: \"{pips}\"", "count: -1")
    edit(path, "rows: 8,", "rows: eight,")
    problems = problems_of(game_dir)
    text = "\n".join(problems)
    assert len(problems) == 6, text
    assert "components[0].generate.ranges: unknown key 'ranges'" in text
    assert "components[0].generate.id: unknown placeholder {m}" in text
    assert "symbols.ring.paths[0].fill_rule: expected nonzero or evenodd" in text
    assert "symbols.star.paths[0].d: bad path: unexpected 'X 61 38" in text
    assert "layouts.deck_front.elements[2].count: expected a whole number of icons" in text
    assert "layouts.pad_front.elements[1].rows: expected a whole number of rows" in text
    for problem in problems:
        assert problem.startswith(f"{path}:")


def test_repeated_problems_are_reported_once_per_element(game_dir):
    edit(game_dir / "components.yaml", 'text: "{number}"', 'text: "{numbr}"')
    (problem,) = problems_of(game_dir)
    assert "field {numbr} is not defined by card 'card-1'" in problem
    assert "and 11 more cards of component 'deck'" in problem


# -- pure helpers ---------------------------------------------------------------------------

def test_path_parser_handles_the_subset():
    segments = parse_path("m10,10 h 5 v5 H0 V0 l1 1 c 1 1 2 2 3 3 Q 10 0 20 10 z M1 1 2 2")
    ops = [(s.op, s.points) for s in segments]
    assert ops[:5] == [("M", ((10, 10),)), ("L", ((15, 10),)), ("L", ((15, 15),)),
                       ("L", ((0, 15),)), ("L", ((0, 0),))]
    assert ops[5] == ("L", ((1, 1),))
    assert ops[6] == ("C", ((2, 2), (3, 3), (4, 4)))
    op, (c1, c2, end) = ops[7]
    assert op == "C" and end == (20, 10)
    assert c1 == pytest.approx((4 + 2 / 3 * 6, 4 - 2 / 3 * 4)) and c2 == pytest.approx((20 - 20 / 3, 10 - 20 / 3))
    assert ops[8:] == [("Z", ()), ("M", ((1, 1),)), ("L", ((2, 2),))]
    for bad in ("L 1 1", "M 1", "M 1 1 Z 2", "M 1 1 A 2 2"):
        with pytest.raises(PathSyntaxError):
            parse_path(bad)


def test_icons_wrap_into_balanced_centred_rows():
    spots = place_icons(7, 34, 30, 9, 9, 1.5)
    assert spots is not None
    rows = sorted({round(y, 6) for _, y in spots})
    assert [sum(1 for _, y in spots if round(y, 6) == row) for row in rows] == [3, 2, 2]
    assert min(x for x, _ in spots) == pytest.approx(34 - max(x for x, _ in spots) - 9)  # centred
    assert place_icons(13, 34, 30, 9, 9, 1.5) is None  # only 3 × 3 fit
    assert place_icons(0, 1, 1, 9, 9, 1) == []


# -- the element spec and the documents generated from it ------------------------------------

def test_generated_documents_are_current():
    """docs/layout-vocabulary.md's element reference and docs/components.schema.json are what
    ``python -m pnp.data.spec_docs`` writes from the spec; rerun it after changing the spec."""
    from pnp.data import spec_docs

    assert spec_docs.render_doc(spec_docs.DOC.read_text(encoding="utf-8")) == spec_docs.DOC.read_text(encoding="utf-8")
    assert spec_docs.SCHEMA.read_text(encoding="utf-8") == spec_docs.render_schema()


def _schema_validator():
    import json

    import jsonschema

    schema = json.loads((ROOT / "docs" / "components.schema.json").read_text(encoding="utf-8"))
    jsonschema.Draft202012Validator.check_schema(schema)
    return jsonschema.Draft202012Validator(schema)


@pytest.mark.parametrize("path", sorted([*ROOT.glob("card_data/*/components.yaml"),
                                         FIXTURES / SLUG / "components.yaml"]), ids=lambda p: p.parent.name)
def test_shipped_components_validate_against_the_schema(path):
    import yaml

    errors = [f"{list(e.absolute_path)}: {e.message}"
              for e in _schema_validator().iter_errors(yaml.safe_load(path.read_text(encoding="utf-8")))]
    assert errors == []


def test_schema_refuses_what_the_loader_refuses():
    """The schema is not a rubber stamp: the same mistakes the loader reports, it reports too."""
    import yaml

    doc = yaml.safe_load((ROOT / "card_data" / "tisigui" / "components.yaml").read_text(encoding="utf-8"))
    validator = _schema_validator()
    layout = next(iter(doc["layouts"].values()))
    for bad in ({"type": "text", "box": [0, 0, 1, 1], "text": "x", "size": "1000pt"},
                {"type": "rect", "box": [0, 0, 1, 1], "stroke_width": 50},
                {"type": "rect", "box": [0, 0, 1], "fill": "#000000"},
                {"type": "blob"},
                {"type": "grid", "box": [0, 0, 1, 1], "rows": 10 ** 9, "columns": ["a"], "size": "9pt"},
                {"type": "grid", "box": [0, 0, 1, 1], "rows": "{days}", "columns": ["a"], "size": "9pt"},
                {"type": "grid", "box": [0, 0, 1, 1], "rows": 2, "columns": ["a"], "size": "9pt",
                 "row_labels": "每一天"},
                {"type": "text", "box": [0, 0, 1, 1], "text": "x", "size": "9pt", "colour": "#000000"}):
        layout["elements"].append(bad)
        assert list(validator.iter_errors(doc)), bad
        layout["elements"].pop()
    for bad_index in ([0, 0, 1], "top-left", [0, 0, 1, "x"]):
        layout["index"] = bad_index
        assert list(validator.iter_errors(doc)), bad_index
    layout["index"] = [4, 4.5, 9, "16mm"]
    assert not list(validator.iter_errors(doc))
    del layout["index"]
    doc["components"][0]["held_in_hand"] = "yes"
    assert list(validator.iter_errors(doc))
    doc["components"][0]["held_in_hand"] = True
    assert not list(validator.iter_errors(doc))
    doc["components"][0]["count"] = 10 ** 9
    assert list(validator.iter_errors(doc))


def test_every_spec_kind_has_a_drawer():
    from pnp.data.spec import ELEMENTS
    from pnp.render.faces import DRAWERS

    assert set(DRAWERS) == set(ELEMENTS)
    for spec in ELEMENTS.values():
        assert spec.description and all(p.description for p in spec.props), spec.kind


@pytest.mark.parametrize(("kind", "prop", "value", "fragment"), [
    ("text", "size", "1000000000pt", "at most 300 pt"),
    ("text", "size", float("inf"), "font size"),
    ("text", "size", float("nan"), "font size"),
    ("rect", "box", [0, 0, float("nan"), 3], "finite"),
    ("rect", "radius", float("inf"), "finite"),
    ("rect", "stroke_width", float("nan"), "finite"),
    ("rect", "stroke_width", 21, "at most 20"),
    ("circle", "center", [float("-inf"), 0], "finite"),
    ("line", "points", [[0, 0]] * 1001, "at most 1000 items"),
    ("grid", "rows", 10 ** 9, "at most 200"),
    ("icons", "count", 10 ** 9, "at most 500"),
    ("icons", "size", float("inf"), "finite"),
    ("text", "text", "字" * 1001, "limit of 1000"),
    ("rect", "box", [0, 0, "5000%", 3], "at most 200%"),
])
def test_spec_limits(kind, prop, value, fragment):
    from pnp.data.spec import ELEMENTS, SpecContext, prop_error

    message = prop_error(ELEMENTS[kind], prop, value, SpecContext({}, {"star": object()}))
    assert message is not None and fragment in message, message


def test_an_icon_count_held_by_a_field_has_the_same_limit(game_dir):
    """A {field} count is checked per card: 10^9 icons are refused, not placed."""
    edit(game_dir / "components.yaml", 'number: "{n}"', 'number: "{n}000000000"')
    edit(game_dir / "components.yaml", 'count: "{pips}"', 'count: "{number}"')
    problems = problems_of(game_dir)
    assert any("icon count {number} is 1000000000" in p and "limit of 500" in p for p in problems), problems
