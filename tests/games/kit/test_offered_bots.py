"""Which bots a kit game offers comes from its state class: ``greedy`` needs ``evaluate``.

A tiny game without an evaluation (a race to a total, written here and registered by an
entry point) offers random and ismcts only, plays with random by default, and names those
two when asked for greedy; the tutorial game, which evaluates, keeps greedy first."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from pathlib import Path

import pytest

from pnp.games.kit import CHANCE, KitGame, Outcome, plugin
from tests.conftest import ROOT

RACE = '''
from dataclasses import dataclass
from pnp.games.kit import KitGame, Outcome, bounded, plugin

@dataclass(frozen=True)
class Rules:
    target: int = bounded(7, 3, 20)
    min_players: int = bounded(2, 2, 3)
    max_players: int = bounded(3, 2, 3)

class State:
    def __init__(self, rules, players):
        self.players, self.target, self.total, self.turn = players, rules.target, 0, 0
    def clone(self):
        c = State.__new__(State); c.__dict__ = dict(self.__dict__); return c
    def to_move(self): return self.turn
    def chance_outcomes(self): return []
    def legal_actions(self): return [1, 2]
    def apply(self, action):
        self.total += action
        if self.total < self.target:
            self.turn = (self.turn + 1) % self.players
        return []
    def is_over(self): return self.total >= self.target
    def outcome(self):
        return Outcome.from_scores([int(s == self.turn) for s in range(self.players)], "reached")
    def observation(self, seat): return (self.total, self.turn)

GAME = plugin(KitGame(slug="race", title="Race", rules=Rules, new_state=State,
                      players=lambda r: (r.min_players, r.max_players)))
'''


@dataclass(frozen=True)
class _Rules:
    pass


class _Still:
    """A finished game from the start: enough for plugin() to read its class."""

    players = 2

    def __init__(self, rules: _Rules, players: int) -> None: ...
    def to_move(self) -> int: return CHANCE
    def chance_outcomes(self) -> Sequence[tuple[Hashable, float]]: return []
    def legal_actions(self) -> Sequence[Hashable]: return []
    def apply(self, action: Hashable) -> list[object]: return []
    def clone(self) -> _Still: return self
    def is_over(self) -> bool: return True
    def outcome(self) -> Outcome: return Outcome((0.0, 0.0), (1, 1), "still")
    def observation(self, seat: int) -> Hashable: return ()


class _Scored(_Still):
    def evaluate(self, seat: int) -> float: return 0.0


def _make_scored(rules: _Rules, players: int) -> _Scored:
    return _Scored(rules, players)


def _game(new_state: object) -> KitGame:
    return KitGame(slug="still", title="Still", rules=_Rules, new_state=new_state,  # type: ignore[arg-type]
                   players=lambda rules: (2, 2))


def test_the_bots_follow_the_state_class() -> None:
    assert plugin(_game(_Still)).play.bots == ("random", "ismcts")
    assert plugin(_game(_Scored)).play.bots == ("greedy", "random", "ismcts")
    # a function making the state: its return annotation names the class
    assert plugin(_game(_make_scored)).play.bots == ("greedy", "random", "ismcts")
    # a function that names no class: greedy cannot be promised
    assert plugin(_game(lambda rules, players: _Scored(rules, players))).play.bots == (
        "random", "ismcts")


@pytest.fixture(scope="module")
def race(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, str]]:
    code = tmp_path_factory.mktemp("race_code")
    (code / "race.py").write_text(RACE, encoding="utf-8")
    info = code / "race_game-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: race-game\nVersion: 1.0\n",
                                   encoding="utf-8")
    (info / "entry_points.txt").write_text("[pnp.games]\nrace = race:GAME\n", encoding="utf-8")
    ws = tmp_path_factory.mktemp("race")
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(code), str(ROOT)]))
    done = subprocess.run([sys.executable, "-m", "pnp", "new", "race"], cwd=ws, env=env,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    return ws, env


def _pnp(race: tuple[Path, dict[str, str]], *args: str) -> subprocess.CompletedProcess[str]:
    ws, env = race
    return subprocess.run([sys.executable, "-m", "pnp", "--root", str(ws), *args], env=env,
                          capture_output=True, text=True, timeout=300, cwd=ws)


def test_greedy_is_refused_naming_the_bots_the_game_has(race: tuple[Path, dict[str, str]]) -> None:
    done = _pnp(race, "simulate", "race", "--bots", "greedy", "--games", "3")
    assert done.returncode in (1, 2), done.stdout
    assert done.stderr.startswith("Error:") and "Traceback" not in done.stderr
    assert "'greedy'" in done.stderr and "random, ismcts" in done.stderr
    mixed = _pnp(race, "sample", "race", "--players", "2", "--bots", "random,greedy")
    assert mixed.returncode in (1, 2) and "random, ismcts" in mixed.stderr
    assert "Traceback" not in mixed.stderr


def test_without_bots_named_the_game_plays_random(race: tuple[Path, dict[str, str]]) -> None:
    done = _pnp(race, "simulate", "race", "--games", "4", "--format", "json", "--jobs", "1")
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    assert report["bots"] == "random" and report["games"] == 4


def test_the_library_defaults_to_the_games_first_bot_as_the_command_line_does(
        race: tuple[Path, dict[str, str]]) -> None:
    ws, env = race
    script = ("import sys, json\n"
              "from pathlib import Path\n"
              "from pnp.core.workspace import Workspace\n"
              "from pnp.play.narrate import play_sample\n"
              "from pnp.play.simulate import simulate\n"
              "from pnp.play.sweep import sweep\n"
              "ws = Workspace(Path(sys.argv[1]))\n"
              "print(json.dumps([simulate(ws, 'race', 3, jobs=1)['bots'],\n"
              "                  sweep(ws, 'race', ['rules.target=5,6'], games=2, jobs=1).bots,\n"
              "                  play_sample(ws, 'race', 2).log['bots']]))\n")
    done = subprocess.run([sys.executable, "-c", script, str(ws)], env=env, capture_output=True,
                          text=True, timeout=300, cwd=ws)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == ["random", "random", ["random", "random"]]
