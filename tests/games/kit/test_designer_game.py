"""A designer's own kit game, installed beside pnp (tests/fixtures/kit_designer: 暗標 and a copy
that makes one typical mistake, picked by ANBIAO_MISTAKE): its variant from game.yaml plays,
`pnp check` plays it and compares observations with redeals, and every mistake in its code
ends as `Error: anbiaox: <method>: ...` with exit 1 and no traceback, from sample, simulate
(in worker processes too) and check."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import ROOT

PACKAGE = ROOT / "tests" / "fixtures" / "kit_designer"
RULES = "rules:\n  hand: 3\n  variants:\n    short: {hand: 2}\n"

Workspace = tuple[Path, dict[str, str]]


@pytest.fixture(scope="module")
def designer(tmp_path_factory: pytest.TempPathFactory) -> Workspace:
    ws = tmp_path_factory.mktemp("anbiao")
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(PACKAGE), str(ROOT)]))
    env.pop("ANBIAO_MISTAKE", None)
    for slug in ("anbiao", "anbiaox"):
        done = subprocess.run([sys.executable, "-m", "pnp", "new", slug], cwd=ws, env=env,
                              capture_output=True, text=True, timeout=120)
        assert done.returncode == 0, done.stderr
        # The starter's table and its place in the rulebook are for a game without an engine.
        (ws / f"card_data/{slug}/tables.yaml").write_text("tables: {}\n", encoding="utf-8")
        book = ws / f"templates/{slug}/rulebook.md.j2"
        book.write_text(book.read_text(encoding="utf-8").replace('{{ table("setup") }}', ""),
                        encoding="utf-8")
        game_yaml = ws / f"card_data/{slug}/game.yaml"
        game_yaml.write_text(game_yaml.read_text(encoding="utf-8") + RULES, encoding="utf-8")
    return ws, env


def pnp(designer: Workspace, *args: str, mistake: str = "") -> subprocess.CompletedProcess[str]:
    ws, env = designer
    return subprocess.run([sys.executable, "-m", "pnp", "--root", str(ws), *args],
                          env=dict(env, ANBIAO_MISTAKE=mistake), capture_output=True, text=True,
                          timeout=300, cwd=ws)


# ------------------------------------------------------------------------------ the game as written


def test_the_variant_game_yaml_declares_plays(designer: Workspace) -> None:
    logged = pnp(designer, "sample", "anbiao", "--variant", "short", "--players", "3",
                 "--format", "json")
    assert logged.returncode == 0, logged.stderr
    log = json.loads(logged.stdout)
    assert log["variant"] == "short" and log["rules"]["hand"] == 2
    # Two rounds of three bids each (the short variant's hand of 2), one prize drawn a round.
    assert sum(1 for seat, _ in log["steps"] if seat >= 0) == 2 * 3
    report = pnp(designer, "simulate", "anbiao", "--variant", "short", "--games", "20",
                 "--jobs", "1", "--format", "json")
    assert report.returncode == 0, report.stderr
    data = json.loads(report.stdout)
    assert data["variant"] == "short" and data["length"]["turns"]["max"] == 2 * 3
    unknown = pnp(designer, "sample", "anbiao", "--variant", "long")
    assert unknown.returncode == 1
    assert "unknown variant 'long' for anbiao (variants: short)" in unknown.stderr


def test_check_passes_the_game_as_written(designer: Workspace) -> None:
    done = pnp(designer, "check", "anbiao")
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout.strip() == "anbiao: ok"


def test_replay_after_a_rules_change_says_the_rules_changed(designer: Workspace,
                                                          tmp_path: Path) -> None:
    logged = pnp(designer, "sample", "anbiao", "--players", "2", "--seed", "3", "--format", "json")
    log = json.loads(logged.stdout)
    path = tmp_path / "game.json"
    path.write_text(json.dumps(log), encoding="utf-8")
    assert pnp(designer, "replay", "anbiao", str(path)).returncode == 0
    log["variant"] = "short"  # replayed under hand 2: the third deal is one too many
    path.write_text(json.dumps(log), encoding="utf-8")
    refused = pnp(designer, "replay", "anbiao", str(path))
    assert refused.returncode == 1 and "Traceback" not in refused.stderr
    assert "the log was played under other rules: hand: 3 then, 2 now" in refused.stderr


# ------------------------------------------------------------------------------ mistakes

# mistake -> the method named, and words of what was expected and what came (2 players)
MISTAKES = {
    "no_observation": ("observation", "expected a method observation() on the state, got None"),
    "list_actions": ("legal_actions", "got list"),
    "outcome_tuple": ("outcome", "expected an Outcome"),
    "no_places": ("outcome", "got 2 scores and 0 places"),
    "one_argument": ("new_state", "expected new_state(rules, players), got Broken(players)"),
    "object_action": ("legal_actions", "got Bid"),
    "text_rule": ("rules", "expected each field of Named to be int, bool or tuple[int, ...], got name: str"),
    "never_over": ("legal_actions", "got none while is_over() is False"),
    "no_events": ("apply", "expected the events the action caused (a list, [] for none), got None"),
    "raises": ("Broken.apply", "raised IndexError: list index out of range (at anbiao_broken.py:"),
}


def assert_game_code_error(done: subprocess.CompletedProcess[str], method: str, words: str) -> None:
    assert done.returncode == 1, done.stdout + done.stderr
    assert "Traceback" not in done.stderr
    assert f"Error: anbiaox: {method}: " in done.stderr, done.stderr
    assert words in done.stderr.replace("\n", " "), done.stderr


@pytest.mark.parametrize("mistake", sorted(MISTAKES))
def test_a_mistake_in_the_game_code_is_named_by_sample_and_simulate(designer: Workspace,
                                                                    mistake: str) -> None:
    method, words = MISTAKES[mistake]
    sample = pnp(designer, "sample", "anbiaox", "--players", "2", mistake=mistake)
    assert_game_code_error(sample, method, words)
    simulate = pnp(designer, "simulate", "anbiaox", "--players", "2", "--games", "5", "--jobs",
                   "1", mistake=mistake)
    assert_game_code_error(simulate, method, words)


@pytest.mark.parametrize("mistake", sorted(MISTAKES))
def test_check_reports_a_mistake_at_the_game_code(designer: Workspace, mistake: str) -> None:
    method, words = MISTAKES[mistake]
    done = pnp(designer, "check", "anbiaox", mistake=mistake)
    assert done.returncode == 1 and "Traceback" not in done.stderr
    assert "[engine] game-code: " in done.stdout
    finding = next(line for line in done.stdout.splitlines() if "game-code" in line)
    # Located at the designer's package (the method's line where one is found), not pnp's.
    assert str(PACKAGE) in finding and f": {method}: " in finding
    assert words in finding  # seed 1 of the check's games seats 2 players


def test_ismcts_names_the_mistakes_it_meets(designer: Workspace) -> None:
    unhashable = pnp(designer, "sample", "anbiaox", "--bots", "ismcts", "--budget", "5",
                     mistake="list_actions")
    assert_game_code_error(unhashable, "legal_actions", "expected actions that can be hashed")
    # A live state with nothing to do: the search's random playouts drew from nothing forever.
    stuck = pnp(designer, "sample", "anbiaox", "--bots", "ismcts", "--budget", "5",
                mistake="never_over")
    assert_game_code_error(stuck, "legal_actions", "got none while is_over() is False")


def test_a_mistake_met_in_a_worker_process_is_named_as_well(designer: Workspace) -> None:
    # 400 games is where simulate starts its worker pool.
    done = pnp(designer, "simulate", "anbiaox", "--games", "400", "--jobs", "2",
               mistake="outcome_tuple")
    assert_game_code_error(done, "outcome", "expected an Outcome")


def test_a_game_that_never_ends_is_named(designer: Workspace) -> None:
    checked = pnp(designer, "check", "anbiaox", mistake="endless")
    assert "is_over: expected a game of random play to end" in checked.stdout
    played = pnp(designer, "sample", "anbiaox", "--players", "2", mistake="endless")
    assert_game_code_error(played, "is_over", "is_over() was still False after 1,000,000 steps")


@pytest.mark.parametrize(("mistake", "method", "words"), [
    ("leak", "observation", "expected seat 0's observation to stay the same"),
    ("shallow_clone", "clone", "expected an independent copy, but applying an action to the clone "
                               "changed the original"),
    ("resample_in_place", "resample", "expected a new state (built from self.clone()), but "
                                      "resampling changed the real game"),
])
def test_check_finds_what_plays_without_error(designer: Workspace, mistake: str, method: str,
                                              words: str) -> None:
    done = pnp(designer, "check", "anbiaox", mistake=mistake)
    assert done.returncode == 1 and "Traceback" not in done.stderr
    assert f": {method}: {words}" in done.stdout


@pytest.mark.parametrize(("mistake", "words"), [
    ("import", "the package registered as 'anbiao_broken:GAME' does not load: ImportError: "
               "a name the designer mistyped"),
    ("other_slug", "the entry point registers it as 'anbiaox' but the game calls itself "
                   "'anbiao_two'"),
])
def test_a_package_that_does_not_load_is_named(designer: Workspace, mistake: str,
                                               words: str) -> None:
    for args in (("sample", "anbiaox"), ("simulate", "anbiaox", "--games", "3"),
                 ("check", "anbiaox")):
        done = pnp(designer, *args, mistake=mistake)
        assert done.returncode == 1 and "Traceback" not in done.stderr
        assert words in done.stderr + done.stdout
    listed = pnp(designer, "list", mistake=mistake)
    assert listed.returncode == 0
    lines = listed.stdout.splitlines()
    at = next(i for i, line in enumerate(lines) if line.startswith("anbiaox "))
    assert lines[at + 1].startswith("    engine cannot be loaded: anbiaox: ") and words in lines[at + 1]
    assert not any("engine cannot be loaded" in line for line in lines[:at])  # anbiao loads


def test_a_game_whose_engine_is_registered_under_another_name_is_told_so(
        designer: Workspace, tmp_path: Path) -> None:
    # A game folder with rules and no engine of its name, beside the two registered packages.
    _, env = designer
    done = subprocess.run([sys.executable, "-m", "pnp", "new", "bidaxiao"], cwd=tmp_path,
                          env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    game_yaml = tmp_path / "card_data/bidaxiao/game.yaml"
    game_yaml.write_text(game_yaml.read_text(encoding="utf-8") + RULES, encoding="utf-8")
    checked = pnp((tmp_path, env), "check", "bidaxiao")
    assert checked.returncode == 1 and "Traceback" not in checked.stderr
    finding = next(line for line in checked.stdout.splitlines() if "no-engine" in line)
    assert "installed packages register: anbiao, anbiaox;" in finding
    assert "the entry point's name must be the game's slug" in finding


def test_check_all_reports_a_mistake_outside_play_as_a_finding_and_goes_on(designer: Workspace) -> None:
    # The player range is asked before any game is played; its error is a finding of that
    # game, and the other game is still checked.
    done = pnp(designer, "check", "all", mistake="players_raise")
    assert done.returncode == 1 and "Traceback" not in done.stderr
    assert done.stderr.strip() == "Error: check found 1 problem in anbiaox"
    finding = next(line for line in done.stdout.splitlines() if "game-code" in line)
    assert "player_range: raised AttributeError" in finding and "most_players" in finding
    assert "anbiao: ok" in done.stdout
