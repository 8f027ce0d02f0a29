"""替死鬼 (tisigui) written to the engine kit: one state per game, driven by pnp's play loop.

A thin layer over ``state.Game``, which keeps the rules and the typed log. Each big round:
chance names the ghost (``rng.randrange(n)``, as play always drew it); the ghost chooses its
targets (``("targets", seats)``) and, where the ghost picks it, the start player
(``("start", seat)``; otherwise chance rolls it). Then every turn, the player on turn takes
actions one at a time (``Choice.action``: a question, a naming, "no targets?", the ghost's
pass) until the turn is full or they ``"stop"``. The ghost's own action carries the answer
it shows (``("no", "question", "is_target", 2)``): on its turn it decides both at once. The
answer to a question no rule can check, asked by another seat, is the ghost's step, ``"yes"``
or ``"no"``. A big round played at a value that asks for it ends with chance rolling the small
die. The ghost and its targets are hidden from every other seat.

``apply`` returns the big round just finished (``log.BigRound``, every action of it with its
points and confirmations) when a step finishes one, else nothing: the log is the big rounds.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from itertools import combinations
from typing import Any, cast

from pnp.games.kit import CHANCE, Action, Outcome
from pnp.games.tisigui.choices import (
    ANSWERS,
    READ_ACTIONS,
    TRUE_IF_ALL,
    TRUE_IF_ANY,
    TRUE_IF_COUNT,
    TRUE_IF_GHOST,
    TRUE_IF_NONE,
    Choice,
    answered,
    read_action,
)
from pnp.games.tisigui.deduce import Deductions
from pnp.games.tisigui.log import BigRound
from pnp.games.tisigui.rules import TisiguiRules
from pnp.games.tisigui.state import UNKNOWN, Deal, Game, Unknown

# What the next step is
GHOST, TARGETS, START, TURN, ANSWER, ROLL, OVER = range(7)
STOP = "stop"


class Legal(list[Action]):
    """The legal actions, listed (sorted seat lists only, no question in free words); ``in``
    asks the rules, so a log's unsorted ``among`` or worded question is legal too."""

    def __init__(self, items: Sequence[Action], test: Any) -> None:
        super().__init__(items)
        self.test = test

    def __contains__(self, action: object) -> bool:
        return bool(self.test(action))


_NOBODY_YET = Deductions(3)
_BY_ID: dict[int, tuple[Action, tuple[Choice, bool | None]]] = {}


class TisiguiState:
    """The game, the public deductions and whose step is next (see the module's docstring)."""

    def __init__(self, rules: TisiguiRules, players: int) -> None:
        self.rules, self.players = rules, players
        self.game = Game(rules, players)
        self.phase = GHOST
        self.ghost = 0
        self.targets: frozenset[int] = frozenset()
        self.public = _NOBODY_YET  # the big round's deductions, made once its start is known
        self.confirmed: tuple[int, ...] = ()  # game.confirmed as the views show it
        self.pending: Choice | None = None  # an action waiting for the ghost's answer
        self.ghost_picks = rules.start_player == "ghost_picks"
        self.ended_by = ""

    def clone(self) -> TisiguiState:
        other = object.__new__(TisiguiState)
        other.__dict__.update(self.__dict__)
        game = other.game = object.__new__(Game)
        game.__dict__.update(self.game.__dict__)
        for name in ("scores", "big_rounds", "confirmed", "history", "turns", "actions"):
            setattr(game, name, list(getattr(game, name)))
        if game.markers is not None:
            game.markers = list(game.markers)
        other.public = self.public.copy()
        return other

    # -- whose step ---------------------------------------------------------------------

    def to_move(self) -> int:
        phase = self.phase
        if phase == TURN:
            return self.game.seat
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
        return Legal(self._turn_actions(), self._action_ok)

    def _turn_actions(self) -> list[Action]:
        game, n = self.game, self.players
        ghost = game.seat == self.ghost
        key = (n, self.rules.max_named_per_action, self.rules.ghost_own_naming, game.confirmed_mask,
               len(game.actions) >= game.lo, game.can_pass, ghost)
        found = _TURN_ACTIONS.get(key)
        if found is None:
            found = _TURN_ACTIONS[key] = _turn_actions(*key)
        return found


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
        if action == STOP:
            return None if len(self.game.actions) >= self.game.lo else (
                f"{len(self.game.actions)} actions, at least {self.game.lo} required")
        read = read_action(action)
        if read is None:
            return "not an action of tisigui"
        choice, shown = read
        problems = self.game.check(choice)
        if problems:
            return problems[0].message
        if choice.kind == "pass":
            return None if shown is None else "a pass shows no answer"
        if self.game.seat == self.ghost and self.game.forced_answer(choice) is None:
            return None if shown is not None else (  # the ghost picks the answer it shows
                'the ghost shows its answer with its own action: ("yes" | "no", ...)')
        return None if shown is None else "only the ghost's own action carries its answer"

    # -- steps -------------------------------------------------------------------------

    def apply(self, action: Action) -> Sequence[BigRound]:
        phase = self.phase
        if phase in (TURN, ANSWER):
            game = self.game
            if phase == ANSWER:  # the ghost's answer to the question waiting for it
                choice = cast(Choice, self.pending)
                answer: bool | None = action == "yes"
                truth: bool | None | Unknown = UNKNOWN
                self.pending, self.phase = None, TURN
            else:
                if action == STOP:
                    game.end_turn()
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
                    game.push(choice, None)
                    game.end_turn()
                    return self._next_turn()
                # Game.forced_answer and the truth Game.push scores by, worked out once:
                # another seat answers the truth, which is None where no rule can check it
                # (then the ghost answers).
                truth = game.truth(choice)
                if game.seat != self.ghost:
                    answer = truth
                else:
                    answer = game.forced_answer(choice)
                    if answer is None:
                        answer = shown  # the ghost's own action carries its answer
                if answer is None:
                    self.pending, self.phase = choice, ANSWER
                    return ()
            # Taken, scored and seen by the table; the turn ends when it is full.
            if game.push(choice, answer, truth).confirms:
                self.confirmed = tuple(game.confirmed)
            self.public.observe(game.history[-1])
            markers = game.markers
            if (game.end is not None or (markers is not None and markers[game.seat] == 0)
                    or len(game.actions) >= game.hi):
                game.end_turn()
                if game.end is None and game.turn_index < game.turns_in_full:  # _next_turn's
                    game.begin_turn()  # first step, inlined: most turns follow another
                    if markers is None or markers[game.seat]:
                        return ()
                    game.end_turn()
                return self._next_turn()
            return ()
        if phase == GHOST:
            self.ghost, self.phase = action, TARGETS  # type: ignore[assignment]
            self.targets = frozenset()
            self.game.begin_big_round(self.ghost, frozenset(), 0)
            return ()
        if phase == TARGETS:
            self.targets, self.phase = frozenset(action[1]), START  # type: ignore[index]
            return ()
        if phase == START:
            start = action[1] if type(action) is tuple else action
            self.game.begin_big_round(self.ghost, self.targets, start)  # type: ignore[arg-type]
            self.public, self.confirmed = Deductions(self.players, start), ()  # type: ignore[arg-type]
            return self._next_turn()
        if phase == ROLL:
            return self._end_big_round(action)  # type: ignore[arg-type]
        raise ValueError("the game is over")

    def _next_turn(self) -> Sequence[BigRound]:
        """The next turn whose player may act (turns without markers pass by, logged empty);
        none left ends the big round, with a roll where the rules ask for one."""
        game = self.game
        markers = game.markers
        while game.end is None and game.turn_index < game.turns_in_full:
            game.begin_turn()
            if markers is None or markers[game.seat]:
                self.phase = TURN
                return ()
            game.end_turn()
        if game.needs_roll:
            self.phase = ROLL
            return ()
        return self._end_big_round(None)

    def _end_big_round(self, roll: int | None) -> Sequence[BigRound]:
        game = self.game
        die = game.die
        done = game.end_big_round(roll)
        if game.over:
            self.phase = OVER
            self.ended_by = "big_die_at_one" if die <= 1 else "roll_above_die"
        else:
            self.phase = GHOST
        return (done,)

    # -- the end and what each seat sees ------------------------------------------------

    def is_over(self) -> bool:
        return self.phase == OVER

    def outcome(self) -> Outcome:
        _, places, _ = self.game.result()
        return Outcome(tuple(self.game.scores), tuple(places), self.ended_by)

    def view_of_ghost(self, seat: int) -> tuple[object, ...] | None:
        """The big round's secret as ``seat`` knows it: all of it for the ghost, else None."""
        if self.phase in (GHOST, OVER) or seat != self.ghost:
            return None
        return (self.ghost, tuple(sorted(self.targets)), self.phase == TARGETS)

    def observation(self, seat: int) -> tuple[object, ...]:
        game = self.game
        secret = self.view_of_ghost(seat)
        public = tuple((e.seat, e.choice.action, e.answer, e.confirms) for e in game.history)
        pending = self.pending.action if self.pending is not None else None
        # A finished big round is shown in full (the ghost and its targets come out).
        return (START if self.phase == TARGETS else self.phase, game.die,
                tuple(game.scores), tuple(game.big_rounds), secret,
                game.start if self.phase >= TURN else None,
                tuple(game.markers) if game.markers is not None else None,
                game.turn_index, len(game.actions), game.passed, public, pending)

    def resample(self, seat: int, rng: random.Random) -> TisiguiState:
        """The ghost and its targets drawn again, uniformly among those every answer of the
        big round so far allows (only the ghost's own answers may be false), the ghost never
        ``seat``; the ghost's view is the whole truth, and is kept."""
        other = self.clone()
        if self.phase in (GHOST, OVER, ROLL) or seat == self.ghost:
            return other
        fits = self._fits(seat)
        ghost, mask = fits[rng.randrange(len(fits))]
        other.ghost = ghost
        if self.phase == TARGETS:  # not chosen yet
            return other
        other.targets = frozenset(s for s in range(self.players) if mask >> s & 1)
        game = other.game
        game.deal = Deal(self.players, ghost, other.targets)
        return other

    def _fits(self, seat: int) -> list[tuple[int, int]]:
        history = self.game.history
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
                if all(_allows(e.seat, e.choice, e.answer, ghost, mask, always_no)
                       for e in history):
                    out.append((ghost, mask))
        if not out:  # the truth always fits; kept as a guard
            out.append((self.ghost, sum(1 << s for s in self.targets)))
        self.__dict__["_fits_cache"] = (key, out)
        return out


_TURN_ACTIONS: dict[tuple[Any, ...], list[Action]] = {}


def _turn_actions(n: int, most: int | None, own_naming: str, confirmed: int, may_stop: bool,
                  may_pass: bool, ghost: bool) -> list[Action]:
    """Every action of a turn, listed (shared by every turn alike: read, never changed)."""
    out: list[Action] = [STOP] if may_stop else []
    if may_pass:
        out.append("pass")
    seats = range(n)
    asked: list[Action] = [("question", asks, s) for asks in ("is_target", "is_ghost")
                           for s in seats]
    asked += [("question", "target_count", k) for k in range(n + 1)]
    asked += [("question", "any_target", among) for k in range(2, n + 1)
              for among in combinations(seats, k)]
    free = [s for s in seats if not confirmed >> s & 1]
    claims: list[Action] = ["no_targets"]
    claims += [("name", named) for k in range(1, min(most or n, len(free)) + 1)
               for named in combinations(free, k)]
    # The ghost's own action carries the answer it shows (its namings' only where it may
    # say yes to them).
    for actions, shown in ((claims, ghost and own_naming != "always_no"), (asked, ghost)):
        if not shown:
            out += actions
            continue
        for action in actions:
            read = read_action(action)
            assert read is not None
            out += [answered(read[0], True), answered(read[0], False)]
    return out


def _allows(seat: int, choice: Choice, answer: bool | None, ghost: int, mask: int,
            always_no: bool) -> bool:
    """Whether an action seen at the table could have happened with this ghost and these
    targets: the ghost alone passes and may answer anything (in classic, never yes to its
    own naming); every other seat's answer is the truth."""
    if choice.kind == "pass":
        return seat == ghost
    if seat == ghost:
        return not (always_no and answer and choice.kind != "question")
    code, value = choice.test
    if code == TRUE_IF_ALL:
        truth = mask & value == value
    elif code == TRUE_IF_ANY:
        truth = mask & value != 0
    elif code == TRUE_IF_COUNT:
        truth = mask.bit_count() == value
    elif code == TRUE_IF_GHOST:
        truth = value == ghost
    elif code == TRUE_IF_NONE:
        truth = mask == 0
    else:  # TRUTH_UNKNOWN
        return True
    return answer == truth
