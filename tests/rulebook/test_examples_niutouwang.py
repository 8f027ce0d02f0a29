"""誰是牛頭王: every claim of the rulebook's examples, re-derived from the engine.

The one-turn example is the figures' rows and cards placed again by the engine's rule; the
SP example is the engine's punishment of its penalties; the whole game is the example game's
event log, each turn resolved again by the engine (lowest card first), so "the first take"
is the first in the order cards are really placed.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import pytest

from pnp.games.niutouwang.rules import NiutouwangRules, rules_from_mapping
from pnp.games.niutouwang.scoring import punish
from pnp.games.niutouwang.state import resolve_turn
from pnp.games.niutouwang.tables import heads, total_heads
from pnp.play.narrate import SEAT_NAMES
from tests.rulebook.bookexamples import book, example_log, flat, game, printed_in_both_scripts, section

SLUG = "niutouwang"


@pytest.fixture(scope="module")
def rules() -> NiutouwangRules:
    return rules_from_mapping(game(SLUG).info.rules)


@dataclass(frozen=True)
class Placed:
    turn: int
    seat: int
    card: int
    kind: str  # append | sixth | low
    row: int  # from 1
    after: int  # the end of the row the card went to, before it went there
    took: tuple[int, ...]


def _placements(rules: NiutouwangRules) -> list[Placed]:
    """Every card of the example game in the order the rules place them: turn by turn,
    lowest card first, each turn resolved by the engine from the rows before it."""
    log = example_log(SLUG)
    rows = tuple(tuple(r) for r in log["rows"])
    out: list[Placed] = []
    for number, turn in enumerate(log["turns"], start=1):
        # A low card's row is the player's choice: the one the log records.
        chosen = {p["card"]: p["row"] for p in turn["placements"]}
        before = rows
        rows, placements = resolve_turn(rules, rows, turn["plays"],
                                        lambda seat, card, now, chosen=chosen: chosen[card])
        assert [p.card for p in placements] == sorted(turn["plays"])
        assert [list(r) for r in rows] == turn["rows"]
        table = before
        for p in placements:
            low = all(p.card < row[-1] for row in table)  # below every row end
            kind = "low" if low else ("sixth" if p.took else "append")
            out.append(Placed(number, p.seat, p.card, kind, p.row + 1, table[p.row][-1], p.took))
            table = tuple((p.card,) if (i == p.row and p.took) else
                          (r + (p.card,) if i == p.row else r) for i, r in enumerate(table))
    return out


@pytest.fixture(scope="module")
def played(rules: NiutouwangRules) -> list[Placed]:
    return _placements(rules)


@pytest.fixture(scope="module")
def whole_game() -> str:
    return section(book(SLUG), "一局打下來")


MOMENT = re.compile(r"^- \*\*(?P<label>[^*]+)\*\*：(?P<same>同一回合稍後，)?(?:第 (?P<turn>\d+) 回合，)?"
                    r"(?P<name>\S+?)打出 (?P<card>\d+)", re.MULTILINE)


def test_each_first_the_whole_game_names_is_first_in_the_order_cards_are_placed(
        whole_game: str, played: list[Placed]) -> None:
    """「第一次收牌」 is the first card that took a row, whichever way it took it: cards are
    placed lowest first, so a low card can take a row before a higher card of the same turn
    becomes a sixth card (the example game's third turn)."""
    names = SEAT_NAMES[: example_log(SLUG)["players"]]
    takes = [p for p in played if p.took]
    first = {"第一次收牌": takes[0],
             "第一次有人放成第 6 張": next(p for p in played if p.kind == "sixth"),
             "第一次出太小的牌": next(p for p in played if p.kind == "low")}
    moments = list(MOMENT.finditer(whole_game))
    assert any(m["label"] == "第一次收牌" for m in moments), whole_game
    turn = None
    order = []
    for m in moments:
        if not m["label"].startswith("第一次"):
            continue
        claimed = first[m["label"]]
        turn = turn if m["same"] else int(m["turn"])
        assert (turn, m["name"], int(m["card"])) == (claimed.turn, names[claimed.seat], claimed.card), m[0]
        order.append(played.index(claimed))
    # The moments are told in the order they happened.
    assert order == sorted(order) and len(order) == len(set(order))


def test_each_moment_tells_what_the_card_did(whole_game: str, played: list[Placed],
                                             rules: NiutouwangRules) -> None:
    names = SEAT_NAMES[: example_log(SLUG)["players"]]
    lines = [line for line in whole_game.splitlines() if line.startswith("- **第一次")]
    assert lines
    for line in lines:
        m = MOMENT.match(line)
        assert m, line
        card = int(m["card"])
        placed = next(p for p in played if p.card == card and names[p.seat] == m["name"])
        text = flat(line)
        took = "、".join(map(str, placed.took))
        assert f"收走（{took}）" in text or f"收走前{len(placed.took)}張（{took}）" in text, line
        assert f"{total_heads(rules, placed.took)}個牛頭" in text, line
        if placed.kind == "sixth":
            assert f"接在{placed.after}後面，成了第{placed.row}列的第{rules.row_limit}張" in text, line
        else:
            assert placed.kind == "low" and f"挑了第{placed.row}列收走" in text, line


def test_standings_winners_and_sp_ending_are_the_engines(
        whole_game: str, played: list[Placed], rules: NiutouwangRules) -> None:
    log = example_log(SLUG)
    names = SEAT_NAMES[: log["players"]]
    penalties = [0] * log["players"]
    for p in played:
        penalties[p.seat] += sum(heads(rules, c) for c in p.took)
    text = flat(whole_game)
    assert f"{log['players']}人遊戲" in text
    assert f"每人{len(log['hands'][0])}張手牌，一共{len(log['turns'])}個回合" in text
    settled = re.search(r"結算：(.+?)。", text)
    assert settled
    claimed = dict((name, int(points)) for name, points in re.findall(r"(\D+?)(\d+)分、?", settled[1]))
    assert claimed == {names[s]: penalties[s] for s in range(len(names))}
    least = min(penalties)
    winners = "和".join(names[s] for s in range(len(names)) if penalties[s] == least)
    assert f"{winners}扣分最少，獲勝" in text
    hit = {p.seat: p for p in punish(rules, penalties)}
    order = sorted(range(len(names)), key=lambda s: (penalties[s], s))
    sp = re.search(r"SP結算（基數(\d+)）：(.+?)。", text)
    assert sp and int(sp[1]) == rules.base
    told = re.findall(r"(\D+?)對應(\D+?)，挨(\d+)下；?", sp[2])
    assert [(who, partner, int(n)) for who, partner, n in told] == [
        (names[s], "自己" if order[-1 - k] == s else names[order[-1 - k]], hit[s].hits)
        for k, s in enumerate(order)]


def test_the_one_turn_example_is_the_engines_placement(rules: NiutouwangRules) -> None:
    """The figures' rows and three cards, placed again: the rows after, who took what."""
    figures = {name: [[int(c.removeprefix("card-")) for c in row] for row in f.rows]
               for name, f in game(SLUG).figures.items()}
    before = tuple(map(tuple, figures["before"]))
    text = flat(section(book(SLUG), "範例：一個回合的三張牌"))
    played = re.search(r"小安出(\d+)，阿哲出(\d+)，毛毛出(\d+)。", text)
    assert played
    cards = [int(c) for c in played.groups()]
    rows, placements = resolve_turn(rules, before, cards)
    assert [list(r) for r in rows] == figures["after_third"]
    took = {p.seat: total_heads(rules, p.took) for p in placements}
    assert f"小安扣{took[0]}分，毛毛扣{took[2]}分，阿哲一分都沒扣" in text and took[1] == 0
    # 小安's low card takes the row with the fewest heads (the engine's pick too).
    fewest = min(total_heads(rules, r) for r in before)
    assert f"她挑了牛頭最少的第二列「{'、'.join(map(str, before[1]))}」，收進{fewest}個牛頭" in text


def test_the_sp_example_is_the_engines_punishment(rules: NiutouwangRules) -> None:
    text = flat(section(book(SLUG), "SP 結算範例"))
    seated = re.findall(r"(\D+?)（(\d)號）(\d+)分[、。]", text.split("排隊")[0])
    names = [name.split("：")[-1] for name, _, _ in seated]
    penalties = [int(p) for _, _, p in seated]
    assert [int(s) for _, s, _ in seated] == list(range(1, len(names) + 1))
    hit = {p.seat: p for p in punish(rules, penalties, base=rules.base, paired=True)}
    order = sorted(range(len(names)), key=lambda s: (penalties[s], s))
    counts = re.search(r"次數（基數(\d+)）：(.+?)。", text)
    assert counts and int(counts[1]) == rules.base
    told = re.findall(r"(\D+?)排第(\d)，對應(\D+?)，挨(\d+)下；?", counts[2])
    assert [(who, int(rank), int(n)) for who, rank, _, n in told] == [
        (names[s], k + 1, hit[s].hits) for k, s in enumerate(order)]
    bigger = punish(rules, penalties, base=rules.base + 1, paired=True)
    by_seat = {p.seat: p.hits for p in bigger}
    assert f"依序是{'、'.join(str(by_seat[s]) for s in order)}下" in text
    pairs = "，".join(f"{names[hit[s].hitter]}打{names[s]}" for s in order if hit[s].hitter is not None)
    assert pairs in text


def test_each_example_game_has_its_own_cast() -> None:
    """The one-turn example, the SP example and the whole game are three games with three
    casts (the SP example once reused the one-turn example's players)."""
    text = book(SLUG)
    turn = section(text, "範例：一個回合的三張牌")
    sp = section(text, "SP 結算範例")
    whole = section(text, "一局打下來")
    turn_cast = re.search(r"三位玩家(\w+)、(\w+)、(\w+)翻開", turn)
    sp_cast = re.findall(r"(\w+)（\d 號）", sp)
    assert turn_cast and sp_cast
    players = SEAT_NAMES[: example_log(SLUG)["players"]]
    assert [n for n in turn_cast.groups() if n in sp or n in whole] == []
    assert [n for n in sp_cast if n in turn or n in whole] == []
    assert [n for n in players if n in turn or n in sp] == []


@pytest.mark.parametrize("heading", ["範例：一個回合的三張牌", "SP 結算範例", "一局打下來"])
def test_both_built_books_print_the_examples(heading: str) -> None:
    assert printed_in_both_scripts(SLUG, section(book(SLUG), heading)) == []
