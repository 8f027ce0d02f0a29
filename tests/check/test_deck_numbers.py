"""Numbers in a deck's data are data: ``pnp check``'s ``literal-number`` lint and a deck.

A card field that is one number and nothing else (a stat column of a CSV or .xlsx deck,
``power: 5`` in YAML) is the card's data, as a table's cell is; digits inside a card's
sentence were typed into the text and are still reported. A game.yaml ``literal_numbers``
mark can name a component and a card by id, and a mark naming one the game does not have is
reported at its game.yaml line.

Each case writes a small game of its own (a 30-beast deck whose faces print three stat
columns and a text column) into a fresh workspace, runs ``pnp check`` on it, and asserts the
exit status and each finding's code, number and place, the line found by searching the file
the case wrote.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from pnp.cli import cli

SLUG = "beasts"
BEASTS = "虎豹熊狼狐鹿兔鷹蛇龜象馬牛羊豬狗貓鼠猴雞鴨鵝魚蛙蝦蟹龍鳳麟獅"
TEXT = "這隻野獸守護森林。"
STRIKE = "打出時造成 3 點傷害。"  # a digit typed into a card's sentence

GAME_YAML = """\
slug: beasts
name: 百獸對決
source_lang: zh-Hant
version: "0.1"
date: "2025-01-01"
players: {min: 2, max: 4}
credits:
  - 設計：測試者
"""

COMPONENTS_YAML = """\
components:
  - id: beasts
    name: 野獸牌
    note: 每張野獸有力量、花費與生命
    size: poker
    front: beast_front
    back: beast_back
    cards: CARDS
  - id: relics
    name: 寶物牌
    note: 寶物也有力量
    size: poker
    front: beast_front
    back: beast_back
    cards:
      - {id: crown, fields: {name: 王冠, power: 5, cost: "2", hp: -1, text: 戴上它的野獸更強。}}
      - {id: sword, fields: {name: 寶劍, power: 2.5, cost: "+1", hp: "０", text: 寶劍很鋒利。}}
layouts:
  beast_front:
    background: "#fbf8f1"
    elements:
      - {type: text, box: [6, 6, 51, 12], text: "{name}", size: 16pt, min_size: 10pt, bold: true}
      - {type: text, box: [6, 20, 16, 10], text: "{power}", size: 14pt, min_size: 8pt}
      - {type: text, box: [24, 20, 16, 10], text: "{cost}", size: 14pt, min_size: 8pt}
      - {type: text, box: [42, 20, 16, 10], text: "{hp}", size: 14pt, min_size: 8pt}
      - {type: text, box: [6, 34, 51, 40], text: "{text}", size: 10pt, min_size: 7pt}
  beast_back:
    background: "#27324a"
    elements:
      - {type: text, box: [8, 36, 47, 16], text: 百獸對決, size: 16pt, min_size: 10pt, color: "#e8d9b0"}
"""


def deck_rows(texts: dict[int, str] | None = None) -> list[list[str]]:
    """The 30 beasts: id, count, name and three stat columns (power 0–9, cost 1–5, hp 10–39),
    each number alone in its cell; card ``n`` (1-based) gets ``texts[n]`` for its text."""
    texts = texts or {}
    rows = [["id", "count", "name", "power", "cost", "hp", "text"]]
    for i, name in enumerate(BEASTS, start=1):
        rows.append([f"beast-{i:02d}", "1", name, str(i * 7 % 10), str(i % 5 + 1), str(9 + i),
                     texts.get(i, TEXT)])
    return rows


def workspace(tmp_path: Path, texts: dict[int, str] | None = None, xlsx: bool = False) -> Path:
    root = tmp_path / "ws"
    game = root / "card_data" / SLUG
    game.mkdir(parents=True)
    (game / "game.yaml").write_text(GAME_YAML, encoding="utf-8")
    rows = deck_rows(texts)
    if xlsx:
        import openpyxl

        workbook = openpyxl.Workbook()
        sheet = workbook.active
        sheet.title = "野獸"
        for row in rows:  # stat cells as number cells, as a spreadsheet keeps them
            sheet.append([int(cell) if cell.isdigit() else cell for cell in row])
        workbook.save(game / "beasts.xlsx")
    else:
        (game / "beasts.csv").write_text("\n".join(",".join(row) for row in rows) + "\n", encoding="utf-8")
    cards = "beasts.xlsx" if xlsx else "beasts.csv"
    (game / "components.yaml").write_text(COMPONENTS_YAML.replace("CARDS", cards), encoding="utf-8")
    return root


def mark(root: Path, *lines: str) -> Path:
    """Append ``literal_numbers:`` marks to the game's game.yaml."""
    game = root / "card_data" / SLUG / "game.yaml"
    with game.open("a", encoding="utf-8") as out:
        out.write("literal_numbers:\n" + "".join(f"  - {line}\n" for line in lines))
    return game


def check(root: Path) -> tuple[int, list[dict[str, Any]]]:
    result = CliRunner().invoke(cli, ["--root", str(root), "check", SLUG, "--format", "json"])
    assert "Traceback" not in result.output, result.output
    return result.exit_code, json.loads(result.stdout)["games"][SLUG]["findings"]


def line_of(path: Path, needle: str) -> int:
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        if needle in line:
            return number
    raise AssertionError(f"{needle!r} not in {path}")


def places(found: list[dict[str, Any]]) -> list[tuple[str, str, str]]:
    return [(f["code"], f.get("number", ""), f["where"]) for f in found]


def csv_place(root: Path, card: int, field: str) -> str:
    """Where a finding about card ``card`` (1-based) of the CSV deck points: its row."""
    csv = root / "card_data" / SLUG / "beasts.csv"
    column = ["id", "count", "name", "power", "cost", "hp", "text"].index(field) + 1
    return (f"card_data/{SLUG}/beasts.csv:{line_of(csv, f'beast-{card:02d},')}:{column}: "
            f"components[0].cards[{card - 1}].fields.{field}")


# --------------------------------------------------------------------------------------------
# Whole numbers are data; digits in a sentence are typed


def test_a_30_card_csv_deck_with_stat_columns_has_no_literal_number(tmp_path: Path) -> None:
    root = workspace(tmp_path)
    csv = (root / "card_data" / SLUG / "beasts.csv").read_text(encoding="utf-8").splitlines()
    assert len(csv) == 31 and csv[1] == f"beast-01,1,虎,7,2,10,{TEXT}"  # 30 cards, 90 stat cells
    assert check(root) == (0, [])


def test_a_digit_typed_into_a_cards_text_is_still_reported_at_its_row(tmp_path: Path) -> None:
    root = workspace(tmp_path, texts={17: STRIKE})
    code, found = check(root)
    assert code == 1
    assert places(found) == [("literal-number", "3", csv_place(root, 17, "text"))]
    assert STRIKE[:-1] in found[0]["message"]


def test_whole_number_fields_of_a_yaml_deck_are_data_and_its_sentences_are_not(tmp_path: Path) -> None:
    """``power: 5``, ``cost: "2"``, ``hp: -1``, ``2.5``, ``"+1"`` and a full-width ``"０"`` are
    each one number; "戴上它的野獸多 1 點力量" is a sentence."""
    root = workspace(tmp_path)
    components = root / "card_data" / SLUG / "components.yaml"
    assert check(root) == (0, [])
    text = components.read_text(encoding="utf-8").replace("戴上它的野獸更強。", "戴上它的野獸多 1 點力量。")
    components.write_text(text, encoding="utf-8")
    code, found = check(root)
    assert code == 1
    assert places(found) == [("literal-number", "1", f"card_data/{SLUG}/components.yaml:"
                              f"{line_of(components, '多 1 點力量')}: components[1].cards[0].fields.text")]


def test_an_xlsx_deck_with_number_cells_has_no_literal_number_but_its_text_does(tmp_path: Path) -> None:
    root = workspace(tmp_path, xlsx=True)
    assert check(root) == (0, [])
    root = workspace(tmp_path / "typed", texts={4: STRIKE}, xlsx=True)
    code, found = check(root)
    assert code == 1
    # Row 5 of the sheet (the header is row 1), column G: the text of the fourth beast.
    assert places(found) == [("literal-number", "3", f"card_data/{SLUG}/beasts.xlsx:5:7: 野獸!G5: "
                                                     "components[0].cards[3].fields.text")]


def test_a_number_glued_to_words_in_a_stat_cell_is_typed_text(tmp_path: Path) -> None:
    """"3 點", "1～3", "x2" are not one number: the cell says more than its number."""
    root = workspace(tmp_path)
    csv = root / "card_data" / SLUG / "beasts.csv"
    text = csv.read_text(encoding="utf-8")
    text = text.replace("beast-02,1,豹,4,3,11,", "beast-02,1,豹,4 點,1～3,x2,")
    csv.write_text(text, encoding="utf-8")
    code, found = check(root)
    assert code == 1
    assert places(found) == [
        ("literal-number", "4", csv_place(root, 2, "power")),
        ("literal-number", "1", csv_place(root, 2, "cost")),
        ("literal-number", "3", csv_place(root, 2, "cost")),
        ("literal-number", "2", csv_place(root, 2, "hp"))]


def test_a_number_every_generated_card_carries_is_data_and_a_sentence_is_not(tmp_path: Path) -> None:
    root = workspace(tmp_path)
    components = root / "card_data" / SLUG / "components.yaml"
    generated = ("  - id: eggs\n    name: 蛋\n    note: 孵化用\n    size: poker\n    front: beast_front\n"
                 "    generate:\n      range: [1, 4]\n      id: \"egg-{n}\"\n"
                 "      fields: {name: 蛋, power: 0, cost: \"{n}\", hp: \"3\", text: 孵化要 2 回合。}\n")
    text = components.read_text(encoding="utf-8").replace("layouts:\n", generated + "layouts:\n")
    components.write_text(text, encoding="utf-8")
    code, found = check(root)
    assert code == 1
    assert places(found) == [("literal-number", "2", f"card_data/{SLUG}/components.yaml:"
                              f"{line_of(components, '孵化要 2 回合')}: components[2].generate.fields.text")]


# --------------------------------------------------------------------------------------------
# Marks by component and card id


def test_a_mark_by_component_and_card_id_silences_exactly_that_card(tmp_path: Path) -> None:
    root = workspace(tmp_path, texts={5: STRIKE, 6: STRIKE})
    mark(root, "{component: beasts, card: beast-05, reason: 試驗用：這張牌的傷害是牌的設計}")
    code, found = check(root)
    assert code == 1
    assert places(found) == [("literal-number", "3", csv_place(root, 6, "text"))]


def test_a_mark_by_card_id_and_text_covers_only_the_digits_inside_its_text(tmp_path: Path) -> None:
    root = workspace(tmp_path, texts={5: "打出時造成 3 點傷害，再抽 1 張。"})
    mark(root, '{component: beasts, card: beast-05, text: "3 點", reason: 試驗用：傷害是牌的設計}')
    code, found = check(root)
    assert code == 1
    assert places(found) == [("literal-number", "1", csv_place(root, 5, "text"))]


def test_a_mark_by_component_id_covers_all_of_its_cards_and_no_other_component(tmp_path: Path) -> None:
    root = workspace(tmp_path, texts={5: STRIKE, 6: STRIKE})
    components = root / "card_data" / SLUG / "components.yaml"
    text = components.read_text(encoding="utf-8").replace("寶劍很鋒利。", "寶劍造成 4 點傷害。")
    components.write_text(text, encoding="utf-8")
    mark(root, "{component: beasts, reason: 試驗用：野獸牌的傷害是牌的設計}")
    code, found = check(root)
    assert code == 1
    assert places(found) == [("literal-number", "4", f"card_data/{SLUG}/components.yaml:"
                              f"{line_of(components, '寶劍造成 4 點傷害')}: components[1].cards[1].fields.text")]


def test_a_mark_naming_an_unknown_component_is_reported_at_its_line(tmp_path: Path) -> None:
    root = workspace(tmp_path, texts={5: STRIKE})
    game = mark(root, "{component: beast, card: beast-05, reason: 試驗用：少打了一個字母}")
    code, found = check(root)
    assert code == 1
    unknown = [f for f in found if f["code"] == "unknown-literal-mark"]
    assert [f["where"].split(": ")[0] for f in unknown] == [
        f"card_data/{SLUG}/game.yaml:{line_of(game, 'component: beast,')}"]
    assert "component 'beast'" in unknown[0]["message"] and "beasts, relics" in unknown[0]["message"]
    assert (unknown[0]["component"], unknown[0]["card"]) == ("beast", "beast-05")
    # The number it was meant for is still reported: nothing is silently left unmarked.
    assert places([f for f in found if f["code"] == "literal-number"]) == [
        ("literal-number", "3", csv_place(root, 5, "text"))]


def test_a_mark_naming_an_unknown_card_is_reported_at_its_line(tmp_path: Path) -> None:
    root = workspace(tmp_path, texts={5: STRIKE})
    game = mark(root, "{component: beasts, reason: 試驗用：這一條沒問題}",
                "{component: relics, card: beast-05, reason: 試驗用：元件寫錯了}")
    code, found = check(root)
    assert code == 1
    assert [(f["code"], f["where"].split(": ")[0]) for f in found] == [
        ("unknown-literal-mark", f"card_data/{SLUG}/game.yaml:{line_of(game, 'card: beast-05')}")]
    assert "card 'beast-05' of component 'relics'" in found[0]["message"]
    assert "crown, sword" in found[0]["message"]


def test_a_mark_whose_card_has_no_typed_number_is_stale(tmp_path: Path) -> None:
    root = workspace(tmp_path)
    game = mark(root, "{component: beasts, card: beast-05, reason: 試驗用：牌已改寫}")
    code, found = check(root)
    assert code == 1
    assert [(f["code"], f["where"].split(": ")[0]) for f in found] == [
        ("stale-literal-mark", f"card_data/{SLUG}/game.yaml:{line_of(game, 'beast-05')}")]
    assert "card 'beast-05' of component 'beasts'" in found[0]["message"]


@pytest.mark.parametrize("path", ["components.beasts.cards", "components[beasts].cards[4]"])
def test_a_field_path_naming_a_component_by_id_says_how_to_name_it(tmp_path: Path, path: str) -> None:
    """The mark a designer writes first: it can never match, and the finding says why and
    what to write instead, not merely "remove it"."""
    root = workspace(tmp_path, texts={5: STRIKE})
    game = mark(root, f'{{field: "{path}", reason: 試驗用：以名稱指元件}}')
    code, found = check(root)
    assert code == 1
    stale = [f for f in found if f["code"] == "stale-literal-mark"]
    assert [f["where"].split(": ")[0] for f in stale] == [
        f"card_data/{SLUG}/game.yaml:{line_of(game, path)}"]
    assert "write `component: beasts`" in stale[0]["message"]
    assert "remove it" not in stale[0]["message"]


def test_a_mark_by_id_works_the_same_for_a_yaml_deck(tmp_path: Path) -> None:
    root = workspace(tmp_path)
    components = root / "card_data" / SLUG / "components.yaml"
    text = components.read_text(encoding="utf-8").replace("寶劍很鋒利。", "寶劍造成 4 點傷害。")
    components.write_text(text, encoding="utf-8")
    mark(root, "{component: relics, card: sword, reason: 試驗用：寶劍的傷害是牌的設計}")
    assert check(root) == (0, [])
