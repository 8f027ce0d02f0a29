"""Win rate by role: a game that deals roles (wurenshenghuan's murderer and innocents) names
each seat's role in its summary, and pnp simulate reports each role's win share per seat that
held it, with the same 95 % interval as a seat's, in text, JSON, the balance report's html and
pdf; a game without roles reports nothing new."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from pypdf import PdfReader
from scipy import stats

from pnp.cli import cli
from pnp.core.workspace import Workspace
from pnp.play import simulate
from pnp.play.tally import Tally, role_win_figures
from tests.conftest import ROOT

WORKSPACE = Workspace(ROOT)


def _summary(roles: list[str], winners: list[int]) -> dict[str, Any]:
    return {"length": {"turns": 1}, "scores": [0, 0, 0], "winners": winners, "ends": {"x": 1},
            "roles": {}, "supply": {}, "seat_roles": roles}


# Three games of three seats, worked by hand:
#   roles m,i,i  winners [0]     murderer 1;   innocents 0, 0
#   roles i,m,i  winners [0, 2]  murderer 0;   innocents 1/2, 1/2 (a shared win split)
#   roles i,i,m  winners [1]     murderer 0;   innocents 0, 1
# murderer: 1 win in 3 seat-games; innocent: 2 wins in 6 seat-games.
GAMES = [_summary(["m", "i", "i"], [0]), _summary(["i", "m", "i"], [0, 2]),
         _summary(["i", "i", "m"], [1])]


def _wilson(k: int, n: int) -> tuple[float, float]:
    ci = stats.binomtest(k, n).proportion_ci(confidence_level=0.95, method="wilson")
    return ci.low, ci.high


def test_the_tally_counts_each_seat_that_held_a_role() -> None:
    tally = Tally(players=3, lower_is_better=False)
    for game in GAMES:
        tally.add(game)
    murderer, innocent = tally.role_wins["m"], tally.role_wins["i"]
    assert (murderer.n, murderer.total) == (3, 1)
    assert (innocent.n, innocent.total) == (6, 2)
    figures = role_win_figures(tally.role_wins)
    assert list(figures) == ["i", "m"]
    for role, (k, n) in (("m", (1, 3)), ("i", (2, 6))):
        low, high = _wilson(k, n)
        assert figures[role]["value"] == pytest.approx(k / n, abs=1e-4)
        assert figures[role]["low"] == pytest.approx(low, abs=1e-4)
        assert figures[role]["high"] == pytest.approx(high, abs=1e-4)


def test_tallies_merge_their_role_wins_exactly() -> None:
    whole, first, second = (Tally(players=3, lower_is_better=False) for _ in range(3))
    for game in GAMES:
        whole.add(game)
    first.add(GAMES[0])
    for game in GAMES[1:]:
        second.add(game)
    first.merge(second)
    assert {r: (m.n, m.total) for r, m in first.role_wins.items()} == {"m": (3, 1), "i": (6, 2)}
    assert role_win_figures(first.role_wins) == role_win_figures(whole.role_wins)


def test_a_game_without_roles_adds_nothing() -> None:
    tally = Tally(players=3, lower_is_better=False)
    plain = _summary([], [1])
    del plain["seat_roles"]
    tally.add(plain)
    assert tally.role_wins == {}


@pytest.fixture(scope="module")
def murder() -> dict[str, Any]:
    return simulate.simulate(WORKSPACE, "wurenshenghuan", 80, players=5, jobs=1)


def test_simulate_reports_the_murderer_and_the_innocents(murder: dict[str, Any]) -> None:
    wins = murder["wins"]
    by_role = wins["by_role"]
    assert set(by_role) == {"murderer", "innocent"}
    # The game's own report counts the murderer's wins from its log: one murderer a game.
    assert by_role["murderer"]["value"] == pytest.approx(
        murder["roles"]["murderer"]["win_share"], abs=1e-4)
    # Four innocents a game share the rest of the wins.
    assert by_role["murderer"]["value"] + 4 * by_role["innocent"]["value"] == pytest.approx(
        1 - wins["no_winner_games"], abs=1e-3)
    for figure in by_role.values():
        assert set(figure) == {"value", "low", "high"}
        assert figure["low"] < figure["value"] < figure["high"]
    text = simulate.text_report(murder)
    block = text.split("Wins by role")[1].split("End conditions")[0]
    murderer = by_role["murderer"]
    assert (f"murderer               {murderer['value']:.1%} "
            f"({murderer['low']:.1%}–{murderer['high']:.1%})") in block
    assert "innocent" in block


def test_games_without_roles_report_nothing_new() -> None:
    for slug in ("tisigui", "niutouwang"):
        data = simulate.simulate(WORKSPACE, slug, 5, jobs=1)
        assert "by_role" not in data["wins"]
        assert "Wins by role" not in simulate.text_report(data)


SWEEP = ["simulate", "wurenshenghuan", "--players", "4..5", "--games", "40", "--jobs", "1"]


def test_the_balance_report_shows_the_roles_in_json_text_html_and_pdf(tmp_path: Path) -> None:
    runner = CliRunner()
    data = json.loads(runner.invoke(cli, [*SWEEP, "--format", "json"],
                                    catch_exceptions=False).stdout)
    text = runner.invoke(cli, SWEEP, catch_exceptions=False).stdout
    html_out, pdf_out = tmp_path / "b.html", tmp_path / "b.pdf"
    for fmt, out in (("html", html_out), ("pdf", pdf_out)):
        result = runner.invoke(cli, [*SWEEP, "--format", fmt, "--out", str(out)],
                               catch_exceptions=False)
        assert result.exit_code == 0, result.output
    html = html_out.read_text(encoding="utf-8")
    pdf = "\n".join(page.extract_text() for page in PdfReader(pdf_out).pages)
    for section in data["settings"]:
        by_role = section["wins"]["by_role"]
        assert set(by_role) == {"innocent", "murderer"}
        m = by_role["murderer"]
        assert f"murderer: {m['value']:.1%} ({m['low']:.1%}–{m['high']:.1%})" in text
        assert (f"<tr><td>wins: role murderer</td><td>{m['value']:.1%} <small>"
                f"({m['low']:.1%}–{m['high']:.1%})</small></td></tr>") in html
        assert (f"{m['value'] * 100:.1f} % ({m['low'] * 100:.1f} % – {m['high'] * 100:.1f} %)"
                in pdf)
    assert "wins: role murderer" in pdf.replace("\n", " ")


def test_the_balance_report_of_a_game_without_roles_has_no_role_rows() -> None:
    data = json.loads(CliRunner().invoke(cli, ["simulate", "niutouwang", "--players", "4..5",
                                               "--games", "10", "--jobs", "1", "--format",
                                               "json"], catch_exceptions=False).stdout)
    assert all("by_role" not in s["wins"] for s in data["settings"])
