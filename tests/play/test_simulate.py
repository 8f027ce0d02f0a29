"""pnp simulate: deterministic reports, the same with or without worker processes, and the
numbers designers read (length, scores, wins, ends, supply) consistent with the games played."""

from __future__ import annotations

import json
from typing import Any

import pytest
from click.testing import CliRunner

from pnp.cli import cli
from pnp.core.workspace import Workspace
from pnp.games.tisigui.summary import _min_tokens
from pnp.play import narrate, simulate
from tests.conftest import ROOT

WORKSPACE = Workspace(ROOT)
GAMES = ("tisigui", "wurenshenghuan", "niutouwang", "aizhewudi")
COMMON_KEYS = {"version", "game", "variant", "players", "bots", "games", "seeds", "length",
               "scores", "wins", "ends", "ends_per", "supply"}


@pytest.fixture(scope="module")
def reports() -> dict[str, dict[str, Any]]:
    return {slug: simulate.simulate(WORKSPACE, slug, 60, jobs=1) for slug in GAMES}


@pytest.mark.parametrize("slug", GAMES)
def test_report_shape(reports: dict[str, dict[str, Any]], slug: str) -> None:
    data = reports[slug]
    assert set(data) >= COMMON_KEYS
    assert data["games"] == 60 and data["seeds"] == {"first": 1, "last": 60}
    for stats in data["length"].values():
        assert set(stats) == {"mean", "min", "max"} and stats["min"] <= stats["mean"] <= stats["max"]
    for key in ("all", "winning", "spread"):
        assert set(data["scores"][key]) == {"mean", "min", "max"}
    wins = data["wins"]
    assert len(wins["by_seat"]) == data["players"]
    assert sum(wins["by_seat"]) + wins["no_winner_games"] == pytest.approx(1, abs=1e-3)
    assert sum(e["count"] for e in data["ends"].values()) >= data["games"]
    assert sum(e["share"] for e in data["ends"].values()) == pytest.approx(1, abs=1e-3)
    json.dumps(data)  # JSON-ready


def test_game_specific_sections(reports: dict[str, dict[str, Any]]) -> None:
    t = reports["tisigui"]
    assert {"ghost", "others", "fair_top_scorer_share"} <= set(t["roles"])
    assert t["supply"]["question_markers"]["handed_out_per_big_round"] == 5 * 3
    assert t["supply"]["question_markers"]["supply"] == 30
    assert t["supply"]["score_tokens"]["supply"] == {"50": 2, "10": 6, "5": 15, "1": 20}
    assert set(t["game_end"]) <= {"die_at_1", "roll_above_die", "big_rounds_out"}
    w = reports["wurenshenghuan"]
    assert {"murderer", "others"} <= set(w["roles"])
    assert w["roles"]["murderer"]["win_share"] + w["roles"]["others"]["win_share"] == \
        pytest.approx(1, abs=1e-3)
    assert w["supply"]["item_pile"]["size"] == 11
    n = reports["niutouwang"]
    assert n["scores"]["lower_is_better"] is True
    assert n["scores"]["winning"]["max"] <= n["scores"]["all"]["max"]
    assert n["supply"]["most_cards_taken"]["min"] >= 1
    a = reports["aizhewudi"]
    assert a["supply"]["loved_markers"]["supply"] == 14
    assert a["supply"]["fickle_markers"]["supply"] == 14
    assert 0 <= a["supply"]["fickle_markers"]["games_short"] <= 1


def test_tisigui_length_matches_the_expected_big_rounds() -> None:
    """5 players: 33/8 big rounds expected (docs/rulings.md); 2,000 games land close to it."""
    data = simulate.simulate(WORKSPACE, "tisigui", 2000, jobs=1)
    assert data["length"]["big_rounds"]["mean"] == pytest.approx(33 / 8, abs=0.08)
    assert data["length"]["big_rounds"]["min"] == 3 and data["length"]["big_rounds"]["max"] == 5


def test_workers_do_not_change_the_report() -> None:
    games = simulate.PARALLEL_FROM
    alone = simulate.simulate(WORKSPACE, "aizhewudi", games, variant="abilities", jobs=1)
    pooled = simulate.simulate(WORKSPACE, "aizhewudi", games, variant="abilities", jobs=2)
    assert json.dumps(alone) == json.dumps(pooled)


def test_progress_counts_every_game() -> None:
    seen: list[int] = []
    simulate.simulate(WORKSPACE, "niutouwang", 130, players=3, jobs=1, progress=seen.append)
    assert sum(seen) == 130


def test_a_game_in_a_run_is_the_sample_of_its_seed() -> None:
    game = narrate.load_game_data(WORKSPACE, "wurenshenghuan")
    data = simulate.simulate(WORKSPACE, "wurenshenghuan", 1, seed=278, game=game, jobs=1)
    played = narrate.play_sample(WORKSPACE, "wurenshenghuan", None, 278, game=game)
    points = [f["points"] for f in played.log["final"]]
    assert data["scores"]["winning"]["max"] == max(points)
    assert data["ends"] == {played.log["end"]: {"count": 1, "share": 1.0}}


def test_random_bots_and_variants_run() -> None:
    for slug, variant in (("tisigui", "classic"), ("niutouwang", "official"),
                          ("aizhewudi", None), ("wurenshenghuan", None)):
        data = simulate.simulate(WORKSPACE, slug, 15, variant=variant, bots="random", jobs=1)
        assert data["bots"] == "random" and data["variant"] == variant


# --------------------------------------------------------------------------------------------
# Score tokens


@pytest.mark.parametrize(("scores", "expected"), [
    ([0, 0, 0], 0),
    ([4, 9, 56], 4 + 5 + 3),          # 4×1; 5 + 4×1; 50 + 5 + 1
    ([100, 100], 2 + 6 + 8),          # two 50s; then six 10s and eight 5s for the other 100
    ([200, 100], None),               # 300 points, the whole supply is worth 255
])
def test_fewest_score_tokens(scores: list[int], expected: int | None) -> None:
    supply = [(50, 2), (10, 6), (5, 15), (1, 20)]
    assert _min_tokens(scores, supply) == expected


def test_fewest_score_tokens_when_greedy_overdraws() -> None:
    # Greedy wants three 10s; with two, one player pays 10 with two 5s instead.
    supply = [(10, 2), (5, 4), (1, 0)]
    assert _min_tokens([10, 10, 10], supply) == 4
    assert _min_tokens([10, 10, 10, 10], supply) == 6
    assert _min_tokens([10, 10, 10, 10, 10], supply) is None


# --------------------------------------------------------------------------------------------
# CLI


def run(*args: str) -> Any:
    return CliRunner().invoke(cli, ["--root", str(ROOT), *args], catch_exceptions=False)


def test_cli_json_is_stable_and_documented_shape() -> None:
    first = run("simulate", "tisigui", "--games", "40", "--format", "json", "--jobs", "1")
    second = run("simulate", "tisigui", "--games", "40", "--format", "json")
    assert first.exit_code == 0 and first.output == second.output
    data = json.loads(first.output)
    assert set(data) >= COMMON_KEYS and data["games"] == 40


def test_cli_text_report() -> None:
    result = run("simulate", "aizhewudi", "--games", "30", "--abilities", "--players", "4")
    assert result.exit_code == 0
    for heading in ("Game length", "Scores", "Wins by seat", "End conditions",
                    "Component supply", "被愛 markers (14)", "花心 markers (14)",
                    "won when held"):
        assert heading in result.output
    assert "aizhewudi: 30 games, 4 players, variant abilities" in result.output
    assert "\r" not in result.output  # no progress bar when stderr is not a terminal


def test_cli_text_report_every_game() -> None:
    for slug in GAMES:
        result = run("simulate", slug, "--games", "12")
        assert result.exit_code == 0, result.output
        assert result.output.startswith(f"{slug}: 12 games")
