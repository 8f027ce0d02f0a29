"""替死鬼 (tisigui) written to the engine kit: one state per game, driven by pnp's play loop.

The state knows the rules and nothing else: whose step is next, what is legal
(``why_illegal``), what a step earns (``apply``), writing the typed log of ``log.py`` as it
goes. It never chooses. Play drives it with bots' choices, replay with a log's steps and the
rulebook's worked examples with a script's, so all of them run exactly the same rules.

Each big round: chance names the ghost (``rng.randrange(n)``, as play always drew it); the
ghost chooses its targets (``("targets", seats)``) and, where the ghost picks it, the start
player (``("start", seat)``; otherwise chance rolls it). Then every turn, the player on turn
takes actions one at a time (``Choice.action``: a question, a naming, "no targets?", the
ghost's pass) until the turn is full or they ``"stop"``. The ghost's own action carries the
answer it shows (``("no", "question", "is_target", 2)``): on its turn it decides both at once.
The answer to a question no rule can check, asked by another seat, is the ghost's step,
``"yes"`` or ``"no"``. A big round played at a value that asks for it ends with chance rolling
the small die. The ghost and its targets are hidden from every other seat.

``apply`` returns the big round just finished (``log.BigRound``, every action of it with its
points and confirmations) when a step finishes one, else nothing: the log is the big rounds.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from itertools import combinations
from typing import Any

from pnp.games.kit import CHANCE, Action, Outcome
from pnp.games.params import is_integer
from pnp.games.tisigui.choices import (
    ANSWERS,
    READ_ACTIONS,
    Choice,
    Event,
    is_well_formed,
    mask_of,
    read_action,
)
from pnp.games.tisigui.deduce import Deductions
from pnp.games.tisigui.log import PASS_ACTION, BigRound, Turn
from pnp.games.tisigui.log import Action as Logged
from pnp.games.tisigui.rules import (
    End,
    TisiguiRules,
    big_round_needs_roll,
    first_big_die,
    ghost_points,
    is_last_big_round,
    no_targets_points,
    rank,
    row_round_values,
    setup_for,
    unchecked_naming_points,
)
from pnp.games.tisigui.turns import STOP, Legal, allows, truth_of, turn_actions

# What the next step is
GHOST, TARGETS, START, TURN, ANSWER, ROLL, OVER = range(7)


_NOBODY_YET = Deductions(3)
# Every turn's action list by its shape (``turn_actions``' arguments): shared, never changed.
_TURN_ACTIONS: dict[tuple[Any, ...], list[Action]] = {}
_BY_ID: dict[int, tuple[Action, tuple[Choice, bool | None]]] = {}
# Logged actions already built, by (choice identity, answer, points, truth, confirmations):
# see ``_take``. Bounded: a replayed log brings new choices every action.
_LOGGED: dict[tuple[int, bool | None, int, bool | None, tuple[int, ...]], tuple[Choice, Logged]] = {}


class TisiguiState:
    """A whole game: big rounds of turns of actions, each checked and scored as applied, with
    the public deductions and whose step is next (see the module's docstring)."""

    def __init__(self, rules: TisiguiRules, players: int) -> None:
        self.rules, self.players = rules, players
        self.row = setup_for(rules, players)
        self.values = row_round_values(rules, self.row)
        self.turns_in_full = len(self.values) * players
        self.lo, self.hi = rules.actions_per_turn
        self.question_markers = self.row.question_markers if rules.use_question_markers else None
        self.scores = [0] * players
        self.die = first_big_die(rules, players)
        self.big_rounds: list[BigRound] = []
        self.last_start = 0
        self.phase = GHOST
        self.ghost_picks = rules.start_player == "ghost_picks"
        self.ended_by = ""
        # The big round under way: its secret (the targets also as a mask of seats) and play
        self.ghost = 0
        self.targets: frozenset[int] = frozenset()
        self.mask = 0
        self.start = 0
        self.markers: list[int] | None = None
        self.confirmed: tuple[int, ...] = ()
        self.confirmed_mask = 0
        self.history: list[Event] = []
        self.turns: list[Turn] = []
        self.end: End | None = None
        self.turn_index = 0
        self.public = _NOBODY_YET  # the big round's deductions, made once its start is known
        self.pending: Choice | None = None  # an action waiting for the ghost's answer
        # The turn under way
        self.seat = 0
        self.small_round = 0
        self.round_value = self.values[0] if self.values else 0
        self.actions: list[Logged] = []

    def clone(self) -> TisiguiState:
        other = object.__new__(TisiguiState)
        other.__dict__.update(self.__dict__)
        for name in ("scores", "big_rounds", "history", "turns", "actions"):
            setattr(other, name, list(getattr(self, name)))
        if self.markers is not None:
            other.markers = list(self.markers)
        other.public = self.public.copy()
        return other

    # -- whose step ---------------------------------------------------------------------

    def to_move(self) -> int:
        phase = self.phase
        if phase == TURN:
            return self.seat
        if phase in (TARGETS, ANSWER) or (phase == START and self.ghost_picks):
            return self.ghost
        return CHANCE  # the ghost drawn, the start rolled, the small die

    def chance_outcomes(self) -> Sequence[tuple[Action, float]]:
        sides = self.rules.small_die_sides if self.phase == ROLL else self.players
        first = 1 if self.phase == ROLL else 0
        return [(first + i, 1 / sides) for i in range(sides)]

    def sample_chance(self, rng: random.Random) -> int:
        # Drawn as play always drew them: rng.randrange(n) and rng.randint(1, sides).
        if self.phase == ROLL:
            return rng.randint(1, self.rules.small_die_sides)
        return rng.randrange(self.players)

    def chance_possible(self, action: Action) -> bool:
        return type(action) is int and any(action == a for a, _ in self.chance_outcomes())

    def legal_actions(self) -> Sequence[Action]:
        phase, n = self.phase, self.players
        if phase == TARGETS:
            return Legal([("targets", s) for k in range(n + 1) for s in combinations(range(n), k)],
                         self._targets_ok)
        if phase == START:
            return [("start", s) for s in range(n)]
        if phase == ANSWER:
            return ANSWERS
        if phase != TURN:
            return ()
        key = (n, self.rules.max_named_per_action, self.rules.ghost_own_naming,
               self.confirmed_mask, len(self.actions) >= self.lo,
               self.seat == self.ghost and self.rules.ghost_may_pass and not self.actions,
               self.seat == self.ghost)
        found = _TURN_ACTIONS.get(key)
        if found is None:
            found = _TURN_ACTIONS[key] = turn_actions(*key)
        return Legal(found, self._action_ok)

    def forced_answer(self, choice: Choice) -> bool | None:
        """The answer the rules dictate for ``choice`` on this turn, or None where the ghost
        picks one."""
        if self.seat != self.ghost:
            return bool(truth_of(choice.test, self.ghost, self.mask))
        if choice.kind != "question" and self.rules.ghost_own_naming == "always_no":
            return False
        return None

    def _targets_ok(self, action: object) -> bool:
        return (type(action) is tuple and len(action) == 2 and action[0] == "targets"
                and type(action[1]) is tuple and len(set(action[1])) == len(action[1])
                and all(type(s) is int and 0 <= s < self.players for s in action[1]))

    def _action_ok(self, action: object) -> bool:
        return self.why_illegal(action) is None

    def why_illegal(self, action: Action) -> str | None:
        phase = self.phase
        if phase == TARGETS:
            return None if self._targets_ok(action) else (
                f"the ghost takes a list of distinct seats 0–{self.players - 1}")
        if phase == START:
            return None if action in self.legal_actions() else "the start is a seat"
        if phase == ANSWER:
            return None if action in ANSWERS else 'the ghost answers "yes" or "no"'
        if phase != TURN:
            return "no player's step"
        # On a turn there is always room for another action: a full turn ends as it fills.
        if action == STOP:
            return None if len(self.actions) >= self.lo else (
                f"{len(self.actions)} actions, at least {self.lo} required")
        read = read_action(action)
        if read is None:
            return "not an action of tisigui"
        choice, shown = read
        problem = self._breaks(choice)
        if problem is not None:
            return problem
        if choice.kind == "pass":
            return None if shown is None else "a pass shows no answer"
        if self.seat == self.ghost and self.forced_answer(choice) is None:
            return None if shown is not None else (  # the ghost picks the answer it shows
                'the ghost shows its answer with its own action: ("yes" | "no", ...)')
        return None if shown is None else "only the ghost's own action carries its answer"

    def _breaks(self, choice: Choice) -> str | None:
        """The first rule ``choice`` would break if the player on turn took it now."""
        kind, named, n = choice.kind, choice.named, self.players
        if kind == "pass":
            if not (self.seat == self.ghost and self.rules.ghost_may_pass):
                return "only the ghost may pass, and only where the rules allow it"
            return "a pass is the whole turn" if self.actions else None
        if any(not (is_integer(s) and 0 <= s < n) for s in named) or len(set(named)) != len(named):
            return f"expected distinct seats 0–{n - 1}"
        if kind == "name":
            limit = self.rules.max_named_per_action
            if not named:
                return "a naming names at least one player"
            if limit is not None and len(named) > limit:
                return f"at most {limit} players may be named at once"
            if choice.test[1] & self.confirmed_mask:
                return f"seats {[s for s in named if s in self.confirmed]} are already confirmed"
            return None
        if kind not in ("question", "no_targets"):
            return f"unknown kind {kind!r}"
        if named:
            return f"a {kind} names nobody"
        q = choice.question
        return "a malformed question" if q is not None and not is_well_formed(q, n) else None

    # -- steps -------------------------------------------------------------------------

    def apply(self, action: Action) -> Sequence[BigRound]:
        phase = self.phase
        if phase == TURN:
            if action == STOP:
                return self._next_turn()
            # What the action stands for: the bots hand the same (cached) action objects
            # over and over, so they are looked up by identity first (no tuple to hash).
            known = _BY_ID.get(id(action))
            if known is not None and known[0] is action:
                choice, shown = known[1]
            else:
                read = READ_ACTIONS.get(action) or read_action(action)
                assert read is not None, action
                if len(_BY_ID) >= 4096:
                    _BY_ID.clear()
                _BY_ID[id(action)] = (action, read)  # the entry keeps the action alive
                choice, shown = read
            if choice.kind == "pass":
                self.actions.append(PASS_ACTION)
                return self._next_turn()
            # Another seat answers the truth, which is None where no rule can check it (then
            # the ghost answers); the ghost shows the answer the rules force or its own.
            truth = truth_of(choice.test, self.ghost, self.mask)
            if self.seat != self.ghost:
                answer = truth
            else:
                answer = self.forced_answer(choice)
                if answer is None:
                    answer = shown
            if answer is None:
                self.pending, self.phase = choice, ANSWER
                return ()
            return self._take(choice, answer, truth)
        if phase == ANSWER:  # the ghost's answer to the question waiting for it
            choice = self.pending  # type: ignore[assignment]
            self.pending, self.phase = None, TURN
            return self._take(choice, action == "yes", truth_of(choice.test, self.ghost, self.mask))
        if phase == GHOST:
            self.ghost, self.phase = action, TARGETS  # type: ignore[assignment]
            self.targets, self.mask = frozenset(), 0
            self._begin_big_round(0)
            return ()
        if phase == TARGETS:
            self.targets, self.phase = frozenset(action[1]), START  # type: ignore[index]
            self.mask = mask_of(self.targets)
            return ()
        if phase == START:
            start = action[1] if type(action) is tuple else action
            self._begin_big_round(start)  # type: ignore[arg-type]
            self.public = Deductions(self.players, start)  # type: ignore[arg-type]
            return self._next_turn(log_turn=False)
        if phase == ROLL:
            return self._end_big_round(action)  # type: ignore[arg-type]
        raise ValueError("the game is over")

    def _take(self, choice: Choice, answer: bool, truth: bool | None) -> Sequence[BigRound]:
        """The action taken with the ``answer`` shown: scored, logged and seen by the table;
        the turn ends when it is full."""
        seat = self.seat
        kind = choice.kind
        newly: tuple[int, ...] = ()
        points = 0
        # The ghost's own actions never score, confirm or end anything: the table cannot
        # trust an answer the ghost may fake.
        if seat != self.ghost and answer:
            if kind == "name":
                newly = choice.named
                points = unchecked_naming_points(self.rules, self.round_value, len(newly))
                self.confirmed += newly
                self.confirmed_mask |= choice.test[1]
                if self.mask & self.confirmed_mask == self.mask:
                    self.end = "all_confirmed"
            elif kind == "no_targets":
                points, self.end = no_targets_points(self.rules, self.players), "no_targets"
            self.scores[seat] += points
        markers = self.markers
        if markers is not None:
            markers[seat] -= 1
        # The same choice with the same outcome is the same (immutable) logged action: bots
        # share their choices, so most actions of a game were met before. Keyed by the
        # choice's identity, which the entry keeps alive so that it cannot be reused.
        key = (id(choice), answer, points, truth, newly)
        known = _LOGGED.get(key)
        if known is not None and known[0] is choice:
            logged = known[1]
        else:
            logged = Logged(kind, choice.named, answer, points, truth, choice.question,
                            newly if kind == "name" else None)
            if len(_LOGGED) >= 4096:
                _LOGGED.clear()
            _LOGGED[key] = (choice, logged)
        self.actions.append(logged)
        # Built as the tuple it is: a named tuple's __new__ is a Python function.
        event = tuple.__new__(Event, (seat, choice, answer, newly))
        self.history.append(event)
        self.public.observe(event)
        if self.end is not None or (markers is not None and markers[seat] == 0) or (
                len(self.actions) >= self.hi):
            return self._next_turn()
        return ()

    def _begin_big_round(self, start: int) -> None:
        self.start = start
        per = self.row.question_markers or 0
        self.markers = [per] * self.players if self.rules.use_question_markers else None
        self.confirmed, self.confirmed_mask = (), 0
        self.history, self.turns = [], []
        self.end = None
        self.turn_index = 0

    def _next_turn(self, log_turn: bool = True) -> Sequence[BigRound]:
        """The turn under way logged (``log_turn``), then the next turn whose player may act
        (turns without markers pass by, logged empty); none left ends the big round, with a
        roll where the rules ask for one."""
        markers, n = self.markers, self.players
        while True:
            if log_turn:
                self.turns.append(Turn(self.small_round, self.round_value, self.seat,
                                       tuple(self.actions)))
            t = self.turn_index
            if self.end is not None or t >= self.turns_in_full:
                break
            self.small_round, self.round_value = t // n + 1, self.values[t // n]
            self.seat = (self.start + t) % n
            self.turn_index = t + 1
            self.actions = []
            if markers is None or markers[self.seat]:
                self.phase = TURN
                return ()
            log_turn = True
        if big_round_needs_roll(self.rules, self.die):
            self.phase = ROLL
            return ()
        return self._end_big_round(None)

    def _end_big_round(self, roll: int | None) -> Sequence[BigRound]:
        die = self.die
        points = ghost_points(self.rules, self.players, len(self.confirmed)) if (
            self.end is None) else 0
        self.scores[self.ghost] += points
        done = BigRound(big_die=die, ghost=self.ghost, targets=tuple(sorted(self.targets)),
                        start=self.start, question_markers=self.question_markers,
                        turns=tuple(self.turns), confirmed=self.confirmed,
                        end=self.end or "rounds_out", ghost_points=points, roll=roll,
                        scores_after=tuple(self.scores))
        self.big_rounds.append(done)
        self.last_start = self.start
        self.die -= 1
        if is_last_big_round(self.rules, die, roll):
            self.phase = OVER
            self.ended_by = "big_die_at_one" if die <= 1 else "roll_above_die"
        else:
            self.phase = GHOST
        return (done,)

    # -- the end and what each seat sees ------------------------------------------------

    def is_over(self) -> bool:
        return self.phase == OVER

    def result(self) -> tuple[list[int], list[int], list[int]]:
        """(ranking, places, winners) on the scores so far."""
        ranking, places = rank(self.rules, self.scores, self.last_start)
        return ranking, places, [s for s in range(self.players) if places[s] == 1]

    def outcome(self) -> Outcome:
        _, places, _ = self.result()
        return Outcome(tuple(self.scores), tuple(places), self.ended_by)

    def observation(self, seat: int) -> tuple[object, ...]:
        # The big round's secret: all of it for the ghost, nothing for anyone else.
        secret = None if self.phase in (GHOST, OVER) or seat != self.ghost else (
            self.ghost, tuple(sorted(self.targets)), self.phase == TARGETS)
        public = tuple((e.seat, e.choice.action, e.answer, e.confirms) for e in self.history)
        pending = self.pending.action if self.pending is not None else None
        # A finished big round is shown in full (the ghost and its targets come out).
        return (START if self.phase == TARGETS else self.phase, self.die,
                tuple(self.scores), tuple(self.big_rounds), secret,
                self.start if self.phase >= TURN else None,
                tuple(self.markers) if self.markers is not None else None,
                self.turn_index, len(self.actions), self.actions[-1:] == [PASS_ACTION], public,
                pending)

    def resample(self, seat: int, rng: random.Random) -> TisiguiState:
        """The ghost and its targets drawn again, uniformly among those every answer of the
        big round so far allows (only the ghost's own answers may be false), the ghost never
        ``seat``; the ghost's view is the whole truth, and is kept."""
        other = self.clone()
        if self.phase in (GHOST, OVER, ROLL) or seat == self.ghost:
            return other
        fits = self._fits(seat)  # before the targets are chosen, all with none
        other.ghost, other.mask = fits[rng.randrange(len(fits))]
        other.targets = frozenset(s for s in range(self.players) if other.mask >> s & 1)
        return other

    def _fits(self, seat: int) -> list[tuple[int, int]]:
        history = self.history
        key = (seat, len(history), self.phase)
        cached = self.__dict__.get("_fits_cache")
        if cached is not None and cached[0] == key:
            return cached[1]  # type: ignore[no-any-return]
        n = self.players
        always_no = self.rules.ghost_own_naming == "always_no"
        out = []
        for ghost in range(n):
            if ghost == seat:
                continue
            for mask in range(1 << n) if self.phase != TARGETS else (0,):
                if all(allows(e.seat, e.choice, e.answer, ghost, mask, always_no)
                       for e in history):
                    out.append((ghost, mask))
        if not out:  # the truth always fits; kept as a guard
            out.append((self.ghost, self.mask))
        self.__dict__["_fits_cache"] = (key, out)
        return out
