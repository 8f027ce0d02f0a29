"""Playing niutouwang: the kit's play loop drives ``machine.NiutouwangState`` with a bot per
seat, and the match becomes the JSON event log (``log.py``: the deals, every turn, the
penalties and the SP punishment) with the steps that replay it.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from pnp.games.events import to_json_object
from pnp.games.kit import KitGame, Match, play_match, replay_problems, steps_json
from pnp.games.niutouwang.bots import STYLES
from pnp.games.niutouwang.log import OfficialGame, Round, SpGame
from pnp.games.niutouwang.machine import NiutouwangState
from pnp.games.niutouwang.rules import (
    NiutouwangRules,
    rules_from_mapping,
    slug,
    with_variant,
)
from pnp.games.niutouwang.scoring import punish, winners

KIT = KitGame(slug=slug, title="誰是牛頭王 SP", rules=NiutouwangRules, new_state=NiutouwangState,
              players=lambda r: (r.min_players, r.max_players), styles=STYLES,
              lower_score_wins=True, reader=rules_from_mapping)


def _check(rules: NiutouwangRules, players: int) -> None:
    if not rules.min_players <= players <= rules.max_players:
        raise ValueError(
            f"players must be {rules.min_players}–{rules.max_players}, got {players}"
        )
    if rules.hand_size(players) < 1 or rules.rows + players * rules.hand_size(players) > len(
        rules.deck
    ):
        raise ValueError(f"the deck cannot be dealt to {players} players under these rules")


def play(rules: NiutouwangRules, players: int, rng: random.Random, *, seed: int,
         variant: str | None, bots: Sequence[str], budget: int = 200) -> dict[str, Any]:
    """One whole game with one bot per seat, as the JSON event log.

    ``variant`` None plays the variant the rules already carry; chance is drawn from
    ``random.Random(seed)`` by the play loop (``rng`` is that generator's seed, unused).
    """
    if variant is not None and variant != rules.variant:
        rules = with_variant(rules, variant)
    kinds = tuple(bots)
    _check(rules, players)  # the bots are checked by the kit's play_match
    return game_log(play_match(KIT, rules, players, seed, kinds, budget), seed, kinds)


def game_log(match: Match, seed: int, kinds: Sequence[str]) -> dict[str, Any]:
    state: NiutouwangState = match.state  # type: ignore[assignment]
    rules, players = state.rules, state.players
    if not state.official:
        one = state.deals[0]
        log = to_json_object(SpGame(
            slug, seed, players, rules.variant, tuple(kinds), one.rows, one.hands, one.box,
            one.turns, one.penalties, tuple(winners(one.penalties)),
            tuple(punish(rules, one.penalties)),
        ))
    else:
        totals = (0,) * players
        rounds = []
        for number, deal in enumerate(state.deals, 1):
            totals = tuple([t + p for t, p in zip(totals, deal.penalties, strict=True)])
            rounds.append(Round.of(number, deal, totals))
        log = to_json_object(OfficialGame(
            slug, seed, players, rules.variant, tuple(kinds), tuple(rounds), totals,
            tuple(winners(totals)), state.ended or ""))
    log["steps"] = steps_json(match)
    return log


def replay(rules: NiutouwangRules, log: Mapping[str, Any]) -> list[str]:
    """Problems with a logged game: its steps pushed through the rules (the first illegal one
    named with its step and reason), then every logged fact compared with the replay's."""
    try:
        players = int(log["players"])
        variant = log.get("variant") or None
        if variant is not None and variant != rules.variant:
            rules = with_variant(rules, variant)
    except (ValueError, KeyError, TypeError) as exc:
        return [str(exc)]
    return replay_problems(lambda: NiutouwangState(rules, players), log,
                           lambda match: game_log(match, 0, ()))
