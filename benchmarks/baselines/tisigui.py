"""The plainest legal 替死鬼 game (canonical rules): the same big rounds, setup row, markers,
turn order, scoring and end roll as the engine, every choice random, no bots, no log.

Each big round a random ghost takes a random set of targets and picks a random start; each
turn the player spends one or two markers on a random "is X a target?", a naming of one
unconfirmed seat, or "no targets?", answered truthfully (the ghost answers its own at random);
correct namings and "no targets?" score as the rules say and may end the big round.
"""

from __future__ import annotations

import random

from pnp.games.tisigui.rules import (
    DEFAULT_RULES,
    first_big_die,
    ghost_points,
    no_targets_points,
    setup_for,
    small_round_values,
)

RULES = DEFAULT_RULES


def plain_game(rng: random.Random, players: int) -> None:
    rules = RULES
    n = players
    row = setup_for(rules, n)
    values = small_round_values(rules, n)
    lo, hi = rules.actions_per_turn
    scores = [0] * n
    die = first_big_die(rules, n)
    while True:
        ghost = rng.randrange(n)
        targets = {s for s in range(n) if rng.random() < 0.5}
        start = rng.randrange(n)
        markers = [row.question_markers or 0] * n
        confirmed: set[int] = set()
        ended = False
        for value in values:
            for k in range(n):
                seat = (start + k) % n
                for _ in range(rng.randint(lo, hi)):
                    if ended or not markers[seat]:
                        break
                    markers[seat] -= 1
                    roll = rng.random()
                    unconfirmed = [s for s in range(n) if s not in confirmed]
                    if roll < 0.5 or not unconfirmed:
                        truth = rng.randrange(n) in targets
                        if seat == ghost:
                            truth = rng.random() < 0.5
                    elif roll < 0.85:
                        named = rng.choice(unconfirmed)
                        truth = named in targets
                        if seat == ghost:
                            continue  # the ghost's own naming never scores
                        if truth:
                            confirmed.add(named)
                            scores[seat] += value
                            ended = targets <= confirmed
                    else:
                        if seat != ghost and not targets:
                            scores[seat] += no_targets_points(rules, n)
                            ended = True
                if ended:
                    break
            if ended:
                break
        if not ended:
            scores[ghost] += ghost_points(rules, n, len(confirmed))
        if die <= 1:
            return
        if rules.end_roll and 1 < die < rules.small_die_sides and rng.randint(1, rules.small_die_sides) > die:
            return
        die -= 1
