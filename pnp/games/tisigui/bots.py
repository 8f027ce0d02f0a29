"""替死鬼 (tisigui): the bots, choosing among legal actions from what their seat may know."""

from __future__ import annotations

import random
from bisect import bisect
from collections.abc import Iterable
from typing import NamedTuple, Protocol

from pnp.games.draws import shuffle
from pnp.games.kit import Action, BotKind, Match
from pnp.games.tisigui.choices import (
    NO_TARGETS,
    PASS,
    Choice,
    Question,
    answered,
    asking,
    mask_of,
    naming,
)
from pnp.games.tisigui.deduce import DOUBT, Deductions
from pnp.games.tisigui.ghost_answers import judge_answers
from pnp.games.tisigui.machine import ANSWER, START, TARGETS, TURN, TisiguiState
from pnp.games.tisigui.rules import TisiguiRules, no_targets_points
from pnp.games.tisigui.target_sets import POSTERIOR, Weighed, chance_all, size_chances_of, tables
from pnp.games.tisigui.turns import STOP, truth_of


class View(NamedTuple):
    """What a bot may know when it decides: public play plus its own secret.

    An immutable tuple rather than a frozen dataclass: one is built for every decision of
    every game, and a tuple is several times cheaper to build.
    """

    rules: TisiguiRules
    players: int
    seat: int
    ghost: int | None  # known only to the ghost itself
    targets: frozenset[int] | None  # ditto
    confirmed: tuple[int, ...]
    small_round: int
    round_value: int
    rounds_left: int  # small rounds after this one
    markers_left: int | None  # own markers before this action; None = no markers in use
    acted: int  # actions already taken on this turn
    can_stop: bool
    can_pass: bool
    # What the table deduces from the big round's public play, kept up to date by the game
    # (the same for every seat: it is public)
    deductions: Deductions

    @property
    def is_ghost(self) -> bool:
        return self.ghost == self.seat

    @property
    def unconfirmed(self) -> list[int]:
        return [s for s in range(self.players) if s not in self.confirmed]

    def actions_possible(self) -> int:
        """Actions this player may still take on this turn, this one included."""
        cap = self.rules.actions_per_turn[1] - self.acted
        return cap if self.markers_left is None else min(cap, self.markers_left)


class Bot(Protocol):
    name: str

    def choose_targets(self, view: View, rng: random.Random) -> Iterable[int]: ...

    def choose_start(self, view: View, rng: random.Random) -> int: ...

    def next_action(self, view: View, rng: random.Random) -> Choice | None:
        """The next action, or None to end the turn (only when ``view.can_stop``)."""

    def ghost_answer(
        self, view: View, choice: Choice, truth: bool | None, rng: random.Random
    ) -> bool:
        """The answer the ghost shows for its own action."""


class RandomBot:
    """Any legal move, uniformly-ish: a baseline and a fuzzer for replay."""

    name = "random"

    def choose_targets(self, view: View, rng: random.Random) -> Iterable[int]:
        return [s for s in range(view.players) if rng.random() < 0.5]

    def choose_start(self, view: View, rng: random.Random) -> int:
        return rng.randrange(view.players)

    def next_action(self, view: View, rng: random.Random) -> Choice | None:
        if view.can_stop and rng.random() < 0.5:
            return None
        if view.can_pass and rng.random() < 0.3:
            return PASS
        unconfirmed = view.unconfirmed
        seats = range(view.players)
        kinds = ["question", "question", "no_targets"] + (["name", "name"] if unconfirmed else [])
        kind = rng.choice(kinds)
        if kind == "no_targets":
            return NO_TARGETS
        if kind == "name":
            limit = min(len(unconfirmed), view.rules.max_named_per_action or view.players, 3)
            named = sorted(rng.sample(unconfirmed, rng.randint(1, limit)))
            return Choice("name", tuple(named))
        roll = rng.random()
        if roll < 0.4:
            question = Question("is_target", about=rng.randrange(view.players))
        elif roll < 0.7:
            size = rng.randint(1, view.players)
            question = Question("any_target", among=tuple(sorted(rng.sample(seats, size))))
        elif roll < 0.85:
            question = Question("target_count", value=rng.randint(0, view.players))
        else:
            question = Question("is_ghost", about=rng.randrange(view.players))
        return Choice("question", question=question)

    def ghost_answer(
        self, view: View, choice: Choice, truth: bool | None, rng: random.Random
    ) -> bool:
        return rng.random() < 0.5


# How sure a greedy player must be before naming or asking "no targets?" on a turn that is
# not their last chance; below it they ask a question instead.
SURE = 0.8
# On their last chance a greedy player names a group only at even odds or better.
EVEN_ODDS = 0.5


class GreedyBot:
    """A reasonable player, not a perfect one.

    As a player it weighs every target set by the public answers (``Deductions``): its own
    answers are certain, anyone else's only believed (any of them may be the ghost). It
    names the likeliest seats together once sure enough (the score multiplies) and asks
    "no targets?" once sure enough of that; on its last chance it takes the best bet.
    Otherwise it checks a hunch, "is my likeliest seat a target?", so that a "yes" can be
    named with its second marker; with markers to spare it opens with "exactly N targets?".
    It never names again a set already answered X (nor a larger one) unless that answer
    has become near certainly a lie.

    As the ghost it takes as many targets as the players expect, starts every small round
    itself, and on its own turns says whatever leaves its targets least suspected by the
    table as a whole: usually a false "no" about its best-hidden target, or a false "yes"
    when it took nobody. A pass shows who the ghost is, so it passes once unmasked, or when
    every answer it could give would leave its targets more suspected still.
    """

    name = "greedy"

    def __init__(self) -> None:
        self._answer: tuple[Choice, bool] | None = None
        self._targets: frozenset[int] | None = None
        self._targets_mask = 0
        self._rules: TisiguiRules | None = None
        self._rules_id = 0

    def choose_targets(self, view: View, rng: random.Random) -> Iterable[int]:
        # As many targets as the players expect (the weights they reason with), anyone:
        # the prior the players weigh with, one draw.
        t = tables(view.players)
        return t.members[bisect(t.prior_cumulative, rng.random() * t.prior_cumulative[-1])]

    def choose_start(self, view: View, rng: random.Random) -> int:
        # The ghost starts every small round itself, to plant a lie before anyone has asked.
        return view.seat

    def next_action(self, view: View, rng: random.Random) -> Choice | None:
        seat = view.seat
        if view.ghost == seat:
            return self._ghost_action(view, rng)
        d = view.deductions
        # Worked in the start player's frame, as the deductions are: a position met with
        # the table turned is the same position.
        here = d.to_here
        weighed = d.weighed_here(here[seat], DOUBT)
        marginal = weighed[POSTERIOR][2]
        if not marginal:  # no weight left: cannot happen while answers are honest; stay legal
            unconfirmed = view.unconfirmed
            return Choice("name", (unconfirmed[0],)) if unconfirmed else NO_TARGETS
        # The unconfirmed seats in a random order (one draw), then likeliest first: the
        # sort is stable, so equally likely seats stay in random order.
        orders = d.orders()
        if orders:
            order = list(orders[int(rng.random() * len(orders))])
        else:  # more than six seats: too many orders to list
            order = [s for s in range(view.players) if not d.confirmed >> s & 1]
            shuffle(order, rng)
        order.sort(key=marginal.__getitem__, reverse=True)
        # The plan is a pure function of the position (``weighed``), the order and the few
        # numbers below: remembered with the position, as positions recur game after game.
        # Below the chance of any bet on two seats (``_decide``'s floor) it reads only the
        # likeliest seat, so the order of the others (mostly a draw among equals) is left
        # out of the key and the plan serves every such draw.
        rules = view.rules
        if rules is not self._rules:
            self._rules = rules
            self._rules_id = _rules_id(rules, view.players)
        top = marginal[order[0]] if order else 0.0
        below_floor = top < EVEN_ODDS or (top < SURE and not _last_chance(view))  # as _decide's
        head: object = order[0] if order and below_floor else tuple(order)
        key = (head, view.round_value, view.markers_left, view.rounds_left, view.acted,
               view.can_stop, d.spoke >> here[seat] & 1, d.count_asked, d.failed_bits,
               self._rules_id)
        plan = weighed.get(key)
        if plan is None:
            plan = weighed[key] = self._decide(view, d, weighed, order)
        code, value = plan
        if code == _NAME:
            return naming(tuple(sorted(map(d.to_table.__getitem__, order[:value]))))
        if code == _HUNCH:
            return asking("is_target", d.to_table[order[0]])
        if code == _NO_TARGETS:
            return NO_TARGETS
        if code == _COUNT:
            return asking("target_count", value)
        return None

    def _decide(self, view: View, d: Deductions, weighed: Weighed,
                order: list[int]) -> Plan:
        """The plan, the start player's frame: ``order`` holds the unconfirmed seats,
        likeliest target first."""
        n = view.players
        rules = view.rules
        weights, total, marginal = weighed[POSTERIOR]
        t = tables(n)
        last_chance = _last_chance(view)
        # A bet below this chance is never taken (see below); naming one more seat never
        # raises the chance, so the first naming below it ends the list.
        floor = EVEN_ODDS if last_chance else SURE

        # (expected points, chance, seats named: the first k of ``order``, 0 for "no targets?")
        bets: list[tuple[float, float, int]] = []
        if not d.confirmed:
            empty = weights[0] / total
            bets.append((empty * no_targets_points(rules, n), empty, 0))
        limit = rules.max_named_per_action or n
        covered = d.covered
        value = view.round_value
        times = rules.naming_times_named  # unchecked_naming_points, inlined
        named = 0
        for k, seat in enumerate(order[:limit], 1):
            named |= 1 << seat
            if k == 1:
                chance = marginal[seat]  # the same sum over the same masks as chance_all
            else:
                found = weighed.get(named)
                chance = chance_all(weighed, t, named) if found is None else found
            if chance <= 0:
                break
            # A set answered X before is left out unless near certain now; one seat is bet
            # on even below the floor (a last chance takes the best single seat).
            if (chance >= floor or k == 1) and not (chance < 0.9 and covered[named]):
                bets.append((chance * (value * k if times else value), chance, k))
            if chance < floor:
                break
        sure = [b for b in bets if b[1] >= SURE]
        if sure:
            return self._bet(max(sure, key=lambda b: b[0]))
        if last_chance:
            # No long shots on a multiplied score: a group is named only if it is even odds.
            fair = [b for b in bets if b[1] >= EVEN_ODDS or b[2] <= 1]
            best = max(fair, key=lambda b: b[0], default=None)
            if best is not None and best[0] > 0:
                return self._bet(best)
        spare = view.markers_left is not None and view.markers_left > view.rounds_left
        if view.acted and view.can_stop and not spare:
            return _STOP, 0
        return self._question(view, d, weighed)

    @staticmethod
    def _bet(bet: tuple[float, float, int]) -> Plan:
        named = bet[2]
        return (_NAME, named) if named else (_NO_TARGETS, 0)

    def _question(self, view: View, d: Deductions, weighed: Weighed) -> Plan:
        """A hunch checked: "is my likeliest seat a target?", so a "yes" can be named at once.

        With markers to spare a player opens the big round with "do you take exactly N?" (N
        the likeliest count), as in the rules' example, unless someone asked the count already.
        """
        n = view.players
        plenty = (view.markers_left or 0) * (n - 1) >= 2 * n  # never without markers
        if plenty and not (d.spoke >> d.to_here[view.seat] & 1 or d.count_asked):
            counts = size_chances_of(weighed, n)
            likeliest = max(range(n + 1), key=lambda k: counts[k])
            if 0.25 <= counts[likeliest] <= 0.75:
                return _COUNT, likeliest
        return _HUNCH, 0

    # -- the ghost ----------------------------------------------------------------------

    def _ghost_action(self, view: View, rng: random.Random) -> Choice | None:
        d = view.deductions
        # In the frame of the big round's start player, as the deductions are (what the
        # ghost judges is then shared by big rounds that differ by a turn of the table).
        here = d.to_here[view.seat]
        targets = view.targets
        if targets is not self._targets:  # the same set all big round: its mask, once
            self._targets = targets
            self._targets_mask = mask_of(targets or ())
        hidden = d.mask(self._targets_mask) & ~d.confirmed
        if d.ghost == here:
            # Unmasked: nothing it says counts any more.
            if view.acted:
                return None
            if view.can_pass:
                return PASS
            return self._plan(asking("is_ghost", view.seat), False)
        now, options, least, ties = judge_answers(d, here, hidden, view.can_pass)
        if view.acted and least > now - 0.1:
            return None
        # The least dangerous answer; one draw picks among equals.
        kind, _, answer, seats = options[
            ties[int(rng.random() * len(ties))] if len(ties) > 1 else ties[0]]
        if kind == "pass":
            return PASS
        if kind == "no_targets":
            return self._plan(NO_TARGETS, answer)
        if kind == "all":
            question = asking("is_target", d.table_seat(seats[0]))
        else:
            question = asking("any_target", tuple(sorted(map(d.table_seat, seats))))
        return self._plan(question, answer)

    def _plan(self, choice: Choice, answer: bool) -> Choice:
        self._answer = (choice, answer)
        return choice

    def ghost_answer(
        self, view: View, choice: Choice, truth: bool | None, rng: random.Random
    ) -> bool:
        if self._answer is not None and self._answer[0] is choice:
            return self._answer[1]
        # A "yes" to its own naming would confirm nobody and so unmask the ghost.
        return False if choice.kind != "question" or truth is None else truth


def _last_chance(view: View) -> bool:
    """Whether this is the greedy player's last action of the big round."""
    return view.markers_left == 1 or (view.rounds_left == 0 and view.actions_possible() == 1)


# A greedy player's plan, in terms of its order of the unconfirmed seats (likeliest
# first): (code, value): stop the turn, name the first ``value`` seats, ask "no targets?",
# ask "exactly ``value`` targets?", or ask whether the first seat is a target.
Plan = tuple[int, int]
_STOP, _NAME, _NO_TARGETS, _COUNT, _HUNCH = range(5)

_RULES_IDS: dict[tuple[object, ...], int] = {}


def _rules_id(rules: TisiguiRules, n: int) -> int:
    """A small number for everything a greedy player's decision reads of the rules."""
    key = (no_targets_points(rules, n), rules.naming_times_named, rules.max_named_per_action,
           rules.actions_per_turn[1])
    return _RULES_IDS.setdefault(key, len(_RULES_IDS))



# --------------------------------------------------------------------------- the kit's styles


def setup_view(state: TisiguiState) -> View:
    """What the ghost knows while it sets up the big round."""
    return View(rules=state.rules, players=state.players, seat=state.ghost, ghost=state.ghost,
                targets=state.targets, confirmed=(), small_round=0, round_value=state.values[0],
                rounds_left=len(state.values), markers_left=None, acted=0, can_stop=False,
                can_pass=False, deductions=state.public)


_new_tuple = tuple.__new__


class Style:
    """A hand-written bot at one seat of the kit's play loop: each of the state's steps
    asked of the bot as play always asked it."""

    def __init__(self, bot: Bot) -> None:
        self.bot = bot

    def choose(self, match: Match, seat: int, rng: random.Random) -> Action:
        state: TisiguiState = match.state  # type: ignore[assignment]
        phase = state.phase
        bot = self.bot
        if phase in (TURN, ANSWER):
            # What the player on turn knows (the ghost its secret too), built for every action
            # as the tuple it is (a named tuple's own __new__ is a Python function: a frame a
            # decision), in View's order.
            seat, ghost = state.seat, state.ghost
            secret = seat == ghost
            acted = len(state.actions)
            small_round = state.small_round
            markers = state.markers
            view = _new_tuple(View, (
                state.rules, state.players, seat, ghost if secret else None,
                state.targets if secret else None, state.confirmed, small_round,
                state.round_value, len(state.values) - small_round,
                markers[seat] if markers is not None else None, acted, acted >= state.lo,
                secret and state.rules.ghost_may_pass and not acted, state.public))
            if phase == ANSWER:  # a question no rule can check, asked of the ghost
                asked = state.pending
                assert asked is not None
                return "yes" if bot.ghost_answer(view, asked, None, rng) else "no"
            choice = bot.next_action(view, rng)
            if choice is None:
                return STOP
            action: Action = choice.action
            if secret and choice.kind != "pass" and state.forced_answer(choice) is None:
                # The ghost's own action: the answer it shows goes with it.
                truth = truth_of(choice.test, ghost, state.mask)
                action = answered(choice, bool(bot.ghost_answer(view, choice, truth, rng)))
            return action
        if phase == TARGETS:
            chosen = set(bot.choose_targets(setup_view(state), rng))
            return ("targets", tuple(sorted(chosen)))
        if phase == START:
            return ("start", bot.choose_start(setup_view(state), rng))
        raise ValueError(f"seat {seat} has no step to take")


STYLES = {
    "greedy": BotKind("greedy", lambda budget: Style(GreedyBot()),
                      "weighs the target sets by the answers; as the ghost, lies to hide them"),
    "random": BotKind("random", lambda budget: Style(RandomBot()), "any legal move, uniformly-ish"),
}
