"""無人生還: one whole game in the engine's own terms (a night, a day, a guess at a time).

``Game`` holds the table (``State``), the night and day reached, the guesses handed in and
the events so far; ``push_night`` / ``push_day`` / ``push_guess`` check a decision against
the rules and apply it. ``machine.WurenshenghuanState`` drives it for the engine kit, whose
loop asks the bots for every decision in play and reads them from the log's steps in replay.

The events are typed values; the shared ``to_json_object`` (pnp.games.events) writes them as
exactly the event log's JSON (docs/sample-and-simulate.md).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from pnp.games.events import to_json_object
from pnp.games.params import is_integer
from pnp.games.wurenshenghuan.rules import INNOCENT, MURDERER, WurenshenghuanRules
from pnp.games.wurenshenghuan.state import (
    DayDecision,
    DayResult,
    IllegalAction,
    NightAction,
    NightResult,
    State,
    apply_day,
    apply_night,
)
from pnp.games.wurenshenghuan.tables import innocent_score, score_parts


@dataclass(frozen=True)
class NightEvent:
    night: int
    result: NightResult
    pile_left: int
    table: tuple[tuple[str, tuple[str, ...]], ...]  # (letter, row) after the night

    def to_json(self) -> dict[str, Any]:
        return {"night": self.night, **to_json_object(self.result), "pile_left": self.pile_left,
                "table": {c: list(row) for c, row in self.table}}


@dataclass(frozen=True)
class DayEvent:
    day: int
    dead: tuple[str, ...]  # sorted
    result: DayResult

    def to_json(self) -> dict[str, Any]:
        return {"day": self.day, "dead": list(self.dead), **to_json_object(self.result)}


@dataclass(frozen=True)
class GuessEvent:
    seat: int
    character: str
    day: int
    correct: bool


@dataclass
class Game:
    """A game in progress; ``night`` is the number of the last night played (0 at setup)."""

    rules: WurenshenghuanRules
    murderer_seat: int
    characters: tuple[str, ...]  # the letter each seat plays
    state: State
    night: int = 0
    ended: bool = False
    end: str = "days_out"
    nights: list[NightEvent] = field(default_factory=list)
    days: list[DayEvent] = field(default_factory=list)
    guesses: list[GuessEvent] = field(default_factory=list)
    death_night: dict[str, int] = field(default_factory=dict)
    guessed: dict[int, tuple[str, int]] = field(default_factory=dict)  # seat -> (letter, day)

    @property
    def players(self) -> int:
        return len(self.characters)

    def push_night(self, action: NightAction) -> NightEvent:
        """Play the next night; raises ``IllegalAction`` for a forbidden action."""
        if self.ended or self.night >= self.rules.days or len(self.days) != self.night:
            raise IllegalAction([f"no night {self.night + 1} now"])
        self.state, result = apply_night(self.rules, self.state, action)
        self.night += 1
        for letter in result.killed:
            self.death_night[letter] = self.night
        state = self.state
        event = NightEvent(self.night, result, len(state.pile),
                           tuple(zip(state.letters, state.rows, strict=True)))
        self.nights.append(event)
        if state.all_dead:
            # Nobody is left to meet at daybreak.
            self.ended, self.end = True, "all_dead"
        return event

    def push_day(self, decision: DayDecision) -> DayEvent:
        """Play the day after the last night; raises ``IllegalAction`` if forbidden."""
        if self.ended or len(self.days) != self.night - 1:
            raise IllegalAction([f"no day {self.night} now"])
        dead = tuple(sorted(self.state.dead))
        self.state, result = apply_day(self.rules, self.state, decision)
        event = DayEvent(self.night, dead, result)
        self.days.append(event)
        if self.night == self.rules.days:
            self.ended = True
        return event

    def guess_problems(self, seat: int, letter: str) -> list[str]:
        """Every reason ``seat`` may not guess ``letter`` today (empty = allowed)."""
        if not is_integer(seat) or not 0 <= seat < self.players:
            return [f"no seat {seat!r}"]
        if seat == self.murderer_seat:
            return [f"the murderer (seat {seat}) hands in no guess"]
        if seat in self.guessed:
            return [f"seat {seat} already guessed; one guess each"]
        if letter not in self.rules.letters:
            return [f"unknown character {letter!r}"]
        if not self.days or len(self.days) != self.night:
            return ["guesses are handed in after a day"]
        return []

    def push_guess(self, seat: int, letter: str) -> GuessEvent:
        """``seat`` hands in ``letter`` after today's decision."""
        problems = self.guess_problems(seat, letter)
        if problems:
            raise IllegalAction(problems)
        day = len(self.days)
        self.guessed[seat] = (letter, day)
        event = GuessEvent(seat, letter, day, letter == self.state.murderer)
        self.guesses.append(event)
        return event

    def final(self) -> list[dict[str, Any]]:
        """Each seat's end of game: role, death, and points split as the narration tells."""
        rules, state = self.rules, self.state
        rows = []
        for seat, letter in enumerate(self.characters):
            died = self.death_night.get(letter)
            entry: dict[str, Any] = {"seat": seat, "character": letter,
                                     "alive": letter not in state.dead, "died": died}
            if seat == self.murderer_seat:
                score = score_parts(rules, role="murderer", kills=state.real_kills)
                entry.update(role=MURDERER, kills=state.real_kills)
            else:
                guess = self.guessed.get(seat)
                score = innocent_score(rules, guess_day=None if guess is None else guess[1],
                                       correct=guess is not None and guess[0] == state.murderer,
                                       died=died)
                entry.update(role=INNOCENT)
            entry.update(murderer_points=score.murderer, guess_points=score.guess,
                         survival_points=score.survival, points=score.total)
            rows.append(entry)
        return rows
