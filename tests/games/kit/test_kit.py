"""The engine kit on its tutorial game 密函 (pnp/scaffold/files/kit/engine/game.py, the engine
`pnp new --engine` writes): the outcome's places and rewards worked by hand, the driver's log
and replay, the illegal-step error, hidden information kept hidden, determinization, and
ISMCTS's strength."""

from __future__ import annotations

import importlib.util
import json
import random
import sys
from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st

from pnp.games.base import RulesError
from pnp.games.kit import (
    CHANCE,
    IllegalAction,
    KitGame,
    Match,
    Outcome,
    Step,
    action_log,
    determinize,
    play_match,
    read_rules,
    replay,
    replay_log,
)
from tests.conftest import ROOT
from tests.games.kit.contract_checks import assert_plays_and_replays, ismcts_result, states_along

# Loaded from the scaffold's file, which is importable as it stands (its GAME's slug is the
# placeholder pnp new fills in; the tests make their own KitGame).
_SPEC = importlib.util.spec_from_file_location("mihan", ROOT / "pnp/scaffold/files/kit/engine/game.py")
assert _SPEC is not None and _SPEC.loader is not None
mihan = importlib.util.module_from_spec(_SPEC)
sys.modules["mihan"] = mihan  # dataclasses look their module up while the class is made
_SPEC.loader.exec_module(mihan)

KIT = KitGame(slug="mihan", title="密函", rules=mihan.Rules, new_state=mihan.State,
              players=lambda r: (r.min_players, r.max_players))


def new(players: int = 3, **rules: int):  # type: ignore[no-untyped-def]
    return lambda: mihan.State(mihan.Rules(**rules), players)


# ------------------------------------------------------------------------------ the outcome


def test_places_and_rewards_worked_by_hand() -> None:
    o = Outcome.from_scores([3, 7, 7, 1], "deck_out")
    assert o.places == (3, 1, 1, 4) and o.winners == (1, 2)
    # seats 1 and 2 share places 1 and 2 (mean 1.5): (4 - 1.5) / 3; seat 0 third: 1/3; last 0
    assert o.rewards() == pytest.approx((1 / 3, 2.5 / 3, 2.5 / 3, 0.0))
    low = Outcome.from_scores([12, 30], "reached", lower_wins=True)
    assert low.places == (1, 2) and low.rewards() == (1.0, 0.0)


def test_rules_are_read_with_their_ranges() -> None:
    assert read_rules(mihan.Rules, {"guesses": 3}).guesses == 3
    with pytest.raises(RulesError) as caught:
        read_rules(mihan.Rules, {"guesses": 0, "colour": 1})
    text = " ".join(caught.value.problems)
    assert "guesses: must be at least 1, got 0" in text and "colour: unknown key" in text
    variants = {"guesses": 5, "variants": {"short": {"guesses": 2}}}
    assert read_rules(mihan.Rules, variants, "short").guesses == 2
    with pytest.raises(RulesError, match="variants.long: no such variant"):
        read_rules(mihan.Rules, variants, "long")


# ------------------------------------------------------------------------------ the driver


@given(seed=st.integers(0, 10**6), players=st.integers(2, 4))
def test_random_play_never_raises_and_replays(seed: int, players: int) -> None:
    assert_plays_and_replays(new(players), seed)


def test_a_seed_is_the_same_game() -> None:
    one = play_match(KIT, mihan.Rules(), 3, 7, ["ismcts", "random", "greedy"], budget=20)
    two = play_match(KIT, mihan.Rules(), 3, 7, ["ismcts", "random", "greedy"], budget=20)
    assert one.steps == two.steps and len(one.steps) > 5


def test_a_hand_edited_illegal_step_is_refused_with_its_turn_and_reason() -> None:
    match = play_match(KIT, mihan.Rules(), 2, 3, ["random", "random"])
    log = json.loads(json.dumps(action_log(match, {})))
    first_play = next(i for i, (seat, _) in enumerate(log["steps"]) if seat != CHANCE)
    seat = log["steps"][first_play][0]
    held = match.steps  # the card seat did not hold: any of 1..5 not in its two cards
    start = replay(new(2), [Step(s.seat, s.action) for s in held[:first_play]]).state
    missing = next(c for c in range(1, 6) if c not in start.hands[seat])
    log["steps"][first_play][1] = [missing, -1, 0]
    with pytest.raises(IllegalAction) as caught:
        replay_log(new(2), log)
    assert caught.value.turn == first_play + 1
    assert caught.value.reason == f"card {missing} is not in seat {seat}'s hand"
    log["steps"][first_play][0] = 1 - seat  # the other seat acts out of turn
    with pytest.raises(IllegalAction, match=f"it is seat {seat}'s turn"):
        replay_log(new(2), log)


def test_a_recorded_outcome_must_be_the_one_reached() -> None:
    match = play_match(KIT, mihan.Rules(), 2, 5, ["random", "random"])
    log = json.loads(json.dumps(action_log(match, {})))
    log["outcome"]["scores"] = list(reversed(log["outcome"]["scores"]))
    with pytest.raises(ValueError) as refused:
        replay_log(new(2), log)
    # Said in words, each seat's score and place, not as a dict's repr.
    scores = log["outcome"]["scores"]
    assert f"the log's outcome (seat 0 scored {scores[0]} (place" in str(refused.value)
    assert "is not the one the steps reach (seat 0 scored" in str(refused.value)
    assert "{" not in str(refused.value)


# ------------------------------------------------------------------------------ hidden information


@given(seed=st.integers(0, 10**6), players=st.integers(3, 4), pick=st.integers(0, 10**6))
def test_observation_does_not_change_when_another_seats_hidden_cards_do(
        seed: int, players: int, pick: int) -> None:
    states = states_along(new(players), seed)
    state = states[pick % len(states)]
    seat = state.turn
    holding = [s for s in range(players) if s != seat and len(state.hands[s]) == 1]
    if len(holding) >= 2:
        a, b = holding[:2]
        swapped = state.clone()
        swapped.hands[a], swapped.hands[b] = swapped.hands[b], swapped.hands[a]
        assert swapped.observation(seat) == state.observation(seat)
        swapped.burnt = 6 - state.burnt
        assert swapped.observation(seat) == state.observation(seat)
    # and it does change with the seat's own cards (the check above can fail)
    own = state.clone()
    own.hands[seat] = [c % 5 + 1 for c in own.hands[seat]]
    assert own.observation(seat) != state.observation(seat)


def test_determinizations_agree_with_what_the_seat_saw_and_vary_the_rest() -> None:
    played = play_match(KIT, mihan.Rules(), 4, 11, ["random"] * 4)
    # the first eight steps again, watching seat 0, then draws of its information set
    watched = Match(new(4), (0,))
    for step in played.steps[:8]:
        watched.push(step.action)
    rng = random.Random(1)
    drawn = [determinize(watched, 0, rng) for _ in range(40)]
    assert all(d.observation(0) == watched.state.observation(0) for d in drawn)
    others = Counter(tuple(tuple(d.hands[s]) for s in (1, 2, 3)) for d in drawn)
    assert len(others) > 1  # hidden hands are redrawn, not copied from the truth


# ------------------------------------------------------------------------------ strength


@pytest.mark.parametrize("opponent", ["random", "greedy"])
def test_ismcts_beats_a_weaker_bot_in_either_seat(opponent: str) -> None:
    result = ismcts_result(KIT, mihan.Rules(), 2, games=120, budget=60, opponent=opponent)
    assert result > 0.58, result
