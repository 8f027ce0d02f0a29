"""aizhewudi written to the kit: random legal play and replay, hidden abilities, sets, cards in
play and withdrawals kept hidden, determinizations that agree with a seat's view, and ISMCTS
stronger than random play."""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import replace

from hypothesis import given, settings
from hypothesis import strategies as st

from pnp.games.aizhewudi.play import KIT
from pnp.games.aizhewudi.rules import rules_from_mapping
from pnp.games.aizhewudi.state import AizhewudiState
from tests.games.kit.contract_checks import assert_plays_and_replays, ismcts_result, states_along

RULES = rules_from_mapping({})
ABILITIES = replace(RULES, abilities=True)
SHORT = rules_from_mapping({"eliminated_at": 1, "princess_eliminated_at": 2})


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 10**6), players=st.integers(4, 6), abilities=st.booleans(),
       short=st.booleans())
def test_random_play_never_raises_and_replays(seed: int, players: int, abilities: bool,
                                              short: bool) -> None:
    rules = SHORT if short else RULES
    rules = replace(rules, abilities=abilities)
    assert_plays_and_replays(lambda: AizhewudiState(rules, players), seed)


def other_seats(state: AizhewudiState, seat: int) -> tuple[int, int]:
    a, b = [s for s in range(state.players) if s != seat][:2]
    return a, b


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 10**6), players=st.integers(4, 6), pick=st.integers(0, 10**6))
def test_observation_hides_the_others_abilities_sets_and_the_bills_to_come(
        seed: int, players: int, pick: int) -> None:
    states = states_along(lambda: AizhewudiState(ABILITIES, players), seed)
    state: AizhewudiState = states[pick % len(states)]  # type: ignore[assignment]
    seat = state.to_move()
    seen = state.observation(seat)
    a, b = other_seats(state, seat)
    swapped = state.clone()
    assert swapped.deck is not None
    swapped.deck.reverse()  # the bills to come, in another order
    pa, pb = swapped.seats[a], swapped.seats[b]
    if not pa.revealed and not pb.revealed:  # abilities nobody has seen change hands
        pa.ability, pb.ability = pb.ability, pa.ability
    # One unseen card of a's first set moves between its hand and its face-down card.
    down = next((pl for pl in swapped.plays if pl.seat == a and pl.hand == 0
                 and pl.state == "pending"), None)
    hand = pa.hands[0]
    other = next((c for c, n in hand.items() if n > 0 and down is not None and c != down.card
                  and (c != "rush" or state.stage <= 5)), None)
    if down is not None and other is not None:
        hand[other] -= 1
        hand[down.card] += 1
        down.card = other
    assert swapped.observation(seat) == seen
    own = state.clone()
    own.seats[seat].hands[0]["flee"] += 1
    assert own.observation(seat) != seen  # the check above can fail


def test_withdrawals_stay_hidden_until_everyone_has_chosen() -> None:
    for seed in range(40):
        states = states_along(lambda: AizhewudiState(RULES, 5), seed)
        for state in states:
            asked = state.asks[state.asked]  # type: ignore[attr-defined]
            if asked.kind == "withdraw" and state.withdrawing:  # type: ignore[attr-defined]
                earlier = state.withdrawing[0]  # type: ignore[attr-defined]
                if earlier == asked.seat:
                    continue
                seen = state.observation(asked.seat)
                changed = state.clone()
                changed.withdrawing.remove(earlier)  # type: ignore[attr-defined]
                assert changed.observation(asked.seat) == seen
                assert changed.observation(earlier) != state.observation(earlier)
                return
    raise AssertionError("no game had a withdrawal before another seat chose")


def test_resample_keeps_the_seats_view_and_redeals_the_rest() -> None:
    states = states_along(lambda: AizhewudiState(ABILITIES, 5), 3)
    rng = random.Random(2)
    redealt = 0
    for state in states[10::7]:
        seat = state.to_move()
        drawn = [state.resample(seat, rng) for _ in range(12)]  # type: ignore[attr-defined]
        assert all(d.observation(seat) == state.observation(seat) for d in drawn)
        redealt += len({(tuple(d.deck), tuple(p.ability for p in d.seats)) for d in drawn}) > 1
        for d in drawn:  # every set still holds only its own cards, each set the same size
            for p, q in zip(d.seats, state.seats, strict=True):  # type: ignore[attr-defined]
                assert [sum(h.values()) for h in p.hands] == [sum(h.values()) for h in q.hands]
                for h in p.hands:
                    assert not h - Counter(dict(RULES.action_mix))
    assert redealt


def test_ismcts_beats_random_play() -> None:
    result = ismcts_result(KIT, RULES, 4, games=30, budget=40)
    assert result > 0.6, result
