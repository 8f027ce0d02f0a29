"""The few moments of a seeded game the rulebook's worked example is written from: who
scored what and why, how the game ended, a tie broken, as plain values the template words.

And the rulebook's hand-worked example (``WORKED``, called from the template as
``worked.game``): a game the template scripts big round by big round, played step by step by
the game's state machine, with what a player can deduce at the turns the story reasons. The template names the inputs;
every point, total, ending, deduction and winner it prints comes from here.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

from pnp.games.facts import tie_groups
from pnp.games.tisigui.choices import NO_TARGETS, PASS, Choice, answered, asking, naming
from pnp.games.tisigui.log import Action as Logged
from pnp.games.tisigui.machine import ROLL, TURN, TisiguiState
from pnp.games.tisigui.rules import TisiguiRules, playable_counts
from pnp.games.tisigui.turns import STOP

Facts = Mapping[str, Any]


def _named(names: Sequence[str], seats: Sequence[int]) -> list[str]:
    return [names[s] for s in seats]


def example_moments(f: Facts, names: Sequence[str]) -> dict[str, Any]:
    n = f["players"]
    rounds = []
    for big in f["big_rounds"]:
        ghost = big["ghost"]
        scorers = [{"name": names[s], "points": big["points"][s]}
                   for s in range(n) if s != ghost and big["points"][s]]
        lies = [a for sr in big["small_rounds"] for t in sr["turns"] if t["ghost"]
                for a in t["actions"] if a["lie"]]
        rounds.append({
            "number": big["number"], "die": big["die"], "ghost": names[ghost],
            "targets": len(big["targets"]), "self_target": ghost in big["targets"],
            "start": names[big["start"]], "scorers": scorers, "end": big["end"],
            "ender": None if big["ender"] is None else names[big["ender"]],
            "confirmed": len(big["confirmed"]), "unconfirmed": len(big["unconfirmed"]),
            "ghost_points": big["ghost_points"], "roll": big["roll"], "outcome": big["outcome"],
            "ghost_lied": bool(lies),
        })
    scores = f["scores"]
    winner = f["ranking"][0]
    tie = next((g for g in f["ties"] if winner in g), None)
    return {
        "players": n,
        "names": list(names),
        "rounds": rounds,
        "scores": [{"name": names[s], "points": scores[s]} for s in f["ranking"]],
        "winner": names[winner],
        "tie": None if tie is None else {
            "names": _named(names, tie), "points": scores[winner],
            "start": names[f["last_start"]], "clockwise": _named(names, f["clockwise"])},
    }


# ------------------------------------------------------------------ hand-worked examples


def _choice(action: Mapping[str, Any], seat_of: Callable[[Any], int]) -> Choice:
    """A scripted action as the engine's choice: a question (``count``: exactly N targets?,
    ``any``: is any of these a target?, ``target``: is this one a target?, ``ghost``: is this
    one the ghost?), a naming (``name``), ``no_targets`` or ``pass``."""
    if "count" in action:
        return asking("target_count", int(action["count"]))
    if "any" in action:
        return asking("any_target", tuple(sorted(seat_of(x) for x in action["any"])))
    if "target" in action:
        return asking("is_target", seat_of(action["target"]))
    if "ghost" in action:
        return asking("is_ghost", seat_of(action["ghost"]))
    if "name" in action:
        return naming(tuple(sorted(seat_of(x) for x in action["name"])))
    if action.get("no_targets"):
        return NO_TARGETS
    if action.get("pass"):
        return PASS
    raise ValueError(f"not an action: {dict(action)} (count, any, target, ghost, name, no_targets or pass)")


def _refused(problem: str | None, where: str) -> None:
    if problem is not None:
        raise ValueError(f"{where}: {problem}")


Seen = tuple[int, Choice, bool | None, int, tuple[int, ...]]  # seat, choice, answer, points, confirms


def _deal(state: TisiguiState, ghost: int, targets: frozenset[int], start: int) -> None:
    """A big round's first steps: the ghost drawn, its targets chosen, the start player."""
    state.apply(ghost)
    state.apply(("targets", tuple(sorted(targets))))
    state.apply(("start", start))


def _take(state: TisiguiState, seat: int, choice: Choice, answer: bool | None) -> Logged:
    """``choice`` taken by ``seat`` on its turn showing ``answer`` (None for a pass), as the
    game logs it; a ValueError names the rule it breaks."""
    if state.phase != TURN or state.seat != seat:
        raise ValueError("not this player's turn")
    step = choice.action
    if answer is not None:
        forced = state.forced_answer(choice)
        if forced is None:  # the ghost's own action carries the answer it shows
            step = answered(choice, answer)
        elif answer != forced:
            raise ValueError(f"only the ghost may lie; the truth is {forced!r}"
                             if seat != state.ghost
                             else "the ghost's own namings are always answered X")
    problem = state.why_illegal(step)
    if problem is not None:
        raise ValueError(problem)
    turns = len(state.turns)
    state.apply(step)
    return (state.turns[turns].actions if len(state.turns) > turns else state.actions)[-1]


def _possible_deals(rules: TisiguiRules, players: int, start: int, viewer: int,
                    turns: Sequence[Sequence[Seen]]) -> list[tuple[int, frozenset[int]]]:
    """Every (ghost, targets) the player ``viewer`` cannot rule out from what the table saw:
    ``turns`` (each the actions of one turn, in order) played again under that deal must show
    the same answers from everyone who may not lie, and the same points and confirmations,
    without the big round having ended. The viewer knows they are not the ghost."""
    deals = []
    for ghost in range(players):
        if ghost == viewer:
            continue
        for mask in range(1 << players):
            targets = frozenset(s for s in range(players) if mask >> s & 1)
            state = TisiguiState(rules, players)
            _deal(state, ghost, targets, start)
            if _same_play(state, turns):
                deals.append((ghost, targets))
    return deals


def _same_play(state: TisiguiState, turns: Sequence[Sequence[Seen]]) -> bool:
    for actions in turns:
        if state.phase != TURN:
            return False
        turn = state.turn_index
        for seat, choice, answer, points, confirms in actions:
            try:
                action = _take(state, seat, choice, answer)
            except ValueError:
                return False
            if action.points != points or (action.confirms or ()) != confirms:
                return False
        if state.phase == TURN and state.turn_index == turn:
            state.apply(STOP)
    return state.end is None


class _Table:
    """The script's players by name, in seat order (clockwise)."""

    def __init__(self, names: Sequence[str]) -> None:
        self.names = names
        self.seats = {name: i for i, name in enumerate(names)}

    def seat_of(self, name: Any) -> int:
        if name not in self.seats:
            raise ValueError(f"the script names {name!r}, who is not one of {', '.join(self.names)}")
        return self.seats[name]

    def named(self, seats: Iterable[int]) -> list[str]:
        return [self.names[s] for s in sorted(seats)]


def scripted_game(rules: TisiguiRules, names: Sequence[str],
                  big_rounds: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    """Big rounds played from a script by the game's own steps. ``names`` seats the players
    clockwise from seat 1; each big round gives its ``ghost``, ``targets`` and ``start`` player
    by name, the ``turns`` in which someone acts (``who`` and their ``actions``, each with the
    ``answer`` the plate shows; a turn without markers left is skipped and not scripted) and
    the small die's ``roll`` when the rules call for one. A turn marked ``think`` first works
    out what its player can deduce: the ghosts and target sets the play so far leaves possible.

    Per big round: who played, every action with its truth and points, each player's points,
    how it ended, the roll and what it decided, and the running totals; then the final
    scores, ranking and winners under the rules' tie rule."""
    table = _Table(names)
    n = len(names)
    if n not in playable_counts(rules):
        raise ValueError(f"{n} players is not a playable count")
    state = TisiguiState(rules, n)
    played = []
    for number, script in enumerate(big_rounds, start=1):
        if state.is_over():
            raise ValueError(f"big round {number}: the game ended after big round {number - 1}")
        played.append(_scripted_big_round(state, table, number, script))
    if not state.is_over():
        raise ValueError(f"the script stops after big round {len(big_rounds)}, but the game goes on")
    ranking, places, winners = state.result()
    last, scores = state.last_start, state.scores
    return {"big_rounds": played, "scores": {names[s]: scores[s] for s in range(n)},
            "ranking": [names[s] for s in ranking], "winners": [names[s] for s in winners],
            "last_start": names[last], "clockwise": [names[(last + k) % n] for k in range(n)],
            "ties": [[names[s] for s in group] for group in tie_groups(scores, ranking)]}


def _scripted_big_round(state: TisiguiState, table: _Table, number: int,
                        script: Mapping[str, Any]) -> dict[str, Any]:
    """One big round of the script: its turns, each player's points, how it ended, the roll."""
    names, named, n = table.names, table.named, len(table.names)
    ghost, start = table.seat_of(script["ghost"]), table.seat_of(script["start"])
    targets = frozenset(table.seat_of(x) for x in script["targets"])
    _deal(state, ghost, targets, start)
    die, before = state.die, list(state.scores)
    turns = _scripted_turns(state, table, number, ghost, start, list(script["turns"]))
    roll = script.get("roll")
    if (state.phase == ROLL) != (roll is not None):
        raise ValueError(f"big round {number} (value {die}) "
                         + ("needs a roll of the small die" if state.phase == ROLL
                            else "ends without a roll"))
    if roll is not None:
        state.apply(roll)
    done = state.big_rounds[-1]
    outcome = ("die_one" if die <= 1 else "too_high" if roll is None
               else "end" if state.is_over() else "continue")
    return {
        "number": number, "die": die, "ghost": names[ghost], "targets": named(targets),
        "start": names[start], "order": [names[(start + k) % n] for k in range(n)],
        "values": list(state.values), "turns": turns,
        "points": {names[s]: state.scores[s] - before[s] for s in range(n)},
        "ghost_points": done.ghost_points, "end": done.end, "confirmed": named(done.confirmed),
        "unconfirmed": named(targets - set(done.confirmed)), "roll": roll, "outcome": outcome,
        "totals": {names[s]: state.scores[s] for s in range(n)}}


def _scripted_turns(state: TisiguiState, table: _Table, number: int, ghost: int, start: int,
                    entries: list[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """The turns of a big round, each played from the next scripted entry (``entries`` is
    used up); the game passes by a turn without markers left."""
    names = table.names
    seen: list[list[Seen]] = []
    turns = []
    while state.phase == TURN:
        small_round, value, on_turn, turn = (state.small_round, state.round_value, state.seat,
                                             state.turn_index)
        where = f"big round {number}, {names[on_turn]}'s turn"
        if not entries:
            raise ValueError(f"big round {number}: no scripted turn for {names[on_turn]} "
                             f"in small round {small_round}")
        entry = entries.pop(0)
        if entry["who"] != names[on_turn]:
            raise ValueError(f"big round {number}: it is {names[on_turn]}'s turn in small "
                             f"round {small_round}, the script has {entry['who']}")
        thought = _thought(state, table, start, on_turn, seen) if entry.get("think") else None
        actions = []
        seen.append([])
        for step in entry["actions"]:
            if state.phase != TURN or state.turn_index != turn:
                raise ValueError(f"{where}: the turn is over before its scripted actions")
            saw, action = _scripted_action(state, table, step, on_turn, where)
            seen[-1].append(saw)
            actions.append(action)
        if state.phase == TURN and state.turn_index == turn:
            _refused(state.why_illegal(STOP), where)
            state.apply(STOP)
        markers = state.markers
        turns.append({"small_round": small_round, "value": value, "who": names[on_turn],
                      "ghost": on_turn == ghost, "actions": actions, "thought": thought,
                      "markers_left": None if markers is None else markers[on_turn],
                      # Nobody holds a marker any more: the rest of the turns are skipped.
                      "all_spent": markers is not None and not any(markers)})
    if entries:
        raise ValueError(f"big round {number} is over, yet the script has "
                         f"{len(entries)} more turns")
    return turns


def _thought(state: TisiguiState, table: _Table, start: int, on_turn: int,
             seen: Sequence[Sequence[Seen]]) -> dict[str, Any]:
    """What the player on turn can deduce from the turns ``seen`` so far: per possible ghost
    (seat order), the target sets still possible, and what each leaves to find beyond the
    players already confirmed."""
    named = table.named
    cases: dict[str, dict[str, list[list[str]]]] = {}
    for g, t in _possible_deals(state.rules, state.players, start, on_turn, seen):
        case = cases.setdefault(table.names[g], {"targets": [], "left": []})
        case["targets"].append(named(t))
        if named(t - set(state.confirmed)) not in case["left"]:
            case["left"].append(named(t - set(state.confirmed)))
    return {"ghosts": list(cases), "cases": cases}


def _scripted_action(state: TisiguiState, table: _Table, step: Mapping[str, Any], on_turn: int,
                     where: str) -> tuple[Seen, dict[str, Any]]:
    """One scripted action, checked and played: what the table saw, and what the story tells
    of it (its truth, whether the answer lied, its points and confirmations)."""
    named = table.named
    choice = _choice(step, table.seat_of)
    answer = None if choice.kind == "pass" else bool(step["answer"])
    try:
        action = _take(state, on_turn, choice, answer)
    except ValueError as problem:
        raise ValueError(f"{where}: {problem}") from None
    confirms = tuple(action.confirms or ())
    return (on_turn, choice, answer, action.points, confirms), {
        "kind": action.kind, "named": named(action.named), "answer": answer, "truth": action.truth,
        "lie": action.truth is not None and answer != action.truth,
        "points": action.points, "confirms": named(confirms)}


# The functions the rulebook template calls as worked.<name>(...), the rules bound first.
WORKED: dict[str, Callable[..., Any]] = {"game": scripted_game}
