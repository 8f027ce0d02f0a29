"""pnp simulate --sweep: the grid, the same seeds for every setting, figures with intervals,
tallies that merge exactly and stay small, and the report the same with any number of workers."""

from __future__ import annotations

import json
import pickle
from typing import Any

import pytest
from click.testing import CliRunner

from pnp.cli import cli
from pnp.cli.progress import progress_line
from pnp.core.workspace import Workspace
from pnp.games.base import Plan
from pnp.play import balance, simulate
from pnp.play.sweep import parse_axis, parse_players, play_tally, sweep
from tests.conftest import ROOT

WORKSPACE = Workspace(ROOT)
MUST_SHOW = ["simulate", "niutouwang", "--sweep", "rules.row_limit=5,6,7", "--players", "4..5",
             "--format", "json", "--jobs", "1"]


def _figures(node: Any) -> list[dict[str, Any]]:
    if isinstance(node, dict):
        if set(node) == {"value", "low", "high"}:
            return [node]
        return [f for value in node.values() for f in _figures(value)]
    if isinstance(node, list):
        return [f for value in node for f in _figures(value)]
    return []


@pytest.fixture(scope="module")
def must_show() -> dict[str, Any]:
    result = CliRunner().invoke(cli, [*MUST_SHOW, "--games", "150"], catch_exceptions=False)
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def test_must_show_gives_a_result_per_setting_and_player_count(must_show: dict[str, Any]) -> None:
    assert must_show["version"] == 2
    assert must_show["swept"] == [{"path": "rules.row_limit", "values": [5, 6, 7]}]
    assert [(s["rules"]["rules.row_limit"], s["players"]) for s in must_show["settings"]] == [
        (5, 4), (5, 5), (6, 4), (6, 5), (7, 4), (7, 5)]
    assert [s["label"] for s in must_show["settings"]][:2] == ["row_limit=5, 4 players", "row_limit=5, 5 players"]
    for section in must_show["settings"]:
        assert section["games"] == 150
        assert len(section["wins"]["by_seat"]) == section["players"]
        assert sum(f["value"] for f in section["wins"]["by_seat"]) == pytest.approx(1, abs=1e-3)
        assert {"scores", "length", "ends", "supply", "seat_advantage"} <= set(section)
        assert all(a["test"] == f"one-sample t-test, Bonferroni over {section['players']}"
                   for a in section["seat_advantage"])
    figures = _figures(must_show["settings"])
    assert len(figures) > 100
    for f in figures:
        assert f["low"] <= f["value"] <= f["high"]


def test_a_bigger_row_limit_lowers_the_winning_penalty_significantly(must_show: dict[str, Any]) -> None:
    """The row limit of 7 lets rows grow longer before anyone takes: fewer heads for the best
    player. Welch's test must see it against the row limit of 5 at both player counts."""
    found = {(c["setting"], c["baseline"]): c for c in must_show["comparisons"] if c["metric"] == "scores.winning"}
    for setting, baseline in ((4, 0), (5, 1)):
        c = found[(setting, baseline)]
        assert c["test"] == "Welch's t-test" and c["significant"] and c["difference"]["high"] < 0
    assert any("Welch's t-test" in flag and "scores.winning" in flag for flag in must_show["flags"])


def test_every_setting_plays_the_seeds_of_a_plain_run(must_show: dict[str, Any]) -> None:
    """Setting (row_limit 6 = the game's own rules, 4 players) is game for game the plain
    `pnp simulate --players 4` of the same seeds: the same means, the same win shares."""
    plain = simulate.simulate(WORKSPACE, "niutouwang", 150, 4, jobs=1)
    section = must_show["settings"][2]
    assert section["scores"]["winning"]["value"] == plain["scores"]["winning"]["mean"]
    assert section["scores"]["spread"]["value"] == plain["scores"]["spread"]["mean"]
    assert [f["value"] for f in section["wins"]["by_seat"]] == plain["wins"]["by_seat"]


def test_the_report_is_the_same_with_two_workers() -> None:
    one = balance.report(sweep(WORKSPACE, "niutouwang", ["rules.row_limit=5,7"], "4", 520, jobs=1))
    two = balance.report(sweep(WORKSPACE, "niutouwang", ["rules.row_limit=5,7"], "4", 520, jobs=2))
    assert json.dumps(one) == json.dumps(two)


def test_a_tally_merges_exactly_and_does_not_grow_with_games() -> None:
    plan = Plan("niutouwang", {}, None, 4, "greedy", {})
    whole = play_tally(plan, 1, 300)
    first, second = play_tally(plan, 1, 120), play_tally(plan, 121, 180)
    first.merge(second)
    assert first == whole
    small, large = len(pickle.dumps(play_tally(plan, 1, 100))), len(pickle.dumps(whole))
    assert large < small * 1.6  # histograms fill in; nothing per game is kept


@pytest.mark.parametrize(("text", "values"), [("rules.row_limit=5,6,7", (5, 6, 7)),
                                               ("rules.row_limit=3..6", (3, 4, 5, 6)),
                                               ("rules.punishment.paired=true,false", (True, False)),
                                               ("rules.heads.overrides[0].heads=6,8", (6, 8))])
def test_sweep_values_and_paths(text: str, values: tuple[Any, ...]) -> None:
    assert parse_axis(text).values == values


def test_players_lists_and_ranges() -> None:
    assert parse_players("3..5") == (3, 4, 5)
    assert parse_players("4,6..7") == (4, 6, 7)


def test_a_list_item_path_sweeps_that_item() -> None:
    run = sweep(WORKSPACE, "niutouwang", ["rules.heads.overrides[3].heads=2,20"], "4", 30, jobs=1)
    winning = [t.scores["all"].mean for t in run.tallies]
    assert winning[1] > winning[0] * 1.5  # multiples of 5 worth 20 heads: far more heads taken


def test_progress_line_shows_done_rate_and_time_left() -> None:
    assert progress_line("niutouwang: playing", 1200, 12000, 2.0) == \
        "niutouwang: playing 1,200/12,000 games, 600 games/s, 18 s left"


def test_the_parent_keeps_nothing_per_chunk(monkeypatch: pytest.MonkeyPatch) -> None:
    """With the games themselves taken out (each chunk an empty tally), what the parent holds
    while it hands out 4,000 chunks is what it holds for 200: chunks are made as they go out and
    each tally is merged and dropped as it comes."""
    import tracemalloc

    from pnp.play import sweep as sweep_module
    from pnp.play.tally import Tally

    monkeypatch.setattr(sweep_module, "play_tally", lambda plan, first, count: Tally(plan.players, False, games=count))
    plan = Plan("niutouwang", {}, None, 4, "greedy", {})

    def peak(games: int) -> int:
        tracemalloc.start()
        try:
            tallies = sweep_module.run_sweep([plan], 1, games, jobs=1)
            assert tallies[0].games == games
            return tracemalloc.get_traced_memory()[1]
        finally:
            tracemalloc.stop()

    peak(50_000)  # the game's plugin, rules and caches, loaded once
    small, large = peak(50_000), peak(1_000_000)
    # A list of the 4,000 chunks handed out would alone be some 500 kB.
    assert large < small + 50_000, (small, large)
