"""無人生還: the plainest legal random game, the yardstick for the engine's speed.

The same deal (murderer seat, characters, shuffled item deck laid out three to a character,
the rest as the pile) and the same turn structure (up to five nights and days: the murderer
kills with random weapons or frames, the table searches or imprisons, the innocents hand in
their guesses), with no bots, no rule checks and no log. Default rules only.
"""

from __future__ import annotations

import random

CHARACTERS = "ABCDEFGHIJ"
DAYS = 5
PER_ROW = 3
MAX_KILLS = 3
DECK = [f"W{k}" for k in range(1, 11) for _ in range(4)] + ["KEY"]


def plain_game(rng: random.Random, players: int) -> None:
    murderer_seat = rng.randrange(players)
    characters = rng.sample(CHARACTERS, players)
    own = CHARACTERS.index(characters[murderer_seat])
    deck = list(DECK)
    rng.shuffle(deck)
    rows = [deck[i * PER_ROW:(i + 1) * PER_ROW] for i in range(len(CHARACTERS))]
    pile = deck[len(CHARACTERS) * PER_ROW:]
    dead: set[int] = set()
    jailed: set[int] = set()
    guessed: set[int] = set()
    for _night in range(DAYS):
        row = rows[own]
        key = "KEY" in row
        if own not in jailed or key:
            weapons = [i for i, item in enumerate(row) if item != "KEY"]
            targets = [c for c in range(len(CHARACTERS))
                       if c not in dead and (c not in jailed or key)]
            if weapons and targets and rng.random() < 0.8:
                count = rng.randint(1, min(len(weapons), MAX_KILLS, len(targets)))
                for i in sorted(rng.sample(weapons, count), reverse=True):
                    del row[i]
                dead.update(rng.sample(targets, count))
                while len(row) < PER_ROW and pile:
                    row.append(pile.pop(0))
            else:
                other = rng.choice([c for c in range(len(CHARACTERS)) if c != own])
                if row and rows[other]:
                    mine, theirs = rng.randrange(len(row)), rng.randrange(len(rows[other]))
                    row[mine], rows[other][theirs] = rows[other][theirs], row[mine]
        if len(dead) == len(CHARACTERS):
            return
        alive = len(CHARACTERS) - len(dead)
        if rng.random() < 0.5:
            jailed = set(rng.sample(range(len(CHARACTERS)), alive // 3))
        else:
            jailed = set()
            for _ in range(alive // 2):
                who = rng.randrange(len(CHARACTERS))
                if rows[who]:
                    rows[who][rng.randrange(len(rows[who]))]  # a look
        for seat in range(players):
            if seat != murderer_seat and seat not in guessed and rng.random() < 0.3:
                guessed.add(seat)
