"""愛者無敵's hand-picked split examples agree with the engine's split.

The rulebook's split figures (card_data/aizhewudi/figures.yaml) and the worked funds of
templates/aizhewudi/rulebook.md.j2 are chosen by hand; the template asks the engine for each
split (``worked.split``, pnp/games/aizhewudi/example.py) and for the two-round demo
(``worked.rounds``). Here each example fund is split by the engine again and the printed
rulebook must state that share and what stays.
"""

from __future__ import annotations

import pytest

from pnp.core.workspace import Workspace
from pnp.data.load import load_game
from pnp.games.aizhewudi.example import scripted_rounds, split_fund
from pnp.games.aizhewudi.rules import AizhewudiRules
from pnp.games.aizhewudi.split import split
from pnp.games.registry import tables_from_engine
from pnp.play.examples import book_engine, worked_functions
from pnp.rulebook.source import rulebook_markdown
from tests.conftest import ROOT


def _value(card_id: str) -> int:
    # Bill card ids are bill-<value> (the supply check relies on the same naming).
    return int(card_id.removeprefix("bill-"))


@pytest.fixture(scope="module")
def book() -> tuple[str, dict[str, list[list[int]]]]:
    game = load_game(ROOT / "card_data" / "aizhewudi", tables_from_engine)
    rows = {name: [[_value(card) for card in row] for row in figure.rows]
            for name, figure in game.figures.items()}
    return "".join(rulebook_markdown(Workspace(ROOT), game, book_engine(Workspace(ROOT), game)).split()), rows


def test_the_three_way_figure_is_the_engines_split(book: tuple[str, dict[str, list[list[int]]]]) -> None:
    text, rows = book
    fund = rows["split_fund"][0]
    *shares, kept = rows["split_three"]
    result = split(fund, len(shares))
    assert result.share > 0
    assert {sum(share) for share in shares} == {result.share}
    assert sorted(kept) == sorted(result.carried)
    assert f"**{len(shares)}人分錢**：每人${result.share:,}。" in text


def test_the_five_way_figure_is_the_engines_split(book: tuple[str, dict[str, list[list[int]]]]) -> None:
    text, rows = book
    fund = rows["split_fund"][0]
    result = split(fund, 5)
    assert result.share == 0 and sorted(result.carried) == sorted(sum(rows["split_five"], []))
    assert "**5人分錢**：沒辦法讓5個人拿到同樣的金額" in text


@pytest.mark.parametrize(("sharers", "printed"), [
    (4, "成功！每人$20,000，剩下一張$5,000留到下一輪。"),
    (3, "成功！每人$25,000，剩下一張$10,000。"),
    (5, "所以雖然桌上有$85,000，這一輪5個人都分不到錢"),
])
def test_the_bigger_fund_is_split_as_the_engine_splits_it(
        book: tuple[str, dict[str, list[list[int]]]], sharers: int, printed: str) -> None:
    text, _ = book
    fund = [20000, 20000, 10000, 10000, 10000, 5000, 5000, 5000]
    result = split(fund, sharers)
    assert printed in text
    if result.share:
        assert f"每人${result.share:,}" in printed
        assert len(result.carried) == 1 and f"${result.carried[0]:,}" in printed
    else:
        assert "分不到錢" in printed and sum(result.carried) == sum(fund)
    assert f"共${sum(fund):,}" in text


def test_the_two_way_split_of_the_figure_fund(book: tuple[str, dict[str, list[list[int]]]]) -> None:
    text, rows = book
    result = split(rows["split_fund"][0], 2)
    assert result.carried == ()
    assert f"同一筆基金換成2人分錢，每人可得${result.share:,}" in text


def test_the_two_round_demo_states_the_engines_resolution(
        book: tuple[str, dict[str, list[list[int]]]]) -> None:
    text, rows = book
    # 琳達, 阿森 and 小晴 stand in round 1; 咪咪 and 小晴 in round 2, after 阿森 withdrew.
    names = ["阿凱", "咪咪", "琳達", "阿森", "小晴"]
    first, second = scripted_rounds(AizhewudiRules(), names, [
        {"revealed": rows["split_fund"][0],
         "plays": {"阿凱": ["propose", "咪咪"], "咪咪": ["propose", "阿凱"], "琳達": ["flee", "阿森"],
                   "阿森": ["flee", "小晴"], "小晴": ["flee", "阿凱"]}},
        {"revealed": [10000, 20000, 5000, 5000, 10000],
         "plays": {"阿凱": ["flee", "琳達"], "咪咪": ["propose", "阿森"], "琳達": ["rush", "阿凱"],
                   "阿森": ["flee", "咪咪"], "小晴": ["propose", "琳達"]},
         "withdrew": ["阿森"]}])
    assert first["sharers"] == ["琳達", "阿森", "小晴"] and first["carried"] == [20000]
    assert f"還站著的是琳達、阿森和小晴，3人分錢：每人${first['share']:,}，$20,000留在中央。" in text
    assert second["carried_in"] == [20000] and second["carried"] == []
    assert second["reached"]["阿凱"] == 2 and second["fickle"]["阿森"] == 1
    assert f"這一輪的基金共${second['fund']:,}。" in text
    assert f"只有咪咪和小晴還站著。${second['fund']:,}÷2=${second['share']:,}" in text
    assert "阿凱拿第2個被愛標記" in text and "阿森背著1個花心標記" in text


def test_a_script_that_names_a_stranger_is_refused() -> None:
    with pytest.raises(ValueError, match="阿狗"):
        scripted_rounds(AizhewudiRules(), ["甲", "乙", "丙", "丁"], [
            {"revealed": [5000] * 5, "plays": {"甲": ["flee", "阿狗"]}}])


def test_the_cap_is_the_fund_over_the_sharers_down_to_the_smallest_bill() -> None:
    assert split_fund(AizhewudiRules(), [20000, 20000, 10000, 10000, 10000, 5000, 5000, 5000], 3)["cap"] == 25000
    assert split_fund(AizhewudiRules(), [20000, 10000], 4)["cap"] == 5000


def test_worked_examples_reach_only_games_that_give_them() -> None:
    def worked(slug: str) -> set[str]:
        return set(worked_functions(load_game(ROOT / "card_data" / slug, tables_from_engine)))

    assert worked("aizhewudi") == {"split", "rounds", "standing"}
    assert worked("tisigui") == {"game"}
    assert worked("niutouwang") == set()
