"""無人生還: replay of a logged game through the same state machine as play.

``FromLog`` hands the game the decisions the log records (the murderer's night actions, the
table's day decisions, the guesses); the game applies them by the rules, and every other
logged field is compared with what the rules give.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from typing import Any

from pnp.games.params import is_integer
from pnp.games.wurenshenghuan.game import DayEvent, Game, GuessEvent, NightEvent, run
from pnp.games.wurenshenghuan.rules import SLUG, WurenshenghuanRules, player_range
from pnp.games.wurenshenghuan.state import (
    DayDecision,
    Frame,
    Idle,
    IllegalAction,
    Imprison,
    Kill,
    Look,
    NightAction,
    Search,
    new_state,
)


class _Stop(Exception):
    """A step went wrong; later steps would only repeat the damage."""


def replay(rules: WurenshenghuanRules, log: Mapping[str, Any]) -> list[str]:
    """Check a log step by step against the rules; every problem found (empty = legal)."""
    problems: list[str] = []
    try:
        _replay(rules, log, problems)
    except _Stop:
        pass
    except (KeyError, TypeError, ValueError, AttributeError, IndexError) as exc:
        problems.append(f"malformed log: {type(exc).__name__}: {exc}")
    return problems


def _expect(problems: list[str], where: str, field_name: str, logged: Any, actual: Any) -> bool:
    if logged != actual:
        problems.append(f"{where}: {field_name} is {logged!r}, the rules give {actual!r}")
        return False
    return True


def _setup(rules: WurenshenghuanRules, log: Mapping[str, Any], problems: list[str]) -> Game:
    """The game at setup as the log deals it, or ``_Stop`` when the deal is not the rules'."""
    if log.get("game") != SLUG:
        problems.append(f"game: expected {SLUG!r}, got {log.get('game')!r}")
    players = log["players"]
    low, high = player_range(rules)
    if not is_integer(players) or not low <= players <= high:
        problems.append(f"players: must be {low}–{high}, got {players!r}")
        raise _Stop
    characters = tuple(log["characters"])
    murderer_seat = log["murderer"]
    if len(characters) != players or len(set(characters)) != players or any(
            c not in rules.letters for c in characters):
        problems.append(f"characters: need {players} distinct letters of "
                        f"{''.join(rules.letters)}, got {list(characters)}")
        raise _Stop
    if not is_integer(murderer_seat) or not 0 <= murderer_seat < players:
        problems.append(f"murderer: no seat {murderer_seat!r}")
        raise _Stop

    setup = log["setup"]
    deal_rows = setup["deal"]
    deck: list[str] = []
    for letter in rules.letters:
        row = list(deal_rows.get(letter, []))
        if len(row) != rules.items_per_character:
            problems.append(f"setup: {letter} was dealt {len(row)} items, the rules deal "
                            f"{rules.items_per_character}")
        deck += row
        shown = setup["shown"].get(letter)
        if row and shown != row[-1]:
            problems.append(f"setup: {letter} shows {shown!r}, its rightmost item is {row[-1]!r}")
    deck += list(setup["pile"])
    if Counter(deck) != Counter(rules.deck()):
        problems.append(f"setup: the deal and pile are not the {rules.deck_size}-item deck")
    if problems:
        raise _Stop
    return Game(rules, murderer_seat, characters, new_state(rules, deck, characters[murderer_seat]))


class FromLog:
    """The decisions a log records, as a ``Policy``; checks each logged outcome."""

    def __init__(self, rules: WurenshenghuanRules, log: Mapping[str, Any], total: Counter[str],
                 problems: list[str]) -> None:
        self.rules = rules
        self.problems = problems
        self.nights = list(log["nights"])
        self.days = list(log["days"])
        self.logged_guesses = list(log["guesses"])
        self.total = total  # every item in the game, to check that none appears or vanishes
        self.where = ""

    def night(self, game: Game) -> NightAction:
        number = game.night + 1
        if number > len(self.nights):
            self.problems.append(f"nights: {len(self.nights)} nights, the game lasts "
                                 f"{self.rules.days} days unless every character dies")
            raise _Stop
        entry = self.nights[number - 1]
        self.where = f"night {number}"
        _expect(self.problems, self.where, "night", entry["night"], number)
        kind = entry["action"]
        arranged = tuple(entry["arranged"])
        if kind == "kill":
            return Kill(tuple(entry["killed"]), tuple(entry["discarded"]), arranged)
        if kind == "frame":
            swap = entry["swap"]
            return Frame(swap["character"], swap["position"], swap["gave"], arranged)
        if kind == "none":
            return Idle()
        self.problems.append(f"{self.where}: unknown action {kind!r}")
        raise _Stop

    def saw_night(self, game: Game, event: NightEvent) -> None:
        entry, where, problems = self.nights[event.night - 1], self.where, self.problems
        result = event.result
        kind = entry["action"]
        ok = all([
            _expect(problems, where, "killed", list(entry["killed"]), list(result.killed)),
            _expect(problems, where, "feigned", entry.get("feigned", result.feigned),
                    result.feigned),
            _expect(problems, where, "drawn", list(entry.get("drawn", result.drawn)),
                    list(result.drawn)),
            _expect(problems, where, "key", entry.get("key", result.key), result.key),
            _expect(problems, where, "imprisoned", list(entry.get("imprisoned", [])),
                    list(result.imprisoned)),
            _expect(problems, where, "murderer_imprisoned",
                    entry.get("murderer_imprisoned", result.murderer_imprisoned),
                    result.murderer_imprisoned),
            _expect(problems, where, "arranged", list(entry["arranged"]), list(result.arranged)),
        ])
        if kind == "frame" and result.swap is not None:
            ok &= _expect(problems, where, "swap.took", entry["swap"].get("took"),
                          result.swap.took)
        if kind != "kill":
            ok &= _expect(problems, where, "discarded", list(entry.get("discarded", [])), [])
        if "pile_left" in entry:
            ok &= _expect(problems, where, "pile_left", entry["pile_left"], event.pile_left)
        if "table" in entry:
            ok &= _expect(problems, where, "table",
                          {c: list(r) for c, r in entry["table"].items()},
                          {c: list(row) for c, row in event.table})
        if not ok:
            raise _Stop
        if game.state.inventory() != self.total:
            problems.append(f"{where}: items not conserved")
            raise _Stop
        if game.ended and (len(self.nights) > event.night or len(self.days) >= event.night):
            problems.append(f"{where}: every character is dead, the game ends at daybreak, "
                            f"yet play goes on")

    def day(self, game: Game) -> DayDecision:
        number = game.night
        self.where = f"day {number}"
        if len(self.days) < number:
            self.problems.append(f"day {number}: missing (the game ends only after day "
                                 f"{self.rules.days} or when every character is dead)")
            raise _Stop
        entry = self.days[number - 1]
        _expect(self.problems, self.where, "day", entry["day"], number)
        kind = entry["decision"]
        if kind == "search":
            return Search(tuple(Look(look["character"], look["position"])
                                for look in entry["looks"]))
        if kind == "imprison":
            return Imprison(tuple(entry["imprisoned"]))
        self.problems.append(f"{self.where}: unknown decision {kind!r}")
        raise _Stop

    def saw_day(self, game: Game, event: DayEvent) -> None:
        entry, where, problems = self.days[event.day - 1], self.where, self.problems
        result = event.result
        ok = all([
            _expect(problems, where, "dead", list(entry.get("dead", event.dead)),
                    list(event.dead)),
            _expect(problems, where, "alive", entry.get("alive", result.alive), result.alive),
            _expect(problems, where, "searches", entry.get("searches", result.searches),
                    result.searches),
            _expect(problems, where, "prisoners", entry.get("prisoners", result.prisoners),
                    result.prisoners),
            _expect(problems, where, "imprisoned", sorted(entry.get("imprisoned", [])),
                    list(result.imprisoned)),
        ])
        if result.decision == "search":
            ok &= _expect(problems, where, "looks",
                          [list(look["cards"]) for look in entry["looks"]],
                          [list(look.cards) for look in result.looks])
        elif entry.get("looks"):
            problems.append(f"{where}: an imprisonment day has no looks")
            ok = False
        if not ok:
            raise _Stop

    def guesses(self, game: Game) -> list[tuple[int, str]]:
        # Today's guesses, checked here one by one so each problem names its log entry; the
        # game rechecks the ones that pass.
        day = game.night
        picks: list[tuple[int, str]] = []
        taken = set(game.guessed)
        for i, guess in enumerate(self.logged_guesses):
            if not is_integer(guess["day"]) or guess["day"] != day:
                continue
            seat, letter = guess["seat"], guess["character"]
            found = game.guess_problems(seat, letter)
            if not found and seat in taken:
                found = [f"seat {seat} already guessed; one guess each"]
            if found:
                self.problems.extend(f"guesses[{i}]: {p}" for p in found)
                continue
            taken.add(seat)
            picks.append((seat, letter))
            if "correct" in guess:
                _expect(self.problems, f"guesses[{i}]", "correct", guess["correct"],
                        letter == game.state.murderer)
        return picks

    def saw_guess(self, game: Game, event: GuessEvent) -> None:
        pass

    def unplayed_guesses(self, days: int) -> None:
        for i, guess in enumerate(self.logged_guesses):
            day = guess["day"]
            if not is_integer(day) or not 1 <= day <= days:
                self.problems.append(f"guesses[{i}]: day {day!r} was not played "
                                     f"(days 1–{days})")


def _replay(rules: WurenshenghuanRules, log: Mapping[str, Any], problems: list[str]) -> None:
    game = _setup(rules, log, problems)
    policy = FromLog(rules, log, game.state.inventory(), problems)
    if len(policy.nights) > rules.days:
        problems.append(f"nights: {len(policy.nights)} nights in a {rules.days}-day game")
    try:
        run(game, policy)
    except IllegalAction as exc:
        problems.extend(f"{policy.where}: {p}" for p in exc.problems)
        raise _Stop from None
    if len(policy.days) > len(policy.nights):
        problems.append(f"days: {len(policy.days)} days after {len(policy.nights)} nights")
    if "end" in log:
        _expect(problems, "end", "end", log["end"], game.end)
    if "kills" in log:
        _expect(problems, "kills", "kills", log["kills"], game.state.real_kills)
    policy.unplayed_guesses(len(policy.days))

    logged = {row["seat"]: row for row in log["final"]}
    players = game.players
    if sorted(logged) != list(range(players)):
        problems.append(f"final: expected one entry per seat 0–{players - 1}")
    for computed in game.final():
        entry = logged.get(computed["seat"])
        if entry is None:
            continue
        for key, value in computed.items():
            if key in entry or key == "points":
                _expect(problems, f"final seat {computed['seat']}", key, entry.get(key), value)
