"""Numbers derived in card data (pnp/data/rulerefs.py) and the icons a face draws against the
rules (pnp/check/counts.py, key ``component#symbol``)."""

from __future__ import annotations

from pathlib import Path

import pytest

from pnp.check.counts import count_findings
from pnp.core.errors import DataError
from pnp.core.problems import Place, Problem
from pnp.data.load import COMPONENTS_FILE, load_game
from pnp.data.model import Text
from pnp.data.rulerefs import resolve
from pnp.data.yamlmarks import load_yaml
from pnp.games.base import Requirement
from pnp.games.registry import tables_from_engine
from tests.conftest import ROOT, edit

RULES = {"row_limit": 6, "deck": {"highest": 104}, "name": "SP"}


def _resolved(text: str, counts: dict[str, int] | None = None) -> tuple[str, list[str]]:
    problems: list[Problem] = []
    value = resolve(Text(text, Place("x.yaml", 3)), RULES, problems, counts).value
    return value, [str(p) for p in problems]


def test_a_rules_reference_may_add_or_subtract() -> None:
    assert _resolved("第 {rules.row_limit} 張：收走前 {rules.row_limit-1} 張") == (
        "第 6 張：收走前 5 張", [])
    assert _resolved("{rules.deck.highest+1}") == ("105", [])


def test_an_offset_on_a_value_that_is_no_whole_number_is_an_error() -> None:
    value, problems = _resolved("{rules.name+1}")
    assert value == "{rules.name+1}"
    assert problems == ["x.yaml:3: {rules.name+1}: rules.name is 'SP', not a whole number to add to"]


def test_a_count_reference_prints_what_components_yaml_makes() -> None:
    counts = {"identity": 6, "identity/human": 5}
    assert _resolved("活人牌 {count.identity/human} 張，共 {count.identity} 張", counts) == (
        "活人牌 5 張，共 6 張", [])
    value, problems = _resolved("{count.identity/ghost}", counts)
    assert value == "{count.identity/ghost}" and len(problems) == 1
    assert problems[0].startswith("x.yaml:3: {count.identity/ghost}: components.yaml has no card "
                                  "'identity/ghost'")


def test_a_card_reference_prints_the_field_as_written() -> None:
    fields = {"score/score-50.value": "50"}
    problems: list[Problem] = []
    assert resolve(Text("{card.score/score-50.value} 分", "x.yaml:3"), RULES, problems, None,
                   fields).value == "50 分"
    assert problems == []
    value = resolve(Text("{card.score/score-60.value}", "x.yaml:3"), RULES, problems, None, fields)
    assert value.value == "{card.score/score-60.value}"
    assert [str(p) for p in problems] == ["x.yaml:3: {card.score/score-60.value}: components.yaml has no card "
                        "'score-60' with a field 'value' in component 'score'"]


def test_a_note_names_its_cards_values(workspace_copy: Path) -> None:
    path = workspace_copy / "card_data" / "tisigui" / "components.yaml"
    edit(path, 'fields: {value: "50",', 'fields: {value: "100",')
    notes = {c.id: c.note.value for c in load_game(path.parent, tables_from_engine).components}
    assert notes["score"].startswith("100 分 2 个、10 分 6 个")


def test_a_note_counts_its_cards(workspace_copy: Path) -> None:
    path = workspace_copy / "card_data" / "tisigui" / "components.yaml"
    edit(path, "{id: score-50, count: 2,", "{id: score-50, count: 3,")
    notes = {c.id: c.note.value for c in load_game(path.parent, tables_from_engine).components}
    assert notes["score"].startswith("50 分 3 个、10 分 6 个、5 分 15 个、1 分 20 个")
    assert notes["identity"].startswith("碟仙牌 1 张、活人牌 5 张；牌面下缘有 1～6 号码格")


def test_an_unknown_count_fails_the_load_naming_the_note(workspace_copy: Path) -> None:
    path = workspace_copy / "card_data" / "tisigui" / "components.yaml"
    edit(path, "{count.identity/ghost}", "{count.identity/spirit}")
    with pytest.raises(DataError) as caught:
        load_game(path.parent, tables_from_engine)
    assert any("components.yaml:7" in p and "{count.identity/spirit}" in p
               for p in caught.value.problems), caught.value.problems


def test_figure_labels_total_the_heads_of_their_row() -> None:
    figures = load_game(ROOT / "card_data" / "niutouwang", tables_from_engine).figures
    # Rows 2 4 7 11 19 / 3 6 12 / 8 10 / 66: 1+1+1+5+1, 1+1+1, 1+3, 5 heads.
    assert [label.value for label in figures["before"].labels] == ["9 頭", "3 頭", "4 頭", "5 頭"]
    assert [label.value for label in figures["sixth_card"].labels] == ["10 頭"]


GAME_DIR = ROOT / "card_data" / "niutouwang"


def _icon_findings(game_dir: Path, need: Requirement) -> list[tuple[str, str, str]]:
    found = count_findings(load_game(game_dir, tables_from_engine), {"cards#bull": need},
                           load_yaml(game_dir / COMPONENTS_FILE), "components.yaml",
                           lambda where: where.replace(str(game_dir.parents[1]) + "/", ""))
    return [(f.code, f.where, f.message) for f in found]


def _heads(card: int) -> int:
    # The classic deck, written out independently of the engine.
    for multiple, heads in ((55, 7), (11, 5), (10, 3), (5, 2)):
        if card % multiple == 0:
            return heads
    return 1


def test_the_faces_draw_the_heads_the_rules_give() -> None:
    per_card = {f"card-{n}": _heads(n) for n in range(1, 105)}
    assert sum(per_card.values()) == 171
    assert _icon_findings(GAME_DIR, Requirement(171, "the deck", per_card)) == []


def test_a_face_that_draws_one_head_on_every_card_is_reported_at_its_count(
        workspace_copy: Path) -> None:
    game_dir = workspace_copy / "card_data" / "niutouwang"
    edit(game_dir / COMPONENTS_FILE, 'count: "{heads}", box: [15', "count: 1, box: [15")
    per_card = {f"card-{n}": _heads(n) for n in range(1, 105)}
    found = _icon_findings(game_dir, Requirement(171, "the deck", per_card))
    line = (game_dir / COMPONENTS_FILE).read_text(encoding="utf-8").split(
        "count: 1, box: [15")[0].count("\n") + 1
    assert [(code, where.split(": ")[0]) for code, where, _ in found] == [
        ("icons-differ", f"card_data/niutouwang/components.yaml:{line}")]
    assert "print 104 'bull' icons" in found[0][2] and "the rules need 171" in found[0][2]
    assert "card-5 shows 1, the rules give 2" in found[0][2]


def test_without_per_card_only_the_total_counts() -> None:
    assert _icon_findings(GAME_DIR, Requirement(171, "the deck")) == []
    found = _icon_findings(GAME_DIR, Requirement(104, "one head a card"))
    assert [code for code, _, _ in found] == ["icons-differ", "icons-differ"]  # both elements
    assert found[0][2].startswith("cards#bull: the faces print 171 'bull' icons in ")
    assert found[0][2].endswith("the rules need 104 (one head a card)")


def test_a_component_whose_faces_draw_no_such_icon() -> None:
    missing = count_findings(load_game(GAME_DIR, tables_from_engine), {"cards#star": Requirement(3, "three stars")},
                             None, "components.yaml", str)
    assert [f.code for f in missing] == ["icons-missing"]


def test_a_rules_reference_may_divide_by_another() -> None:
    rules = {"bills": [{"value": 5000}, {"value": 20000}], "name": "SP"}
    problems: list[Problem] = []
    assert resolve(Text("{rules.bills[1].value/rules.bills[0].value} 顆心", "x.yaml:3"), rules,
                   problems).value == "4 顆心"
    assert resolve(Text("{rules.bills[1].value/rules.bills[0].value-1}", "x.yaml:3"), rules,
                   problems).value == "3"
    assert problems == []
    for text, why in (("{rules.bills[0].value/rules.bills[1].value}", "(5000) is not a whole "
                       "multiple of rules.bills[1].value (20000)"),
                      ("{rules.name/rules.bills[0].value}", "('SP') is not a whole multiple of "
                       "rules.bills[0].value (5000)"),
                      ("{rules.bills[0].value/rules.nothing}", None)):
        value = resolve(Text(text, "x.yaml:3"), rules, problems).value
        assert value == text, text
        assert len(problems) == 1 and str(problems[0]).startswith(f"x.yaml:3: {text}: "), problems
        assert why is None or why in str(problems[0]), problems
        problems.clear()


def test_an_icon_count_may_quote_the_rules(workspace_copy: Path) -> None:
    """aizhewudi draws a bill's value in hearts, one per smallest bill: the faces are checked
    once the reference is resolved, and follow a rule edit."""
    game_dir = workspace_copy / "card_data" / "aizhewudi"
    bills = next(c for c in load_game(game_dir, tables_from_engine).components if c.id == "bill")
    assert [card.fields["hearts"].value for card in bills.cards] == ["1", "2", "4"]
    edit(game_dir / "game.yaml", "{value: 20000, count: 10", "{value: 25000, count: 10")
    bills = next(c for c in load_game(game_dir, tables_from_engine).components if c.id == "bill")
    assert [card.fields["hearts"].value for card in bills.cards] == ["1", "2", "5"]
    edit(game_dir / "game.yaml", "{value: 25000, count: 10", "{value: 40000, count: 10")
    with pytest.raises(DataError) as caught:  # eight hearts: the face is checked as printed
        load_game(game_dir, tables_from_engine)
    assert any("8 icons" in p and "it holds 5" in p for p in caught.value.problems), \
        caught.value.problems
    edit(game_dir / "game.yaml", "{value: 40000, count: 10", "{value: 22000, count: 10")
    with pytest.raises(DataError) as caught:
        load_game(game_dir, tables_from_engine)
    assert any("components.yaml" in p and "fields.hearts" in p
               and "is not a whole multiple of rules.bills[0].value (5000)" in p
               for p in caught.value.problems), caught.value.problems
