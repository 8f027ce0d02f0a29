"""The kit's one error for a game's own mistakes, met in-process: a live state with no legal
action stops ISMCTS (at its root, and in a random playout, which used to draw from nothing
forever) and the other bots, and the error crosses a process boundary intact; an exception from
the game's code is blamed on its innermost frame wherever the game is installed."""

from __future__ import annotations

import pickle
import random
import sysconfig
from collections.abc import Hashable, Sequence
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from pnp.games.kit import GameCodeError, GreedyBot, Ismcts, Match, Outcome, RandomBot
from pnp.games.kit import game as kit_game


class _DeadEnd:
    """Seat 0 says 1 or 2, then it is seat 1's turn with nothing to say: the game never ends
    (the designer forgot that is_over() must be true once nobody can act)."""

    players = 2

    def __init__(self, said: int | None = None) -> None:
        self.said = said

    def clone(self) -> _DeadEnd:
        return _DeadEnd(self.said)

    def to_move(self) -> int:
        return 0 if self.said is None else 1

    def chance_outcomes(self) -> Sequence[tuple[Hashable, float]]:
        return []

    def legal_actions(self) -> Sequence[Hashable]:
        return [1, 2] if self.said is None else []

    def apply(self, action: Hashable) -> list[object]:
        assert isinstance(action, int)
        self.said = action
        return []

    def is_over(self) -> bool:
        return False

    def outcome(self) -> Outcome:
        return Outcome.from_scores([0, 0], "never")

    def observation(self, seat: int) -> Hashable:
        return self.said

    def evaluate(self, seat: int) -> float:
        return 0.0


def _stuck() -> Match:
    match = Match(_DeadEnd, watched=(0, 1))
    match.push(1)
    return match


def test_ismcts_at_a_live_state_without_actions_raises_the_kit_error() -> None:
    with pytest.raises(GameCodeError) as raised:
        Ismcts(budget=10).choose(_stuck(), 1, random.Random(1))
    assert raised.value.method == "legal_actions"
    assert "for seat 1, whose turn it is, got none while is_over() is False" in str(raised.value)


def test_an_ismcts_playout_into_the_dead_end_raises_instead_of_hanging() -> None:
    # Seat 0 has two actions, so the search runs; every playout reaches seat 1 with nothing.
    with pytest.raises(GameCodeError, match="seat 1, whose turn it is, got none"):
        Ismcts(budget=10).choose(Match(_DeadEnd, watched=(0,)), 0, random.Random(1))


@pytest.mark.parametrize("bot", [RandomBot(), GreedyBot()], ids=["random", "greedy"])
def test_the_other_bots_raise_it_too(bot: RandomBot | GreedyBot) -> None:
    with pytest.raises(GameCodeError, match="^legal_actions: expected at least one action for seat 1"):
        bot.choose(_stuck(), 1, random.Random(1))


def test_the_error_names_its_game_once_and_survives_pickling() -> None:
    error = GameCodeError("outcome", "expected an Outcome, got tuple (1, 2)")
    assert str(error) == "outcome: expected an Outcome, got tuple (1, 2)"
    named = error.for_game("anbiao")
    assert str(named) == "anbiao: outcome: expected an Outcome, got tuple (1, 2)"
    assert named.for_game("other") is named
    back = pickle.loads(pickle.dumps(named))  # a simulation's worker sends it to its parent
    assert type(back) is GameCodeError and str(back) == str(named)
    assert (back.game, back.method, back.problem) == ("anbiao", "outcome", named.problem)


def test_a_game_installed_where_python_keeps_its_own_modules_is_still_blamed(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # Outside a venv (pyenv, the python Docker images) site-packages lies inside the standard
    # library's folder: an installed game's frame must not pass for Python's own.
    purelib = Path(sysconfig.get_paths()["purelib"]).resolve()
    monkeypatch.setattr(kit_game, "_STDLIB", purelib.parent)
    source = "def outcome(state):\n    return state.scores[9]\n"
    namespace: dict[str, Any] = {}
    exec(compile(source, str(purelib / "anbiao_installed" / "game.py"), "exec"), namespace)
    try:
        namespace["outcome"](SimpleNamespace(scores=[1, 2]))
    except IndexError as exc:
        error = kit_game.blamed(exc)
    assert (error.method, error.problem) == (
        "outcome", "raised IndexError: list index out of range (at game.py:2)")
