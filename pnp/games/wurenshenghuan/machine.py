"""無人生還 written to the engine kit: one state per game, driven by pnp's play loop.

The deal is one chance step ``(murderer seat, characters by seat, deck top first)``, drawn as
the engine always drew it. Then each night the murderer's seat acts in steps (night.py). Each
day the table decides as one; the kit needs a seat, so a chair that goes round the table (seat
``(day - 1) mod players``) speaks for it: ``("imprison", letters)``, or ``("search",)`` then one
``("look", letter, position)`` at a time (position None for the dead) until ``("done",)`` or
the allowance is used. After each day every seat that has not handed in a slip is asked in
seat order, the murderer too (who may only ``("pass",)``), so whose turn it is never tells who
the murderer is; an innocent answers ``("pass",)`` or ``("guess", letter)``.

``observation(seat)`` is the seat's own character and role, what only it saw (an innocent its
character's three items at setup and its own guess; the murderer its row and its nights) and
the public record: the setup's shown items, the dead, the discards, the row sizes, the looks,
the prisoners and who has handed in a slip. ``resample`` deals everything else again.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from itertools import combinations
from typing import Any

from pnp.games.kit import CHANCE, Action, Outcome
from pnp.games.params import is_integer
from pnp.games.wurenshenghuan import night
from pnp.games.wurenshenghuan.game import DayEvent, Game, GuessEvent, NightEvent
from pnp.games.wurenshenghuan.rules import WurenshenghuanRules
from pnp.games.wurenshenghuan.state import (
    DayDecision,
    Imprison,
    Look,
    Search,
    State,
    day_problems,
    new_state,
)
from pnp.games.wurenshenghuan.tables import prison_allowance, search_allowance

Deal = tuple[int, tuple[str, ...], tuple[str, ...]]
PASS: Action = ("pass",)
DONE: Action = ("done",)
SEARCH: Action = ("search",)


def draw_deal(rules: WurenshenghuanRules, players: int, rng: random.Random) -> Deal:
    """The murderer's seat, the characters and the shuffled deck, drawn as play always drew
    them (the same calls on ``rng`` in the same order)."""
    murderer_seat = rng.randrange(players)
    characters = tuple(rng.sample(rules.letters, players))
    deck = rules.deck()
    rng.shuffle(deck)
    return murderer_seat, characters, tuple(deck)


class Actions(list[Action]):
    """The legal actions listed once each in a canonical form (targets, discards and
    prisoners in order, the murderer's row kept in place); ``in`` asks the rules, so any
    order the rules accept is legal."""

    def __init__(self, listed: Sequence[Action], state: WurenshenghuanState) -> None:
        super().__init__(listed)
        self.state = state

    def __contains__(self, action: object) -> bool:
        return self.state.why_illegal(action) is None


class WurenshenghuanState:
    """The game, the phase and whose step is next (see the module's docstring)."""

    def __init__(self, rules: WurenshenghuanRules, players: int) -> None:
        self.rules, self.players = rules, players
        self.game: Game | None = None  # None: the next step deals
        self.dealt: dict[str, tuple[str, ...]] = {}  # each character's row at setup
        self.dealt_pile: tuple[str, ...] = ()
        self.phase = "deal"  # deal | night | day | guess | over
        self.night_first: Action | None = None  # the murderer's first step tonight
        self.victims: list[str] = []  # and the victims named since
        self.looks: list[Look] | None = None  # a search day's looks so far
        self.asking: list[int] = []  # the seats still to be asked today, in seat order
        self.public: list[Any] = []  # what the whole table has seen, in order
        self.after_deal: random.Random | None = None  # chance's stream, spent (see bots.py)
        self.table: Any = None  # the hand-written bots' shared memory (bots.Table)

    def clone(self) -> WurenshenghuanState:
        other = object.__new__(WurenshenghuanState)
        other.__dict__.update(self.__dict__)
        game = self.game
        if game is not None:
            other.game = Game(game.rules, game.murderer_seat, game.characters, game.state,
                              game.night, game.ended, game.end, list(game.nights),
                              list(game.days), list(game.guesses), dict(game.death_night),
                              dict(game.guessed))
        other.looks = None if self.looks is None else list(self.looks)
        other.victims = list(self.victims)
        other.asking, other.public = list(self.asking), list(self.public)
        other.table = None
        return other

    # -- whose step -----------------------------------------------------------------------

    def to_move(self) -> int:
        game = self.game
        if game is None:
            return CHANCE
        if self.phase == "night":
            return game.murderer_seat
        if self.phase == "day":
            return (game.night - 1) % self.players
        return self.asking[0]

    def chance_outcomes(self) -> Sequence[tuple[Action, float]]:
        return ()  # a shuffled deck: drawn by sample_chance

    def sample_chance(self, rng: random.Random) -> Deal:
        self.after_deal = rng  # the hand-written bots go on from here, as they always did
        return draw_deal(self.rules, self.players, rng)

    def chance_possible(self, action: Action) -> bool:
        try:
            deal: Any = action
            seat, characters, deck = deal
            return (is_integer(seat) and 0 <= seat < self.players
                    and len(characters) == self.players == len(set(characters))
                    and all(c in self.rules.letters for c in characters)
                    and sorted(deck) == sorted(self.rules.deck()))
        except (TypeError, ValueError):
            return False

    def legal_actions(self) -> Sequence[Action]:
        game = self.game
        assert game is not None
        if self.phase == "night":
            if self.night_first is None:
                return Actions(night.first_choices(self.rules, game.state), self)
            return Actions(night.second_choices(game.state, self.night_first, self.victims), self)
        if self.phase == "day":
            return Actions(self._day_listing(game.state), self)
        seat = self.asking[0]
        if seat == game.murderer_seat or seat in game.guessed:
            return Actions([PASS], self)
        return Actions([PASS, *(("guess", c) for c in self.rules.letters)], self)

    def _day_listing(self, state: State) -> list[Action]:
        alive = len(state.alive)
        if self.looks is None:
            most = prison_allowance(self.rules, alive)
            listed: list[Action] = [SEARCH]
            for count in range(most + 1):
                listed += [("imprison", chosen) for chosen in combinations(state.letters, count)]
            return listed
        listed = [DONE]
        for c in state.letters:
            if c in state.dead:
                listed.append(("look", c, None))
            else:
                listed += [("look", c, p) for p in range(len(state.items(c)))]
        return listed

    def why_illegal(self, action: Action) -> str | None:
        """None when the rules allow ``action`` now, else the rules' reasons."""
        game = self.game
        if game is None or self.phase == "over":
            return "no player acts now"
        try:
            if self.phase == "night":
                return night.problem(self.rules, game.state, self.night_first, self.victims,
                                     action)
            if self.phase == "day":
                return self._day_problem(game.state, action)
            return self._guess_problem(game, action)
        except (TypeError, ValueError, IndexError, KeyError) as exc:
            return f"{action!r} is malformed: {exc}"

    def _day_problem(self, state: State, action: Any) -> str | None:
        kind = action[0] if isinstance(action, tuple) and action else None
        if self.looks is None:
            if action == SEARCH:
                return None
            if kind != "imprison" or len(action) != 2:
                return f"{action!r}: a day starts with search or imprison"
            return "; ".join(day_problems(self.rules, state, Imprison(tuple(action[1])))) or None
        if action == DONE:
            return None
        if kind != "look" or len(action) != 3:
            return f"{action!r}: a search goes on with a look or ends with done"
        look = Look(action[1], action[2])
        return "; ".join(day_problems(self.rules, state, Search((*self.looks, look)))) or None

    def _guess_problem(self, game: Game, action: Any) -> str | None:
        if action == PASS:
            return None
        seat = self.asking[0]
        if not (isinstance(action, tuple) and len(action) == 2 and action[0] == "guess"):
            return f"{action!r}: a slip is a guess or a pass"
        return "; ".join(game.guess_problems(seat, action[1])) or None

    # -- steps ------------------------------------------------------------------------

    def apply(self, action: Action) -> Sequence[NightEvent | DayEvent | GuessEvent]:
        game = self.game
        if game is None:
            self._deal(action)  # type: ignore[arg-type]
            return ()
        if self.phase == "night":
            return self._night(game, action)
        if self.phase == "day":
            return self._day(game, action)
        return self._guess(game, action)

    def _deal(self, deal: Deal) -> None:
        murderer_seat, characters, deck = deal
        rules = self.rules
        state = new_state(rules, deck, characters[murderer_seat])
        self.game = Game(rules, murderer_seat, tuple(characters), state)
        self.dealt = dict(zip(state.letters, state.rows, strict=True))
        self.dealt_pile = state.pile
        self.public.append(("setup", tuple(row[-1] if row else None for row in state.rows)))
        self.phase = "night"

    def _night(self, game: Game, action: Action) -> Sequence[NightEvent]:
        first = self.night_first
        if first is None:
            if action != night.NONE:
                self.night_first, self.victims = action, []
                return ()
            first = action
        elif first[0] == "kill":  # type: ignore[index]
            self.victims.append(action[1])  # type: ignore[index]
            if night.waiting(first, self.victims):
                return ()
        done = night.complete(self.rules, game.state, first, self.victims, action)
        self.night_first, self.victims = None, []
        event = game.push_night(done)
        result = event.result
        self.public.append(("night", result.killed, result.discarded, event.pile_left,
                            tuple(len(row) for _, row in event.table)))
        self.phase = "over" if game.ended else "day"
        return (event,)

    def _day(self, game: Game, action: Action) -> Sequence[DayEvent]:
        if self.looks is None:
            if action == SEARCH:
                self.looks = []
                if search_allowance(self.rules, len(game.state.alive)) == 0:
                    return (self._decide(game, Search(())),)
                return ()
            return (self._decide(game, Imprison(tuple(action[1]))),)  # type: ignore[index]
        if action == DONE:
            return (self._decide(game, Search(tuple(self.looks))),)
        self.looks.append(Look(action[1], action[2]))  # type: ignore[index]
        if len(self.looks) >= search_allowance(self.rules, len(game.state.alive)):
            return (self._decide(game, Search(tuple(self.looks))),)
        return ()

    def _decide(self, game: Game, decision: DayDecision) -> DayEvent:
        event = game.push_day(decision)
        result = event.result
        self.public.append(("day", result.decision, tuple(
            (look.character, look.position, look.cards) for look in result.looks),
            result.imprisoned))
        self.looks = None
        self.phase = "guess"
        self.asking = [seat for seat in range(self.players) if seat not in game.guessed]
        return event

    def _guess(self, game: Game, action: Action) -> Sequence[GuessEvent]:
        seat = self.asking.pop(0)
        events: tuple[GuessEvent, ...] = ()
        if action != PASS:
            events = (game.push_guess(seat, action[1]),)  # type: ignore[index]
            self.public.append(("slip", seat, game.night))
        if not self.asking:
            self.phase = "over" if game.ended else "night"
        return events

    # -- the end and what each seat sees ------------------------------------------------

    def is_over(self) -> bool:
        return self.phase == "over"

    def outcome(self) -> Outcome:
        game = self.game
        assert game is not None and self.phase == "over"
        final = game.final()
        return Outcome.from_scores([row["points"] for row in final], game.end,
                                   roles=[row["role"] for row in final])

    def observation(self, seat: int) -> tuple[object, ...]:
        game = self.game
        if game is None:
            return (seat,)
        own = game.characters[seat]
        private: tuple[object, ...]
        if seat == game.murderer_seat:
            private = ("murderer", own, game.state.items(own),
                       tuple(event.result for event in game.nights), self.night_first,
                       tuple(self.victims))
        else:
            private = ("innocent", own, self.dealt[own], game.guessed.get(seat))
        pending = None if self.looks is None else tuple(self.looks)
        return (seat, private, tuple(self.public), self.phase, pending, tuple(self.asking))

    def resample(self, seat: int, rng: random.Random) -> WurenshenghuanState:
        """A state ``seat`` cannot tell from this one: the other seats' characters and roles,
        their guesses and every item it has not seen dealt again (see resample.py)."""
        from pnp.games.wurenshenghuan.resample import resample

        return resample(self, seat, rng)
