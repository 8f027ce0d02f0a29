"""wurenshenghuan written to the kit: random legal play and replay, the murderer and the
face-down items kept hidden, determinizations that agree with a seat's view, and ISMCTS
stronger than random play."""

from __future__ import annotations

import random
from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from pnp.games.wurenshenghuan import GAME
from pnp.games.wurenshenghuan.machine import WurenshenghuanState
from pnp.games.wurenshenghuan.play import KIT, replay
from pnp.games.wurenshenghuan.rules import rules_from_mapping
from pnp.games.wurenshenghuan.state import State
from tests.games.kit.contract_checks import assert_plays_and_replays, ismcts_result, states_along

RULES = rules_from_mapping({})
DECK = Counter({**{f"W{k}": 4 for k in range(1, 11)}, "KEY": 1})


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10**6), players=st.integers(2, 10))
def test_random_play_never_raises_and_replays(seed: int, players: int) -> None:
    assert_plays_and_replays(lambda: WurenshenghuanState(RULES, players), seed)


def with_rows(state: State, rows: list[list[str]], pile: list[str]) -> State:
    return State(state.letters, tuple(map(tuple, rows)), tuple(pile), state.murderer,
                 state.discards, state.dead, state.imprisoned)


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 10**6), players=st.integers(3, 8), pick=st.integers(0, 10**6))
def test_observation_hides_the_murderer_the_other_characters_and_face_down_items(
        seed: int, players: int, pick: int) -> None:
    states = states_along(lambda: WurenshenghuanState(RULES, players), seed)
    state = states[pick % len(states)]
    seat = state.to_move()
    seen = state.observation(seat)
    # Two other seats that handed in no slip trade characters (and the murderer's role, if
    # one of them has it): nothing the seat may know changes.
    free = [s for s in range(players) if s != seat and s not in state.guessed]
    if len(free) >= 2:
        a, b = free[:2]
        swapped = state.clone()
        characters = list(swapped.characters)
        characters[a], characters[b] = characters[b], characters[a]
        swapped.characters = tuple(characters)
        if swapped.murderer_seat in (a, b):
            swapped.murderer_seat = a + b - swapped.murderer_seat
        assert swapped.observation(seat) == seen
    # The pile and a row nobody may see (not the seat's own, as the murderer) are shuffled.
    now = state.table
    rows = [list(row) for row in now.rows]
    pile = list(now.pile)
    mine = now.index[now.murderer] if seat == state.murderer_seat else -1
    places = [(i, p) for i, row in enumerate(rows) if i != mine for p in range(len(row))]
    if pile and places:
        i, p = places[pick % len(places)]
        rows[i][p], pile[0] = pile[0], rows[i][p]
        pile.reverse()
        moved = state.clone()
        moved.table = with_rows(now, rows, pile)
        assert moved.observation(seat) == seen
    # What is the seat's own does show: its character, and its own row as the murderer.
    own = state.clone()
    others = [c for c in RULES.letters if c not in state.characters]
    characters = list(state.characters)
    characters[seat] = others[0]
    if seat != state.murderer_seat:
        own.dealt = {**own.dealt, others[0]: own.dealt[state.characters[seat]][::-1] + ("X",)}
    else:
        own.table = State(now.letters, now.rows, now.pile, others[0], now.discards,
                          now.dead, now.imprisoned)
    own.characters = tuple(characters)
    assert own.observation(seat) != seen  # the checks above can fail


def test_the_murderers_own_row_is_in_its_view_and_nobody_elses() -> None:
    state = next(s for s in states_along(lambda: WurenshenghuanState(RULES, 5), 8)
                 if s.phase == "night")
    now = state.table
    rows = [list(row) for row in now.rows]
    mine = now.index[now.murderer]
    rows[mine][0], rows[mine][-1] = now.pile[0], now.pile[0]  # any other items
    changed = state.clone()
    changed.table = with_rows(now, rows, list(now.pile))
    murderer = state.murderer_seat
    assert changed.observation(murderer) != state.observation(murderer)
    for seat in range(5):
        if seat != murderer:
            assert changed.observation(seat) == state.observation(seat)


def test_resample_keeps_the_seats_view_and_deals_the_rest_again() -> None:
    for seed in range(6):
        states = states_along(lambda: WurenshenghuanState(RULES, 6), seed)
        for state in states[::7]:
            seat = state.to_move()
            rng = random.Random(seed)
            drawn = [state.resample(seat, rng) for _ in range(20)]
            murderers = set()
            for d in drawn:
                assert d.observation(seat) == state.observation(seat)
                assert d.table.inventory() == DECK
                assert [len(r) for r in d.table.rows] == [len(r) for r in state.table.rows]
                assert d.characters[d.murderer_seat] == d.table.murderer
                assert d.murderer_seat not in d.guessed  # the murderer hands in no slip
                assert len(set(d.characters)) == 6
                murderers.add(d.murderer_seat)
            if seat == state.murderer_seat:
                assert murderers == {seat}
            elif sum(s != seat and s not in state.guessed for s in range(6)) > 1:
                assert len(murderers) > 1  # the check above can fail


def test_resample_puts_the_murderer_where_a_row_is_short() -> None:
    # Only the murderer's row ever shrinks (a kill with the pile spent): a short row is
    # public, and every determinization gives its character the murderer's role.
    state = next(s for s in states_along(lambda: WurenshenghuanState(RULES, 4), 5)
                 if s.phase == "guess" and s.to_move() != s.murderer_seat)
    now = state.table
    mine = now.items(now.murderer)
    state.table = now.with_row(now.murderer, mine[1:]).evolve(discards=(*now.discards, mine[0]))
    seat = state.to_move()
    rng = random.Random(1)
    for _ in range(20):
        d = state.resample(seat, rng)
        assert d.table.murderer == now.murderer
        assert d.characters[d.murderer_seat] == now.murderer


def test_searching_bots_play_through_the_plugin_and_replay() -> None:
    log = GAME.play.run(RULES, 4, random.Random(3), seed=3, variant=None,
                        bots=["ismcts", "greedy", "random", "greedy"], budget=5)
    assert log["bots"] == ["ismcts", "greedy", "random", "greedy"]
    assert replay(RULES, log) == []


def test_ismcts_beats_random_play() -> None:
    result = ismcts_result(KIT, RULES, 3, games=30, budget=20)
    assert result > 0.6, result
