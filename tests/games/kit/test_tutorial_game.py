"""The tutorial's fifth game from the outside: 密函's one file on PYTHONPATH (registered by its
entry point, tests/fixtures/kit_tutorial/*.dist-info), a workspace `pnp new` made, and every
command that plays works on it with nothing else written: check, sample, simulate with
ISMCTS at every seat or mixed, replay and the refusal of a hand-edited log."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import ROOT

TUTORIAL = ROOT / "tests" / "fixtures" / "kit_tutorial"


@pytest.fixture(scope="module")
def tutorial(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, str]]:
    ws = tmp_path_factory.mktemp("mihan")
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(TUTORIAL), str(ROOT)]))
    done = subprocess.run([sys.executable, "-m", "pnp", "new", "mihan"], cwd=ws, env=env,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    # The scaffold's sample table is for a game without an engine: 密函 prints none.
    (ws / "card_data/mihan/tables.yaml").write_text("tables: {}\n", encoding="utf-8")
    book = ws / "templates/mihan/rulebook.md.j2"
    book.write_text(book.read_text(encoding="utf-8").replace('{{ table("setup") }}', ""),
                    encoding="utf-8")
    return ws, env


def pnp(tutorial: tuple[Path, dict[str, str]], *args: str) -> subprocess.CompletedProcess[str]:
    ws, env = tutorial
    return subprocess.run([sys.executable, "-m", "pnp", "--root", str(ws), *args], env=env,
                          capture_output=True, text=True, timeout=300, cwd=ws)


def test_check_passes(tutorial: tuple[Path, dict[str, str]]) -> None:
    done = pnp(tutorial, "check", "mihan")
    assert done.returncode == 0, done.stdout + done.stderr


def test_simulate_with_ismcts_at_every_seat_and_mixed(tutorial: tuple[Path, dict[str, str]]) -> None:
    done = pnp(tutorial, "simulate", "mihan", "--players", "3", "--games", "12", "--bots",
               "ismcts", "--budget", "15", "--format", "json", "--jobs", "1")
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    assert report["bots"] == "ismcts" and report["budget"] == 15 and report["games"] == 12
    mixed = pnp(tutorial, "simulate", "mihan", "--players", "3", "--games", "12", "--bots",
                "ismcts,random,random", "--budget", "15", "--format", "json", "--jobs", "1")
    assert mixed.returncode == 0, mixed.stderr
    assert json.loads(mixed.stdout)["bots"] == "ismcts,random,random"
    wrong = pnp(tutorial, "simulate", "mihan", "--players", "3", "--bots", "ismcts,random")
    assert wrong.returncode == 1 and "names 2 bots for 3 players" in wrong.stderr
    unknown = pnp(tutorial, "simulate", "mihan", "--bots", "clever")
    assert unknown.returncode == 1 and "unknown bots 'clever'" in unknown.stderr
    assert "Traceback" not in unknown.stderr + wrong.stderr


def test_sample_narrates_and_its_log_replays(tutorial: tuple[Path, dict[str, str]],
                                            tmp_path: Path) -> None:
    text = pnp(tutorial, "sample", "mihan", "--players", "2", "--bots", "ismcts,greedy",
               "--budget", "10", "--seed", "4")
    assert text.returncode == 0, text.stderr
    assert "種子 4，2 人。" in text.stdout and "結果：" in text.stdout
    logged = pnp(tutorial, "sample", "mihan", "--players", "2", "--bots", "ismcts,greedy",
                 "--budget", "10", "--seed", "4", "--format", "json")
    log = json.loads(logged.stdout)
    path = tmp_path / "game.json"
    path.write_text(json.dumps(log), encoding="utf-8")
    ok = pnp(tutorial, "replay", "mihan", str(path))
    assert ok.returncode == 0 and "replays clean" in ok.stderr, ok.stderr
    turn = next(i for i, (seat, _) in enumerate(log["steps"]) if seat >= 0)
    log["steps"][turn][1] = [9, -1, 0]  # a card the deck does not have
    path.write_text(json.dumps(log), encoding="utf-8")
    bad = pnp(tutorial, "replay", "mihan", str(path))
    assert bad.returncode == 1 and "Traceback" not in bad.stderr
    assert f"step {turn + 1} (seat {log['steps'][turn][0]})" in bad.stderr
    assert "card 9 is not in seat" in bad.stderr
