"""無人生還: whole games (bots driving the steps) and replay of a logged game."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from pnp.games.params import is_integer
from pnp.games.wurenshenghuan.bots import (
    PublicView,
    guess_greedy,
    murderer_greedy,
    murderer_random,
    table_greedy,
    table_random,
)
from pnp.games.wurenshenghuan.rules import BOTS, INNOCENT, MURDERER, SLUG, WurenshenghuanRules, player_range
from pnp.games.wurenshenghuan.state import (
    DayDecision,
    DayResult,
    Frame,
    Idle,
    Imprison,
    Kill,
    Look,
    NightAction,
    NightResult,
    Search,
    State,
    apply_day,
    apply_night,
    day_step,
    deal,
    new_state,
    night_step,
)
from pnp.games.wurenshenghuan.tables import score_parts


def _night_entry(night: int, result: NightResult, state: State) -> dict[str, Any]:
    return {
        "night": night,
        "action": result.action,
        "killed": list(result.killed),
        "feigned": result.feigned,
        "discarded": list(result.discarded),
        "drawn": list(result.drawn),
        "swap": None if result.swap is None else {
            "character": result.swap.character, "position": result.swap.position,
            "gave": result.swap.gave, "took": result.swap.took},
        "key": result.key,
        "imprisoned": list(result.imprisoned),
        "murderer_imprisoned": result.murderer_imprisoned,
        "arranged": list(result.arranged),
        "pile_left": len(state.pile),
        "table": {c: list(state.items(c)) for c in state.letters},
    }


def _day_entry(day: int, result: DayResult, state: State) -> dict[str, Any]:
    return {
        "day": day,
        "dead": sorted(state.dead),
        "alive": result.alive,
        "searches": result.searches,
        "prisoners": result.prisoners,
        "decision": result.decision,
        "looks": [{"character": look.character, "position": look.position,
                   "cards": list(look.cards)} for look in result.looks],
        "imprisoned": list(result.imprisoned),
    }


def _final(rules: WurenshenghuanRules, murderer_seat: int, characters: Sequence[str],
           state: State, death_night: Mapping[str, int],
           guesses: Mapping[int, tuple[str, int]]) -> list[dict[str, Any]]:
    rows = []
    for seat, letter in enumerate(characters):
        died = death_night.get(letter)
        entry: dict[str, Any] = {"seat": seat, "character": letter,
                                 "alive": letter not in state.dead, "died": died}
        if seat == murderer_seat:
            score = score_parts(rules, role="murderer", kills=state.real_kills)
            entry.update(role=MURDERER, kills=state.real_kills)
        else:
            guess = guesses.get(seat)
            correct = guess is not None and guess[0] == state.murderer
            score = score_parts(
                rules, role="innocent", guess_correct=correct,
                guess_day=None if guess is None else guess[1],
                alive_at_end=died is None,
                guessed_before_death=guess is not None and died is not None
                and guess[1] < died)
            entry.update(role=INNOCENT)
        entry.update(murderer_points=score.murderer, guess_points=score.guess,
                     survival_points=score.survival, points=score.total)
        rows.append(entry)
    return rows


def play(rules: WurenshenghuanRules, players: int, rng: random.Random, seed: int = 1,
         *, bot: str = "greedy") -> dict[str, Any]:
    """One whole game with the engine's bots (``"greedy"`` or ``"random"``), as an event log."""
    low, high = player_range(rules)
    if not is_integer(players) or not low <= players <= high:
        raise ValueError(f"players must be {low}–{high}, got {players!r}")
    if bot not in BOTS:
        raise ValueError(f"bot must be one of {', '.join(BOTS)}, got {bot!r}")
    murderer_seat = rng.randrange(players)
    characters = rng.sample(rules.letters, players)
    state = deal(rules, rng, characters[murderer_seat])
    view = PublicView.at_setup(rules, state)
    log: dict[str, Any] = {
        "game": SLUG, "seed": seed, "players": players, "bots": bot,
        "murderer": murderer_seat, "characters": list(characters),
        "setup": {
            "deal": {c: list(state.items(c)) for c in state.letters},
            "shown": {c: state.items(c)[-1] for c in state.letters},
            "pile": list(state.pile),
        },
        "nights": [], "days": [], "guesses": [],
    }
    death_night: dict[str, int] = {}
    guesses: dict[int, tuple[str, int]] = {}
    # Each random innocent settles in advance on the day they will guess.
    guess_day = {seat: rng.randint(1, rules.days) for seat in range(players)}
    # How much sharper each greedy player expects a guess to get by waiting a day.
    patience = {seat: rng.uniform(0.1, 0.3) for seat in range(players)}
    end = "days_out"
    for day in range(1, rules.days + 1):
        if bot == "greedy":
            action = murderer_greedy(rules, state, view, rng)
        else:
            action = murderer_random(rules, state, rng)
        state, night = apply_night(rules, state, action)
        for letter in night.killed:
            death_night[letter] = day
        log["nights"].append(_night_entry(day, night, state))
        view.observe_night(day, night, {c: len(state.items(c)) for c in state.letters})
        if state.all_dead:
            end = "all_dead"
            break
        if bot == "greedy":
            decision = table_greedy(rules, state, view, day, rng)
        else:
            decision = table_random(rules, state, rng)
        state, result = apply_day(rules, state, decision)
        log["days"].append(_day_entry(day, result, state))
        view.observe_day(result)
        for seat, letter in enumerate(characters):
            if seat == murderer_seat or seat in guesses:
                continue
            if bot == "greedy":
                pick = guess_greedy(rules, letter, view, day, len(state.alive),
                                     patience[seat])
            else:
                others = [c for c in rules.letters if c != letter]
                pick = rng.choice(others) if guess_day[seat] == day else None
            if pick is not None:
                guesses[seat] = (pick, day)
                log["guesses"].append({"seat": seat, "character": pick, "day": day,
                                       "correct": pick == state.murderer})
    log["end"] = end
    log["kills"] = state.real_kills
    log["final"] = _final(rules, murderer_seat, characters, state, death_night, guesses)
    return log


# --------------------------------------------------------------------------------------
# Replay
# --------------------------------------------------------------------------------------


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


def _replay(rules: WurenshenghuanRules, log: Mapping[str, Any], problems: list[str]) -> None:
    if log.get("game") != SLUG:
        problems.append(f"game: expected {SLUG!r}, got {log.get('game')!r}")
    players = log["players"]
    low, high = player_range(rules)
    if not is_integer(players) or not low <= players <= high:
        problems.append(f"players: must be {low}–{high}, got {players!r}")
        raise _Stop
    characters = list(log["characters"])
    murderer_seat = log["murderer"]
    if len(characters) != players or len(set(characters)) != players or any(
            c not in rules.letters for c in characters):
        problems.append(f"characters: need {players} distinct letters of "
                        f"{''.join(rules.letters)}, got {characters}")
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
    state = new_state(rules, deck, characters[murderer_seat])
    total = state.inventory()

    nights, days = list(log["nights"]), list(log["days"])
    death_night: dict[str, int] = {}
    end = "days_out"
    if len(nights) > rules.days:
        problems.append(f"nights: {len(nights)} nights in a {rules.days}-day game")
    for index, entry in enumerate(nights[: rules.days]):
        number = index + 1
        where = f"night {number}"
        _expect(problems, where, "night", entry["night"], number)
        state = _replay_night(rules, state, entry, where, problems)
        for letter in entry["killed"]:
            death_night[letter] = number
        if state.inventory() != total:
            problems.append(f"{where}: items not conserved")
            raise _Stop
        if state.all_dead:
            end = "all_dead"
            if len(nights) > number or len(days) > index:
                problems.append(f"{where}: every character is dead, the game ends at "
                                f"daybreak, yet play goes on")
            break
        if len(days) <= index:
            problems.append(f"day {number}: missing (the game ends only after day "
                            f"{rules.days} or when every character is dead)")
            raise _Stop
        day_entry = days[index]
        _expect(problems, f"day {number}", "day", day_entry["day"], number)
        state = _replay_day(rules, state, day_entry, f"day {number}", problems)
    else:
        if len(nights) < rules.days:
            problems.append(f"nights: {len(nights)} nights, the game lasts {rules.days} days "
                            f"unless every character dies")
            raise _Stop
    if len(days) > len(nights):
        problems.append(f"days: {len(days)} days after {len(nights)} nights")
    if "end" in log:
        _expect(problems, "end", "end", log["end"], end)
    if "kills" in log:
        _expect(problems, "kills", "kills", log["kills"], state.real_kills)

    guesses: dict[int, tuple[str, int]] = {}
    for i, guess in enumerate(log["guesses"]):
        seat, letter, day = guess["seat"], guess["character"], guess["day"]
        where = f"guesses[{i}]"
        if not is_integer(seat) or not 0 <= seat < players:
            problems.append(f"{where}: no seat {seat!r}")
        elif seat == murderer_seat:
            problems.append(f"{where}: the murderer (seat {seat}) hands in no guess")
        elif seat in guesses:
            problems.append(f"{where}: seat {seat} already guessed; one guess each")
        elif letter not in rules.letters:
            problems.append(f"{where}: unknown character {letter!r}")
        elif not is_integer(day) or not 1 <= day <= len(days):
            problems.append(f"{where}: day {day!r} was not played (days 1–{len(days)})")
        else:
            guesses[seat] = (letter, day)
            if "correct" in guess:
                _expect(problems, where, "correct", guess["correct"], letter == state.murderer)
    final = _final(rules, murderer_seat, characters, state, death_night, guesses)
    logged = {row["seat"]: row for row in log["final"]}
    if sorted(logged) != list(range(players)):
        problems.append(f"final: expected one entry per seat 0–{players - 1}")
    for computed in final:
        entry = logged.get(computed["seat"])
        if entry is None:
            continue
        for key, value in computed.items():
            if key in entry or key == "points":
                _expect(problems, f"final seat {computed['seat']}", key, entry.get(key), value)


def _replay_night(rules: WurenshenghuanRules, state: State, entry: Mapping[str, Any],
                  where: str, problems: list[str]) -> State:
    kind = entry["action"]
    arranged = tuple(entry["arranged"])
    action: NightAction
    if kind == "kill":
        action = Kill(tuple(entry["killed"]), tuple(entry["discarded"]), arranged)
    elif kind == "frame":
        swap = entry["swap"]
        action = Frame(swap["character"], swap["position"], swap["gave"], arranged)
    elif kind == "none":
        action = Idle()
    else:
        problems.append(f"{where}: unknown action {kind!r}")
        raise _Stop
    found, after, result = night_step(rules, state, action)
    if found:
        problems.extend(f"{where}: {p}" for p in found)
        raise _Stop
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
        _expect(problems, where, "arranged", list(arranged), list(result.arranged)),
    ])
    if kind == "frame" and result.swap is not None:
        ok &= _expect(problems, where, "swap.took", entry["swap"].get("took"),
                      result.swap.took)
    if kind != "kill":
        ok &= _expect(problems, where, "discarded", list(entry.get("discarded", [])), [])
    if "pile_left" in entry:
        ok &= _expect(problems, where, "pile_left", entry["pile_left"], len(after.pile))
    if "table" in entry:
        table = {c: list(after.items(c)) for c in after.letters}
        ok &= _expect(problems, where, "table", {c: list(r) for c, r in entry["table"].items()},
                      table)
    if not ok:
        raise _Stop
    return after


def _replay_day(rules: WurenshenghuanRules, state: State, entry: Mapping[str, Any],
                where: str, problems: list[str]) -> State:
    kind = entry["decision"]
    decision: DayDecision
    if kind == "search":
        decision = Search(tuple(Look(look["character"], look["position"])
                                for look in entry["looks"]))
    elif kind == "imprison":
        decision = Imprison(tuple(entry["imprisoned"]))
    else:
        problems.append(f"{where}: unknown decision {kind!r}")
        raise _Stop
    found, after, result = day_step(rules, state, decision)
    if found:
        problems.extend(f"{where}: {p}" for p in found)
        raise _Stop
    ok = all([
        _expect(problems, where, "dead", list(entry.get("dead", sorted(state.dead))),
                sorted(state.dead)),
        _expect(problems, where, "alive", entry.get("alive", result.alive), result.alive),
        _expect(problems, where, "searches", entry.get("searches", result.searches),
                result.searches),
        _expect(problems, where, "prisoners", entry.get("prisoners", result.prisoners),
                result.prisoners),
        _expect(problems, where, "imprisoned", sorted(entry.get("imprisoned", [])),
                list(result.imprisoned)),
    ])
    if kind == "search":
        ok &= _expect(problems, where, "looks",
                      [list(look["cards"]) for look in entry["looks"]],
                      [list(look.cards) for look in result.looks])
    elif entry.get("looks"):
        problems.append(f"{where}: an imprisonment day has no looks")
        ok = False
    if not ok:
        raise _Stop
    return after
