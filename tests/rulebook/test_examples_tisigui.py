"""替死鬼: every claim of the rulebook's examples, re-derived from the engine.

The worked example is played again here from the story the book tells (each big round's
ghost, targets and start player, every action and the answer the plate shows, the rolls),
by driving the game's state machine step by step: its points, endings, totals after each big
round and the winner must be the book's. What 小蓉 deduces is checked by trying every ghost
and target set against the answers only the ghost may fake. The whole game is the example
game's event log; the short examples of the rules chapters are the engine's functions.
"""

from __future__ import annotations

import re
from itertools import combinations
from pathlib import Path

import pytest

from pnp.core.errors import DataError
from pnp.games.tisigui.choices import NO_TARGETS, Choice, answered, asking, naming
from pnp.games.tisigui.machine import ROLL, TURN, TisiguiState
from pnp.games.tisigui.rules import (
    TisiguiRules,
    ghost_points,
    naming_points,
    no_targets_points,
    rank,
    rules_from_mapping,
)
from pnp.games.tisigui.turns import STOP
from pnp.play.narrate import SEAT_NAMES
from tests.conftest import book_markdown, edit, game_workspace
from tests.rulebook.bookexamples import book, example_log, flat, game, printed_in_both_scripts, section

SLUG = "tisigui"
CAST = ["阿杰", "小蓉", "阿伟", "糖糖"]
A, B, C, D = range(4)  # 阿杰, 小蓉, 阿伟, 糖糖 by seat

# The story of 「范例」: per big round the ghost, its targets, the start player, the small
# die's roll (None: none needed) and each acting turn's actions with the answer shown.
STORY = [
    (A, {B}, D, None, [[(asking("target_count", 1), True), (naming((B,)), True)]]),
    (C, {A, B, C}, B, 2, [
        [(asking("target_count", 1), False)],
        [(asking("target_count", 3), True), (naming((C,)), False)],
        [(asking("target_count", 2), False), (naming((B, D)), False)],
        [(asking("any_target", (B, D)), True), (naming((A, B)), True)],
        [(naming((D,)), False)]]),
    (D, set(), A, 3, [[(asking("any_target", (B, C, D)), False)], [(NO_TARGETS, True)]]),
]


@pytest.fixture(scope="module")
def rules() -> TisiguiRules:
    return rules_from_mapping(game(SLUG).info.rules)


@pytest.fixture(scope="module")
def example() -> str:
    return flat(section(book(SLUG), "范例"))


def _step(state: TisiguiState, choice: Choice, answer: bool) -> object:
    """The step of the player on turn taking ``choice`` and showing ``answer``: the ghost's
    own action carries the answer it picks; everyone else's is the truth."""
    forced = state.forced_answer(choice)
    if forced is None:
        return answered(choice, answer)
    assert answer == forced
    return choice.action


def _play(rules: TisiguiRules) -> tuple[TisiguiState, list[list[int]], list[list[tuple[int, Choice, bool, int]]]]:
    """The story through the game's steps: the game, each big round's points per seat, and
    each big round's actions as the table saw them (seat, choice, answer, points)."""
    state = TisiguiState(rules, len(CAST))
    points, seen = [], []
    for ghost, targets, start, roll, turns in STORY:
        for setup in (ghost, ("targets", tuple(sorted(targets))), ("start", start)):
            state.apply(setup)
        before, script, watched = list(state.scores), list(turns), []
        while state.phase == TURN:  # turns without markers left pass by unscripted
            turn = state.turn_index
            for choice, answer in script.pop(0):
                assert state.phase == TURN and state.turn_index == turn
                step, seat, done = _step(state, choice, answer), state.seat, len(state.turns)
                assert state.why_illegal(step) is None
                state.apply(step)
                action = (state.turns[done].actions if len(state.turns) > done else state.actions)[-1]
                watched.append((seat, choice, answer, action.points))
            if state.phase == TURN and state.turn_index == turn:
                assert state.why_illegal(STOP) is None
                state.apply(STOP)
        assert not script and (state.phase == ROLL) == (roll is not None)
        if roll is not None:
            state.apply(roll)
        points.append([after - was for after, was in zip(state.scores, before, strict=True)])
        seen.append(watched)
    assert state.is_over()
    return state, points, seen


def _true(choice: Choice, targets: frozenset[int]) -> bool:
    """The true answer to ``choice`` when ``targets`` are the ghost's targets."""
    if choice.kind == "name":
        return set(choice.named) <= targets
    if choice.kind == "no_targets":
        return not targets
    q = choice.question
    assert q is not None
    if q.asks == "target_count":
        return len(targets) == q.value
    return bool(targets & set(q.among or ()))


def _deals(seen: list[tuple[int, Choice, bool, int]], viewer: int) -> set[tuple[int, frozenset[int]]]:
    """Every (ghost, targets) the viewer cannot rule out: everyone but the ghost answered
    truly, and only a non-ghost's correct naming scores."""
    possible = set()
    for ghost in set(range(len(CAST))) - {viewer}:
        for size in range(len(CAST) + 1):
            for targets in map(frozenset, combinations(range(len(CAST)), size)):
                if all((seat == ghost or answer == _true(choice, targets))
                       and (points > 0) == (seat != ghost and answer and choice.kind == "name")
                       for seat, choice, answer, points in seen):
                    possible.add((ghost, targets))
    return possible


def test_each_example_game_has_its_own_cast(example: str) -> None:
    """One example game, one set of names: the hand-told game and the whole game the engine
    plays share no player (before this book was fixed, 小芸 and 大熊 sat in both)."""
    whole = flat(section(book(SLUG), "一整局打下来"))
    others = SEAT_NAMES[: example_log(SLUG)["players"]]
    assert "、".join(f"{c}（{i}号）" for i, c in enumerate(CAST, 1)) + "按顺时针方向围坐" in example
    assert [n for n in others if n in example] == []
    assert [n for n in CAST if n in whole] == []


def test_the_example_states_the_standings_after_every_big_round(rules: TisiguiRules, example: str) -> None:
    game, points, _ = _play(rules)
    totals = [0] * len(CAST)
    for number, gained in enumerate(points):
        totals = [t + g for t, g in zip(totals, gained, strict=True)]
        told = "、".join(f"{c}{t}分" for c, t in zip(CAST, totals, strict=True))
        lead = ("第一个大局后的总分：", "第二个大局后的总分：", "三个大局的分数加起来：")[number]
        assert lead + told in example, lead
    assert totals == game.scores
    ranking, places = rank(rules, game.scores, game.last_start)
    assert f"名次依次是{'、'.join(CAST[s] for s in ranking)}" in example
    winner = CAST[ranking[0]]
    assert f"{winner}获胜" in example and places[ranking[0]] == 1
    # The story needs a tie broken by the start player of the last big round.
    assert game.scores[ranking[0]] == game.scores[ranking[1]]
    assert f"从最后一个大局的起始玩家{CAST[game.last_start]}开始按顺时针方向排名" in example
    # Before this book was fixed, round 1's scores were nowhere and the game ended on a sum.
    assert "大家把三个大局的分数加起来" not in example


def test_each_big_round_scores_and_ends_as_the_engine_says(rules: TisiguiRules, example: str) -> None:
    game, points, _ = _play(rules)
    first, second, third = game.big_rounds
    value = game.values[0]
    assert f"糖糖得{value}×1={points[0][D]}分" in example
    assert f"大局立刻结束，碟仙阿杰得{first.ghost_points}分" in example and first.end == "all_confirmed"
    assert f"阿杰得{value}×2={points[1][A]}分，1号和2号成为已确认的替身" in example
    assert second.end == "rounds_out" and second.confirmed == (A, B)
    assert f"碟仙得{len(CAST)}−{len(second.confirmed)}={second.ghost_points}分" in example
    assert f"这个大局的得分：阿杰{points[1][A]}分，阿伟{points[1][C]}分" in example
    assert f"掷出{second.roll}，没有大于{second.big_die}，游戏继续" in example
    assert third.end == "no_targets" and f"小蓉得{points[2][B]}分" in example
    assert f"掷出{third.roll}，大于这个大局的大局值{third.big_die}，游戏结束" in example
    assert f"指认阿杰就算对了也只得{naming_points(rules, value, 1)}分" in example
    assert f"答对“没有替身吗？”却能得{no_targets_points(rules, len(CAST))}分" in example


def test_what_xiaorong_deduces_is_all_the_table_can(rules: TisiguiRules, example: str) -> None:
    _, _, seen = _play(rules)
    second = _deals(seen[1][:-1], B)  # before her turn in the second small round
    ghosts = sorted({g for g, _ in second})
    assert ghosts == [C, D] and "碟仙不是阿伟就是糖糖" in example
    left = {g: {t - {A, B} for h, t in second if h == g} for g in ghosts}
    assert left == {C: {frozenset({C})}, D: {frozenset({D})}}
    assert "已确认的两人之外还有替身，只能是3号" in example and "剩下的替身只能是4号" in example
    assert "所以一切取决于谁是碟仙，她只能赌一把" in example
    third = _deals(seen[2][:1], B)  # after 阿杰's question
    assert {t for g, t in third if g != A} == {frozenset(), frozenset({A})}
    assert "只要阿杰不是碟仙" in example and "替身要么一个都没有，要么只有阿杰一个" in example


def test_the_rules_chapters_short_examples(rules: TisiguiRules) -> None:
    text = flat(book(SLUG))
    shown = re.search(r"小局骰显示(\d+)时，一次指认(\d+)个人而且都对，得\d+×\d+=(\d+)分；"
                      r"只指认1个人并且对了，得(\d+)分", text)
    assert shown
    value, named, many, one = map(int, shown.groups())
    assert (many, one) == (naming_points(rules, value, named), naming_points(rules, value, 1))
    asked = re.search(r"例：(\d+)人游戏里答对，提问者得(\d+)分", text)
    assert asked and int(asked[2]) == no_targets_points(rules, int(asked[1]))
    ghost = re.search(r"例：(\d+)人游戏，碟仙选了\d+个替身，到最后只确认了(\d+)个，碟仙得\d+−\d+=(\d+)分。"
                      r"假如碟仙一个替身都没选，而直到最后也没有人答对“没有替身吗？”，碟仙得\d+−0=(\d+)分", text)
    assert ghost
    players, confirmed, some, none = map(int, ghost.groups())
    assert (some, none) == (ghost_points(rules, players, confirmed), ghost_points(rules, players, 0))
    # The tie: 2 号 and 4 号 at 15, the last big round started by 3 号 (seats from 1).
    ranking, _ = rank(rules, [0, 15, 0, 15], 2)
    assert ranking[:2] == [3, 1] and "所以4号排在2号前面，4号获胜" in text


def test_the_whole_game_is_the_example_games(rules: TisiguiRules) -> None:
    log = example_log(SLUG)
    names = SEAT_NAMES[: log["players"]]
    text = flat(section(book(SLUG), "一整局打下来"))
    scores = [0] * log["players"]
    for number, big in enumerate(log["big_rounds"], start=1):
        line = re.search(rf"第{number}个大局（大局值(\d+)）：(.+?)(?=第{number + 1}个大局|最后的总分)", text)
        assert line, number
        assert int(line[1]) == big["big_die"]
        told = line[2]
        ghost = names[big["ghost"]]
        assert told.startswith(f"{ghost}是碟仙，选了{len(big['targets'])}个替身")
        gained = [0] * len(names)
        for turn in big["turns"]:
            for action in turn["actions"]:
                gained[turn["seat"]] += action["points"]
        scorers = "、".join(f"{names[s]}{p}分" for s, p in enumerate(gained) if p)
        assert (f"指认得分：{scorers}。" in told) == bool(scorers)
        if big["end"] == "rounds_out":
            assert f"碟仙得{len(names)}−{len(big['confirmed'])}={big['ghost_points']}分" in told
        else:
            assert "大局立刻结束，碟仙得0分" in told and big["ghost_points"] == 0
            # Who ended it is whoever took the action that did, in the order they were taken:
            # the naming that confirmed the last target, or the right "no targets?".
            actions = [(turn["seat"], a) for turn in big["turns"] for a in turn["actions"]]
            confirmed: set[int] = set()
            ender = None
            for seat, action in actions:
                confirmed |= set(action.get("confirms", []))
                if ender is None and (set(big["targets"]) <= confirmed if big["end"] == "all_confirmed"
                                      else action["kind"] == "no_targets" and action["points"]):
                    ender = seat
            assert ender is not None
            verb = "确认了最后一个替身" if big["end"] == "all_confirmed" else "答对“没有替身吗？”"
            assert f"{names[ender]}{verb}" in told
        if big["roll"] is not None:
            assert f"掷出{big['roll']}" in told
        gained[big["ghost"]] += big["ghost_points"]
        scores = [s + g for s, g in zip(scores, gained, strict=True)]
    ranking, _ = rank(rules, scores, log["big_rounds"][-1]["start"])
    final = "、".join(f"{names[s]}{scores[s]}分" for s in ranking)
    assert f"最后的总分：{final}。" in text
    assert f"{names[ranking[0]]}获胜" in text


@pytest.mark.parametrize("heading", ["范例", "一整局打下来"])
def test_both_built_books_print_the_examples(heading: str) -> None:
    assert printed_in_both_scripts(SLUG, section(book(SLUG), heading)) == []


def test_a_rule_edit_that_breaks_the_story_stops_the_build(tmp_path: Path) -> None:
    """With ties shared, 阿杰 and 小蓉 would share the win the example gives 阿杰 alone."""
    root = game_workspace(tmp_path, SLUG, templates=True)
    edit(root / "card_data" / SLUG / "game.yaml", "  big_die_sides: 6\n", "  big_die_sides: 6\n  ties: shared\n")
    with pytest.raises(DataError, match=r"rulebook\.md\.j2:\d+: .*worked_example_no_longer_tells_its_story"):
        book_markdown(root, SLUG)
