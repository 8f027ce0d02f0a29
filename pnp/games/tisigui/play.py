"""替死鬼 (tisigui): play with bots and replay a log, both through the engine kit (machine.py).

Pure: no I/O, no printing. Every random draw, chance's and the bots', comes from one
``random.Random(seed)`` in the order play always made them (the kit's ``one_stream``), so a
seed gives the game it always gave.

Event log (``play``; ``replay`` checks it), the shape of issue 5 plus a few narrator fields::

    {"game": "tisigui", "seed", "players", "variant": null | "classic", "bots": [name per seat],
     "big_rounds": [{"big_die", "ghost", "targets", "start", "question_markers" (per player,
       null without markers), "turns": [{"small_round", "round_value", "seat", "actions": [
         {"kind": "question" | "name" | "no_targets" | "pass", "named", "answer" (null for
          a pass), "points", "truth" (the true answer, null when unknowable or a pass),
          "question": {"asks": "is_target" | "any_target" | "target_count" | "is_ghost"
                       | "other", "about"?: seat, "among"?: [seats], "value"?: n,
                       "text"?: words}  (questions only),
          "confirms": [seats]  (namings only)}]}],
       "confirmed", "end": "all_confirmed" | "no_targets" | "rounds_out", "ghost_points",
       "roll": n | null, "scores_after": [per seat]}],
     "scores": [per seat], "ranking": [seats], "places": [place per seat, 1 = first],
     "winners": [seats], "steps": [[seat, action], ...]  (the kit's action log, seat -1 chance)}

``replay`` pushes the ``steps`` through the rules (the kit's replay, which names the first
step they refuse) and compares every logged fact with the replay's. It needs the issue-5
fields; the others (``truth``, ``question``, ``confirms``, ``question_markers``,
``scores_after``, ``places``, ``winners``) are checked when present, so a hand-written log may
leave them out. A question without a ``question`` object, or one that ``asks: other``, has an
answer no rule can check. A turn with no markers left is logged with
an empty ``actions`` list; a ghost's pass is one action ``{"kind": "pass", "answer": null}``.

With ``ties: shared`` (classic) ``ranking`` orders tied seats by seat number only for display;
``places`` gives tied seats the same place (1, 1, 3, ...) and ``winners`` lists every seat
sharing first.
"""
from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from pnp.games.base import DEFAULT_BUDGET
from pnp.games.kit import KitGame, Match, play_match, replay_problems
from pnp.games.tisigui.bots import STYLES
from pnp.games.tisigui.log import GameLog
from pnp.games.tisigui.machine import TisiguiState
from pnp.games.tisigui.rules import (
    SLUG,
    TisiguiRules,
    playable_counts,
    player_range,
    rules_from_mapping,
)

KIT = KitGame(slug=SLUG, title="替死鬼", rules=TisiguiRules, new_state=TisiguiState,
              players=player_range, styles=STYLES, reader=rules_from_mapping, one_stream=True)


def play(rules: TisiguiRules, players: int, rng: random.Random, *, seed: int,
         variant: str | None, bots: Sequence[str], budget: int = DEFAULT_BUDGET) -> dict[str, Any]:
    """Play one whole game with ``bots`` (one name per seat) and return its event log.

    Everything is drawn from ``random.Random(seed)`` by the kit's play loop (``rng`` is that
    generator, unused). ``variant``, when given, must name the variant the rules were built
    for (it guards against mixing them up).
    """
    match = play_match_of(rules, players, seed, variant, bots, budget)
    log = game_log(match, seed, bots).to_json()
    log["steps"] = steps_json(match)
    return log


def steps_json(match: Match) -> list[list[Any]]:
    """``kit.steps_json`` for tisigui's actions, whose only nested part is their last
    (``("name", seats)``, ``("question", "any_target", seats)``): a list display apiece
    instead of a call, as every game's log carries a hundred steps."""
    return [[seat, action if type(action) is not tuple
             else [*action] if type(action[-1]) is not tuple
             else [*action[:-1], [*action[-1]]]]
            for seat, action in match.steps]


def play_match_of(rules: TisiguiRules, players: int, seed: int, variant: str | None,
                  bots: Sequence[str], budget: int = DEFAULT_BUDGET) -> Match:
    if variant and variant != rules.variant:
        raise ValueError(f"rules are for variant {rules.variant!r}, not {variant!r}")
    if players not in playable_counts(rules):
        raise ValueError(
            f"tisigui plays {rules.min_players}–{rules.max_players} players with a setup row "
            f"each; {players} is not playable"
        )
    return play_match(KIT, rules, players, seed, list(bots), budget)


def game_log(match: Match, seed: int, bots: Sequence[str]) -> GameLog:
    """The event log of a finished match."""
    state: TisiguiState = match.state  # type: ignore[assignment]
    ranking, places, winners = state.result()
    return GameLog(seed=seed, players=state.players, variant=state.rules.variant,
                   bots=tuple(bots), big_rounds=tuple(state.big_rounds),
                   scores=tuple(state.scores), ranking=tuple(ranking), places=tuple(places),
                   winners=tuple(winners))


# --------------------------------------------------------------------------------------------
# Replay: the steps through the kit, then every fact compared


def replay(rules: TisiguiRules, log: Mapping[str, Any]) -> list[str]:
    """Re-check every step of an event log; an empty list means the game was legal."""
    n = log.get("players") if isinstance(log, Mapping) else None
    if type(n) is not int or n not in playable_counts(rules):
        return [f"players: {n!r} is not a playable player count"]
    return replay_problems(lambda: TisiguiState(rules, n), log,
                           lambda match: _as_logged(game_log(match, 0, ()).to_json(), log))


_OPTIONAL = {"game": ("places", "winners"), "big_round": ("question_markers", "scores_after"),
             "action": ("truth", "question", "confirms")}


def _as_logged(again: dict[str, Any], log: Mapping[str, Any]) -> dict[str, Any]:
    """The replayed facts without those a hand-written log may leave out, where it does."""

    def drop(replayed: dict[str, Any], logged: Any, part: str) -> None:
        for key in _OPTIONAL[part]:
            if isinstance(logged, Mapping) and key not in logged:
                replayed.pop(key, None)

    drop(again, log, "game")
    logged_rounds = log.get("big_rounds")
    for b, big in enumerate(again["big_rounds"]):
        logged_big = _at(logged_rounds, b)
        drop(big, logged_big, "big_round")
        for t, turn in enumerate(big["turns"]):
            logged_turn = _at(_get(logged_big, "turns"), t)
            for a, action in enumerate(turn["actions"]):
                drop(action, _at(_get(logged_turn, "actions"), a), "action")
    return again


def _get(obj: Any, key: str) -> Any:
    return obj.get(key) if isinstance(obj, Mapping) else None


def _at(items: Any, i: int) -> Any:
    return items[i] if isinstance(items, list) and i < len(items) else None
