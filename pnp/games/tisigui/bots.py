"""替死鬼 (tisigui): the bots, choosing among legal actions from what their seat may know."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Protocol

from pnp.games.tisigui.rules import (
    TisiguiRules,
    _naming_points,
    no_targets_points,
)
from pnp.games.tisigui.state import (
    NO_TARGETS,
    PASS,
    Choice,
    Event,
    Question,
)


@dataclass(frozen=True)
class View:
    """What a bot may know when it decides: public play plus its own secret."""

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
    history: tuple[Event, ...] = field(default=())

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


# What a player expects the ghost to do when picking targets: a weight per number of targets
# (0, 1, 2, ...), shared out evenly over the target sets of that size.
_SIZE_WEIGHTS = (1.0, 3.0, 3.0, 2.0, 1.0, 0.5, 0.25)

@dataclass(frozen=True)
class _Masks:
    """Per player count: the prior over target masks and lookups the bots reuse."""

    prior: tuple[float, ...]  # weight of each target mask before any answer
    members: tuple[tuple[int, ...], ...]  # the seats in each mask
    holding: tuple[tuple[int, ...], ...]  # per seat, the masks that hold it
    said: dict[tuple[str, int], tuple[tuple[int, ...], tuple[int, ...]]]  # see _said


_MASKS: dict[int, _Masks] = {}


def _masks(n: int) -> _Masks:
    cached = _MASKS.get(n)
    if cached is None:
        members = tuple(tuple(s for s in range(n) if mask >> s & 1) for mask in range(1 << n))
        sizes = [0] * (n + 1)
        for seats in members:
            sizes[len(seats)] += 1
        prior = tuple(
            _SIZE_WEIGHTS[min(len(seats), len(_SIZE_WEIGHTS) - 1)] / sizes[len(seats)]
            for seats in members
        )
        holding = tuple(tuple(m for m in range(1 << n) if m >> s & 1) for s in range(n))
        cached = _MASKS[n] = _Masks(prior, members, holding, {})
    return cached


def _said(n: int, kind: str, value: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """(masks where a statement is false, masks where it is true), cached.

    ``kind`` is ``all`` (every seat of the mask ``value`` is a target), ``any`` (some seat
    of it is) or ``count`` (exactly ``value`` targets).
    """
    table = _masks(n).said
    key = (kind, value)
    cached = table.get(key)
    if cached is None:
        if kind == "all":
            truth = [m & value == value for m in range(1 << n)]
        elif kind == "any":
            truth = [bool(m & value) for m in range(1 << n)]
        else:
            truth = [m.bit_count() == value for m in range(1 << n)]
        cached = table[key] = (
            tuple(m for m, t in enumerate(truth) if not t),
            tuple(m for m, t in enumerate(truth) if t),
        )
    return cached


def _mask(seats: Iterable[int]) -> int:
    out = 0
    for s in seats:
        out |= 1 << s
    return out


class Deductions:
    """What a player makes of one big round's public play.

    Each possible target set T (a bit mask of seats) is weighed by the prior and by the
    answers it would make false. Only the ghost lies, and only on its own turn, but nobody
    knows who the ghost is: a player trusts for certain only their own answers, the answers
    of a seat whose naming confirmed someone (the ghost's namings never confirm), and, once
    the ghost is unmasked (a pass, a "yes" that confirmed nobody or ended nothing), every
    other seat's. Any other seat's answers are only believed: a seat that would have lied
    for T to hold costs T the factor ``doubt``, and a second such seat nearly rules T out,
    since only the ghost lies.

    ``bad[T]`` holds the seats with an answer false under T; a player's own "is X the
    ghost?" answered yes unmasks X for that player alone.
    """

    __slots__ = ("n", "bad", "ghost", "not_ghost", "confirmed", "failed", "ghost_answers",
                 "events")

    def __init__(self, n: int) -> None:
        self.n = n
        self.bad = [0] * (1 << n)
        self.ghost: int | None = None
        self.not_ghost = 0
        self.confirmed = 0
        self.failed: list[int] = []  # masks of namings answered X
        self.ghost_answers: list[tuple[int, int, bool]] = []  # (asker, about, answer)
        self.events = 0

    def copy(self) -> Deductions:
        other = Deductions.__new__(Deductions)
        other.n = self.n
        other.bad = list(self.bad)
        other.ghost = self.ghost
        other.not_ghost = self.not_ghost
        other.confirmed = self.confirmed
        other.failed = list(self.failed)
        other.ghost_answers = list(self.ghost_answers)
        other.events = self.events
        return other

    def _contradicts(self, seat: int, kind: str, value: int, answer: bool) -> None:
        """Mark the masks under which ``seat``'s answer about a statement was false."""
        false, true = _said(self.n, kind, value)
        bit = 1 << seat
        bad = self.bad
        for mask in true if not answer else false:
            bad[mask] |= bit

    def observe(self, event: Event) -> None:
        self.events += 1
        seat, choice, answer = event.seat, event.choice, event.answer
        if choice.kind == "pass":
            self.ghost = seat  # only the ghost may pass
        elif choice.kind == "name":
            named = _mask(choice.named)
            if answer and event.confirms:
                self.confirmed |= named
                self.not_ghost |= 1 << seat
            elif answer:
                self.ghost = seat  # a "yes" that confirms nobody: the ghost's own naming
            else:
                self.failed.append(named)
                self._contradicts(seat, "all", named, False)
        elif choice.kind == "no_targets":
            if answer:
                self.ghost = seat  # a true "no targets" would have ended the big round
            else:
                self.bad[0] |= 1 << seat
        elif choice.kind == "question" and choice.question is not None and answer is not None:
            q = choice.question
            if q.asks == "is_ghost" and q.about is not None:
                self.ghost_answers.append((seat, q.about, answer))
            elif q.asks == "is_target" and q.about is not None:
                self._contradicts(seat, "all", 1 << q.about, answer)
            elif q.asks == "any_target" and q.among:
                self._contradicts(seat, "any", _mask(q.among), answer)
            elif q.asks == "target_count" and q.value is not None:
                self._contradicts(seat, "count", q.value, answer)

    def posterior(self, viewer: int | None = None, doubt: float = 0.0) -> list[float]:
        """Weight of each target mask (unnormalised) as ``viewer`` sees it.

        ``viewer`` is the seat looking, sure of its own answers; None weighs the table as a
        whole (the ghost uses this to judge its lies).
        """
        n = self.n
        prior = _masks(n).prior
        ghost = self.ghost
        if viewer is not None and ghost is None:
            for asker, about, answer in self.ghost_answers:
                if asker == viewer and answer:
                    ghost = about
        sure = self.not_ghost
        if viewer is not None:
            sure |= 1 << viewer
        ignored = 0
        if ghost is not None and ghost != viewer:
            ignored = 1 << ghost
            sure = ((1 << n) - 1) & ~ignored
        # Only the ghost lies: a target set that needs two liars is next to impossible.
        factors = [1.0, doubt] + [doubt * 0.1] * n
        confirmed = self.confirmed
        weights = [0.0] * (1 << n)
        bad = self.bad
        keep = ~ignored
        # Confirmed seats are targets, and the big round goes on, so someone else is too.
        for mask in _said(n, "all", confirmed)[1] if confirmed else range(1 << n):
            b = bad[mask] & keep
            if not b:
                weights[mask] = prior[mask]
            elif not b & sure:
                weights[mask] = prior[mask] * factors[b.bit_count()]
        if confirmed:
            weights[confirmed] = 0.0
        return weights


def _chance_all(weights: Sequence[float], total: float, n: int, named: int) -> float:
    """Chance that every seat in ``named`` is a target."""
    return sum(weights[m] for m in _said(n, "all", named)[1]) / total


def _marginals(
    weights: Sequence[float], total: float, n: int, seats: Iterable[int]
) -> dict[int, float]:
    """Chance of each of ``seats`` being a target."""
    holding = _masks(n).holding
    return {s: sum(weights[m] for m in holding[s]) / total for s in seats}


# How sure a greedy player must be before naming or asking "no targets?" on a turn that is
# not their last chance; below it they ask a question instead.
SURE = 0.8
# How far a player believes an answer given on another player's turn: a seat whose answers
# would all have to be lies keeps this share of the weight.
DOUBT = 0.65


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
        self._deductions: Deductions | None = None
        self._first: Event | None = None
        self._answer: tuple[Choice, bool] | None = None

    def _sync(self, view: View) -> Deductions:
        history = view.history
        d = self._deductions
        if (
            d is None
            or d.n != view.players
            or (history and history[0] is not self._first)
            or len(history) < d.events
            or (not history and d.events)
        ):
            d = self._deductions = Deductions(view.players)
            self._first = history[0] if history else None
        for event in history[d.events :]:
            d.observe(event)
        return d

    def choose_targets(self, view: View, rng: random.Random) -> Iterable[int]:
        # As many targets as the players expect (the weights they reason with), anyone.
        sizes = range(view.players + 1)
        weights = [_SIZE_WEIGHTS[min(k, len(_SIZE_WEIGHTS) - 1)] for k in sizes]
        return rng.sample(range(view.players), rng.choices(sizes, weights)[0])

    def choose_start(self, view: View, rng: random.Random) -> int:
        # The ghost starts every small round itself, to plant a lie before anyone has asked.
        return view.seat

    def next_action(self, view: View, rng: random.Random) -> Choice | None:
        if view.is_ghost:
            return self._ghost_action(view, rng)
        d = self._sync(view)
        n = view.players
        rules = view.rules
        weights = d.posterior(view.seat, DOUBT)
        total = sum(weights)
        unconfirmed = view.unconfirmed
        if total <= 0:  # cannot happen while answers are honest, but stay legal
            return Choice("name", (unconfirmed[0],)) if unconfirmed else NO_TARGETS
        marginal = _marginals(weights, total, n, unconfirmed)
        order = list(unconfirmed)
        rng.shuffle(order)
        order.sort(key=lambda s: -marginal[s])

        bets: list[tuple[float, float, Choice]] = []  # (expected points, chance, choice)
        if not view.confirmed:
            empty = weights[0] / total
            bets.append((empty * no_targets_points(rules, n), empty, NO_TARGETS))
        limit = rules.max_named_per_action or n
        named = 0
        for k, seat in enumerate(order[:limit], 1):
            named |= 1 << seat
            chance = _chance_all(weights, total, n, named)
            if chance <= 0:
                break
            if chance < 0.9 and any(f & named == f for f in d.failed):
                continue  # a set answered X before, and not near certain now
            bets.append((chance * _naming_points(rules, view.round_value, k), chance,
                         Choice("name", tuple(sorted(order[:k])))))
        sure = [b for b in bets if b[1] >= SURE]
        if sure:
            return max(sure, key=lambda b: b[0])[2]
        last_chance = view.markers_left == 1 or (
            view.rounds_left == 0 and view.actions_possible() == 1
        )
        if last_chance:
            # No long shots on a multiplied score: a group is named only if it is even odds.
            fair = [b for b in bets if b[1] >= 0.5 or b[2].kind != "name" or len(b[2].named) == 1]
            best = max(fair, key=lambda b: b[0], default=None)
            if best is not None and best[0] > 0:
                return best[2]
        spare = view.markers_left is not None and view.markers_left > view.rounds_left
        if view.acted and view.can_stop and not spare:
            return None
        return self._question(view, weights, total, order)

    def _question(
        self, view: View, weights: Sequence[float], total: float, order: Sequence[int]
    ) -> Choice:
        """A hunch checked: "is my likeliest seat a target?", so a "yes" can be named at once.

        With markers to spare a player opens the big round with "do you take exactly N?" (N
        the likeliest count), as in the rules' example, unless someone asked the count already.
        """
        n = view.players
        if not any(
            e.seat == view.seat or (e.choice.question and e.choice.question.asks == "target_count")
            for e in view.history
        ):
            members = _masks(n).members
            counts = [0.0] * (n + 1)
            for mask, w in enumerate(weights):
                if w:
                    counts[len(members[mask])] += w / total
            likeliest = max(range(n + 1), key=lambda k: counts[k])
            plenty = (view.markers_left or 0) * (n - 1) >= 2 * n
            if plenty and 0.25 <= counts[likeliest] <= 0.75:
                return Choice("question", question=Question("target_count", value=likeliest))
        return Choice("question", question=Question("is_target", about=order[0]))

    # -- the ghost ----------------------------------------------------------------------

    def _danger(self, d: Deductions, hidden: int) -> float:
        """How close the table is to finding every target (lower suits the ghost)."""
        weights = d.posterior(None, DOUBT)
        total = sum(weights)
        if total <= 0:
            return 1.0
        if not hidden:
            return weights[0] / total  # how sure they are that nobody was taken
        found = list(_marginals(weights, total, d.n, _masks(d.n).members[hidden]).values())
        return min(found) + 0.25 * sum(found) / len(found)

    def _ghost_action(self, view: View, rng: random.Random) -> Choice | None:
        d = self._sync(view)
        targets = _mask(view.targets or ())
        hidden = targets & ~d.confirmed
        if d.ghost == view.seat:
            # Unmasked: nothing it says counts any more.
            if view.acted:
                return None
            if view.can_pass:
                return PASS
            return self._plan(Choice("question", question=Question("is_ghost", about=view.seat)),
                              False)
        # Every answer it could give, judged by how suspected its targets are afterwards.
        now = self._danger(d, hidden)
        unconfirmed = view.unconfirmed
        others = [s for s in unconfirmed if not hidden >> s & 1]
        options: list[tuple[Choice, bool]] = []
        for s in unconfirmed:
            # A false "no" about a target, a false "yes" about anyone else, or the truth.
            lie = not hidden >> s & 1
            options.append((Choice("question", question=Question("is_target", about=s)), lie))
            if not lie:
                options.append((Choice("question", question=Question("is_target", about=s)),
                                False))
        if hidden:
            for t in unconfirmed:
                if hidden >> t & 1:
                    for o in others[:3]:
                        pair = tuple(sorted((t, o)))
                        options.append(
                            (Choice("question", question=Question("any_target", among=pair)),
                             False))
        else:
            options.append((NO_TARGETS, False))
            for i, a in enumerate(unconfirmed):
                for b in unconfirmed[i + 1 :]:
                    options.append(
                        (Choice("question", question=Question("any_target", among=(a, b))),
                         True))
        if view.can_pass:
            options.append((PASS, False))  # it unmasks the ghost: rarely the best
        best: tuple[float, float] | None = None
        pick = 0
        for i, (choice, answer) in enumerate(options):
            trial = d.copy()
            trial.observe(Event(view.seat, choice, None if choice is PASS else answer, ()))
            key = (self._danger(trial, hidden), rng.random())
            if best is None or key < best:
                best, pick = key, i
        assert best is not None
        if view.acted and best[0] > now - 0.1:
            return None
        choice, answer = options[pick]
        return choice if choice is PASS else self._plan(choice, answer)

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


BOTS: dict[str, Callable[[], Bot]] = {"random": RandomBot, "greedy": GreedyBot}


# --------------------------------------------------------------------------------------------
