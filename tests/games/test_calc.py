"""``pnp calc``: playtest-night calculators against hand-worked values; bad arguments exit 1."""

from __future__ import annotations

import ast
import inspect
import json
import shutil
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result

from pnp.cli import cli
from tests.conftest import ROOT, edit


@pytest.fixture(scope="module")
def ws(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A workspace with tisigui's and the seed-fixture wurenshenghuan's game.yaml only: the
    other games fall back to their engines' defaults (the rulings), as a calculator must."""
    root = tmp_path_factory.mktemp("calc")
    shutil.copytree(ROOT / "card_data" / "tisigui", root / "card_data" / "tisigui")
    fixture = ROOT / "tests" / "fixtures" / "lint" / "card_data" / "wurenshenghuan"
    shutil.copytree(fixture, root / "card_data" / "wurenshenghuan")
    return root


def calc(root: Path, *args: str) -> Result:
    result = CliRunner().invoke(cli, ["--root", str(root), "calc", *args])
    assert "Traceback" not in result.output, result.output
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    return result


def calc_json(root: Path, *args: str) -> Any:
    result = calc(root, *args, "--json")
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def fails(root: Path, *args: str) -> str:
    """Run a calculator that must refuse its arguments: exit 1 and one ``Error:`` line."""
    result = calc(root, *args)
    assert result.exit_code == 1, result.output
    assert result.stdout == ""
    shown = "\n".join(line for line in result.stderr.splitlines() if not line.startswith("note: "))
    assert shown.startswith("Error: "), result.stderr
    return shown


# --------------------------------------------------------------------------------------------
# aizhewudi split


def test_split_of_the_seed_example(ws: Path) -> None:
    # Seed: 1 × 20,000, 2 × 10,000, 2 × 5,000 shared by 3 -> 10,000 each, 20,000 carries.
    bills = ("20000", "10000", "10000", "5000", "5000")
    assert calc_json(ws, "aizhewudi", "split", "--sharers", "3", *bills) == {
        "share": 10000, "groups": [[10000], [10000], [5000, 5000]], "carried": [20000]}
    # ... and by 5 nobody gets anything: all five bills carry.
    assert calc_json(ws, "aizhewudi", "split", "--sharers", "5", *bills) == {
        "share": 0, "groups": [], "carried": [20000, 10000, 10000, 5000, 5000]}


def test_split_by_hand(ws: Path) -> None:
    # 2 sharers, 20,000 + 5,000 + 5,000 + 5,000 + 5,000 = 40,000 -> 20,000 each.
    assert calc_json(ws, "aizhewudi", "split", "-k", "2", "5,000", "20000", "5000", "5000",
                     "5000") == {"share": 20000, "groups": [[20000], [5000, 5000, 5000, 5000]],
                                 "carried": []}
    # One sharer takes everything; nobody standing carries everything.
    assert calc_json(ws, "aizhewudi", "split", "-k", "1", "5000", "20000") == {
        "share": 25000, "groups": [[20000, 5000]], "carried": []}
    assert calc_json(ws, "aizhewudi", "split", "-k", "0", "5000", "20000") == {
        "share": 0, "groups": [], "carried": [20000, 5000]}


def test_split_text(ws: Path) -> None:
    result = calc(ws, "aizhewudi", "split", "--sharers", "3", "20000", "10000", "10000", "5000",
                  "5000")
    assert result.exit_code == 0
    assert result.stdout.splitlines() == [
        "3 人各分 10,000", "第 1 份：10,000", "第 2 份：10,000", "第 3 份：5,000 + 5,000",
        "留到下一輪：20,000"]
    assert "default rules" in result.stderr  # no card_data/aizhewudi in this workspace


def test_split_bad_arguments(ws: Path) -> None:
    assert "not a bill of aizhewudi: 7,000" in fails(ws, "aizhewudi", "split", "-k", "2", "7000")
    assert "not a bill" in fails(ws, "aizhewudi", "split", "-k", "2", "-5000")
    assert "not a whole number" in fails(ws, "aizhewudi", "split", "-k", "2", "lots")
    assert "--sharers (players standing) must be 0–6, got -1" in fails(ws, "aizhewudi", "split", "--sharers",
                                                          "-1", "5000")
    assert "only 10" in fails(ws, "aizhewudi", "split", "-k", "2", *["20000"] * 11)
    assert calc(ws, "aizhewudi", "split", "-k", "x", "5000").exit_code == 2  # usage
    assert calc(ws, "aizhewudi", "split", "5000").exit_code == 2  # --sharers is required


# --------------------------------------------------------------------------------------------
# niutouwang heads and punish


@pytest.mark.parametrize(("card", "heads"), [(1, 1), (5, 2), (10, 3), (11, 5), (55, 7), (104, 1),
                                             (100, 3), (99, 5)])
def test_heads(ws: Path, card: int, heads: int) -> None:
    assert calc_json(ws, "niutouwang", "heads", str(card)) == {"card": card, "heads": heads}


def test_heads_text_and_cards_outside_the_deck(ws: Path) -> None:
    assert calc(ws, "niutouwang", "heads", "55").stdout.strip() == "55 號牌：7 個牛頭"
    assert "card 0 is not in the deck (1–104)" in fails(ws, "niutouwang", "heads", "0")
    assert "card 105 is not in the deck" in fails(ws, "niutouwang", "heads", "105")


def test_punish_by_hand(ws: Path) -> None:
    # Penalties by seat: 1 -> 3, 2 -> 7, 3 -> 1. Lowest first: seat 3 (1), seat 1 (3), seat 2 (7).
    # The k-th lowest is hit the k-th highest's penalty: seat 3 by 7, seat 1 by its own 3,
    # seat 2 by 1. Unpaired, everyone picks their own hitter (null).
    assert calc_json(ws, "niutouwang", "punish", "3", "7", "1") == {"players": [
        {"seat": 1, "penalty": 3, "hits": 3, "hitter": None, "tie": False},
        {"seat": 2, "penalty": 7, "hits": 1, "hitter": None, "tie": False},
        {"seat": 3, "penalty": 1, "hits": 7, "hitter": None, "tie": False},
    ]}
    # Paired: the k-th highest hits the k-th lowest; the middle of three picks their own.
    # Base 2 doubles every count.
    assert calc_json(ws, "niutouwang", "punish", "3", "7", "1", "--paired", "--base", "2") == {
        "players": [
            {"seat": 1, "penalty": 3, "hits": 6, "hitter": None, "tie": False},
            {"seat": 2, "penalty": 7, "hits": 2, "hitter": 3, "tie": False},
            {"seat": 3, "penalty": 1, "hits": 14, "hitter": 2, "tie": False},
        ]}


def test_punish_ties_by_hand(ws: Path) -> None:
    # 4, 4, 1: seat 1 counts as lower than seat 2. Order: seat 3, seat 1, seat 2.
    # seat 3 hit by seat 2's 4; seat 1 by its own 4; seat 2 by seat 3's 1.
    assert calc_json(ws, "niutouwang", "punish", "4", "4", "1", "--paired") == {"players": [
        {"seat": 1, "penalty": 4, "hits": 4, "hitter": None, "tie": True},
        {"seat": 2, "penalty": 4, "hits": 1, "hitter": 3, "tie": True},
        {"seat": 3, "penalty": 1, "hits": 4, "hitter": 2, "tie": False},
    ]}


def test_punish_text_counts_seats_from_1(ws: Path) -> None:
    lines = calc(ws, "niutouwang", "punish", "3", "7", "1", "--paired").stdout.splitlines()
    assert lines == ["座位  扣分  挨打  打人者", "   1     3     3  自選", "   2     7     1  3 號",
                     "   3     1     7  2 號"]


def test_punish_bad_arguments(ws: Path) -> None:
    assert "penalty of seat 2 must be 0 or more, got -7" in fails(
        ws, "niutouwang", "punish", "3", "-7", "1")
    assert "--base must be 1 or more, got 0" in fails(ws, "niutouwang", "punish", "3", "7",
                                                      "--base", "0")
    assert "2–10 players, got 1" in fails(ws, "niutouwang", "punish", "3")
    assert calc(ws, "niutouwang", "punish").exit_code == 2  # PENALTIES is required


# --------------------------------------------------------------------------------------------
# wurenshenghuan score


def test_murderer_score(ws: Path) -> None:
    data = calc_json(ws, "wurenshenghuan", "score", "--murderer", "--kills", "5")
    assert data == {"role": "murderer", "kills": 5, "guess": None, "alive": False,
                    "guessed_before_death": False,
                    "breakdown": {"murderer": 2, "guess": 0, "survival": 0}, "points": 2}
    text = calc(ws, "wurenshenghuan", "score", "--murderer", "--kills", "5").stdout
    assert text.splitlines()[0] == "兇手：實際殺死 5 個角色 → 2 分"
    assert text.splitlines()[-1] == "合計 2 分"


@pytest.mark.parametrize(("args", "guess", "survival"), [
    (["--guess-day", "2", "--correct", "--alive"], 4, 2),            # 6 − 2, alive
    (["--guess-day", "1", "--correct"], 5, 0),                       # killed, guess not before
    (["--guess-day", "3", "--correct", "--guessed-before-death"], 3, 2),
    (["--guess-day", "2", "--alive"], 0, 2),                         # wrong guess, alive
    (["--guess-day", "5", "--guessed-before-death"], 0, 0),          # wrong: no bonus
    ([], 0, 0),                                                      # no guess, killed
])
def test_innocent_scores_by_hand(ws: Path, args: list[str], guess: int, survival: int) -> None:
    data = calc_json(ws, "wurenshenghuan", "score", *args)
    assert data["role"] == "innocent" and data["kills"] is None
    assert data["breakdown"] == {"murderer": 0, "guess": guess, "survival": survival}
    assert data["points"] == guess + survival


def test_innocent_text_breakdown(ws: Path) -> None:
    lines = calc(ws, "wurenshenghuan", "score", "--guess-day", "2", "--correct",
                 "--alive").stdout.splitlines()
    assert lines == ["猜測：第 2 天交出，猜中 → 4 分", "存活：角色活到最後 → +2 分", "合計 6 分"]


def test_score_bad_arguments(ws: Path) -> None:
    assert "kills must be 0–9" in fails(ws, "wurenshenghuan", "score", "--murderer", "--kills", "10")
    assert "--kills N" in fails(ws, "wurenshenghuan", "score", "--murderer")
    assert "only the murderer kills" in fails(ws, "wurenshenghuan", "score", "--kills", "2")
    assert "hands in no guess" in fails(ws, "wurenshenghuan", "score", "--murderer", "--kills",
                                        "1", "--guess-day", "2")
    assert "--guess-day D" in fails(ws, "wurenshenghuan", "score", "--correct")
    assert "guess day must be 1–5" in fails(ws, "wurenshenghuan", "score", "--guess-day", "6")
    assert "contradict" in fails(ws, "wurenshenghuan", "score", "--guess-day", "1", "--correct",
                                 "--alive", "--guessed-before-death")


# --------------------------------------------------------------------------------------------
# tisigui naming, ghost, no-targets


def test_tisigui_calculators_by_hand(ws: Path) -> None:
    assert calc_json(ws, "tisigui", "naming", "--round-value", "3", "--named", "2") == {
        "round_value": 3, "named": 2, "points": 6}
    assert calc(ws, "tisigui", "naming", "--round-value", "3", "--named", "2").stdout.strip() == \
        "指认得分：3 分 × 2 人 = 6 分"
    assert calc_json(ws, "tisigui", "ghost", "--players", "5", "--confirmed", "2") == {
        "players": 5, "confirmed": 2, "points": 3}
    assert calc(ws, "tisigui", "ghost", "--players", "5", "--confirmed", "2").stdout.strip() == \
        "碟仙得分：5 人 − 2 人已确认 = 3 分"
    assert calc_json(ws, "tisigui", "no-targets", "--players", "4") == {"players": 4, "points": 4}
    assert calc(ws, "tisigui", "no-targets", "--players", "4").stdout.strip() == \
        "无替身得分：1 分 × 4 人 = 4 分"


def test_tisigui_bad_arguments(ws: Path) -> None:
    assert "no small round is worth 5" in fails(ws, "tisigui", "naming", "--round-value", "5",
                                                "--named", "1")
    assert "names 1–6 players, got --named 0" in fails(ws, "tisigui", "naming", "--round-value",
                                                       "1", "--named", "0")
    assert "3–6 players, got --players 7" in fails(ws, "tisigui", "ghost", "--players", "7",
                                                   "--confirmed", "0")
    assert "confirmed targets must be 0–4" in fails(ws, "tisigui", "ghost", "--players", "4",
                                                    "--confirmed", "5")


def test_calculators_use_the_rules_in_card_data(tmp_path: Path, ws: Path) -> None:
    root = tmp_path / "ws"
    shutil.copytree(ws, root)
    game = root / "card_data" / "tisigui" / "game.yaml"
    edit(game, "  big_die_sides: 6\n", "  big_die_sides: 6\n  scoring: {no_targets_per_player: 2}\n")
    assert calc_json(root, "tisigui", "no-targets", "--players", "4") == {"players": 4, "points": 8}
    edit(game, "  big_die_sides: 6\n", "  big_die_sides: six\n")
    error = fails(root, "tisigui", "no-targets", "--players", "4")
    assert "game.yaml:" in error and "rules.big_die_sides: expected a whole number" in error


# --------------------------------------------------------------------------------------------
# Unknown games and calculators


def test_unknown_game_or_calculator_exits_1(ws: Path) -> None:
    assert "unknown calculator 'fly' for niutouwang (known: heads, punish)" in fails(
        ws, "niutouwang", "fly")
    assert "no calculators for game 'chess'" in fails(ws, "chess", "mate")
    assert calc(ws, "tisigui", "naming", "--bogus").exit_code == 2  # a usage error stays 2


# --------------------------------------------------------------------------------------------
# arguments every calculator shares (issue 13): ranges, negative numbers, grouping commas


@pytest.mark.parametrize("sharers", ["7", "1000000000"])
def test_split_sharers_beyond_the_table(ws: Path, sharers: str) -> None:
    # aizhewudi is for 4–6 players, so at most 6 can be standing to share.
    assert f"must be 0–6, got {sharers}" in fails(ws, "aizhewudi", "split", "-k", sharers, "5000")


def test_split_commas_only_in_thousands(ws: Path) -> None:
    assert "'2,0000' is not a whole number" in fails(ws, "aizhewudi", "split", "-k", "1", "2,0000")
    assert "'5,00,0' is not a whole number" in fails(ws, "aizhewudi", "split", "-k", "1", "5,00,0")
    # 20,000 and 20_000 are 20000: one sharer takes 25,000.
    assert calc_json(ws, "aizhewudi", "split", "-k", "1", "20,000", "5_000")["share"] == 25000


def test_split_needs_bills(ws: Path) -> None:
    assert "no bills given" in fails(ws, "aizhewudi", "split", "-k", "3")


def test_negative_numbers_are_refused_not_usage_errors(ws: Path) -> None:
    assert "card -1 is not in the deck (1–104)" in fails(ws, "niutouwang", "heads", "-1")
    assert "penalty of seat 1 must be 0 or more, got -2" in fails(
        ws, "niutouwang", "punish", "-2", "3", "4")
    assert "--base must be 1 or more, got -3" in fails(
        ws, "niutouwang", "punish", "2", "3", "--base", "-3")
    assert "confirmed targets must be 0–4, got -1" in fails(
        ws, "tisigui", "ghost", "--players", "4", "--confirmed", "-1")
    assert "3–6 players, got --players -4" in fails(ws, "tisigui", "no-targets", "--players", "-4")
    assert "kills must be 0–9" in fails(ws, "wurenshenghuan", "score", "--murderer", "--kills", "-1")
    assert "guess day must be 1–5, got -2" in fails(
        ws, "wurenshenghuan", "score", "--guess-day", "-2")


def test_options_that_are_not_numbers_are_usage_errors(ws: Path) -> None:
    for args in (["tisigui", "no-targets", "--players", "five"], ["niutouwang", "heads", "--bogus"],
                 ["aizhewudi", "split", "-k", "2,0", "5000"]):
        result = calc(ws, *args)
        assert result.exit_code == 2, result.output
        assert "is not a whole number" in result.stderr


def test_paired_and_unpaired_together_are_refused(ws: Path) -> None:
    assert "--paired and --unpaired contradict" in fails(
        ws, "niutouwang", "punish", "1", "2", "3", "--paired", "--unpaired")
    # Each alone still works: paired, seat 1 (fewest) is hit 3 times by seat 3 (most).
    paired = calc_json(ws, "niutouwang", "punish", "1", "2", "3", "--paired")["players"]
    assert paired[0] == {"seat": 1, "penalty": 1, "hits": 3, "hitter": 3, "tie": False}
    unpaired = calc_json(ws, "niutouwang", "punish", "1", "2", "3", "--unpaired")["players"]
    assert unpaired[0]["hitter"] is None


# --------------------------------------------------------------------------------------------
# The declarations (issue 19): plain functions with declared parameters, no click in a game


def test_every_declared_parameter_is_a_keyword_of_its_function() -> None:
    from pnp.games.calcargs import Toggle
    from pnp.games.calclookup import calculator_games
    from pnp.games.registry import get_game

    games = calculator_games()
    assert {"aizhewudi", "niutouwang", "tisigui", "wurenshenghuan"} <= set(games)
    for slug in games:
        for calculator in get_game(slug).calculators:
            names = [param.name for param in calculator.params]
            assert len(names) == len(set(names)), (slug, calculator.name)
            offs = [param.off for param in calculator.params if isinstance(param, Toggle)]
            assert not set(offs) & set(names), (slug, calculator.name)
            # Binding fails if a declared name is not a parameter of run, or if run needs one
            # that is not declared.
            inspect.signature(calculator.run).bind(object(), **dict.fromkeys(names))


def test_no_game_package_imports_click_or_the_command_line() -> None:
    games = ROOT / "pnp" / "games"
    for path in sorted(games.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                modules = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                modules = [node.module or ""]
            else:
                continue
            for module in modules:
                assert module.split(".")[0] != "click" and not module.startswith("pnp.cli"), (
                    f"{path.relative_to(ROOT)}:{node.lineno} imports {module}")
