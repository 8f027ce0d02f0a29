"""tisigui written to the kit: random legal play and replay, the ghost and its targets kept
from every other seat, determinizations that agree with a seat's view and with every honest
answer, and ISMCTS stronger than random play."""

from __future__ import annotations

import json
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from pnp.games.kit import CHANCE, RandomBot, action_log, play, play_match, replay_log
from pnp.games.kit.match import draw_chance
from pnp.games.tisigui.choices import mask_of
from pnp.games.tisigui.machine import TURN, TisiguiState
from pnp.games.tisigui.play import KIT
from pnp.games.tisigui.play import play as tisigui_play
from pnp.games.tisigui.play import replay as tisigui_replay
from pnp.games.tisigui.rules import CLASSIC_RULES, DEFAULT_RULES
from pnp.games.tisigui.turns import truth_of
from tests.games.kit.contract_checks import assert_plays_and_replays, ismcts_result, states_along


@settings(max_examples=20, deadline=None)
@given(seed=st.integers(0, 10**6), players=st.integers(3, 6), classic=st.booleans())
def test_random_play_never_raises_and_replays(seed: int, players: int, classic: bool) -> None:
    rules = CLASSIC_RULES if classic else DEFAULT_RULES
    match = assert_plays_and_replays(lambda: TisiguiState(rules, players), seed)
    # and the kit's steps make the game's own log, which its replay accepts
    state: TisiguiState = match.state  # type: ignore[assignment]
    assert len(state.big_rounds) >= 1


def turn_states(seed: int, players: int, bots: str = "random") -> list[TisiguiState]:
    """A copy of the state before every action of a game of the game's own bots."""
    match = play_match(KIT, DEFAULT_RULES, players, seed, [bots] * players)
    states, again = [], TisiguiState(DEFAULT_RULES, players)
    for seat, action in match.steps:
        if again.phase == TURN and seat != CHANCE:
            states.append(again.clone())
        again.apply(action)
    return states


def with_secret(state: TisiguiState, ghost: int, targets: frozenset[int]) -> TisiguiState:
    other = state.clone()
    other.ghost, other.targets = ghost, targets
    other.mask = mask_of(targets)
    return other


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 10**6), players=st.integers(3, 6), pick=st.integers(0, 10**6))
def test_observation_hides_the_ghost_and_its_targets(seed: int, players: int, pick: int) -> None:
    states = turn_states(seed, players)
    state = states[pick % len(states)]
    everyone = frozenset(range(players))
    for seat in range(players):
        seen = state.observation(seat)
        if seat != state.ghost:
            # another seat the ghost, other targets: nothing this seat sees changes
            other = next(s for s in range(players) if s not in (seat, state.ghost))
            assert with_secret(state, other, everyone - state.targets).observation(seat) == seen
            # this seat the ghost: it knows it (the check above can fail)
            assert with_secret(state, seat, state.targets).observation(seat) != seen
        else:
            assert with_secret(state, seat, everyone - state.targets).observation(seat) != seen


def test_resample_keeps_the_seats_view_and_every_honest_answer() -> None:
    drawn_secrets = set()
    checked = 0
    for seed in range(6):
        for state in turn_states(seed, 5, "greedy")[:40:3]:
            seat = state.seat
            rng = random.Random(seed)
            for _ in range(8):
                drawn = state.resample(seat, rng)
                assert drawn.observation(seat) == state.observation(seat)
                if seat != state.ghost:
                    assert drawn.ghost != seat
                drawn_secrets.add((seed, drawn.ghost, drawn.targets))
                for event in drawn.history:  # only the ghost may have lied
                    truth = truth_of(event.choice.test, drawn.ghost, drawn.mask)
                    if event.seat != drawn.ghost and truth is not None:
                        assert event.answer == truth
                # a determinization plays on to the end
                rest = drawn.clone()
                while not rest.is_over():
                    if rest.to_move() == CHANCE:
                        rest.apply(draw_chance(rest, rng))
                    else:
                        rest.apply(rng.choice(list(rest.legal_actions())))
                checked += 1
    assert checked > 100
    assert len(drawn_secrets) > 30  # the hidden part really is drawn again


def test_the_ghosts_resample_is_the_truth() -> None:
    state = next(s for s in turn_states(3, 4) if s.seat == s.ghost)
    drawn = state.resample(state.ghost, random.Random(1))
    assert (drawn.ghost, drawn.targets) == (state.ghost, state.targets)


def test_a_log_replays_from_its_steps_and_refuses_an_edited_one() -> None:
    log = tisigui_play(DEFAULT_RULES, 5, random.Random(4), seed=4, variant=None,
                       bots=["greedy"] * 5)
    assert tisigui_replay(DEFAULT_RULES, log) == []
    # the same game without its steps: nothing to replay
    bare = {k: v for k, v in log.items() if k != "steps"}
    assert tisigui_replay(DEFAULT_RULES, bare) == ["the log has no list of steps"]
    # a player's step edited to name a seat twice: refused with its step and the rule
    bad = json.loads(json.dumps(log))
    at = next(i for i, (seat, action) in enumerate(bad["steps"])
              if seat != CHANCE and isinstance(action, list) and action[0] == "question")
    bad["steps"][at][1] = ["name", [1, 1]]
    (problem,) = tisigui_replay(DEFAULT_RULES, bad)
    assert problem.startswith(f"step {at + 1} (seat {bad['steps'][at][0]}): ['name', [1, 1]] "
                              "is not allowed: expected distinct seats"), problem
    # a logged fact edited: the first fact the rules give otherwise is named
    bad = json.loads(json.dumps(log))
    bad["big_rounds"][0]["ghost_points"] += 1
    assert tisigui_replay(DEFAULT_RULES, bad) == [
        f"big_rounds[0].ghost_points: the log has {log['big_rounds'][0]['ghost_points'] + 1}, "
        f"the rules give {log['big_rounds'][0]['ghost_points']}"]


def test_the_ghost_shows_its_answer_with_its_own_action() -> None:
    state = next(s for s in turn_states(5, 4) if s.seat == s.ghost)
    legal = state.legal_actions()
    assert ("no", "question", "is_target", 0) in legal
    assert ("question", "is_target", 0) not in legal
    assert state.why_illegal(("question", "is_target", 0)) == (
        'the ghost shows its answer with its own action: ("yes" | "no", ...)')
    other = next(s for s in turn_states(5, 4) if s.seat != s.ghost)
    assert other.why_illegal(("yes", "question", "is_target", 0)) == (
        "only the ghost's own action carries its answer")


def test_a_random_legal_game_through_json_replays() -> None:
    match = play(lambda: TisiguiState(CLASSIC_RULES, 4), [RandomBot()] * 4, 9, check=True)
    log = json.loads(json.dumps(action_log(match, {"seed": 9})))
    assert replay_log(lambda: TisiguiState(CLASSIC_RULES, 4), log).state.outcome() == (
        match.state.outcome())


def test_ismcts_beats_random_play() -> None:
    result = ismcts_result(KIT, CLASSIC_RULES, 4, games=24, budget=24)
    assert result > 0.6, result


def test_states_along_a_random_game_all_answer_the_contract() -> None:
    for state in states_along(lambda: TisiguiState(DEFAULT_RULES, 3), 2):
        seat = state.to_move()
        assert seat != CHANCE
        assert list(state.legal_actions())
        assert all(state.why_illegal(a) is None for a in state.legal_actions())
