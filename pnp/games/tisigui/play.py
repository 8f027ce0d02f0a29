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

``replay`` pushes the ``steps`` through the rules (or, for a hand-written log without them,
the decisions its big rounds record: ghost, targets, start, each action and the ghost's
answers, the roll) and compares every logged fact with the replay's. It needs the issue-5
fields; the others (``truth``, ``question``, ``confirms``,
``question_markers``, ``scores_after``, ``places``, ``winners``) are checked when present, so
a hand-written log may leave them out. A question without a ``question`` object, or one that
``asks: other``, has an answer no rule can check. A turn with no markers left is logged with
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
from pnp.games.kit import (
    IllegalAction,
    KitGame,
    Match,
    log_difference,
    play_match,
    replay_log,
)
from pnp.games.tisigui.bots import STYLES
from pnp.games.tisigui.choices import ACTION_KINDS, Choice, Question, answered
from pnp.games.tisigui.log import GameLog
from pnp.games.tisigui.machine import ANSWER, ROLL, STOP, TURN, TisiguiState
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


def play_log(rules: TisiguiRules, players: int, rng: random.Random, *, seed: int,
             variant: str | None, bots: Sequence[str]) -> GameLog:
    """``play``, returning the typed log (without the steps)."""
    return game_log(play_match_of(rules, players, seed, variant, bots), seed, bots)


def play_match_of(rules: TisiguiRules, players: int, seed: int, variant: str | None,
                  bots: Sequence[str], budget: int = DEFAULT_BUDGET) -> Match:
    if variant and variant != rules.variant:
        raise ValueError(f"rules are for variant {rules.variant!r}, not {variant!r}")
    if players not in playable_counts(rules):
        raise ValueError(
            f"tisigui plays {rules.min_players}–{rules.max_players} players with a setup row "
            f"each; {players} is not playable"
        )
    if len(bots) != players:
        raise ValueError(f"{len(bots)} bots given for {players} players")
    return play_match(KIT, rules, players, seed, list(bots), budget)


def game_log(match: Match, seed: int, bots: Sequence[str]) -> GameLog:
    """The event log of a finished match."""
    state: TisiguiState = match.state  # type: ignore[assignment]
    game = state.game
    ranking, places, winners = game.result()
    return GameLog(seed=seed, players=state.players, variant=state.rules.variant,
                   bots=tuple(bots), big_rounds=tuple(game.big_rounds),
                   scores=tuple(game.scores), ranking=tuple(ranking), places=tuple(places),
                   winners=tuple(winners))


# --------------------------------------------------------------------------------------------
# Replay: the steps (or the log's own decisions) through the kit, then every fact compared


class _Bad(Exception):
    """A log that cannot be replayed: where in the log, and why."""

    def __init__(self, where: str, message: str) -> None:
        super().__init__(f"{where}: {message}")


def replay(rules: TisiguiRules, log: Mapping[str, Any]) -> list[str]:
    """Re-check every step of an event log; an empty list means the game was legal."""
    try:
        if not isinstance(log, Mapping):
            raise _Bad("log", "expected an object")
        n = log.get("players")
        if type(n) is not int or n not in playable_counts(rules):
            raise _Bad("players", f"{n!r} is not a playable player count")
        if "steps" in log:
            match = replay_log(lambda: TisiguiState(rules, n), log)
        else:
            match = _walk(rules, n, log)
        if not match.state.is_over():
            raise _Bad("log", f"the log stops after {len(match.steps)} steps, before the game ends")
    except (_Bad, IllegalAction, ValueError) as exc:
        return [str(exc)]
    except (TypeError, AttributeError, KeyError) as exc:  # a shape the walk did not foresee
        return [f"log: malformed ({exc!r})"]
    again = game_log(match, 0, ()).to_json()
    _leave_out_unlogged(again, log)
    difference = log_difference(log, again, ignore=("seed", "bots", "steps"))
    return [difference] if difference else []


_OPTIONAL = {"game": ("places", "winners"), "big_round": ("question_markers", "scores_after"),
             "action": ("truth", "question", "confirms")}


def _leave_out_unlogged(again: dict[str, Any], log: Mapping[str, Any]) -> None:
    """Drop the facts a hand-written log may leave out, where it does."""

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


def _get(obj: Any, key: str) -> Any:
    return obj.get(key) if isinstance(obj, Mapping) else None


def _at(items: Any, i: int) -> Any:
    return items[i] if isinstance(items, list) and i < len(items) else None


def _walk(rules: TisiguiRules, n: int, log: Mapping[str, Any]) -> Match:
    """The match a log without steps records: its big rounds' decisions pushed through the
    rules, each checked; a decision the rules refuse raises ``_Bad`` naming it."""
    match = Match(lambda: TisiguiState(rules, n))
    state: TisiguiState = match.state  # type: ignore[assignment]
    big_rounds = _need(log, "big_rounds", "", list)
    if not big_rounds:
        raise _Bad("big_rounds", "expected at least one big round")
    for i, big in enumerate(big_rounds):
        where = f"big_rounds[{i}]"
        if state.is_over():
            raise _Bad(where, "the game ends before this big round, yet the log goes on")
        _push(match, _need(big, "ghost", where, int), f"{where}.ghost")
        targets = _need(big, "targets", where, list)
        _push(match, ("targets", tuple(targets)), f"{where}.targets")
        start = _need(big, "start", where, int)
        _push(match, ("start", start) if state.ghost_picks else start, f"{where}.start")
        turns = _need(big, "turns", where, list)
        for t, turn in enumerate(turns):
            _walk_turn(match, state, turn, f"{where}.turns[{t}]", t)
        if state.phase == TURN:
            raise _Bad(f"{where}.turns", f"{len(turns)} turns, but the big round had not "
                       f"ended: {state.game.turns_in_full} expected")
        if state.phase == ROLL:
            roll = big.get("roll")
            if type(roll) is not int:
                raise _Bad(f"{where}.roll", f"a big round played at {state.game.die} needs a "
                           f"roll of the d{rules.small_die_sides}, log says {roll!r}")
            _push(match, roll, f"{where}.roll")
        if not state.is_over() and i == len(big_rounds) - 1:
            raise _Bad(where, "the game does not end after this big round, yet the log stops")
    return match


def _walk_turn(match: Match, state: TisiguiState, turn: Any, where: str, t: int) -> None:
    game = state.game
    actions = _need(turn, "actions", where, list)
    if t < len(game.turns):  # a turn without markers: the rules passed it by
        if actions:
            raise _Bad(where, "a player with no markers left skips the turn")
        return
    if state.phase != TURN:
        raise _Bad(where, f"a turn after the big round ended ({game.end or 'rounds_out'})")
    for a, action_log in enumerate(actions):
        aw = f"{where}.actions[{a}]"
        if state.phase != TURN:
            raise _Bad(aw, f"an action after the big round ended ({game.end or 'rounds_out'})")
        if len(game.turns) > t:
            cap = game.cap
            raise _Bad(where, f"more than {cap} actions; at most {cap} here")
        kind = _need(action_log, "kind", aw, str)
        if kind not in ACTION_KINDS:
            raise _Bad(f"{aw}.kind", f"unknown kind {kind!r}")
        named = tuple(_need(action_log, "named", aw, list))
        question = (_question(action_log.get("question"), f"{aw}.question")
                    if kind == "question" else None)
        choice = Choice(kind, named, question)
        action = choice.action
        if kind != "pass" and game.seat == state.ghost and game.forced_answer(choice) is None:
            action = answered(choice, _need(action_log, "answer", aw, bool))
        _push(match, action, aw)
        if state.phase == ANSWER:  # a question no rule can check: the ghost answers
            answer = _need(action_log, "answer", aw, bool)
            _push(match, "yes" if answer else "no", f"{aw}.answer")
    if state.phase == TURN and len(game.turns) == t:
        _push(match, STOP, where)


def _question(q: Any, where: str) -> Question | None:
    if q is None:
        return None
    if not isinstance(q, Mapping):
        raise _Bad(where, "expected a question object")
    among = q.get("among")
    return Question(q.get("asks", ""), about=q.get("about"),
                    among=tuple(among) if isinstance(among, list) else among,
                    value=q.get("value"), text=q.get("text"))


def _need(obj: Any, key: str, where: str, kind: type) -> Any:
    if not isinstance(obj, Mapping):
        raise _Bad(where or "log", "expected an object")
    if key not in obj:
        raise _Bad(f"{where}.{key}" if where else key, "missing")
    value = obj[key]
    if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
        raise _Bad(f"{where}.{key}" if where else key, f"expected {kind.__name__}, got {value!r}")
    return value


def _push(match: Match, action: Any, where: str) -> None:
    try:
        match.push(action)
    except IllegalAction as exc:
        raise _Bad(where, exc.reason) from None
