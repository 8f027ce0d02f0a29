"""The facts a wurenshenghuan narration template reads, from a game's event log."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from pnp.data.model import Game
from pnp.games.base import Sample
from pnp.games.wurenshenghuan.rules import KEY, MURDERER, weapon


def _item_names(game: Game, rules: Any) -> dict[str, str]:
    """Item code -> printed name: W1..Wk are the weapon cards in the item deck's order."""
    for component in game.components:
        weapons = [c for c in component.cards if c.count == rules.copies_per_weapon]
        keys = [c for c in component.cards if c.count == rules.keys]
        if len(weapons) == rules.weapon_kinds and len(component.cards) == rules.weapon_kinds + (
                1 if rules.keys else 0) and (keys or not rules.keys):
            names = {weapon(i): _card_name(card) for i, card in enumerate(weapons, 1)}
            if rules.keys:
                names[KEY] = _card_name(keys[-1])
            if all(names.values()):
                return names
    return {}


def _character_names(game: Game, letters: Sequence[str]) -> dict[str, str]:
    """Character letter -> printed name, from the component whose cards carry both."""
    for component in game.components:
        names = {card.fields["letter"].value: card.fields["name"].value
                 for card in component.cards if "letter" in card.fields and "name" in card.fields}
        if set(letters) <= set(names):
            return {letter: names[letter] for letter in letters}
    return {}


def _card_name(card: Any) -> str:
    for key in ("name", "title"):
        if key in card.fields:
            name: str = card.fields[key].value
            return name
    return ""


def facts(sample: Sample) -> dict[str, Any]:
    rules, game_log = sample.rules, sample.log
    n = game_log["players"]
    characters = list(game_log["characters"])
    murderer = game_log["murderer"]
    own = characters[murderer]
    holder = {letter: seat for seat, letter in enumerate(characters)}
    letters = list(rules.letters)
    points = [f["points"] for f in game_log["final"]]
    order = sorted(range(n), key=lambda s: (-points[s], s))
    return {
        "players": n,
        "characters": characters,
        "murderer": murderer,
        "own": own,
        "holder": holder,
        "letters": letters,
        "unheld": [c for c in letters if c not in holder],
        "deal": game_log["setup"]["deal"],
        "shown": game_log["setup"]["shown"],
        "pile": len(game_log["setup"]["pile"]),
        "item_names": _item_names(sample.game, rules),
        "character_names": _character_names(sample.game, letters),
        "rule": {
            "days": rules.days,
            "search_divisor": rules.search_divisor,
            "imprison_divisor": rules.imprison_divisor,
            "max_kills": rules.max_kills_per_night,
            "survival": rules.survival_bonus,
            "guess_points": list(rules.guess_points),
            "per_character": rules.items_per_character,
        },
        "days": _days(rules, game_log, own, holder),
        "end": game_log["end"],
        "kills": game_log["kills"],
        "final": _final(rules, game_log),
        "points": points,
        "order": order,
        "places": [1 + sum(1 for p in points if p > points[s]) for s in range(n)],
        "best": max(points),
    }


def _days(rules: Any, game_log: Mapping[str, Any], own: str,
          holder: Mapping[str, int]) -> list[dict[str, Any]]:
    """Each night, the day after it (if the game got there) and that day's guesses."""
    days_by_number = {d["day"]: d for d in game_log["days"]}
    kills = 0
    dead: list[str] = []
    days = []
    for night in game_log["nights"]:
        d = night["night"]
        killed = list(night["killed"])
        kills += len([c for c in killed if c != own])
        dead.extend(killed)
        day = days_by_number.get(d)
        days.append({
            "number": d,
            "night": _night(rules, night, own, holder, kills),
            "day": None if day is None else _day(day, night["table"], holder),
            "guesses": [dict(g) for g in game_log["guesses"] if g["day"] == d],
            "all_dead": len(set(dead)) == len(rules.letters),
        })
    return days


def _night(rules: Any, night: Mapping[str, Any], own: str, holder: Mapping[str, int],
           kills: int) -> dict[str, Any]:
    """One night's facts: the log's, and what the template tells from them; ``kills`` counts
    the real kills up to and with this night."""
    killed, swap, imprisoned = night["killed"], night["swap"], night["imprisoned"]
    return {
        **night,
        "real": [c for c in killed if c != own],
        "weapons": [x for x in night["discarded"] if x != KEY],
        "key_discarded": KEY in night["discarded"],
        # Positions count from 1 in the text; the size of the row names its ends.
        "swap": None if swap is None else {
            **swap, "position": swap["position"] + 1,
            "size": len(night["table"][swap["character"]]), "holder": holder.get(swap["character"])},
        "short": len(night["arranged"]) < rules.items_per_character,
        "key_mattered": night["key"] and (
            night["murderer_imprisoned"] or any(c in imprisoned for c in killed)
            or (swap is not None and swap["character"] in imprisoned)),
        "kills_so_far": kills,
    }


def _day(day: Mapping[str, Any], table: Mapping[str, Sequence[str]],
         holder: Mapping[str, int]) -> dict[str, Any]:
    """One day's facts; ``table`` holds the rows the day looks at (the night's)."""
    looks = [{**look, "position": None if look["position"] is None else look["position"] + 1,
              "size": len(table[look["character"]]), "holder": holder.get(look["character"])}
             for look in day["looks"]]
    return {**day, "looks": looks}


def _final(rules: Any, game_log: Mapping[str, Any]) -> list[dict[str, Any]]:
    """Each seat at the end, with its guess, whether it came before its death and, for the
    murderer, the band of kills that scored."""
    guesses = {g["seat"]: g for g in game_log["guesses"]}
    final = []
    for entry in game_log["final"]:
        seat = entry["seat"]
        guess = guesses.get(seat)
        before_death = (guess is not None and guess["correct"] and entry["died"] is not None
                        and guess["day"] < entry["died"])
        band = None
        if entry["role"] == MURDERER:
            band = next(({"min": b.kills_min, "max": b.kills_max, "points": b.points}
                         for b in rules.murderer_bands if b.covers(entry["kills"])), None)
        final.append({**entry, "guess": guess, "before_death": before_death, "band": band})
    return final
