"""愛者無敵: every claim of the rulebook's examples, re-derived from the engine.

The split examples are checked in tests/play/test_split_examples.py. Here: the two-round demo is
the script the book tells, resolved again by the engine (``play.resolve``); the tie example
is scored and ranked by the engine's ``winner``; the whole game is the example game's event
log, its money added up again round by round from the engine's splits. And each example game
has a cast of its own.
"""

from __future__ import annotations

import re
from typing import Any

import pytest

from pnp.games.aizhewudi.log import FinalSeat
from pnp.games.aizhewudi.play import resolve
from pnp.games.aizhewudi.rules import AizhewudiRules, rules_from_mapping
from pnp.games.aizhewudi.scoring import winner
from pnp.games.aizhewudi.split import split, split_table
from pnp.play.narrate import SEAT_NAMES
from tests.rulebook.bookexamples import book, example_log, flat, game, printed_in_both_scripts, section

SLUG = "aizhewudi"
DEMO = ["阿凱", "咪咪", "琳達", "阿森", "小晴"]
K, M, L, S, Q = range(5)  # 阿凱, 咪咪, 琳達, 阿森, 小晴 by seat
# The demo's two rounds as the book tells them: (card, target) per seat, who withdrew.
PLAYS = [
    ({K: ("propose", M), M: ("propose", K), L: ("flee", S), S: ("flee", Q), Q: ("flee", K)}, []),
    ({K: ("flee", L), M: ("propose", S), L: ("rush", K), S: ("flee", M), Q: ("propose", L)}, [S]),
]


@pytest.fixture(scope="module")
def rules() -> AizhewudiRules:
    return rules_from_mapping(game(SLUG).info.rules)


def _money(amount: int) -> str:
    return f"${amount:,}"


def _demo(rules: AizhewudiRules) -> tuple[str, list[dict[str, Any]]]:
    text = flat(section(book(SLUG), "兩輪示範"))
    revealed = [[int(v.replace(",", "")) for v in re.findall(r"\$([\d,]+)", found)]
                for found in re.findall(r"琳達翻開(\$[\d,、$]+)", text)]
    assert len(revealed) == 2, text
    log = resolve(rules, {"players": len(DEMO), "abilities": False, "rounds": [
        {"revealed": shown, "withdrew": withdrew,
         "plays": [{"seat": s, "hand": 0, "card": card, "target": t} for s, (card, t) in plays.items()]}
        for shown, (plays, withdrew) in zip(revealed, PLAYS, strict=True)]})
    return text, log["rounds"]


def test_the_demo_is_the_engines(rules: AizhewudiRules) -> None:
    text, (first, second) = _demo(rules)
    assert first["revealed"] == split_fund_bills()
    share = split(first["revealed"], len(first["sharers"]), rules)
    assert share.share == first["share"]
    sharers = "、".join(DEMO[s] for s in first["sharers"][:-1]) + "和" + DEMO[first["sharers"][-1]]
    assert (f"還站著的是{sharers}，{len(first['sharers'])}人分錢：每人{_money(first['share'])}，"
            f"{'、'.join(map(_money, first['carried_out']))}留在中央") in text
    assert [p["target"] for p in first["proposals"]] == [M, K] and first["eliminated"] == []
    fund = sum(second["revealed"]) + sum(second["carried_in"])
    assert f"這一輪的基金共{_money(fund)}" in text
    assert second["withdrew"] == [S] and second["fickle"][S] == 1
    assert [r["target"] for r in second["rushes"]] == [K] and second["loved"][K] == 2
    assert f"阿凱拿第{second['loved'][K]}個被愛標記" in text
    standing = "和".join(DEMO[s] for s in second["sharers"])
    assert f"只有{standing}還站著。{_money(fund)}÷{len(second['sharers'])}={_money(second['share'])}" in text
    assert second["carried_out"] == [] and "一張也不剩" in text
    left = rules.eliminated_at - second["loved"][K]
    assert f"阿凱已經有{second['loved'][K]}個被愛標記，再被命中{left}次就出局" in text
    assert f"阿森背著1個花心標記，遊戲結束時要扣{_money(rules.fickle_penalty)}" in text


def split_fund_bills() -> list[int]:
    return [int(card.removeprefix("bill-")) for card in game(SLUG).figures["split_fund"].rows[0]]


def test_the_tie_example_is_the_engines(rules: AizhewudiRules) -> None:
    text = flat(section(book(SLUG), "遊戲結束與計分"))
    told = re.search(r"例：遊戲結束時，(\w+)有\$([\d,]+)的鈔票和(\d+)個花心標記，"
                     r"總額\$[\d,]+−\d+×\$[\d,]+=\$([\d,]+)；(\w+)有\$([\d,]+)的鈔票、沒有花心標記，"
                     r"總額也是\$([\d,]+)。兩人平手，(\w+)的花心標記比較少，(\w+)獲勝", text)
    assert told, text
    first, money, fickle, total, second, money2, total2, fewer, won = told.groups()
    seats = [FinalSeat(0, int(money.replace(",", "")), 0, int(fickle), 0, False, None),
             FinalSeat(1, int(money2.replace(",", "")), 0, 0, 0, False, None)]
    scores = [f.money - rules.fickle_penalty * f.fickle for f in seats]
    seats = [FinalSeat(f.seat, f.money, 0, f.fickle, 0, False, s) for f, s in zip(seats, scores, strict=True)]
    assert [int(total.replace(",", "")), int(total2.replace(",", ""))] == scores and scores[0] == scores[1]
    best, shared = winner(seats)
    assert best == 1 and not shared and fewer == won == second
    # The tie's players are not the demo's: another game, another cast.
    assert {first, second}.isdisjoint(DEMO)


def test_the_whole_game_is_the_example_games(rules: AizhewudiRules) -> None:
    log = example_log(SLUG)
    names = SEAT_NAMES[: log["players"]]
    text = flat(section(book(SLUG), "一局打下來"))
    money = [0] * log["players"]
    empty, split_round = [], None
    for r in log["rounds"]:
        table = r["revealed"] + r["carried_in"]
        result = split_table(table, len(r["sharers"]), rules) if r["sharers"] else None
        share = result.share if result else 0
        assert share == r["share"]
        if not share:
            empty.append(r["round"])
        for s in r["sharers"]:
            money[s] += share
        if share and r["carried_out"] and split_round is None:
            split_round = r
    assert f"第{'、'.join(map(str, empty))}輪沒有人分到錢" in text
    assert split_round is not None
    sharers = "、".join(names[s] for s in split_round["sharers"])
    bills = [*split_round["revealed"], *split_round["carried_in"]]
    listed = "、".join(f"{bills.count(v)}張{_money(v)}" for v in sorted(set(bills), reverse=True))
    assert (f"第{split_round['round']}輪桌上共{_money(sum(bills))}（{listed}），{sharers}，"
            f"{len(split_round['sharers'])}人還站著。"
            f"每人最多能湊到{_money(split_round['share'])}") in text
    fickle, loved = log["rounds"][-1]["fickle"], log["rounds"][-1]["loved"]
    out = {s for r in log["rounds"] for s in r["eliminated"]}
    if log["end"] == "rounds":
        assert ("沒有人出局" in text) == (not out)
    scores = {s: money[s] - rules.fickle_penalty * fickle[s] for s in range(len(names)) if s not in out}
    for s, score in scores.items():
        line = (f"{names[s]}：{_money(money[s])}−{fickle[s]}×{_money(rules.fickle_penalty)}={_money(score)}"
                if fickle[s] else f"{names[s]}：{_money(money[s])}")
        assert line in text, line
    order = sorted(scores, key=lambda s: (-scores[s], fickle[s], -loved[s], s))
    assert text.index(names[order[0]] + "：") < text.index(names[order[-1]] + "：")
    rank_key = {s: (scores[s], fickle[s], loved[s]) for s in order}
    top = [s for s in order if rank_key[s] == rank_key[order[0]]]
    if len(top) == 1:
        assert f"{names[top[0]]}獲勝" in text
    for a, b in zip(order, order[1:], strict=False):
        if scores[a] == scores[b] and fickle[a] < fickle[b]:
            assert f"{names[a]}和{names[b]}同樣是{_money(scores[a])}，{names[a]}的花心標記比較少，排在前面" in text


def test_each_example_game_has_its_own_cast() -> None:
    """The demo, the tie example and the whole game are three games with three casts."""
    players = SEAT_NAMES[: example_log(SLUG)["players"]]
    demo = section(book(SLUG), "兩輪示範")
    tie = re.search(r"例：遊戲結束時.+", section(book(SLUG), "遊戲結束與計分"))
    whole = section(book(SLUG), "一局打下來")
    assert tie
    assert [n for n in players if n in demo or n in tie[0]] == []
    assert [n for n in DEMO if n in tie[0] or n in whole] == []


@pytest.mark.parametrize("heading", ["範例", "在桌上怎麼找出最大的一份", "兩輪示範", "遊戲結束與計分", "一局打下來"])
def test_both_built_books_print_the_examples(heading: str) -> None:
    assert printed_in_both_scripts(SLUG, section(book(SLUG), heading)) == []
