"""無人生還: every claim of the rulebook's examples, re-derived from the engine.

The first night and day is played again here from the story the book tells (who holds which
character, the rows it shows, the kill, the looks, the slip): the engine's own steps give the
deaths, the allowances, what each look shows, which rows a kill can change whoever the
murderer is, and the slip's points at the end of the game whether or not the slip's author
is killed later. The scoring examples are scored by the engine, and the whole game is the
example game's event log, scored again from its facts.
"""

from __future__ import annotations

import re
from dataclasses import replace
from itertools import combinations, permutations
from pathlib import Path

import pytest

from pnp.core.errors import DataError
from pnp.games.wurenshenghuan.machine import DONE, NONE, PASS, SEARCH, WurenshenghuanState
from pnp.games.wurenshenghuan.rules import KEY, WurenshenghuanRules, rules_from_mapping, weapon
from pnp.games.wurenshenghuan.state import State
from pnp.games.wurenshenghuan.tables import prison_allowance, score_parts, search_allowance
from pnp.play.narrate import SEAT_NAMES
from tests.conftest import book_markdown, edit, game_workspace
from tests.rulebook.bookexamples import book, example_log, flat, game, printed_in_both_scripts, section

SLUG = "wurenshenghuan"
# The weapon kinds in the item deck's order (card_data's 物品卡), as the book names them.
KINDS = ["毒酒", "安眠藥", "短棍", "斧頭", "針筒", "手槍", "大理石鐘", "繩索", "匕首", "燭台"]
CODE = {name: weapon(i) for i, name in enumerate(KINDS, 1)}
NAME = {code: name for name, code in CODE.items()}

# The story of 「範例：第一個夜晚和白天」 and of the set-up example before it: the seats from
# the murderer leftwards, each player's character, and the cards the story needs.
SEATS = {"阿凱": "C", "小晴": "A", "大寶": "B", "美美": "E", "志明": "I"}
ROWS = {"C": ["毒酒", "手槍", "匕首"], "D": ["斧頭", "手槍", "安眠藥"],
        "F": ["安眠藥", "針筒", "大理石鐘"], "G": ["安眠藥", "毒酒", "繩索"]}
PILE_TOP = ["燭台", "短棍"]


@pytest.fixture(scope="module")
def rules() -> WurenshenghuanRules:
    return rules_from_mapping(game(SLUG).info.rules)


@pytest.fixture(scope="module")
def first_night() -> str:
    return flat(section(book(SLUG), "範例：第一個夜晚和白天"))


def _steps(state: WurenshenghuanState, *steps: object) -> None:
    """Each step checked by the rules, then taken."""
    for step in steps:
        assert state.why_illegal(step) is None, (step, state.why_illegal(step))
        state.apply(step)


def _dealt(rules: WurenshenghuanRules) -> WurenshenghuanState:
    """The story's table dealt, 阿凱 (seat 0) the murderer playing C: its rows and pile top,
    the other cards anywhere (no claim reads them)."""
    rest = rules.deck()
    for card in [CODE[c] for row in ROWS.values() for c in row] + [CODE[c] for c in PILE_TOP]:
        rest.remove(card)
    rest.reverse()
    deck = []
    for letter in rules.letters:
        deck += [CODE[c] for c in ROWS[letter]] if letter in ROWS else [rest.pop() for _ in range(3)]
    state = WurenshenghuanState(rules, len(SEATS))
    state.apply((0, tuple(SEATS.values()), (*deck, *(CODE[c] for c in PILE_TOP), *rest[::-1])))
    return state


def _story(rules: WurenshenghuanRules, text: str) -> tuple[WurenshenghuanState, State]:
    """The night the text tells, played to daybreak, with the table before it."""
    told = re.search(r"阿凱從(\w)底下丟出(\w+)和(\w+)，把(\w)和(\w)的角色卡翻到背面；再從牌庫抽(\d)張"
                     r"（(\w+)和(\w+)），把\w底下補到(\d)張，由左到右重新排成(\w+)、(\w+)、(\w+)。", text)
    assert told, text
    own, d1, d2, t1, t2, drawn, p1, p2, full, *arranged = told.groups()
    assert own == SEATS["阿凱"] and [p1, p2] == PILE_TOP and int(full) == rules.items_per_character
    state = _dealt(rules)
    before = state.table
    # The row left after the discards, then the two drawn: the order names where each of
    # the arranged cards comes from.
    rest = [CODE[c] for c in ROWS[own] if c not in (d1, d2)] + [CODE[c] for c in PILE_TOP]
    order = tuple(rest.index(CODE[c]) for c in arranged)
    _steps(state, ("kill", (CODE[d1], CODE[d2]), order), ("victim", t1), ("victim", t2))
    assert list(state.nights[0].result.drawn) == [CODE[p1], CODE[p2]] and int(drawn) == 2
    return state, before


def test_the_setup_shows_what_the_book_says(rules: WurenshenghuanRules, first_night: str) -> None:
    table = _dealt(rules).table
    shown = {c: NAME[table.items(c)[-1]] for c in "CG"}
    assert f"C龍先生最右邊亮出的是{shown['C']}，G馬少爺亮出的是{shown['G']}" in first_night
    assert "阿凱抽到的身分卡是C龍先生，小晴抽到的是A溫法官" in first_night


def test_the_night_and_the_day_are_the_engines(rules: WurenshenghuanRules, first_night: str) -> None:
    state, _ = _story(rules, first_night)
    dead = sorted(state.table.dead)
    alive = rules.characters - len(dead)
    assert dead == ["F", "H"] and "看到F安醫師和H卜探長遇害，旁邊擺著一張匕首和一張毒酒" in first_night
    assert (f"還有{alive}個角色活著，查表可知今天可以盤查{search_allowance(rules, alive)}次，"
            f"或囚禁{prison_allowance(rules, alive)}個角色") in first_night
    _steps(state, SEARCH, ("look", "C", 2), ("look", "G", 2), ("look", "F", None), ("look", "D", 0))
    c, g, f, d = (list(look.cards) for look in state.days[0].result.looks)
    assert f"翻開C最右邊那張：是{NAME[c[0]]}，開局時這裡亮出的是匕首。" in first_night and c[0] != CODE["匕首"]
    assert f"翻開G最右邊那張：還是{NAME[g[0]]}。" in first_night and g[0] == CODE["繩索"]
    assert f"把遇害的F底下的物品全部翻開：{'、'.join(NAME[x] for x in f)}。" in first_night
    assert f"翻開D最左邊那張：是{NAME[d[0]]}。" in first_night


def _rows_any_kill_changes(rules: WurenshenghuanRules, state: WurenshenghuanState) -> set[str]:
    """Every legal kill of the night tried: the characters whose rows it leaves changed."""
    table = state.table
    row = table.items(table.murderer)
    changed: set[str] = set()
    for size in range(1, len(row) + 1):
        for picked in combinations(range(len(row)), size):
            discard = tuple(row[i] for i in picked)
            kept = min(rules.items_per_character, len(row) - size + len(table.pile))
            weapons = sum(1 for x in discard if x != KEY)
            for targets in combinations(table.alive, weapons):
                for order in permutations(range(kept)):
                    trial = state.clone()
                    steps = [("kill", discard, order), *(("victim", t) for t in targets)]
                    for step in steps:
                        if trial.why_illegal(step) is not None:
                            break
                        trial.apply(step)
                    else:
                        changed |= {x for x in table.letters if trial.table.items(x) != table.items(x)}
    return changed


def test_c_is_certainly_the_murderers_character(rules: WurenshenghuanRules, first_night: str) -> None:
    """The deduction: a night with a death was a kill; a night is one action, so there was no
    frame; and a kill, whoever the murderer is, changes no row but the murderer's own. The look
    at C found another card than the one shown there at set-up, so C is the murderer's."""
    state, before = _story(rules, first_night)
    assert state.why_illegal(NONE)  # a second action before daybreak
    assert _rows_any_kill_changes(rules, _dealt(rules)) == {"C"}  # the tries can fail
    for letter in rules.letters:  # whoever the murderer is
        hypothesis = _dealt(rules)
        hypothesis.table = replace(hypothesis.table, murderer=letter)
        assert _rows_any_kill_changes(rules, hypothesis) <= {letter}, letter
    seen_changed = {"C"} if state.table.items("C")[-1] != before.items("C")[-1] else set()
    assert state.table.items("G")[-1] == before.items("G")[-1]
    assert seen_changed == {"C"}
    assert "昨晚有角色遇害，可見兇手昨晚選的是殺人；兇手一夜只能做一件事，所以昨晚沒有嫁禍" in first_night
    assert "殺人時，兇手只動得到自己角色底下的牌" in first_night
    assert "現在C最右邊的牌變了，表示C底下的牌被動過，所以C一定是兇手扮演的角色。" in first_night
    # Before this book was fixed, 小晴 held back, as if the change could have been a frame.
    assert "她決定先不猜" not in first_night


def _final_points(rules: WurenshenghuanRules, text: str, killed_later: bool) -> int:
    """小晴's points at the end of the story's game: her slip on day 1, then quiet days, with
    her character killed on night 2 or never."""
    state, _ = _story(rules, text)
    while not state.is_over():
        if state.phase == "night" and killed_later and state.night == 1:
            _steps(state, ("kill", state.table.items("C")[:1], (0, 1, 2)), ("victim", SEATS["小晴"]))
        elif state.phase == "night":
            _steps(state, NONE)
        elif state.phase == "day":
            _steps(state, SEARCH, DONE)
        else:
            _steps(state, ("guess", "C") if state.to_move() == 1 and state.night == 1 else PASS)
    return next(e for e in state.final() if e["seat"] == 1)["points"]


def test_the_slip_scores_what_the_book_says(rules: WurenshenghuanRules, first_night: str) -> None:
    alive, killed = _final_points(rules, first_night, False), _final_points(rules, first_night, True)
    assert alive == killed
    guess = rules.guess_points[0]
    assert "她在猜測紙條上寫下「C、第1天」" in first_night
    assert f"她就因為第1天猜中而得{guess}分" in first_night
    assert f"她都能再拿{alive - guess}分存活獎勵" in first_night


def test_the_scoring_examples_are_the_engines(rules: WurenshenghuanRules) -> None:
    text = flat(section(book(SLUG), "計分"))

    def innocent(day: int | None, correct: bool, died: int | None) -> int:
        return score_parts(rules, role="innocent", guess_correct=correct, guess_day=day,
                           alive_at_end=died is None,
                           guessed_before_death=bool(day and died and day < died)).total

    qing = re.search(r"小晴在第(\d)天交出正確的猜測，她的角色撐到了最後：\d+\+\d+=(\d+)分", text)
    bao = re.search(r"大寶在第(\d)天白天交出正確的猜測，他的角色在第(\d)夜遇害。"
                    r"紙條比遇害早，所以算存活：\d+\+\d+=(\d+)分", text)
    mei = re.search(r"美美的角色在第(\d)夜遇害，她到第(\d)天才交出正確的猜測。"
                    r"猜中了，但紙條比遇害晚，不算存活：(\d+)分", text)
    ming = re.search(r"志明猜錯了，但他的角色活到最後：0\+\d+=(\d+)分", text)
    assert qing and bao and mei and ming, text
    assert int(qing[2]) == innocent(int(qing[1]), True, None)
    assert int(bao[3]) == innocent(int(bao[1]), True, int(bao[2]))
    assert int(mei[3]) == innocent(int(mei[2]), True, int(mei[1]))
    assert int(ming[1]) == innocent(1, False, None)
    murderer = re.search(r"實際殺死(\d+)個，兇手得(\d+)分", text)
    assert murderer and int(murderer[2]) == score_parts(rules, role="murderer", kills=int(murderer[1])).total


def test_the_allowance_example_is_the_engines(rules: WurenshenghuanRules) -> None:
    text = flat(section(book(SLUG), "遊戲流程"))
    told = re.search(r"第1夜過後有(\d+)個角色遇害，還有(\d+)個角色正面朝上。"
                     r"查表可知，今天可以盤查(\d+)次，或囚禁(\d+)個角色", text)
    assert told
    dead, alive, looks, prisoners = map(int, told.groups())
    assert dead + alive == rules.characters
    assert (looks, prisoners) == (search_allowance(rules, alive), prison_allowance(rules, alive))


def test_the_whole_game_is_the_example_games(rules: WurenshenghuanRules) -> None:
    log = example_log(SLUG)
    names = SEAT_NAMES[: log["players"]]
    text = flat(section(book(SLUG), "一局打下來"))
    own = log["characters"][log["murderer"]]
    per_night = [len([c for c in night["killed"] if c != own]) for night in log["nights"]]
    assert f"{names[log['murderer']]}抽到兇手，角色是{own}" in text
    assert f"兇手每夜殺死的角色數依次是{'、'.join(map(str, per_night))}，一共{sum(per_night)}個" in text
    died = {c: night["night"] for night in log["nights"] for c in night["killed"]}
    slips = {g["seat"]: g for g in log["guesses"]}
    points = []
    for seat, letter in enumerate(log["characters"]):
        if seat == log["murderer"]:
            points.append(score_parts(rules, role="murderer", kills=sum(per_night)).total)
            continue
        slip = slips.get(seat)
        day = None if slip is None else slip["day"]
        correct = slip is not None and slip["character"] == own
        parts = score_parts(rules, role="innocent", guess_correct=correct, guess_day=day,
                            alive_at_end=letter not in died,
                            guessed_before_death=bool(day and letter in died and day < died[letter]))
        points.append(parts.total)
        if slip and correct:
            assert f"猜中：{names[seat]}在第{day}天猜{own}，得{parts.guess}分" in text
        elif slip:
            wrong = re.search(r"猜錯：(.+?)。", text)
            assert wrong and f"{names[seat]}在第{day}天猜{slip['character']}" in wrong[1]
    final = re.search(r"最後得分：(.+?)。", text)
    assert final
    told = {m[1]: int(m[2]) for m in re.finditer(r"(\D+?)(?:\d+\+\d+=)?(\d+)分(?:（兇手）)?、?", final[1])}
    assert told == {names[s]: points[s] for s in range(len(names))}
    best = max(points)
    top = [names[s] for s in range(len(names)) if points[s] == best]
    assert (f"{top[0]}拿到這一局的最高分" if len(top) == 1 else "並列這一局的最高分") in text
    # A single game's best score is not a win: the winner is decided over several games.
    assert "獲勝" not in text


@pytest.mark.parametrize("heading", ["範例：第一個夜晚和白天", "計分", "一局打下來"])
def test_both_built_books_print_the_examples(heading: str) -> None:
    assert printed_in_both_scripts(SLUG, section(book(SLUG), heading)) == []


def test_the_examples_by_hand_and_the_whole_game_have_different_casts() -> None:
    """The set-up, first-night and scoring examples seat 阿凱's table (the scoring example says
    it is another game of theirs); the whole game is another table, with no name of theirs."""
    text = book(SLUG)
    by_hand = section(text, "遊戲準備") + section(text, "範例：第一個夜晚和白天") + section(text, "計分")
    whole = section(text, "一局打下來")
    players = SEAT_NAMES[: example_log(SLUG)["players"]]
    assert [n for n in SEATS if n in whole] == []
    assert [n for n in players if n in by_hand] == []


def test_a_rule_edit_that_breaks_the_story_stops_the_build(tmp_path: Path) -> None:
    """One kill a night: the murderer cannot kill F and H in one night as the example tells."""
    root = game_workspace(tmp_path, SLUG, templates=True)
    edit(root / "card_data" / SLUG / "game.yaml", "  max_kills_per_night: 3", "  max_kills_per_night: 1")
    with pytest.raises(DataError, match=r"rulebook\.md\.j2:\d+: .*kill breaks the rules"):
        book_markdown(root, SLUG)
