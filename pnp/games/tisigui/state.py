"""替死鬼 (tisigui): the game as one state machine, ``Game``, writing the typed event log of ``log.py``.

``Game`` knows the rules and nothing else: who plays next, what is legal (``check``), what an
action earns (``push``). It never chooses. Play drives it with bots' choices and replay with a
log's, so both run exactly the same rules. ``check`` reports problems instead of raising: the
replay quotes the first, the rulebook's scripted games all of them.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from functools import cached_property
from typing import Literal, NamedTuple

from pnp.games.params import is_integer
from pnp.games.tisigui.choices import (
    TRUE_IF_ALL,
    TRUE_IF_ANY,
    TRUE_IF_COUNT,
    TRUE_IF_GHOST,
    TRUE_IF_NONE,
    Choice,
    is_well_formed,
    mask_of,
)
from pnp.games.tisigui.log import PASS_ACTION, Action, BigRound, Turn
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


@dataclass(frozen=True)
class Deal:
    """A big round's secret: who the ghost is and whom it means to take."""

    players: int
    ghost: int
    targets: frozenset[int]

    @cached_property
    def mask(self) -> int:
        return mask_of(self.targets)


# --------------------------------------------------------------------------------------------
# What the bots see of each action


class Event(NamedTuple):
    """One action as everyone at the table saw it (the bots' history, not the log: a tuple,
    cheaper to build than a frozen dataclass, one per action)."""

    seat: int
    choice: Choice
    answer: bool | None
    confirms: tuple[int, ...]


# --------------------------------------------------------------------------------------------
# The state machine

# Actions already built, by (choice identity, answer, points, truth, confirmations): see
# ``Game.push``. Bounded: a replayed log brings new choices every action.
_ACTIONS: dict[tuple[int, bool | None, int, bool | None, tuple[int, ...]], tuple[Choice, Action]] = {}
_ACTIONS_KEPT = 4096


class Unknown(Enum):
    """``Game.push``'s default for a truth its caller has not worked out."""

    UNKNOWN = 0


UNKNOWN = Unknown.UNKNOWN


@dataclass(frozen=True)
class Problem:
    """A broken rule: on the whole turn, or on one action's ``field`` ("" = the action)."""

    scope: Literal["turn", "action"]
    field: str
    message: str


class Game:
    """A whole game: big rounds of turns of actions, each checked and scored as pushed.

    The caller's loop: ``begin_big_round``; while ``next_turn()``: ``begin_turn``, then
    ``check``/``push`` actions while ``can_act``, then ``end_turn``; ``end_big_round(roll)``;
    until ``over``. ``deal`` holds the secret; bots see it only through their views.
    """

    def __init__(self, rules: TisiguiRules, players: int) -> None:
        self.rules = rules
        self.n = players
        self.row = setup_for(rules, players)
        self.values = row_round_values(rules, self.row)
        self.turns_in_full = len(self.values) * players
        self.lo, self.hi = rules.actions_per_turn
        self.question_markers = self.row.question_markers if rules.use_question_markers else None
        self.scores = [0] * players
        self.die = first_big_die(rules, players)
        self.big_rounds: list[BigRound] = []
        self.over = False
        self.last_start = 0
        # The big round under way
        self.deal = Deal(players, 0, frozenset())
        self.start = 0
        self.markers: list[int] | None = None
        self.confirmed: list[int] = []
        self.confirmed_mask = 0
        self.history: list[Event] = []
        self.turns: list[Turn] = []
        self.end: End | None = None
        self.turn_index = 0
        # The turn under way
        self.seat = 0
        self.small_round = 0
        self.round_value = self.values[0] if self.values else 0
        self.actions: list[Action] = []
        self.markers_at_start: int | None = None
        self.cap = self.hi  # actions this turn may hold: the rules' most, or the markers left
        self.passed = False

    # -- big rounds -----------------------------------------------------------------------

    @property
    def needs_roll(self) -> bool:
        """Whether the big round now being played ends with a roll of the small die."""
        return big_round_needs_roll(self.rules, self.die)

    def begin_big_round(self, ghost: int, targets: frozenset[int], start: int) -> None:
        self.deal = Deal(self.n, ghost, targets)
        self.start = start
        per = self.row.question_markers or 0
        self.markers = [per] * self.n if self.rules.use_question_markers else None
        self.confirmed = []
        self.confirmed_mask = 0
        self.history = []
        self.turns = []
        self.end = None
        self.turn_index = 0

    def next_turn(self) -> tuple[int, int, int] | None:
        """(small round, its value, seat) of the next turn, or None once the big round is done."""
        t = self.turn_index
        if self.end is not None or t >= self.turns_in_full:
            return None
        return t // self.n + 1, self.values[t // self.n], (self.start + t) % self.n

    def end_big_round(self, roll: int | None) -> BigRound:
        deal = self.deal
        end: End = self.end or "rounds_out"
        points = ghost_points(self.rules, self.n, len(self.confirmed)) if self.end is None else 0
        self.scores[deal.ghost] += points
        done = BigRound(
            big_die=self.die,
            ghost=deal.ghost,
            targets=tuple(sorted(deal.targets)),
            start=self.start,
            question_markers=self.question_markers,
            turns=tuple(self.turns),
            confirmed=tuple(self.confirmed),
            end=end,
            ghost_points=points,
            roll=roll,
            scores_after=tuple(self.scores),
        )
        self.big_rounds.append(done)
        self.last_start = self.start
        self.over = is_last_big_round(self.rules, self.die, roll)
        self.die -= 1
        return done

    def result(self) -> tuple[list[int], list[int], list[int]]:
        """(ranking, places, winners) on the scores so far."""
        ranking, places = rank(self.rules, self.scores, self.last_start)
        return ranking, places, [s for s in range(self.n) if places[s] == 1]

    # -- turns ----------------------------------------------------------------------------

    def begin_turn(self) -> None:
        t = self.turn_index
        if self.end is not None or t >= self.turns_in_full:
            raise ValueError("the big round is over: no turn to begin")
        n = self.n
        self.small_round = t // n + 1
        self.round_value = self.values[t // n]
        self.seat = (self.start + t) % n
        self.turn_index = t + 1
        self.actions = []
        left = self.markers_at_start = (
            self.markers[self.seat] if self.markers is not None else None
        )
        self.cap = self.hi if left is None else min(self.hi, left)
        self.passed = False

    @property
    def markers_left(self) -> int | None:
        return self.markers[self.seat] if self.markers is not None else None

    @property
    def can_act(self) -> bool:
        """Whether the player on turn may take (another) action."""
        return (
            self.end is None
            and not self.passed
            and self.markers_left != 0
            and len(self.actions) < self.hi
        )

    @property
    def can_pass(self) -> bool:
        return self.seat == self.deal.ghost and self.rules.ghost_may_pass and not self.actions

    def end_turn(self) -> list[Problem]:
        problems = []
        if (
            self.end is None
            and not self.passed
            and self.markers_at_start != 0
            and len(self.actions) < self.lo
        ):
            problems.append(
                Problem("turn", "", f"{len(self.actions)} actions, at least {self.lo} required")
            )
        self.turns.append(
            Turn(self.small_round, self.round_value, self.seat, tuple(self.actions))
        )
        return problems

    # -- actions --------------------------------------------------------------------------

    def check(self, choice: Choice) -> list[Problem]:
        """Every rule ``choice`` would break if the player on turn took it now."""
        if (
            choice.fit <= self.n
            and self.end is None
            and not self.passed
            and len(self.actions) < self.cap
        ):
            # Well formed in itself and room left on the turn: only a naming has more rules.
            if choice.kind != "name":
                return []
            limit = self.rules.max_named_per_action
            if not (choice.test[1] & self.confirmed_mask) and (
                limit is None or len(choice.named) <= limit
            ):
                return []
        return self._check(choice)

    def _check(self, choice: Choice) -> list[Problem]:
        if self.end is not None:
            return [Problem("action", "", f"an action after the big round ended ({self.end})")]
        problems: list[Problem] = []
        kind = choice.kind
        if kind == "pass":
            if not (self.seat == self.deal.ghost and self.rules.ghost_may_pass):
                problems.append(
                    Problem("turn", "", "only the ghost may pass, and only where the rules allow it")
                )
            elif self.actions:
                problems.append(Problem("turn", "", "a pass is the whole turn"))
            return problems
        if self.passed:
            problems.append(Problem("turn", "", "a pass is the whole turn"))
        elif self.markers_at_start == 0:
            problems.append(Problem("turn", "", "a player with no markers left skips the turn"))
        else:
            left = self.markers_at_start
            cap = self.hi if left is None else min(self.hi, left)
            if len(self.actions) >= cap:
                problems.append(Problem("turn", "", f"more than {cap} actions; at most {cap} here"))
        named = choice.named
        n = self.n
        if any(not (is_integer(s) and 0 <= s < n) for s in named) or len(set(named)) != len(
            named
        ):
            problems.append(Problem("action", "named", f"expected distinct seats 0–{n - 1}"))
        if kind == "name":
            if not named:
                problems.append(Problem("action", "named", "a naming names at least one player"))
            limit = self.rules.max_named_per_action
            if limit is not None and len(named) > limit:
                problems.append(
                    Problem("action", "named", f"at most {limit} players may be named at once")
                )
            if again := [s for s in named if s in self.confirmed]:
                problems.append(Problem("action", "named", f"seats {again} are already confirmed"))
        elif kind in ("question", "no_targets"):
            if named:
                problems.append(Problem("action", "named", f"a {kind} names nobody"))
            q = choice.question
            if kind == "question" and q is not None and not is_well_formed(q, n):
                problems.append(Problem("action", "question", "a malformed question"))
        else:
            problems.append(Problem("action", "kind", f"unknown kind {kind!r}"))
        return problems

    def truth(self, choice: Choice) -> bool | None:
        code, value = choice.test
        if code == TRUE_IF_ALL:
            return self.deal.mask & value == value
        if code == TRUE_IF_ANY:
            return self.deal.mask & value != 0
        if code == TRUE_IF_COUNT:
            return len(self.deal.targets) == value
        if code == TRUE_IF_GHOST:
            return value == self.deal.ghost
        if code == TRUE_IF_NONE:
            return not self.deal.targets
        return None  # TRUTH_UNKNOWN

    def forced_answer(self, choice: Choice) -> bool | None:
        """The answer the rules dictate for ``choice``, or None where the ghost picks one."""
        if self.seat != self.deal.ghost:
            return bool(self.truth(choice))
        if choice.kind != "question" and self.rules.ghost_own_naming == "always_no":
            return False
        return None

    def check_answer(self, choice: Choice, answer: bool) -> tuple[bool, list[Problem]]:
        """(the answer the table goes on with, problems) for a shown answer."""
        if self.seat != self.deal.ghost:
            truth = self.truth(choice)
            if truth is not None and answer != truth:
                message = f"only the ghost may lie; the truth is {truth!r}"
                return truth, [Problem("action", "answer", message)]
        elif (
            answer
            and choice.kind != "question"
            and self.rules.ghost_own_naming == "always_no"
        ):
            return answer, [Problem("action", "answer", "the ghost's own namings are always answered X")]
        return answer, []

    def push(self, choice: Choice, answer: bool | None,
             truth: bool | None | Unknown = UNKNOWN) -> Action:
        """Take ``choice`` with the shown ``answer`` (None for a pass); score it; log it.
        ``truth`` is ``self.truth(choice)`` where the caller has worked it out already."""
        if choice.kind == "pass":
            self.passed = True
            self.actions.append(PASS_ACTION)
            return PASS_ACTION
        seat = self.seat
        kind = choice.kind
        if truth is UNKNOWN:
            truth = self.truth(choice)
        newly: tuple[int, ...] = ()
        points = 0
        # The ghost's own actions never score, confirm or end anything: the table cannot
        # trust an answer the ghost may fake.
        if seat != self.deal.ghost and answer:
            if kind == "name":
                newly = tuple(choice.named)
                points = unchecked_naming_points(self.rules, self.round_value, len(newly))
                self.confirmed.extend(newly)
                for s in newly:
                    self.confirmed_mask |= 1 << s
                if self.deal.targets <= set(self.confirmed):
                    self.end = "all_confirmed"
            elif kind == "no_targets":
                points, self.end = no_targets_points(self.rules, self.n), "no_targets"
            self.scores[seat] += points
        if self.markers is not None:
            self.markers[seat] -= 1
        # The same choice with the same outcome is the same (immutable) action: bots share
        # their choices, so most actions of a game were met before. Keyed by the choice's
        # identity, which the entry keeps alive so that it cannot be reused.
        key = (id(choice), answer, points, truth, newly)
        known = _ACTIONS.get(key)
        if known is not None and known[0] is choice:
            action = known[1]
        else:
            action = Action(kind, tuple(choice.named), answer, points, truth, choice.question,
                            newly if kind == "name" else None)
            if len(_ACTIONS) >= _ACTIONS_KEPT:
                _ACTIONS.clear()
            _ACTIONS[key] = (choice, action)
        self.actions.append(action)
        # Built as the tuple it is: a named tuple's __new__ is a Python function.
        self.history.append(tuple.__new__(Event, (seat, choice, answer, newly)))
        return action
