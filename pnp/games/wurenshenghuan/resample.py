"""無人生還: a state one seat cannot tell from the real one, for the ISMCTS bot.

What a seat knows stays: its own character and role, the public record (the dead, the
discards, the row sizes, the looks, the prisoners, the slips handed in) and what only it saw.
Everything else is dealt again: which seat is the murderer (never one that handed in a slip:
the murderer hands in none) and with which character (the one whose row is short, if any:
only the murderer's row ever shrinks), the other seats' characters and guesses, and every
item the seat has not seen. Each item the seat last saw at a place is put back there while
the deck still has one (a frame or the murderer's own hand may have moved it since), the
rest is shuffled into the other places and the pile.
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import replace
from typing import TYPE_CHECKING

from pnp.games.wurenshenghuan.state import State

if TYPE_CHECKING:
    from pnp.games.wurenshenghuan.machine import WurenshenghuanState


def resample(real: WurenshenghuanState, seat: int, rng: random.Random) -> WurenshenghuanState:
    other = real.clone()
    if other.phase == "deal":
        return other
    rules, truth = real.rules, real.table
    own = real.characters[seat]
    letters = [c for c in rules.letters if c != own]
    if seat == real.murderer_seat:
        murderer_seat, murderer = seat, own
    else:
        murderer_seat = rng.choice([s for s in range(real.players)
                                    if s != seat and s not in real.guessed])
        short = [c for c, row in zip(truth.letters, truth.rows, strict=True)
                 if len(row) < rules.items_per_character]
        murderer = short[0] if short else rng.choice(letters)
    rest = [s for s in range(real.players) if s not in (seat, murderer_seat)]
    characters = list(real.characters)
    characters[murderer_seat] = murderer
    for s, c in zip(rest, rng.sample([c for c in letters if c != murderer], len(rest)),
                    strict=True):
        characters[s] = c
    other.murderer_seat, other.characters = murderer_seat, tuple(characters)
    other.table = _redeal(real, seat, murderer, rng)
    guesses = []
    for event in real.guesses:
        letter = event.character
        if event.seat != seat:
            letter = rng.choice([c for c in rules.letters if c != characters[event.seat]])
            other.guessed[event.seat] = (letter, event.day)
        guesses.append(replace(event, character=letter, correct=letter == murderer))
    other.guesses = guesses
    return other


def _last_seen(real: WurenshenghuanState, seat: int) -> dict[tuple[str, int], str]:
    """The item ``seat`` last saw at each place (letter, position), oldest first."""
    letters = real.table.letters
    own = real.characters[seat]
    seen: dict[tuple[str, int], str] = {}
    sizes = {c: len(real.dealt[c]) for c in letters}
    for c in letters:
        row = real.dealt[c]
        if row:
            seen[c, len(row) - 1] = row[-1]
    if seat != real.murderer_seat:
        seen.update(((own, p), item) for p, item in enumerate(real.dealt[own]))
    nights = iter(real.nights)
    for record in real.public:
        if record[0] == "night":
            result = next(nights).result
            for c, size in zip(letters, record[4], strict=True):
                if size != sizes[c]:
                    sizes[c] = size
                    for key in [k for k in seen if k[0] == c]:
                        del seen[key]
            swap = result.swap
            if seat == real.murderer_seat and swap is not None:
                seen.pop((swap.character, swap.position), None)
                seen[swap.character, swap.position] = swap.gave
        elif record[0] == "day":
            for c, position, cards in record[2]:
                places = enumerate(cards) if position is None else [(position, cards[0])]
                for p, item in places:
                    seen.pop((c, p), None)
                    seen[c, p] = item
    return seen


def _redeal(real: WurenshenghuanState, seat: int, murderer: str,
            rng: random.Random) -> State:
    truth = real.table
    own_row = truth.items(murderer) if seat == real.murderer_seat else None
    pool = Counter(real.rules.deck())
    pool.subtract(truth.discards)
    if own_row is not None:
        pool.subtract(own_row)
    rows: list[list[str | None]] = [[None] * len(row) for row in truth.rows]
    index = truth.index
    for (c, p), item in reversed(_last_seen(real, seat).items()):  # the latest first
        place = rows[index[c]]
        if p < len(place) and place[p] is None and pool[item] > 0 and (
                own_row is None or c != murderer):
            place[p] = item
            pool[item] -= 1
    unseen = list(pool.elements())
    rng.shuffle(unseen)
    if own_row is not None:
        rows[index[murderer]] = list(own_row)
    dealt = tuple(tuple(unseen.pop() if item is None else item for item in place)
                  for place in rows)
    assert len(unseen) == len(truth.pile)
    return State(truth.letters, dealt, tuple(unseen), murderer, truth.discards, truth.dead,
                 truth.imprisoned)
