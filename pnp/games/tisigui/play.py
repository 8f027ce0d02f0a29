"""替死鬼 (tisigui): play with bots and replay a log, both by driving one ``Game``.

Pure: no I/O, no printing; every random choice comes from the ``random.Random`` passed in.

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
     "winners": [seats]}

``replay`` needs the issue-5 fields; the others (``truth``, ``question``, ``confirms``,
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

from pnp.games.params import is_integer, is_list
from pnp.games.tisigui.bots import BOTS, Bot, View
from pnp.games.tisigui.choices import ACTION_KINDS, QUESTION_KINDS, Choice, Question
from pnp.games.tisigui.deduce import Deductions
from pnp.games.tisigui.log import GameLog
from pnp.games.tisigui.rules import SLUG, TisiguiRules, playable_counts
from pnp.games.tisigui.state import Game, Problem

# --------------------------------------------------------------------------------------------
# Play: bots choose, the game checks and scores


def _seat_bots(bots: Sequence[str], players: int) -> list[Bot]:
    names = list(bots)
    if len(names) != players:
        raise ValueError(f"{len(names)} bots given for {players} players")
    unknown = [n for n in names if n not in BOTS]
    if unknown:
        raise ValueError(f"unknown bot {unknown[0]!r} (known: {', '.join(BOTS)})")
    return [BOTS[n]() for n in names]


def _setup_view(game: Game, seat: int, targets: frozenset[int]) -> View:
    """What the ghost ``seat`` knows while setting up the big round (a player's view on
    their turn is built in ``_play_big_round``)."""
    deal = game.deal
    return View(
        rules=game.rules,
        players=game.n,
        seat=seat,
        ghost=deal.ghost,
        targets=targets,
        confirmed=(),
        small_round=0,
        round_value=game.values[0],
        rounds_left=len(game.values),
        markers_left=None,
        acted=0,
        can_stop=False,
        can_pass=False,
    )


def _bot_bug(bot: Bot, problems: list[Problem], what: str) -> None:
    """Bots are trusted with nothing: an illegal choice is a bug to surface at once."""
    if problems:
        raise RuntimeError(f"bot {bot.name} chose an illegal action: {what} ({problems[0].message})")


def play(rules: TisiguiRules, players: int, rng: random.Random, *, seed: int,
         variant: str | None, bots: Sequence[str], budget: int = 0) -> dict[str, Any]:
    """Play one whole game with ``bots`` (one name per seat) and return its event log.

    ``seed`` is only recorded; all randomness comes from ``rng``. ``variant``, when given, must
    name the variant the rules were built for (it guards against mixing them up).
    """
    return play_log(rules, players, rng, seed=seed, variant=variant, bots=bots).to_json()


def play_log(rules: TisiguiRules, players: int, rng: random.Random, *, seed: int,
             variant: str | None, bots: Sequence[str]) -> GameLog:
    """``play``, returning the typed log."""
    if variant and variant != rules.variant:
        raise ValueError(f"rules are for variant {rules.variant!r}, not {variant!r}")
    if players not in playable_counts(rules):
        raise ValueError(
            f"tisigui plays {rules.min_players}–{rules.max_players} players with a setup row "
            f"each; {players} is not playable"
        )
    seat_bots = _seat_bots(bots, players)
    game = Game(rules, players)
    while not game.over:
        _play_big_round(game, rng, seat_bots)
        game.end_big_round(rng.randint(1, rules.small_die_sides) if game.needs_roll else None)
    ranking, places, winners = game.result()
    return GameLog(
        seed=seed,
        players=players,
        variant=rules.variant,
        bots=tuple(b.name for b in seat_bots),
        big_rounds=tuple(game.big_rounds),
        scores=tuple(game.scores),
        ranking=tuple(ranking),
        places=tuple(places),
        winners=tuple(winners),
    )


def _play_big_round(game: Game, rng: random.Random, bots: list[Bot]) -> None:
    n = game.n
    ghost = rng.randrange(n)
    ghost_bot = bots[ghost]
    game.begin_big_round(ghost, frozenset(), 0)
    chosen = set(ghost_bot.choose_targets(_setup_view(game, ghost, frozenset()), rng))
    if not all(is_integer(s) and 0 <= s < n for s in chosen):
        raise RuntimeError(f"bot {ghost_bot.name} chose impossible targets {chosen}")
    targets = frozenset(chosen)
    if game.rules.start_player == "ghost_picks":
        start = ghost_bot.choose_start(_setup_view(game, ghost, targets), rng)
        if not (is_integer(start) and 0 <= start < n):
            raise RuntimeError(f"bot {ghost_bot.name} chose an impossible start {start}")
    else:
        # Rolling again on a face nobody's shield shows makes every seat equally likely.
        start = rng.randrange(n)
    game.begin_big_round(ghost, targets, start)
    # The table's deductions from public play, kept once for every seat as events happen.
    public = Deductions(n, start)
    history = game.history
    rules = game.rules
    rounds = len(game.values)
    hi = game.hi
    may_pass = rules.ghost_may_pass
    new_tuple = tuple.__new__
    lo = game.lo
    confirmed: tuple[int, ...] = ()  # game.confirmed as the views show it, rebuilt as it grows
    while game.end is None and game.turn_index < game.turns_in_full:  # game.next_turn()
        game.begin_turn()
        seat = game.seat
        bot = bots[seat]
        secret = seat == ghost
        small_round = game.small_round
        markers = game.markers
        actions = game.actions
        while True:
            # game.can_act, read here field by field (it is asked before every action)
            left = markers[seat] if markers is not None else None
            acted = len(actions)
            if game.end is not None or game.passed or left == 0 or acted >= hi:
                break
            # One view per decision, built as the tuple it is (a named tuple's own __new__
            # is a Python function: a frame per decision), in View's order: rules, players,
            # seat, ghost, targets, confirmed, small_round, round_value, rounds_left,
            # markers_left, acted, can_stop, can_pass, history, deductions.
            view = new_tuple(View, (
                rules, n, seat, ghost if secret else None, targets if secret else None,
                confirmed, small_round, game.round_value, rounds - small_round,
                left, acted, acted >= lo, secret and may_pass and not acted,
                history, public,
            ))
            choice = bot.next_action(view, rng)
            if choice is None:
                if not view.can_stop:
                    raise RuntimeError(f"bot {bot.name} ended a turn before acting")
                break
            problems = game.check(choice)
            if problems:
                _bot_bug(bot, problems, str(choice))
            kind = choice.kind
            if kind == "pass":
                game.push(choice, None)
                break
            if kind == "question":
                q = choice.question
                if q is None or q.asks == "other":
                    # Bots ask only questions whose answers the rules can check.
                    raise RuntimeError(f"bot {bot.name} chose an illegal action: {choice}")
            answer = game.forced_answer(choice)
            if answer is None:
                answer = bool(ghost_bot.ghost_answer(view, choice, game.truth(choice), rng))
            if game.push(choice, answer).confirms:
                confirmed = tuple(game.confirmed)
            public.observe(history[-1])
        problems = game.end_turn()
        if problems:
            _bot_bug(bot, problems, "ended its turn early")


# --------------------------------------------------------------------------------------------
# Replay: the log chooses, the same game checks and scores


class _Malformed(Exception):
    """The log's shape is too broken to go on checking."""


class _FromLog:
    """Feeds a log's decisions to a ``Game`` and holds the log's outcomes against the game's."""

    def __init__(self, rules: TisiguiRules) -> None:
        self.rules = rules
        self.problems: list[str] = []

    def bad(self, where: str, message: str) -> None:
        self.problems.append(f"{where}: {message}")

    def get(self, obj: Any, key: str, where: str) -> Any:
        if not isinstance(obj, Mapping):
            self.bad(where or "log", "expected an object")
            raise _Malformed
        if key not in obj:
            self.bad(f"{where}.{key}" if where else key, "missing")
            raise _Malformed
        return obj[key]

    def seat(self, value: Any, n: int, where: str) -> bool:
        if not is_integer(value) or not 0 <= value < n:
            self.bad(where, f"expected a seat 0–{n - 1}, got {value!r}")
            return False
        return True

    def seats(self, value: Any, n: int, where: str) -> list[int] | None:
        if not is_list(value):
            self.bad(where, f"expected a list of seats, got {value!r}")
            return None
        ok = all(self.seat(s, n, f"{where}[{i}]") for i, s in enumerate(value))
        if ok and len(set(value)) != len(value):
            self.bad(where, "a seat appears twice")
            ok = False
        return list(value) if ok else None

    def expect(self, where: str, found: Any, expected: Any) -> None:
        if found != expected or type(found) is not type(expected):
            self.bad(where, f"expected {expected!r}, log says {found!r}")

    def report(self, problems: list[Problem], turn_where: str, where: str, said: set[str]) -> None:
        """List the game's problems; a turn's are listed once however many actions break them."""
        for p in problems:
            if p.scope == "turn":
                if p.message not in said:
                    said.add(p.message)
                    self.bad(turn_where, p.message)
            else:
                self.bad(f"{where}.{p.field}" if p.field else where, p.message)

    # -- the game -------------------------------------------------------------------------

    def run(self, log: Mapping[str, Any]) -> None:
        rules = self.rules
        self.expect("game", self.get(log, "game", ""), SLUG)
        if log.get("variant") != rules.variant:
            self.bad("variant", f"expected {rules.variant!r}, log says {log.get('variant')!r}")
        n = self.get(log, "players", "")
        if not is_integer(n) or n not in playable_counts(rules):
            self.bad("players", f"{n!r} is not a playable player count")
            raise _Malformed
        big_rounds = self.get(log, "big_rounds", "")
        if not is_list(big_rounds) or not big_rounds:
            self.bad("big_rounds", "expected at least one big round")
            raise _Malformed
        game = Game(rules, n)
        for i, big_round in enumerate(big_rounds):
            where = f"big_rounds[{i}]"
            self.big_round(game, big_round, where)
            die = game.die
            roll = self.get(big_round, "roll", where)
            if game.needs_roll:
                if not is_integer(roll) or not 1 <= roll <= rules.small_die_sides:
                    self.bad(
                        f"{where}.roll",
                        f"a big round played at {die} needs a roll of the "
                        f"d{rules.small_die_sides}, log says {roll!r}",
                    )
                    roll = None
            elif roll is not None:
                self.bad(f"{where}.roll", f"no roll is made after a big round played at {die}")
                roll = None
            done = game.end_big_round(roll)
            self.expect(f"{where}.end", self.get(big_round, "end", where), done.end)
            self.expect(
                f"{where}.confirmed", self.get(big_round, "confirmed", where), list(done.confirmed)
            )
            self.expect(
                f"{where}.ghost_points", self.get(big_round, "ghost_points", where), done.ghost_points
            )
            if "scores_after" in big_round:
                self.expect(
                    f"{where}.scores_after", big_round["scores_after"], list(done.scores_after)
                )
            if game.over and i < len(big_rounds) - 1:
                self.bad(where, "the game ends after this big round, yet the log goes on")
                break
            if not game.over and i == len(big_rounds) - 1:
                self.bad(where, "the game does not end after this big round, yet the log stops")
        ranking, places, winners = game.result()
        self.expect("scores", self.get(log, "scores", ""), game.scores)
        self.expect("ranking", self.get(log, "ranking", ""), ranking)
        if "places" in log:
            self.expect("places", log["places"], places)
        if "winners" in log:
            self.expect("winners", log["winners"], winners)

    def big_round(self, game: Game, big_round: Any, where: str) -> None:
        n = game.n
        self.expect(f"{where}.big_die", self.get(big_round, "big_die", where), game.die)
        ghost = self.get(big_round, "ghost", where)
        start = self.get(big_round, "start", where)
        if not (self.seat(ghost, n, f"{where}.ghost") and self.seat(start, n, f"{where}.start")):
            raise _Malformed
        listed = self.seats(self.get(big_round, "targets", where), n, f"{where}.targets")
        if listed is None:
            raise _Malformed
        if "question_markers" in big_round:
            self.expect(
                f"{where}.question_markers", big_round["question_markers"], game.question_markers
            )
        game.begin_big_round(ghost, frozenset(listed), start)
        turns = self.get(big_round, "turns", where)
        if not is_list(turns):
            self.bad(f"{where}.turns", "expected a list")
            raise _Malformed
        for t, turn in enumerate(turns):
            tw = f"{where}.turns[{t}]"
            expected = game.next_turn()
            if expected is None:
                if game.end is not None:
                    self.bad(tw, f"a turn after the big round ended ({game.end})")
                else:
                    self.bad(tw, "more turns than the small rounds allow")
                break
            small_round, value, seat = expected
            self.expect(f"{tw}.small_round", self.get(turn, "small_round", tw), small_round)
            self.expect(f"{tw}.round_value", self.get(turn, "round_value", tw), value)
            self.expect(f"{tw}.seat", self.get(turn, "seat", tw), seat)
            actions = self.get(turn, "actions", tw)
            if not is_list(actions):
                self.bad(f"{tw}.actions", "expected a list")
                raise _Malformed
            game.begin_turn()
            said: set[str] = set()
            for a, action in enumerate(actions):
                aw = f"{tw}.actions[{a}]"
                if game.end is not None:
                    self.bad(aw, f"an action after the big round ended ({game.end})")
                    break
                self.action(game, action, aw, tw, said)
            self.report(game.end_turn(), tw, tw, said)
        if game.end is None and game.next_turn() is not None:
            self.bad(
                f"{where}.turns",
                f"{len(turns)} turns, but the big round had not ended: "
                f"{game.turns_in_full} expected",
            )

    def action(self, game: Game, action: Any, where: str, tw: str, said: set[str]) -> None:
        n = game.n
        kind = self.get(action, "kind", where)
        if kind not in ACTION_KINDS:
            self.bad(f"{where}.kind", f"unknown kind {kind!r}")
            return
        named = self.seats(self.get(action, "named", where), n, f"{where}.named")
        answer = self.get(action, "answer", where)
        logged_points = self.get(action, "points", where)
        question = None
        if kind == "question" and "question" in action:
            question = self.question(action["question"], n, f"{where}.question")
        choice = Choice(kind, tuple(named or ()), question)
        self.report(game.check(choice), tw, where, said)
        if kind == "pass":
            if answer is not None:
                self.bad(f"{where}.answer", "a pass has no answer")
            game.push(choice, None)
            self.expect(f"{where}.points", logged_points, 0)
            return
        truth = game.truth(choice)
        if "truth" in action and action["truth"] != truth and truth is not None:
            self.bad(f"{where}.truth", f"the true answer is {truth!r}")
        if not isinstance(answer, bool):
            self.bad(f"{where}.answer", f"expected true or false, got {answer!r}")
            answer = bool(truth)
        else:
            answer, problems = game.check_answer(choice, answer)
            self.report(problems, tw, where, said)
        done = game.push(choice, answer)
        self.expect(f"{where}.points", logged_points, done.points)
        if "confirms" in action:
            self.expect(f"{where}.confirms", action["confirms"], list(done.confirms or ()))

    def question(self, q: Any, n: int, where: str) -> Question | None:
        if not isinstance(q, Mapping) or q.get("asks") not in QUESTION_KINDS:
            self.bad(where, f"expected a question asking one of {', '.join(QUESTION_KINDS)}")
            return None
        asks = q["asks"]
        if asks in ("is_target", "is_ghost"):
            if not self.seat(q.get("about"), n, f"{where}.about"):
                return None
            return Question(asks, about=q["about"])
        if asks == "any_target":
            among = self.seats(q.get("among"), n, f"{where}.among")
            if not among:
                if among is not None:
                    self.bad(f"{where}.among", "names nobody")
                return None
            return Question(asks, among=tuple(among))
        if asks == "target_count":
            if not is_integer(q.get("value")):
                self.bad(f"{where}.value", "expected a whole number")
                return None
            return Question(asks, value=q["value"])
        return Question(asks, text=q.get("text"))


def replay(rules: TisiguiRules, log: Mapping[str, Any]) -> list[str]:
    """Re-check every step of an event log; an empty list means the game was legal."""
    checker = _FromLog(rules)
    try:
        checker.run(log)
    except _Malformed:
        checker.problems.append("log: too malformed to check further")
    except (TypeError, AttributeError, KeyError) as exc:  # a shape the checks did not foresee
        checker.problems.append(f"log: malformed ({exc})")
    return checker.problems
