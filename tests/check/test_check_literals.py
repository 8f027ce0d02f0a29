"""``pnp check`` against the engine's column declarations (headings, integer cells) and the
``literal-number`` lint (typed digits in card text, figures and templates; game.yaml marks).

Every case edits a copy of a shipped game and asserts the exit status, the finding's code and
the file and line it names (found by searching the edited file, not by trusting the report).
"""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from pnp.check.tables import column_diffs
from pnp.cli import cli
from pnp.core.choices import LANGS
from pnp.data.load import load_game
from pnp.games.registry import get_game, tables_from_engine
from pnp.games.ruleset import game_rules
from pnp.text.convert import converter_for
from tests.conftest import ROOT, edit, game_workspace

SHIPPED = ("tisigui", "wurenshenghuan", "niutouwang", "aizhewudi")
AID_TEXT = "text: 兇手殺死自己的角色（詐死）不算在內。"  # a text of wurenshenghuan's player aid


def workspace(tmp_path: Path, slug: str) -> Path:
    return game_workspace(tmp_path, slug, templates=True)


def check(root: Path, slug: str) -> tuple[int, list[dict[str, Any]]]:
    result = CliRunner().invoke(cli, ["--root", str(root), "check", slug, "--format", "json"])
    assert "Traceback" not in result.output, result.output
    return result.exit_code, json.loads(result.stdout)["games"][slug]["findings"]


def line_of(path: Path, needle: str) -> int:
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        if needle in line:
            return number
    raise AssertionError(f"{needle!r} not in {path}")


def only(found: list[dict[str, Any]], code: str) -> list[dict[str, Any]]:
    return [f for f in found if f["code"] == code]


# --------------------------------------------------------------------------------------------
# Headings and cell types come from the engine


def test_the_shipped_engines_declare_every_column_they_compute() -> None:
    """Each computed table, under the canonical rules and every variant's, has a declaration
    whose keys are its rows' keys in order (a column the rules give no value for, such as the
    markers of rules without markers, left out of every row), and every value of an integer
    column is an integer (so a printed 6.0 can never be right)."""
    for slug in SHIPPED:
        plugin = get_game(slug)
        game = load_game(ROOT / "card_data" / slug, tables_from_engine)
        for variant in (None, *plugin.rules.variants):
            computed = plugin.tables.compute(game_rules(plugin, game, variant))
            assert set(plugin.tables.columns) == set(computed), slug
            for name, rows in computed.items():
                keys = [column.key for column in plugin.tables.columns[name]]
                given = [key for key in keys if rows and key in rows[0]]
                assert rows and all(list(row) == given for row in rows), (slug, variant, name)
                for column in plugin.tables.columns[name]:
                    assert column.kind in ("int", "text")
                    if column.kind == "int" and column.key in given:
                        assert all(type(row[column.key]) is int for row in rows), (slug, name, column.key)


def test_swapped_headings_are_reported_at_their_lines(tmp_path: Path) -> None:
    root = workspace(tmp_path, "wurenshenghuan")
    tables = root / "card_data/wurenshenghuan/tables.yaml"
    edit(tables, "{key: searches, label: 盤查次數}", "{key: searches, label: 囚禁人數}")
    edit(tables, "{key: prisoners, label: 囚禁人數}", "{key: prisoners, label: 盤查次數}")
    code, found = check(root, "wurenshenghuan")
    assert code == 1
    swapped = only(found, "label-differs")
    assert [(f["column"], f["printed"], f["computed"]) for f in swapped] == [
        ("searches", "囚禁人數", "盤查次數"), ("prisoners", "盤查次數", "囚禁人數")]
    assert [f["where"].split(": ")[0] for f in swapped] == [
        f"card_data/wurenshenghuan/tables.yaml:{line_of(tables, 'key: searches')}",
        f"card_data/wurenshenghuan/tables.yaml:{line_of(tables, 'key: prisoners')}"]
    assert {f["code"] for f in found} == {"label-differs"}  # every cell still agrees


def test_a_heading_in_the_other_script_is_the_same_heading() -> None:
    """An engine may declare its labels in either script: both sides are compared in each
    printed script, so 人數 (declared) and 人数 (printed in a zh-Hans game) agree, and a swap
    is still a swap."""
    game = load_game(ROOT / "card_data" / "tisigui", tables_from_engine)
    plugin = get_game("tisigui")
    computed = plugin.tables.compute(game_rules(plugin, game))
    converters = [converter_for(game, lang) for lang in LANGS]
    to_hant = converter_for(game, "zh-Hant")
    hant = {name: tuple(replace(c, label=to_hant(c.label)) for c in columns)
            for name, columns in plugin.tables.columns.items()}
    assert hant["setup"][0].label == "人數"
    assert column_diffs(game, hant, computed, converters) == []
    label = {c.key: c.label for c in hant["setup"]}
    trade = {"big_die": label["small_rounds"], "small_rounds": label["big_die"]}
    swapped = {**hant, "setup": tuple(replace(c, label=trade.get(c.key, c.label)) for c in hant["setup"])}
    assert [(d.kind, d.column) for d in column_diffs(game, swapped, computed, converters)] == [
        ("label-differs", "big_die"), ("label-differs", "small_rounds")]


def test_a_column_the_engine_does_not_declare_and_one_left_out(tmp_path: Path) -> None:
    root = workspace(tmp_path, "aizhewudi")
    tables = root / "card_data/aizhewudi/tables.yaml"
    edit(tables, "      - {key: per_player, label: 每套張數}\n", "      - {key: per_set, label: 每套張數}\n")
    text = tables.read_text(encoding="utf-8").replace("per_player:", "per_set:")
    tables.write_text(text, encoding="utf-8")
    code, found = check(root, "aizhewudi")
    assert code == 1
    unknown, missing = only(found, "column-unknown"), only(found, "column-missing")
    assert [f["column"] for f in unknown] == ["per_set"]
    assert unknown[0]["where"].startswith(
        f"card_data/aizhewudi/tables.yaml:{line_of(tables, 'key: per_set')}:")
    assert [f["column"] for f in missing] == ["per_player"]


def test_a_float_in_an_integer_column_is_a_located_data_error(tmp_path: Path) -> None:
    root = workspace(tmp_path, "wurenshenghuan")
    tables = root / "card_data/wurenshenghuan/tables.yaml"
    edit(tables, "{alive: 6, searches: 3, prisoners: 2}", "{alive: 6, searches: 3.0, prisoners: 2}")
    code, found = check(root, "wurenshenghuan")
    assert code == 1
    assert [(f["kind"], f["code"], f["table"], f["row"], f["column"], f["printed"], f["where"])
            for f in found] == [
        ("data", "not-integer", "allowances", 5, "searches", 3.0,
         f"card_data/wurenshenghuan/tables.yaml:{line_of(tables, 'searches: 3.0')}: "
         "tables.allowances.rows[5].searches")]
    assert "3.0" in found[0]["message"] and "row 6" in found[0]["message"]


def test_a_layout_table_the_engine_does_not_compute(tmp_path: Path) -> None:
    """A card that embeds a table names it; check holds the name to the engine's tables."""
    root = workspace(tmp_path, "tisigui")
    tables = root / "card_data/tisigui/tables.yaml"
    components = root / "card_data/tisigui/components.yaml"
    edit(tables, "  setup:\n", "  opening:\n")
    edit(components, "table: setup,", "table: opening,")
    code, found = check(root, "tisigui")
    assert code == 1
    assert {f["code"] for f in found} >= {"table-not-computed", "unknown-table"}
    layout = only(found, "unknown-table")[0]
    assert layout["where"].startswith(
        f"card_data/tisigui/components.yaml:{line_of(components, 'table: opening')}")


# --------------------------------------------------------------------------------------------
# literal-number


def test_a_typed_digit_in_card_text_is_reported_at_its_line(tmp_path: Path) -> None:
    root = workspace(tmp_path, "wurenshenghuan")
    components = root / "card_data/wurenshenghuan/components.yaml"
    edit(components, AID_TEXT, AID_TEXT[:-1] + "，最多 9 個。")
    code, found = check(root, "wurenshenghuan")
    assert code == 1
    literal = only(found, "literal-number")
    assert [(f["number"], f["file"]) for f in literal] == [("9", "components.yaml")]
    assert literal[0]["where"].startswith(
        f"card_data/wurenshenghuan/components.yaml:{line_of(components, '最多 9 個')}: layouts.aid_back")
    assert "9" in literal[0]["message"]


def test_a_rules_reference_in_card_text_is_not_a_literal(tmp_path: Path) -> None:
    root = workspace(tmp_path, "wurenshenghuan")
    components = root / "card_data/wurenshenghuan/components.yaml"
    edit(components, "text: 兇手殺死自己的角色（詐死）不算在內。兇手不拿存活獎勵。}",
         'text: "兇手殺死自己的角色（詐死）不算在內，最多 {rules.characters} 個。"}')
    code, found = check(root, "wurenshenghuan")
    assert (code, found) == (0, [])


def test_a_typed_digit_in_a_template_is_reported_and_a_variable_is_not(tmp_path: Path) -> None:
    root = workspace(tmp_path, "wurenshenghuan")
    template = root / "templates/wurenshenghuan/rulebook.md.j2"
    text = template.read_text(encoding="utf-8")
    added = "鑰匙只有 1 把，凶器共 {{ rules.copies_per_weapon }} 套。\n"
    text = text.replace("## 囚禁與鑰匙\n", "## 囚禁與鑰匙\n\n" + added, 1)
    template.write_text(text, encoding="utf-8")
    code, found = check(root, "wurenshenghuan")
    assert code == 1
    literal = only(found, "literal-number")
    assert [(f["number"], f["where"]) for f in literal] == [
        ("1", f"templates/wurenshenghuan/rulebook.md.j2:{line_of(template, '鑰匙只有 1 把')}")]


def test_template_numbers_that_are_named_or_printed_are_literal_and_logic_is_not(
        tmp_path: Path) -> None:
    root = workspace(tmp_path, "wurenshenghuan")
    template = root / "templates/wurenshenghuan/rulebook.md.j2"
    added = ("{% set spare = 4 %}\n"  # a named number: printed wherever it is used
             "{% if rules.characters > 2 %}備用 {{ spare }} 張，"
             "第 {{ rules.days + 1 }} 天{{ '：共 7 人' }}{% endif %}\n"
             "{% for day in range(1, rules.days) %}{{ day }}{% endfor %}\n"  # logic only
             "1. 列表的編號不是打字的數字\n")
    text = template.read_text(encoding="utf-8").replace("## 囚禁與鑰匙\n", "## 囚禁與鑰匙\n\n" + added, 1)
    template.write_text(text, encoding="utf-8")
    code, found = check(root, "wurenshenghuan")
    start = line_of(template, "{% set spare = 4 %}")
    assert code == 1
    assert sorted((f["number"], int(f["where"].rsplit(":", 1)[1])) for f in only(found, "literal-number")) == [
        ("1", start + 1), ("4", start), ("7", start + 1)]


def test_numbers_named_together_in_a_tuple_list_or_dict_are_literal(tmp_path: Path) -> None:
    """``{% set a, b = 3, 4 %}`` names its numbers as much as ``{% set a = 3 %}`` does; a tuple
    a template only tests against is logic."""
    root = workspace(tmp_path, "wurenshenghuan")
    template = root / "templates/wurenshenghuan/rulebook.md.j2"
    added = ("{% set first, second = 3, 4 %}{% set days = [6] %}{% set by = {'k': 8} %}"
             "第 {{ first }}、{{ second }}、{{ days[0] }}、{{ by.k }} 天\n"
             "{% if rules.days in (5, 9) %}{{ rules.days }}{% endif %}\n")
    text = template.read_text(encoding="utf-8").replace("## 囚禁與鑰匙\n", "## 囚禁與鑰匙\n\n" + added, 1)
    template.write_text(text, encoding="utf-8")
    code, found = check(root, "wurenshenghuan")
    start = line_of(template, "{% set first, second = 3, 4 %}")
    assert code == 1
    assert sorted((f["number"], int(f["where"].rsplit(":", 1)[1])) for f in only(found, "literal-number")) == [
        ("3", start), ("4", start), ("6", start), ("8", start)]


def test_a_typed_row_count_behind_numbered_row_labels_is_a_literal(tmp_path: Path) -> None:
    """The record sheet's "第 {row} 天" rows print 1 up to ``rows``: "{rules.days}" is derived,
    a typed 5 is reported where it is typed."""
    root = workspace(tmp_path, "wurenshenghuan")
    components = root / "card_data/wurenshenghuan/components.yaml"
    edit(components, 'rows: "{rules.days}"', "rows: 5")
    code, found = check(root, "wurenshenghuan")
    assert code == 1
    assert [(f["number"], f["where"]) for f in only(found, "literal-number")] == [
        ("5", f"card_data/wurenshenghuan/components.yaml:{line_of(components, 'rows: 5')}: "
              "layouts.record_sheet.elements[3].rows")]


def test_a_marked_literal_passes_and_a_stale_mark_is_reported(tmp_path: Path) -> None:
    root = workspace(tmp_path, "wurenshenghuan")
    components = root / "card_data/wurenshenghuan/components.yaml"
    game = root / "card_data/wurenshenghuan/game.yaml"
    edit(components, AID_TEXT, AID_TEXT[:-1] + "，最多 9 個。")
    with game.open("a", encoding="utf-8") as out:
        out.write('  - {file: components.yaml, text: "最多 9 個", reason: 試驗用的說明}\n')
    assert check(root, "wurenshenghuan") == (0, [])

    edit(components, "不算在內，最多 9 個。", "不算在內。")
    code, found = check(root, "wurenshenghuan")
    assert code == 1
    assert [(f["code"], f["where"].split(": ")[0]) for f in found] == [
        ("stale-literal-mark", f"card_data/wurenshenghuan/game.yaml:{line_of(game, '最多 9 個')}")]


def test_a_mark_covers_only_the_digits_inside_its_text(tmp_path: Path) -> None:
    root = workspace(tmp_path, "wurenshenghuan")
    components = root / "card_data/wurenshenghuan/components.yaml"
    game = root / "card_data/wurenshenghuan/game.yaml"
    edit(components, AID_TEXT, AID_TEXT[:-1] + "，最多 9 個，至少 1 個。")
    with game.open("a", encoding="utf-8") as out:
        out.write('  - {file: components.yaml, text: "最多 9 個", reason: 試驗用的說明}\n')
    code, found = check(root, "wurenshenghuan")
    assert code == 1
    assert [f["number"] for f in only(found, "literal-number")] == ["1"]


def test_a_mark_without_a_reason_is_a_data_error_with_its_line(tmp_path: Path) -> None:
    root = workspace(tmp_path, "wurenshenghuan")
    game = root / "card_data/wurenshenghuan/game.yaml"
    with game.open("a", encoding="utf-8") as out:
        out.write('  - {file: components.yaml, text: "最多 9 個", reason: ""}\n')
        out.write('  - {file: components.yaml, reason: 沒有說蓋住什麼}\n')
    result = CliRunner().invoke(cli, ["--root", str(root), "check", "wurenshenghuan"])
    assert result.exit_code == 1
    assert "Traceback" not in result.output
    empty = line_of(game, 'reason: ""')
    assert f"game.yaml:{empty}" in result.output
    assert f"game.yaml:{line_of(game, '沒有說蓋住什麼')}" in result.output


def test_a_whole_number_printed_as_a_float_is_reported(tmp_path: Path) -> None:
    """"4.0 + 2 = 6.0 分" in a rulebook: the template's arithmetic made a float."""
    root = workspace(tmp_path, "wurenshenghuan")
    template = root / "templates/wurenshenghuan/rulebook.md.j2"
    text = template.read_text(encoding="utf-8").replace(
        "## 囚禁與鑰匙\n", "## 囚禁與鑰匙\n\n存活獎勵折算後是 {{ rules.days / rules.days * rules.days }} 分。\n", 1)
    template.write_text(text, encoding="utf-8")
    code, found = check(root, "wurenshenghuan")
    assert code == 1
    assert [(f["code"], f["number"]) for f in found] == [("float-number", "5.0")]
    assert found[0]["where"] == \
        f"templates/wurenshenghuan/rulebook.md.j2:{line_of(template, '存活獎勵折算後是')}"


@pytest.mark.parametrize("slug", SHIPPED)
def test_each_shipped_game_checks_clean_with_its_marks(slug: str) -> None:
    """Every typed number of a shipped game is marked with a reason and no mark is stale."""
    code, found = check(ROOT, slug)
    assert (code, found) == (0, [])
    marks = load_game(ROOT / "card_data" / slug, tables_from_engine).info.literal_numbers
    assert all(len(mark.reason) > 10 for mark in marks)


# --------------------------------------------------------------------------------------------
# Single edits, as data: each makes `pnp check` exit 1 with findings of `code` only, one of
# them at the line of `line_of` in `file` (the edited file unless `where` names another).
# Add a case by adding a row.

EDITS = [
    {"name": "tisigui's pivot headings swapped", "file": "card_data/tisigui/tables.yaml",
     "old": "{key: round_value, label: 小局分值}\n      - {key: named, label: 指认人数}",
     "new": "{key: round_value, label: 指认人数}\n      - {key: named, label: 小局分值}",
     "code": "label-differs", "line_of": "key: round_value"},
    {"name": "a float bill value", "file": "card_data/aizhewudi/tables.yaml",
     "old": "{value: 5000, count: 15}", "new": "{value: 5000.0, count: 15}",
     "code": "not-integer", "line_of": "value: 5000.0"},
    {"name": "a float count in the heads summary", "file": "card_data/niutouwang/tables.yaml",
     "old": "{heads: 1, cards: 76}", "new": "{heads: 1, cards: 76.0}",
     "code": "not-integer", "line_of": "cards: 76.0"},
    {"name": "a player count typed into a table title", "file": "card_data/wurenshenghuan/tables.yaml",
     "old": "title: 白天行動上限", "new": "title: 白天行動上限（10 人）",
     "code": "literal-number", "line_of": "白天行動上限（10 人）"},
    {"name": "a supply typed into a note", "file": "card_data/tisigui/components.yaml",
     "old": "    name: 问题标记\n", "new": "    name: 问题标记（共 30 个）\n",
     "code": "literal-number", "line_of": "问题标记（共 30 个）"},
    {"name": "a number typed into a credit line", "file": "card_data/niutouwang/game.yaml",
     "old": "本規則書依據該篇文章整理而成", "new": "本規則書依據該篇文章的第 2 版整理而成",
     "code": "literal-number", "line_of": "第 2 版"},
]


@pytest.mark.parametrize("case", EDITS, ids=[case["name"] for case in EDITS])
def test_single_edit_is_reported_at_its_line(tmp_path: Path, case: dict[str, str]) -> None:
    slug = case["file"].split("/")[1]
    root = workspace(tmp_path, slug)
    edit(root / case["file"], case["old"], case["new"])
    code, found = check(root, slug)
    where = case.get("where", case["file"])
    assert code == 1
    assert {f["code"] for f in found} == {case["code"]}
    assert f"{where}:{line_of(root / where, case['line_of'])}" in [f["where"].split(": ")[0] for f in found]


def test_typed_digits_in_csv_cards_are_reported_in_the_csv(tmp_path: Path) -> None:
    """Cards read from a spreadsheet are printed text too: a cell that is a number and nothing
    else is the card's data, each digit typed into a cell's words is reported at its row and
    column of the CSV file, and a mark naming the file covers it."""
    root = workspace(tmp_path, "tisigui")
    components = root / "card_data/tisigui/components.yaml"
    edit(components, '    generate:\n      range: [1, 6]\n      id: "shield-{n}"\n      fields: {number: "{n}"}\n',
         "    cards: shields.csv\n")
    csv = root / "card_data/tisigui/shields.csv"
    csv.write_text("id,number\n" + "".join(f"shield-{n},{n}\n" for n in range(1, 7)), encoding="utf-8")
    assert check(root, "tisigui") == (0, [])
    csv.write_text("id,number\n" + "".join(f"shield-{n},{n} 号\n" for n in range(1, 7)), encoding="utf-8")
    code, found = check(root, "tisigui")
    assert code == 1
    assert [(f["number"], f["where"].split(": ")[0]) for f in found] == [
        (str(n), f"card_data/tisigui/shields.csv:{n + 1}:2") for n in range(1, 7)]
    with (root / "card_data/tisigui/game.yaml").open("a", encoding="utf-8") as out:
        out.write("  - {file: shields.csv, field: \"components[2].cards\", reason: the seat numbers on the shields}\n")
    assert check(root, "tisigui") == (0, [])


def test_a_mark_on_a_file_no_game_has_is_reported(tmp_path: Path) -> None:
    """A misspelt file name would otherwise make a mark that can never be stale."""
    root = workspace(tmp_path, "wurenshenghuan")
    game = root / "card_data/wurenshenghuan/game.yaml"
    with game.open("a", encoding="utf-8") as out:
        out.write('  - {file: rulebook.md, text: "1939 年", reason: the year of the novel}\n')
    code, found = check(root, "wurenshenghuan")
    assert code == 1
    assert [(f["code"], f["where"].split(": ")[0]) for f in found] == [
        ("stale-literal-mark", f"card_data/wurenshenghuan/game.yaml:{line_of(game, 'file: rulebook.md,')}")]


def test_a_game_without_rules_is_told_to_mark_a_literal_not_to_refer_to_rules(tmp_path: Path) -> None:
    """A new game has no rules to refer to: the finding says to mark the number (and to refer
    to the rules once it has them), not to do what it cannot."""
    root = tmp_path / "ws"
    (root / "card_data").mkdir(parents=True)
    result = CliRunner().invoke(cli, ["--root", str(root), "new", "demo"])
    assert result.exit_code == 0, result.output
    components = root / "card_data/demo/components.yaml"
    edit(components, "text: 拿一個分數標記。", "text: 拿 3 個分數標記。")
    code, found = check(root, "demo")
    assert code == 1
    [literal] = only(found, "literal-number")
    assert literal["number"] == "3"
    assert "mark it in game.yaml literal_numbers" in literal["message"]
    assert "once the game has rules" in literal["message"]
    assert "refer to the rules instead" not in literal["message"]


def test_a_float_card_field_is_reported_once(tmp_path: Path) -> None:
    """A card field is checked both where the card is and where the rulebook shows the card:
    one float in it is one finding."""
    root = workspace(tmp_path, "wurenshenghuan")
    components = root / "card_data/wurenshenghuan/components.yaml"
    edit(components, "- {id: character-a, fields: {letter: A, name: 溫法官,",
         "- {id: character-a, fields: {letter: A, name: 溫法官, power: 6.0,")
    code, found = check(root, "wurenshenghuan")
    assert code == 1
    floats = only(found, "float-number")
    assert [(f["number"], f["where"]) for f in floats] == \
        [("6.0", f"card_data/wurenshenghuan/components.yaml:{line_of(components, 'power: 6.0')}: "
                  "components[1].cards[0].fields.power")]
