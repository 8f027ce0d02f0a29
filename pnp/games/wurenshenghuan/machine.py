"""無人生還 as the engine kit's state machine: one state per game, driven by pnp's play loop, by
the replay of a log's steps and by the rulebook's scripted examples alike.

The deal is one chance step ``(murderer seat, characters by seat, deck top first)``, drawn as
the engine always drew it. Then each night the murderer's seat acts in steps. It first chooses
what to do with its own row: ``("none",)``, ``("kill", discard, order)`` or ``("frame", give,
order)``; ``order`` rearranges the row by position after the draw (a kill) or the swap (a
frame), so no step names a card the murderer has not yet seen. A kill then names its victims
one ``("victim", letter)`` at a time (as many as weapons discarded), a frame the card it
takes, ``("take", letter, position)``, blind (docs/rulings.md#wurenshenghuan-frame-blind).
Choosing in parts keeps each choice small, which is what lets a search bot tell a good night
from a bad one.

Each day the table decides as one; the kit needs a seat, so a chair that goes round the table
(seat ``(day - 1) mod players``) speaks for it: ``("imprison", letters)``, or ``("search",)``
then one ``("look", letter, position)`` at a time (position None for the dead) until
``("done",)`` or the allowance is used. After each day every seat that has not handed in a
slip is asked in seat order, the murderer too (who may only ``("pass",)``), so whose turn it
is never tells who the murderer is; an innocent answers ``("pass",)`` or ``("guess", letter)``.

``observation(seat)`` is the seat's own character and role, what only it saw (an innocent its
character's three items at setup and its own guess; the murderer its row and its nights) and
the public record: the setup's shown items, the dead, the discards, the row sizes, the looks,
the prisoners and who has handed in a slip. ``resample`` deals everything else again.

The events are typed values (state.py); the shared ``to_json_object`` (pnp.games.events) writes them as
exactly the event log's JSON (docs/sample-and-simulate.md).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import replace
from itertools import combinations
from typing import Any

from pnp.games.kit import CHANCE, Action, Outcome
from pnp.games.params import is_integer
from pnp.games.wurenshenghuan.murderer import keep_order, reorder, weapons
from pnp.games.wurenshenghuan.rules import INNOCENT, KEY, MURDERER, WurenshenghuanRules
from pnp.games.wurenshenghuan.state import (
    DayEvent,
    DayResult,
    GuessEvent,
    LookResult,
    NightEvent,
    NightResult,
    State,
    Swap,
    new_state,
    refill,
    without,
)
from pnp.games.wurenshenghuan.tables import innocent_score, prison_allowance, score_parts, search_allowance

Deal = tuple[int, tuple[str, ...], tuple[str, ...]]
NONE: Action = ("none",)
PASS: Action = ("pass",)
DONE: Action = ("done",)
SEARCH: Action = ("search",)


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
    """The table, the phase, the story so far and whose step is next (see the module's
    docstring)."""

    def __init__(self, rules: WurenshenghuanRules, players: int) -> None:
        self.rules, self.players = rules, players
        # What lies on the table: None only until the deal, the first step (which nothing
        # but ``apply`` and ``observation`` meets), so it is typed as it is ever after.
        self.table: State = None  # type: ignore[assignment]
        self.murderer_seat = 0
        self.characters: tuple[str, ...] = ()  # the letter each seat plays
        self.dealt: dict[str, tuple[str, ...]] = {}  # each character's row at setup
        self.dealt_pile: tuple[str, ...] = ()
        self.phase = "deal"  # deal | night | day | guess | over
        self.end = "days_out"
        self.nights: list[NightEvent] = []
        self.days: list[DayEvent] = []
        self.guesses: list[GuessEvent] = []
        self.guessed: dict[int, tuple[str, int]] = {}  # seat -> (letter, day)
        self.first: Any = None  # the murderer's first step tonight
        self.victims: list[str] = []  # and the victims named since
        self.looks: list[tuple[str, Any]] | None = None  # a search day's looks so far
        self.asking: list[int] = []  # the seats still to be asked today, in seat order
        self.public: list[Any] = []  # what the whole table has seen, in order
        self.after_deal: random.Random | None = None  # chance's stream, spent (see bots.py)
        self.bot_table: Any = None  # the hand-written bots' shared memory (bots.Table)

    def clone(self) -> WurenshenghuanState:
        other = object.__new__(WurenshenghuanState)
        other.__dict__.update(self.__dict__)
        other.nights, other.days, other.guesses = list(self.nights), list(self.days), list(self.guesses)
        other.guessed = dict(self.guessed)
        other.looks = None if self.looks is None else list(self.looks)
        other.victims, other.asking, other.public = list(self.victims), list(self.asking), list(self.public)
        other.bot_table = None
        return other

    @property
    def night(self) -> int:
        """The number of the last night played (0 at setup)."""
        return len(self.nights)

    # -- whose step -----------------------------------------------------------------------

    def to_move(self) -> int:
        if self.phase == "deal":
            return CHANCE
        if self.phase == "night":
            return self.murderer_seat
        if self.phase == "day":
            return (self.night - 1) % self.players
        return self.asking[0]

    def chance_outcomes(self) -> Sequence[tuple[Action, float]]:
        return ()  # a shuffled deck: drawn by sample_chance

    def sample_chance(self, rng: random.Random) -> Deal:
        """The murderer's seat, the characters and the shuffled deck, drawn as play always
        drew them (the same calls on ``rng`` in the same order)."""
        self.after_deal = rng  # the hand-written bots go on from here, as they always did
        murderer_seat = rng.randrange(self.players)
        characters = tuple(rng.sample(self.rules.letters, self.players))
        deck = self.rules.deck()
        rng.shuffle(deck)
        return murderer_seat, characters, tuple(deck)

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
        table = self.table
        if self.phase == "night":
            if self.first is None:
                return Actions(self._first_choices(table), self)
            if self.first[0] == "kill":
                return Actions([("victim", c) for c in table.victims() if c not in self.victims], self)
            return Actions([("take", c, p) for c in table.frame_targets()
                            for p in range(len(table.items(c)))], self)
        if self.phase == "day":
            return Actions(self._day_listing(table), self)
        seat = self.asking[0]
        if seat == self.murderer_seat:  # nor is a seat that handed in its slip asked again
            return Actions([PASS], self)
        return Actions([PASS, *(("guess", c) for c in self.rules.letters)], self)

    def _first_choices(self, table: State) -> list[Action]:
        """Every first choice of the night once (discards in order, the kept items left
        where they lay)."""
        rules, row = self.rules, table.items(table.murderer)
        listed: list[Action] = [NONE]
        if table.murderer_locked:
            return listed
        held = sorted(item for item in row if item != KEY)
        most = min(rules.max_kills_per_night, len(held), len(table.victims()))
        keyed = [(), (KEY,)] if KEY in row else [()]
        for count in range(1, most + 1):
            for used in sorted(set(combinations(held, count))):
                listed += [("kill", used + key, keep_order(rules, row, used + key, len(table.pile)))
                           for key in keyed]
        if table.frame_targets():
            listed += [("frame", give, tuple(range(len(row)))) for give in sorted(set(row))]
        return listed

    def _day_listing(self, table: State) -> list[Action]:
        alive = len(table.alive)
        if self.looks is None:
            most = prison_allowance(self.rules, alive)
            listed: list[Action] = [SEARCH]
            for count in range(most + 1):
                listed += [("imprison", chosen) for chosen in combinations(table.letters, count)]
            return listed
        listed = [DONE]
        for c in table.letters:
            if c in table.dead:
                listed.append(("look", c, None))
            else:
                listed += [("look", c, p) for p in range(len(table.items(c)))]
        return listed

    # -- the rules ------------------------------------------------------------------------

    def why_illegal(self, action: Action) -> str | None:
        """None when the rules allow ``action`` now, else every reason they give."""
        if self.phase in ("deal", "over"):
            return "no player acts now"
        try:
            if self.phase == "night":
                problems = self._night_problems(self.table, action)
            elif self.phase == "day":
                problems = self._day_problems(self.table, action)
            else:
                problems = self._guess_problems(action)
        except (TypeError, ValueError, IndexError, KeyError) as exc:
            return f"{action!r} is malformed: {exc}"
        return "; ".join(problems) or None

    def _night_problems(self, table: State, action: Any) -> list[str]:
        own = table.murderer
        row = table.items(own)
        if self.first is not None:
            return self._second_problems(table, action)
        if action == NONE:
            return []
        if not (isinstance(action, tuple) and len(action) == 3 and action[0] in ("kill", "frame")):
            return [f"{action!r} is not a night action: ('none',), ('kill', discard, order) or "
                    f"('frame', give, order)"]
        problems = []
        if table.murderer_locked:
            problems.append(f"the murderer's character {own} is imprisoned without the key: "
                            f"no kill and no frame tonight")
        kind, chosen, order = action
        if kind == "kill":
            rest = without(row, chosen)
            if rest is None:
                problems.append(f"cannot discard {list(chosen)}: {own} holds {list(row)}")
                rest = row
            count, allowed = weapons(chosen), len(table.victims())
            if not 1 <= count <= self.rules.max_kills_per_night:
                problems.append(f"a kill discards 1–{self.rules.max_kills_per_night} non-key "
                                f"items, got {count} ({list(chosen)})")
            if count > allowed:
                problems.append(f"only {allowed} characters can be killed tonight, {count} weapons")
            size = len(rest) + len(refill(self.rules, rest, table.pile)[0])
        else:
            if chosen not in row:
                problems.append(f"cannot give {chosen!r}: {own} holds {list(row)}")
            if not table.frame_targets():
                problems.append("no other character's row can be reached for a frame tonight")
            size = len(row)
        if sorted(order) != list(range(size)):
            problems.append(f"order {list(order)} does not rearrange the murderer's {size} items")
        return problems

    def _second_problems(self, table: State, action: Any) -> list[str]:
        """Why ``action`` may not name tonight's victim or the card a frame takes."""
        kill = self.first[0] == "kill"
        if kill and not (isinstance(action, tuple) and len(action) == 2 and action[0] == "victim"):
            return [f"{action!r}: a kill goes on with its victims, ('victim', letter)"]
        if not kill and not (isinstance(action, tuple) and len(action) == 3 and action[0] == "take"):
            return [f"{action!r}: a frame goes on with the card it takes, ('take', letter, place)"]
        target = action[1]
        if target not in table.letters:
            return [f"unknown character {target!r}"]
        problems = []
        if not table.free(target):
            problems.append(f"character {target} is imprisoned and the murderer holds no key")
        if kill:
            if target in table.dead:
                problems.append(f"character {target} is already dead")
            if target in self.victims:
                problems.append(f"kill targets must be distinct, {target} is named twice")
            return problems
        if target == table.murderer:
            problems.append("a frame swaps with another character, not the murderer's own")
        position, size = action[2], len(table.items(target))
        if not is_integer(position) or not 0 <= position < size:
            problems.append(f"{target} has no item at position {position!r} ({size} items)")
        return problems

    def _day_problems(self, table: State, action: Any) -> list[str]:
        alive = len(table.alive)
        kind = action[0] if isinstance(action, tuple) and action else None
        if self.looks is None:
            if action == SEARCH:
                return []
            if kind != "imprison" or len(action) != 2:
                return [f"{action!r}: a day starts with search or imprison"]
            chosen, prisoners = tuple(action[1]), prison_allowance(self.rules, alive)
            problems = []
            if len(chosen) > prisoners:
                problems.append(f"{alive} known alive allow {prisoners} prisoners, got {len(chosen)}")
            if len(set(chosen)) != len(chosen):
                problems.append(f"prisoners must be distinct, got {list(chosen)}")
            return problems + [f"unknown character {c!r}" for c in chosen if c not in table.letters]
        if action == DONE:
            return []
        if kind != "look" or len(action) != 3:
            return [f"{action!r}: a search goes on with a look or ends with done"]
        _, who, position = action
        searches = search_allowance(self.rules, alive)
        if len(self.looks) >= searches:
            return [f"{alive} known alive allow {searches} looks, got {len(self.looks) + 1}"]
        if who not in table.letters:
            return [f"unknown character {who!r}"]
        size = len(table.items(who))
        if who in table.dead:
            return [] if position is None else [f"{who} is dead: a look shows all items, no position"]
        if position is None or not is_integer(position) or not 0 <= position < size:
            return [f"{who} is alive: a look needs a position 0–{size - 1}, got {position!r}"]
        return []

    def _guess_problems(self, action: Any) -> list[str]:
        if action == PASS:
            return []
        seat = self.asking[0]
        if not (isinstance(action, tuple) and len(action) == 2 and action[0] == "guess"):
            return [f"{action!r}: a slip is a guess or a pass"]
        if seat == self.murderer_seat:
            return [f"the murderer (seat {seat}) hands in no guess"]
        return [] if action[1] in self.rules.letters else [f"unknown character {action[1]!r}"]

    # -- steps ----------------------------------------------------------------------------

    def apply(self, action: Action) -> Sequence[NightEvent | DayEvent | GuessEvent]:
        """One step, which the caller has checked (``why_illegal``) or knows to be legal."""
        if self.phase == "night":
            return self._night(action)
        if self.phase == "day":
            return self._day(action)
        if self.phase == "guess":
            return self._guess(action)
        deal: Deal = action  # type: ignore[assignment]
        murderer_seat, characters, deck = deal
        table = new_state(self.rules, deck, characters[murderer_seat])
        self.table, self.murderer_seat, self.characters = table, murderer_seat, tuple(characters)
        self.dealt = dict(zip(table.letters, table.rows, strict=True))
        self.dealt_pile = table.pile
        self.public.append(("setup", tuple(row[-1] if row else None for row in table.rows)))
        self.phase = "night"
        return ()

    def _night(self, action: Any) -> Sequence[NightEvent]:
        first = self.first
        if first is None:
            if action != NONE:
                self.first, self.victims = action, []
                return ()
            first = action
        elif first[0] == "kill":
            self.victims.append(action[1])
            if len(self.victims) < weapons(first[1]):
                return ()
        table = self.table
        own = table.murderer
        row = table.items(own)
        result = NightResult(action="none", key=KEY in row, imprisoned=tuple(sorted(table.imprisoned)),
                             murderer_imprisoned=own in table.imprisoned, arranged=row)
        if first[0] == "kill":
            _, discard, order = first
            rest = without(row, discard) or ()
            drawn, pile = refill(self.rules, rest, table.pile)
            mine = reorder(rest + drawn, order)
            victims = self.victims
            table = table.with_row(own, mine).evolve(
                pile=pile, discards=table.discards + tuple(discard), dead=table.dead | frozenset(victims))
            result = replace(result, action="kill", killed=tuple(sorted(victims)), feigned=own in victims,
                             discarded=tuple(discard), drawn=drawn, arranged=mine)
        elif first[0] == "frame":
            (_, give, order), (_, target, position) = first, action
            theirs = list(table.items(target))
            took, theirs[position] = theirs[position], give
            # The received card takes the given card's place; the murderer may then reorder.
            swapped = list(row)
            swapped[swapped.index(give)] = took
            mine = reorder(swapped, order)
            table = table.with_row(own, mine).with_row(target, theirs)
            result = replace(result, action="frame", swap=Swap(target, position, give, took),
                             arranged=mine)
        self.first, self.victims, self.table = None, [], table
        event = NightEvent(self.night + 1, result, len(table.pile),
                           tuple(zip(table.letters, table.rows, strict=True)))
        self.nights.append(event)
        self.public.append(("night", result.killed, result.discarded, event.pile_left,
                            tuple(len(row) for _, row in event.table)))
        self.phase = "day"
        if table.all_dead:
            # Nobody is left to meet at daybreak.
            self.phase, self.end = "over", "all_dead"
        return (event,)

    def _day(self, action: Any) -> Sequence[DayEvent]:
        table = self.table
        searches = search_allowance(self.rules, len(table.alive))
        if self.looks is None:
            if action != SEARCH:
                chosen = tuple(action[1])
                return self._decide(table.evolve(imprisoned=frozenset(chosen)), "imprison",
                                    imprisoned=tuple(sorted(chosen)))
            self.looks = []
        elif action != DONE:
            self.looks.append((action[1], action[2]))
        if action != DONE and len(self.looks) < searches:
            return ()
        # A dead character's items are all turned up at once, a living one's one by one.
        looks = tuple(LookResult(who, None, table.items(who)) if who in table.dead
                      else LookResult(who, position, (table.items(who)[position],))
                      for who, position in self.looks)
        # Imprisonment lasts until this decision, so a search sets everyone free.
        return self._decide(table.evolve(imprisoned=frozenset()), "search", looks=looks)

    def _decide(self, after: State, decision: str, *, looks: tuple[LookResult, ...] = (),
                imprisoned: tuple[str, ...] = ()) -> Sequence[DayEvent]:
        before = self.table
        alive = len(before.alive)
        result = DayResult(alive, search_allowance(self.rules, alive),
                           prison_allowance(self.rules, alive), decision, looks, imprisoned)
        event = DayEvent(self.night, tuple(sorted(before.dead)), result)
        self.table = after
        self.days.append(event)
        self.public.append(("day", decision, tuple(
            (look.character, look.position, look.cards) for look in looks), imprisoned))
        self.looks = None
        self.phase = "guess"
        self.asking = [seat for seat in range(self.players) if seat not in self.guessed]
        return (event,)

    def _guess(self, action: Any) -> Sequence[GuessEvent]:
        seat = self.asking.pop(0)
        events: tuple[GuessEvent, ...] = ()
        if action != PASS:
            letter, day = action[1], len(self.days)
            self.guessed[seat] = (letter, day)
            events = (GuessEvent(seat, letter, day, letter == self.table.murderer),)
            self.guesses += events
            self.public.append(("slip", seat, self.night))
        if not self.asking:
            self.phase = "over" if self.night == self.rules.days else "night"
        return events

    # -- the end and what each seat sees ----------------------------------------------------

    def is_over(self) -> bool:
        return self.phase == "over"

    def death_nights(self) -> dict[str, int]:
        return {c: event.night for event in self.nights for c in event.result.killed}

    def final(self) -> list[dict[str, Any]]:
        """Each seat's end of game: role, death, and points split as the narration tells."""
        rules, table, died = self.rules, self.table, self.death_nights()
        rows = []
        for seat, letter in enumerate(self.characters):
            entry: dict[str, Any] = {"seat": seat, "character": letter,
                                     "alive": letter not in table.dead, "died": died.get(letter)}
            if seat == self.murderer_seat:
                score = score_parts(rules, role="murderer", kills=table.real_kills)
                entry.update(role=MURDERER, kills=table.real_kills)
            else:
                guess = self.guessed.get(seat)
                score = innocent_score(rules, guess_day=None if guess is None else guess[1],
                                       correct=guess is not None and guess[0] == table.murderer,
                                       died=died.get(letter))
                entry.update(role=INNOCENT)
            entry.update(murderer_points=score.murderer, guess_points=score.guess,
                         survival_points=score.survival, points=score.total)
            rows.append(entry)
        return rows

    def outcome(self) -> Outcome:
        assert self.phase == "over"
        final = self.final()
        return Outcome.from_scores([row["points"] for row in final], self.end,
                                   roles=[row["role"] for row in final])

    def observation(self, seat: int) -> tuple[object, ...]:
        if self.phase == "deal":
            return (seat,)
        own = self.characters[seat]
        private: tuple[object, ...]
        if seat == self.murderer_seat:
            private = ("murderer", own, self.table.items(own),
                       tuple(event.result for event in self.nights), self.first,
                       tuple(self.victims))
        else:
            private = ("innocent", own, self.dealt[own], self.guessed.get(seat))
        pending = None if self.looks is None else tuple(self.looks)
        return (seat, private, tuple(self.public), self.phase, pending, tuple(self.asking))

    def resample(self, seat: int, rng: random.Random) -> WurenshenghuanState:
        """A state ``seat`` cannot tell from this one: the other seats' characters and roles,
        their guesses and every item it has not seen dealt again (see resample.py)."""
        from pnp.games.wurenshenghuan.resample import resample

        return resample(self, seat, rng)
