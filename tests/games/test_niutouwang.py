"""niutouwang engine: the seed's worked example, heads by hand, SP punishment, invariants."""

from __future__ import annotations

import copy
import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pnp.games.base import RulesError
from pnp.games.events import to_json
from pnp.games.kit import Match
from pnp.games.kit import play as kit_play
from pnp.games.niutouwang.bots import Style
from pnp.games.niutouwang.lint import lint as nt_lint
from pnp.games.niutouwang.machine import NiutouwangState
from pnp.games.niutouwang.play import game_log, play
from pnp.games.niutouwang.play import replay as nt_replay
from pnp.games.niutouwang.rules import BOTS, NiutouwangRules, rules_from_mapping
from pnp.games.niutouwang.scoring import Punishment, punish
from pnp.games.niutouwang.state import Hand, Placement, Rows, resolve_turn
from pnp.games.niutouwang.tables import compute_tables, heads, total_heads

RULES = rules_from_mapping({})


def row_heads(rows: Rows) -> list[int]:
    return [total_heads(RULES, row) for row in rows]


# ------------------------------------------------------------------ the seed's worked example

SEED_ROWS: Rows = ((2, 4, 7, 11, 19), (3, 6, 12), (8, 10), (66,))
MIMI, XIAOGAO, KID = 0, 1, 2


def test_seed_example_step_by_step() -> None:
    assert row_heads(SEED_ROWS) == [9, 3, 4, 5]
    hand = Hand(RULES, SEED_ROWS, [[1], [18], [21]])

    def place(seat: int, card: int) -> tuple[Rows, Placement]:
        placement = hand.place(seat, card, hand.fewest_heads_row)
        return tuple(hand.rows), placement

    # 米米 plays 1: lower than every row end, takes the row with fewest heads (3, 6, 12).
    rows, p = place(MIMI, 1)
    assert p == Placement(MIMI, 1, 1, (3, 6, 12))
    assert rows == ((2, 4, 7, 11, 19), (1,), (8, 10), (66,))
    assert row_heads(rows) == [9, 1, 4, 5]

    # 小高 plays 18: 10 is the highest end below 18.
    rows, p = place(XIAOGAO, 18)
    assert p == Placement(XIAOGAO, 18, 2, ())
    assert rows == ((2, 4, 7, 11, 19), (1,), (8, 10, 18), (66,))
    assert row_heads(rows) == [9, 1, 5, 5]

    # Kid plays 21 on 19 as the 6th card and takes the five below it (9 heads).
    rows, p = place(KID, 21)
    assert p == Placement(KID, 21, 0, (2, 4, 7, 11, 19))
    assert total_heads(RULES, p.took) == 9
    assert rows == ((21,), (1,), (8, 10, 18), (66,))
    assert row_heads(rows) == [1, 1, 5, 5]


def test_seed_example_as_one_turn() -> None:
    rows, placements = resolve_turn(RULES, SEED_ROWS, [1, 18, 21])
    assert [(p.seat, p.card, p.row) for p in placements] == [(0, 1, 1), (1, 18, 2), (2, 21, 0)]
    assert [total_heads(RULES, p.took) for p in placements] == [3, 0, 9]
    assert rows == ((21,), (1,), (8, 10, 18), (66,))


def test_resolution_goes_lowest_card_first_whatever_the_seat() -> None:
    _, placements = resolve_turn(RULES, SEED_ROWS, [21, 1, 18])
    assert [(p.seat, p.card) for p in placements] == [(1, 1), (2, 18), (0, 21)]


def test_low_card_chooser_picks_the_row() -> None:
    seen: list[tuple[int, int]] = []

    def chooser(seat: int, card: int, rows: Rows) -> int:
        seen.append((seat, card))
        return 3

    rows, placements = resolve_turn(RULES, SEED_ROWS, [1, 18, 21], chooser)
    assert seen == [(0, 1)]
    assert placements[0].took == (66,)
    # 18 now goes on 12 (the highest end below it), no longer on 10.
    assert rows == ((21,), (3, 6, 12, 18), (8, 10), (1,))


def test_bot_low_card_tie_takes_lowest_index() -> None:
    rows: Rows = ((20,), (30,), (40,), (12,))  # 3, 3, 3 and 1 head
    assert Hand(RULES, rows, [[]]).fewest_heads_row() == 3
    rows = ((20,), (30,), (40,), (50,))  # all 3 heads
    assert Hand(RULES, rows, [[]]).fewest_heads_row() == 0


# ------------------------------------------------------------------ heads and tables


@pytest.mark.parametrize(
    ("card", "expected"),
    [(55, 7), (11, 5), (10, 3), (5, 2), (1, 1), (100, 3), (99, 5), (66, 5), (104, 1)],
)
def test_heads_by_hand(card: int, expected: int) -> None:
    assert heads(RULES, card) == expected


@pytest.mark.parametrize("card", [0, 105, -3])
def test_heads_outside_deck(card: int) -> None:
    with pytest.raises(ValueError, match="not in the deck"):
        heads(RULES, card)


def test_tables_by_hand() -> None:
    # By hand: 55 → 7 (1 card); 11 22 33 44 66 77 88 99 → 5 (8); 10 … 100 → 3 (10);
    # 5 15 … 95 without 55 → 2 (9); the other 104 − 28 = 76 → 1.
    # 76 + 2·9 + 3·10 + 5·8 + 7 = 76 + 18 + 30 + 40 + 7 = 171.
    tables = compute_tables(RULES)
    assert set(tables) == {"heads", "heads_summary"}
    assert len(tables["heads"]) == 104
    assert all(set(row) == {"card", "heads"} for row in tables["heads"])
    assert [row["card"] for row in tables["heads"]] == list(range(1, 105))
    assert sum(row["heads"] for row in tables["heads"]) == 171
    assert tables["heads_summary"] == [
        {"heads": 1, "cards": 76},
        {"heads": 2, "cards": 9},
        {"heads": 3, "cards": 10},
        {"heads": 5, "cards": 8},
        {"heads": 7, "cards": 1},
    ]


# ------------------------------------------------------------------ SP punishment


def test_punish_with_tie() -> None:
    # Order (penalty, seat): s2 3, s0 5, s1 12, s3 12 (tie: seat 1 counts as lower).
    # k-th lowest is hit by the k-th highest's penalty: s2 ← 12 (s3), s0 ← 12 (s1),
    # s1 ← 5 (s0), s3 ← 3 (s2).
    assert punish(RULES, [5, 12, 3, 12]) == [
        Punishment(0, 5, 12, None, False),
        Punishment(1, 12, 5, None, True),
        Punishment(2, 3, 12, None, False),
        Punishment(3, 12, 3, None, True),
    ]


def test_punish_paired_even() -> None:
    result = punish(RULES, [5, 12, 3, 12], paired=True)
    assert [r.hitter for r in result] == [1, 0, 3, 2]
    assert [r.hits for r in result] == [12, 5, 12, 3]


def test_punish_paired_odd_count_with_base() -> None:
    # Order: s1 2, s0 7, s2 9; base 2. s1 ← 9·2 by s2; middle s0 ← own 7·2, picks hitter;
    # s2 ← 2·2 by s1.
    assert punish(RULES, [7, 2, 9], base=2, paired=True) == [
        Punishment(0, 7, 14, None, False),
        Punishment(1, 2, 18, 2, False),
        Punishment(2, 9, 4, 1, False),
    ]


def test_punish_all_equal() -> None:
    # Three-way tie: seat order decides; everyone is hit 4 times; middle seat 1 picks.
    result = punish(RULES, [4, 4, 4], paired=True)
    assert [r.hits for r in result] == [4, 4, 4]
    assert [r.hitter for r in result] == [2, None, 0]
    assert all(r.tie for r in result)


def test_punish_uses_rules_defaults() -> None:
    rules = rules_from_mapping({"punishment": {"base": 3, "paired": True}})
    assert punish(rules, [1, 2]) == [
        Punishment(0, 1, 6, 1, False),
        Punishment(1, 2, 3, 0, False),
    ]


@pytest.mark.parametrize(("penalties", "base", "message"), [
    ([1, -1], 1, "penalty of seat 2 (counting from 1) must be a whole number ≥ 0, got -1"),
    ([1, 2], 0, "base must be"),
    ([1.5], 1, "penalty of seat 1 (counting from 1) must be"),
])
def test_punish_rejects_bad_input(penalties: list[Any], base: int, message: str) -> None:
    # A person sees these (pnp calc niutouwang punish): seats count from 1, as at the table.
    with pytest.raises(ValueError) as info:
        punish(RULES, penalties, base=base)
    assert message in str(info.value)


# ------------------------------------------------------------------ games and invariants


def walk_turns(log: dict[str, Any]) -> list[list[int]]:
    """Every card's place (rows, hands, piles, box) after the deal and after each turn."""
    hands = [list(h) for h in log["hands"]]
    piles: list[list[int]] = [[] for _ in hands]
    states = [[c for r in log["rows"] for c in r] + sum(hands, []) + log["box"]]
    for turn in log["turns"]:
        for seat, card in enumerate(turn["plays"]):
            hands[seat].remove(card)
        for p in turn["placements"]:
            piles[p["seat"]].extend(p["took"])
        rows = [c for r in turn["rows"] for c in r]
        states.append(rows + sum(hands, []) + sum(piles, []) + log["box"])
    return states


@settings(max_examples=60, deadline=None)
@given(
    seed=st.integers(0, 10**6),
    players=st.integers(2, 10),
    bots=st.lists(st.sampled_from(BOTS), min_size=10, max_size=10),
)
def test_conservation_every_turn(seed: int, players: int, bots: list[str]) -> None:
    log = play(RULES, players, random.Random(seed), seed=seed, variant=None,
               bots=bots[:players])
    assert len(log["turns"]) == 100 // players
    for cards in walk_turns(log):
        assert sorted(cards) == list(range(1, 105))
        assert total_heads(RULES, cards) == 171
    assert sum(log["penalties"]) == sum(
        total_heads(RULES, p["took"]) for t in log["turns"] for p in t["placements"]
    )


def test_many_seeds_replay_clean() -> None:
    for seed in range(240):
        players = 2 + seed % 9
        bots = [BOTS[(seed + s) % 2] for s in range(players)]
        log = play(RULES, players, random.Random(seed), seed=seed, variant=None, bots=bots)
        assert nt_replay(RULES, log) == [], seed


def test_same_seed_same_game() -> None:
    a = play(RULES, 5, random.Random(7), seed=7, variant=None, bots=["random"] * 5)
    b = play(RULES, 5, random.Random(7), seed=7, variant=None, bots=["random"] * 5)
    assert a == b
    assert a["winners"] == [s for s, p in enumerate(a["penalties"]) if p == min(a["penalties"])]
    assert a["punishment"] == to_json(punish(RULES, a["penalties"]))


def test_replay_catches_tampering() -> None:
    log = play(RULES, 4, random.Random(3), seed=3, variant=None, bots=["greedy"] * 4)
    turn = next(t for t in log["turns"] if any(p["took"] for p in t["placements"]))
    bad = copy.deepcopy(log)
    bad_turn = bad["turns"][log["turns"].index(turn)]
    taker = next(p for p in bad_turn["placements"] if p["took"])
    taker["took"] = taker["took"][:-1]
    assert any("placements" in p for p in nt_replay(RULES, bad))

    bad = copy.deepcopy(log)
    bad["penalties"][0] += 1
    assert any(p.startswith("penalties") for p in nt_replay(RULES, bad))

    bad = copy.deepcopy(log)
    bad["turns"][0]["rows"][0].append(999)
    assert any(".rows" in p for p in nt_replay(RULES, bad))

    # a step edited to a card seat 1 does not hold: refused with its step and the rule
    bad = copy.deepcopy(log)
    first = next(i for i, (seat, _) in enumerate(bad["steps"]) if seat == 1)
    bad["steps"][first][1] = bad["hands"][0][0]
    assert nt_replay(RULES, bad) == [
        f"step {first + 1} (seat 1): {bad['hands'][0][0]} is not allowed: card "
        f"{bad['hands'][0][0]} is not in seat 1's hand"]


class LastRow(Style):
    """A person who takes the last row with every low card."""

    def choose(self, match: Match, seat: int, rng: random.Random) -> Any:
        state: NiutouwangState = match.state  # type: ignore[assignment]
        if len(state.pending) == state.players:
            return ("row", 3)
        return super().choose(match, seat, rng)


def test_replay_accepts_a_human_low_card_choice() -> None:
    # A person may take any row for a low card: a game where every low card takes the last
    # row instead of the bots' pick replays clean, and it is another game.
    match = kit_play(lambda: NiutouwangState(RULES, 6), [LastRow()] * 6, 11)
    log = game_log(match, 11, ["person"] * 6)
    assert ["row", 3] in [action for seat, action in log["steps"]]
    bots = play(RULES, 6, random.Random(11), seed=11, variant=None, bots=["greedy"] * 6)
    assert log["penalties"] != bots["penalties"]
    assert nt_replay(RULES, log) == []


def test_official_variant_plays_to_66() -> None:
    for seed in range(15):
        players = 2 + seed % 9
        log = play(RULES, players, random.Random(seed), seed=seed, variant="official",
                   bots=["greedy"] * players)
        assert log["variant"] == "official" and log["end"] == "reached"
        totals = [0] * log["players"]
        for number, rnd in enumerate(log["rounds"], 1):
            assert rnd["round"] == number
            assert all(len(h) == 10 for h in rnd["hands"]) and len(rnd["turns"]) == 10
            for cards in walk_turns(rnd):
                assert sorted(cards) == list(range(1, 105))
            totals = [a + b for a, b in zip(totals, rnd["penalties"], strict=True)]
            assert rnd["totals"] == totals
            if number < len(log["rounds"]):
                assert max(totals) < 66
        assert max(totals) >= 66 and log["penalties"] == totals
        assert nt_replay(RULES, log) == [], seed


def test_play_rejects_bad_player_counts() -> None:
    for players in (1, 11):
        with pytest.raises(ValueError, match="players"):
            play(RULES, players, random.Random(1), seed=1, variant=None, bots=["greedy"] * players)


# ------------------------------------------------------------------ rules mapping and lint


def test_default_rules_and_mapping_round_trip() -> None:
    assert NiutouwangRules() == RULES
    mapping = {
        "deck": {"lowest": 1, "highest": 104},
        "rows": 4,
        "row_limit": 6,
        "players": {"min": 2, "max": 10, "default": 5},
        "heads": {"default": 1, "overrides": [
            {"multiple_of": 55, "heads": 7}, {"multiple_of": 11, "heads": 5},
            {"multiple_of": 10, "heads": 3}, {"multiple_of": 5, "heads": 2},
        ]},
        "punishment": {"base": 1, "paired": False},
        "variants": {"official": {"hand_size": 10, "end_at": 66}},
    }
    assert rules_from_mapping(mapping) == RULES
    assert rules_from_mapping(mapping, variant="official").hand_size(4) == 10
    assert RULES.hand_size(7) == 14


def test_rules_error_lists_every_problem() -> None:
    with pytest.raises(RulesError) as info:
        rules_from_mapping(
            {"rows": "four", "players": {"min": 6, "max": 3}, "colour": 1,
             "heads": {"overrides": [{"multiple_of": 0, "heads": 2}]}},
            variant="deluxe",
        )
    problems = info.value.problems
    assert len(problems) == 5
    assert any(p.startswith("rows:") for p in problems)
    assert any(p.startswith("colour:") for p in problems)
    assert any("multiple_of" in p for p in problems)
    assert any(p.startswith("players:") for p in problems)
    assert any(p.startswith("variant:") for p in problems)


def test_default_rules_lint_clean() -> None:
    assert nt_lint(RULES) == []


def test_lint_small_deck_and_head_rule_problems() -> None:
    small = rules_from_mapping({"deck": {"highest": 12}})
    codes = {f.code for f in nt_lint(small)}
    assert {"deal-empty-hands", "official-deal-short", "head-rule-unused"} <= codes

    reordered = rules_from_mapping({"heads": {"overrides": [
        {"multiple_of": 11, "heads": 5}, {"multiple_of": 5, "heads": 2},
        {"multiple_of": 10, "heads": 3},
    ]}})
    findings = nt_lint(reordered)
    overlap = [f for f in findings if f.code == "head-rule-overlap"]
    assert any("[55]" in f.message for f in overlap)
    unused = [f for f in findings if f.code == "head-rule-unused"]
    assert [f.where for f in unused] == ["rules.heads.overrides[2]"]
