"""niutouwang written to the kit: random legal play and replay, hidden hands kept hidden,
determinizations that agree with a seat's view, and ISMCTS stronger than random play."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from pnp.games.niutouwang.machine import NiutouwangState
from pnp.games.niutouwang.play import KIT
from pnp.games.niutouwang.rules import rules_from_mapping, with_variant
from tests.games.kit.contract_checks import assert_plays_and_replays, ismcts_result, states_along

RULES = rules_from_mapping({})
OFFICIAL = with_variant(RULES, "official")


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10**6), players=st.integers(2, 10), official=st.booleans())
def test_random_play_never_raises_and_replays(seed: int, players: int, official: bool) -> None:
    rules = OFFICIAL if official else RULES
    assert_plays_and_replays(lambda: NiutouwangState(rules, players), seed)


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 10**6), players=st.integers(3, 6), pick=st.integers(0, 10**6))
def test_observation_hides_other_hands_the_box_and_unrevealed_choices(
        seed: int, players: int, pick: int) -> None:
    states = states_along(lambda: NiutouwangState(RULES, players), seed)
    state = states[pick % len(states)]
    seat = state.to_move()
    hand = state.hand
    assert hand is not None
    seen = state.observation(seat)
    a, b = [s for s in range(players) if s != seat][:2]
    swapped = state.clone()
    h = swapped.hand
    assert h is not None
    if len(state.pending) < players:  # nobody's choice is revealed yet: swap whole hands
        h.hands[a], h.hands[b] = h.hands[b], h.hands[a]
        if a < len(swapped.pending):
            swapped.pending[a] = h.hands[a][0]
        if b < len(swapped.pending):
            swapped.pending[b] = h.hands[b][0]
    box = list(swapped.dealt[2])
    if box and h.hands[a][-1:] and h.hands[a][-1] not in state.pending:
        box[0], h.hands[a][-1] = h.hands[a][-1], box[0]
        h.hands[a].sort()
    swapped.dealt = (swapped.dealt[0], swapped.dealt[1], tuple(sorted(box)))
    assert swapped.observation(seat) == seen
    own = state.clone()
    assert own.hand is not None
    own.hand.hands[seat] = own.hand.hands[seat][:-1]
    assert own.observation(seat) != seen  # the check above can fail


def test_resample_keeps_the_seats_view_and_redeals_the_rest() -> None:
    state = states_along(lambda: NiutouwangState(RULES, 5), 3)[12]
    seat = state.to_move()
    rng = random.Random(2)
    drawn = [state.resample(seat, rng) for _ in range(30)]
    assert all(d.observation(seat) == state.observation(seat) for d in drawn)
    assert len({tuple(map(tuple, d.hand.hands)) for d in drawn if d.hand}) > 1
    for d in drawn:  # every card still exactly once
        assert d.hand is not None
        cards = [c for h in d.hand.hands for c in h] + [c for r in d.hand.rows for c in r]
        cards += list(d.dealt[2])
        assert len(cards) == len(set(cards))


def test_ismcts_beats_random_play() -> None:
    result = ismcts_result(KIT, RULES, 3, games=40, budget=25)
    assert result > 0.6, result
