"""Playing niutouwang with bots: deal, ask the bots for each turn's cards, let ``state.Hand``
resolve them, and write the typed events (``log.py``) as the JSON event log.

``replay.py`` pushes a logged game's decisions through the same hand.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from pnp.games.draws import shuffle
from pnp.games.events import to_json_object
from pnp.games.niutouwang.bots import Bots
from pnp.games.niutouwang.log import Deal, OfficialGame, Round, SpGame
from pnp.games.niutouwang.rules import (
    BOTS,
    MAX_OFFICIAL_ROUNDS,
    NiutouwangRules,
    slug,
    with_variant,
)
from pnp.games.niutouwang.scoring import punish, winners
from pnp.games.niutouwang.state import Hand, Rows


def deal(
    rules: NiutouwangRules, players: int, rng: random.Random
) -> tuple[Rows, list[list[int]], list[int]]:
    """Row cards, a sorted hand per seat and the sorted box (cards nobody gets)."""
    deck = list(rules.deck)
    shuffle(deck, rng)  # rng.shuffle(deck), draw for draw
    first = rules.rows
    rows: Rows = tuple(zip(deck[:first]))  # one 1-tuple per row
    size = rules.hand_size(players)
    hands = [
        sorted(deck[start:start + size]) for start in range(first, first + players * size, size)
    ]
    box = sorted(deck[first + players * size:])
    return rows, hands, box


def _play_deal(rules: NiutouwangRules, players: int, bots: Bots, rng: random.Random) -> Deal:
    rows, hands, box = deal(rules, players, rng)
    hand = Hand(rules, rows, hands)
    choose = hand.fewest_heads_row
    plays, push, over = bots.plays, hand.push, hand.over
    while not over():
        push(plays(hand), choose)
    return Deal(rows, tuple(map(tuple, hands)), tuple(box), tuple(hand.turns),
                tuple(hand.penalties))


def play(rules: NiutouwangRules, players: int, rng: random.Random, *, seed: int,
         variant: str | None, bots: Sequence[str], budget: int = 0) -> dict[str, Any]:
    """One whole game with one bot per seat, as the JSON event log.

    ``variant`` None plays the variant the rules already carry.
    """
    if variant is not None and variant != rules.variant:
        rules = with_variant(rules, variant)
    if not rules.min_players <= players <= rules.max_players:
        raise ValueError(
            f"players must be {rules.min_players}–{rules.max_players}, got {players}"
        )
    if rules.hand_size(players) < 1 or rules.rows + players * rules.hand_size(players) > len(
        rules.deck
    ):
        raise ValueError(f"the deck cannot be dealt to {players} players under these rules")
    kinds = tuple(bots)
    if len(kinds) != players or any(b not in BOTS for b in kinds):
        raise ValueError(f"bots must name one of {', '.join(BOTS)} per seat, got {list(kinds)}")
    policy = Bots(kinds, rng)
    if rules.variant != "official":
        one = _play_deal(rules, players, policy, rng)
        return to_json_object(SpGame(
            slug, seed, players, rules.variant, kinds, one.rows, one.hands, one.box, one.turns,
            one.penalties, tuple(winners(one.penalties)), tuple(punish(rules, one.penalties)),
        ))
    totals = (0,) * players
    rounds = []
    end = "round_limit"
    for number in range(1, MAX_OFFICIAL_ROUNDS + 1):
        part = _play_deal(rules, players, policy, rng)
        totals = tuple([t + p for t, p in zip(totals, part.penalties, strict=True)])
        rounds.append(Round.of(number, part, totals))
        if max(totals) >= rules.official_end_at:
            end = "reached"
            break
    return to_json_object(OfficialGame(slug, seed, players, rules.variant, kinds, tuple(rounds), totals,
                                tuple(winners(totals)), end))
