"""愛者無敵's hand-picked split examples agree with the engine's split.

The rulebook's split figures (card_data/aizhewudi/figures.yaml) and the worked funds of
templates/aizhewudi/rulebook.md.j2 are chosen by hand; the template counts and adds what they
show, but which share is the largest possible is the engine's business
(pnp/games/aizhewudi/split.py). Here each example fund is split by the engine and the printed
rulebook must state that share and what stays.
"""

from __future__ import annotations

import pytest

from pnp.data.load import load_game
from pnp.games.aizhewudi.split import split
from pnp.rulebook import rulebook_markdown
from pnp.workspace import Workspace
from tests.conftest import ROOT


def _value(card_id: str) -> int:
    # Bill card ids are bill-<value> (the supply check relies on the same naming).
    return int(card_id.removeprefix("bill-"))


@pytest.fixture(scope="module")
def book() -> tuple[str, dict[str, list[list[int]]]]:
    game = load_game(ROOT / "card_data" / "aizhewudi")
    rows = {name: [[_value(card) for card in row] for row in figure.rows]
            for name, figure in game.figures.items()}
    return "".join(rulebook_markdown(Workspace(ROOT), game).split()), rows


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
    assert result.carried == []
    assert f"同一筆基金換成2人分錢，每人可得${result.share:,}" in text
