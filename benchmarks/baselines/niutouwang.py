"""The plainest legal niutouwang game: the SP deal, then every seat plays a random card of its
hand each turn and the cards go onto the rows lowest first (a low card takes the first row).

No bots, no log, no heads counted: the floor an engine's play loop is compared with.
"""

from __future__ import annotations

import random

DECK = range(1, 105)
ROWS = 4
ROW_LIMIT = 6


def plain_game(rng: random.Random, players: int) -> None:
    deck = list(DECK)
    rng.shuffle(deck)
    rows = [[c] for c in deck[:ROWS]]
    size = (len(deck) - ROWS) // players
    hands = [deck[ROWS + s * size: ROWS + (s + 1) * size] for s in range(players)]
    for _ in range(size):
        plays = []
        for hand in hands:
            plays.append(hand.pop(rng.randrange(len(hand))))
        for card in sorted(plays):
            best = -1
            for i, row in enumerate(rows):
                if row[-1] < card and (best < 0 or row[-1] > rows[best][-1]):
                    best = i
            if best < 0:
                rows[0] = [card]
            elif len(rows[best]) + 1 >= ROW_LIMIT:
                rows[best] = [card]
            else:
                rows[best].append(card)
