"""``pnp check`` holds every deck held in hand to a corner index (pnp/check/index.py).

A deck is held in hand when the game's rules deal it so (the plugin's ``supply.hands``: aizhewudi's
action cards, niutouwang's number cards) or components.yaml marks it ``held_in_hand: true``.
Its front layout declares the corner a fanned hand shows (``index: [x, y, width, height]``),
and each card must print something there that tells it from the others, drawn ``turn: both``.
Before, nothing looked: aizhewudi's 48 action cards showed a blank corner in a fan (or the
first characters of 「第 6 步…」, the same on 嫁給我吧 and 逃婚) and ``pnp check`` said ok.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from pnp.core.errors import DataError
from pnp.data.load import load_game
from pnp.games.registry import tables_from_engine
from tests.check.test_check import check_json, findings, line_of
from tests.conftest import edit, game_workspace

INDEX = "    index: [4, 4.5, 9, 16]\n"


@pytest.fixture
def aizhewudi(tmp_path: Path) -> Path:
    return game_workspace(tmp_path, "aizhewudi")


def hand_findings(root: Path, game: str) -> tuple[int, list[dict[str, Any]]]:
    code, report = check_json(root, game)
    return code, findings(report, game, "hand")


def components(root: Path, game: str = "aizhewudi") -> Path:
    return root / "card_data" / game / "components.yaml"


def test_the_shipped_hand_decks_carry_their_index(aizhewudi: Path) -> None:
    assert hand_findings(aizhewudi, "aizhewudi")[1] == []


def test_a_deck_the_rules_deal_into_hands_without_an_index_is_reported(aizhewudi: Path) -> None:
    # aizhewudi's action cards as they were: no index declared.
    path = components(aizhewudi)
    edit(path, INDEX, "")
    code, found = hand_findings(aizhewudi, "aizhewudi")
    assert code == 1
    assert [f["code"] for f in found] == ["no-index"]
    assert found[0]["where"] == f"card_data/aizhewudi/components.yaml:{line_of(path, '=action_front:')}: " \
                                "layouts.action_front"
    assert "'action' (行動牌) is held in hand" in found[0]["message"]
    assert "8 action cards" in found[0]["message"]  # the rule that deals them, with its number


def test_an_index_outside_the_corner_a_fan_shows(aizhewudi: Path) -> None:
    path = components(aizhewudi)
    edit(path, INDEX, "    index: [4, 4.5, 30, 16]\n")
    _, found = hand_findings(aizhewudi, "aizhewudi")
    assert [f["code"] for f in found] == ["index-outside-corner"]
    assert found[0]["where"].endswith(f":{line_of(path, 'index: [4, 4.5, 30, 16]')}: layouts.action_front.index")
    assert "the left 15.8 mm and the top 29.3 mm" in found[0]["message"]


def test_an_index_region_with_nothing_in_it(aizhewudi: Path) -> None:
    edit(components(aizhewudi), INDEX, "    index: [4, 21, 9, 8]\n")
    _, found = hand_findings(aizhewudi, "aizhewudi")
    assert [f["code"] for f in found] == ["index-empty"]
    assert len(found[0]["cards"]) == 18 and "(and 17 more" in found[0]["message"]


def test_a_card_whose_index_text_is_empty_keeps_its_picture(aizhewudi: Path) -> None:
    # One card's mark blank: its picture still tells it apart, so nothing is empty...
    path = components(aizhewudi)
    edit(path, "{set: 玫瑰組, mark: 逃, ", "{set: 玫瑰組, mark: \"\", ")
    assert hand_findings(aizhewudi, "aizhewudi")[1] == []
    # ...but without the picture the corner is blank on that card alone.
    edit(path, '      - {type: symbol, symbol: "{icon}", box: [5, 12.5, 7, 7], turn: both}\n', "")
    _, found = hand_findings(aizhewudi, "aizhewudi")
    assert [(f["code"], f["cards"]) for f in found] == [("index-empty", ["rose-flee"])]


def test_an_index_element_not_drawn_turned_both(aizhewudi: Path) -> None:
    path = components(aizhewudi)
    edit(path, 'color: "{dark}", align: center, valign: middle, turn: both}',
         'color: "{dark}", align: center, valign: middle}')
    _, found = hand_findings(aizhewudi, "aizhewudi")
    assert [f["code"] for f in found] == ["index-not-turned"]
    line = line_of(path, 'text: "{mark}"')
    assert found[0]["where"].endswith(f":{line}: layouts.action_front.elements[1]")


def test_cards_that_differ_but_show_the_same_index(aizhewudi: Path) -> None:
    # 嫁給我吧 marked and pictured as 逃婚: in a fan the two cannot be told apart.
    path = components(aizhewudi)
    text = path.read_text(encoding="utf-8").replace("mark: 嫁", "mark: 逃")
    path.write_text(text.replace("icon: ring", "icon: broken_heart"), encoding="utf-8")
    _, found = hand_findings(aizhewudi, "aizhewudi")
    assert [f["code"] for f in found] == ["index-ambiguous"] * 6
    assert sorted(tuple(f["cards"]) for f in found)[0] == ("hydrangea-propose", "hydrangea-flee")


def test_components_yaml_may_mark_a_deck_held_in_hand(tmp_path: Path) -> None:
    # tisigui's rules deal no hands; a designer who hands out its identity cards says so.
    root = game_workspace(tmp_path, "tisigui")
    path = components(root, "tisigui")
    assert hand_findings(root, "tisigui")[1] == []
    edit(path, "    front: identity_front\n", "    front: identity_front\n    held_in_hand: true\n")
    code, found = hand_findings(root, "tisigui")
    assert code == 1 and [f["code"] for f in found] == ["no-index"]
    assert "components.yaml marks it held_in_hand" in found[0]["message"]


@pytest.mark.parametrize(("old", "new", "message"), [
    (INDEX, "    index: [4, 4.5, 9]\n", "layouts.action_front.index: expected a box [x, y, width, height]"),
    (INDEX, "    index: true\n", "layouts.action_front.index: expected a box [x, y, width, height]"),
    ("    front: action_front\n", "    front: action_front\n    held_in_hand: yes please\n",
     "components[1].held_in_hand: expected true or false"),
])
def test_a_malformed_index_or_mark_is_a_data_error(aizhewudi: Path, old: str, new: str, message: str) -> None:
    path = components(aizhewudi)
    edit(path, old, new)
    with pytest.raises(DataError) as caught:
        load_game(path.parent, tables_from_engine)
    assert any(message in problem and f"components.yaml:{line_of(path, new.strip().splitlines()[-1])}" in problem
               for problem in caught.value.problems), caught.value.problems


def test_an_index_declared_on_a_deck_not_held_in_hand_is_held_to_the_same_rules(aizhewudi: Path) -> None:
    # Ability cards are dealt one each, never fanned; an index declared on them is still checked:
    # their number sits in the corner but is not repeated turned.
    path = components(aizhewudi)
    edit(path, '  ability_front:\n    background: "#3d2647"\n',
         '  ability_front:\n    background: "#3d2647"\n    index: [6, 7, 9, 7]\n')
    _, found = hand_findings(aizhewudi, "aizhewudi")
    assert [f["code"] for f in found] == ["index-not-turned"]
    assert "component 'ability' (能力牌) declares an index on its front" in found[0]["message"]
