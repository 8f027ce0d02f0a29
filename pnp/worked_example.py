"""The facts a rulebook's worked example is written from.

A rulebook's example is the seeded game of game.yaml's ``example:``, played by the engine on
every build so its numbers cannot go stale. The book does not print that game's transcript
(that is ``pnp sample``): each game's picker below keeps only the few moments a player reads
the example for — who scored what and why, how the game ended, a tie broken — as plain
values, and the template writes the sentences around them.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from pnp.data.model import Game
from pnp.workspace import Workspace

Facts = Mapping[str, Any]


def _named(names: Sequence[str], seats: Sequence[int]) -> list[str]:
    return [names[s] for s in seats]


def _tisigui(f: Facts, names: Sequence[str]) -> dict[str, Any]:
    n = f["players"]
    rounds = []
    for big in f["big_rounds"]:
        ghost = big["ghost"]
        scorers = [{"name": names[s], "points": big["points"][s]}
                   for s in range(n) if s != ghost and big["points"][s]]
        lies = [a for sr in big["small_rounds"] for t in sr["turns"] if t["ghost"]
                for a in t["actions"] if a["lie"]]
        rounds.append({
            "number": big["number"], "die": big["die"], "ghost": names[ghost],
            "targets": len(big["targets"]), "self_target": ghost in big["targets"],
            "start": names[big["start"]], "scorers": scorers, "end": big["end"],
            "ender": None if big["ender"] is None else names[big["ender"]],
            "confirmed": len(big["confirmed"]), "unconfirmed": len(big["unconfirmed"]),
            "ghost_points": big["ghost_points"], "roll": big["roll"], "outcome": big["outcome"],
            "ghost_lied": bool(lies),
        })
    scores = f["scores"]
    winner = f["ranking"][0]
    tie = next((g for g in f["ties"] if winner in g), None)
    return {
        "players": n,
        "names": list(names),
        "rounds": rounds,
        "scores": [{"name": names[s], "points": scores[s]} for s in f["ranking"]],
        "winner": names[winner],
        "tie": None if tie is None else {
            "names": _named(names, tie), "points": scores[winner],
            "start": names[f["last_start"]], "clockwise": _named(names, f["clockwise"])},
    }


def _wurenshenghuan(f: Facts, names: Sequence[str]) -> dict[str, Any]:
    murderer = f["murderer"]
    by_seat = {entry["seat"]: entry for entry in f["final"]}
    guesses = []
    for day in f["days"]:
        for guess in day["guesses"]:
            seat = guess["seat"]
            guesses.append({"name": names[seat], "day": guess["day"],
                            "character": guess["character"], "correct": guess["correct"],
                            "points": by_seat[seat]["guess_points"],
                            "before_death": by_seat[seat]["before_death"]})
    final = [{"name": names[s], "points": by_seat[s]["points"], "alive": by_seat[s]["alive"],
              "guess_points": by_seat[s]["guess_points"],
              "survival_points": by_seat[s]["survival_points"],
              "murderer": s == murderer} for s in f["order"]]
    band = by_seat[murderer]["band"]
    return {
        "players": f["players"],
        "names": list(names),
        "murderer": names[murderer],
        "own": f["own"],
        "own_name": f["character_names"][f["own"]],
        "days": len(f["days"]),
        "killed_per_night": [len(d["night"]["real"]) for d in f["days"]],
        "imprisoned_per_day": [len(d["day"]["imprisoned"]) if d["day"] else 0 for d in f["days"]],
        "kills": f["kills"],
        "band": band,
        "end": f["end"],
        "guesses": guesses,
        "wrong": [g for g in guesses if not g["correct"]],
        "right": [g for g in guesses if g["correct"]],
        "final": final,
        "winner": names[f["order"][0]],
    }


def _niutouwang(f: Facts, names: Sequence[str]) -> dict[str, Any]:
    first_sixth = first_low = None
    turns = [t for r in f["rounds"] for t in r["turns"]]
    for turn in turns:
        for p in turn["placements"]:
            moment = {"turn": turn["number"], "name": names[p["seat"]], "card": p["card"],
                      "row": p["row"] + 1, "after": p["after"], "took": list(p["took"]),
                      "heads": p["sum"], "fewest": p["fewest"]}
            if p["kind"] == "sixth" and first_sixth is None:
                first_sixth = moment
            if p["kind"] == "low" and first_low is None:
                first_low = moment
    penalties = f["penalties"]
    return {
        "players": f["players"],
        "names": list(names),
        "hand_size": f["hand_size"],
        "base": f["base"],
        "turns": len(turns),
        "first_turn": None if not turns else {
            "plays": sorted(turns[0]["plays"]),
            "order": _named(names, turns[0]["order"])},
        "first_sixth": first_sixth,
        "first_low": first_low,
        "standing": [{"name": names[s], "heads": penalties[s], "cards": f["taken"][s]}
                     for s in f["order"]],
        "punishment": [{"name": names[p["seat"]], "rank": p["rank"], "penalty": p["penalty"],
                        "partner": names[p["partner"]], "partner_penalty": p["partner_penalty"],
                        "hits": p["hits"]} for p in f["punishment"]],
        "winners": _named(names, f["winners"]),
    }


def _aizhewudi(f: Facts, names: Sequence[str]) -> dict[str, Any]:
    rounds = [{
        "number": r["number"], "table_sum": r["table_sum"], "sharers": len(r["sharers"]),
        "share": r["share"], "carried": r["carried_out_sum"],
        "eliminated": _named(names, r["eliminated"])} for r in f["rounds"]]
    split = next((r for r in f["rounds"] if r["share"] and r["carried_out_sum"]), None)
    by_seat = {entry["seat"]: entry for entry in f["final"]}
    standing = [{"name": names[s], "money": by_seat[s]["money"], "fickle": by_seat[s]["fickle"],
                 "penalty": by_seat[s]["penalty"], "loved": by_seat[s]["loved"],
                 "score": by_seat[s]["score"], "out": by_seat[s]["out"]} for s in f["order"]]
    return {
        "players": f["players"],
        "names": list(names),
        "rounds": rounds,
        "empty_rounds": [r["number"] for r in rounds if not r["share"]],
        "split": None if split is None else {
            "number": split["number"], "table_sum": split["table_sum"],
            "sharers": _named(names, split["sharers"]), "share": split["share"],
            "groups": [sum(g) for g in split["groups"]], "carried": split["carried_out_sum"]},
        "standing": standing,
        "end": f["end"],
        "winner": None if f["winner"] is None else names[f["winner"]],
        # Tied players in the order the tie-break ranks them.
        "ties": [{"names": _named(names, [s for s in f["order"] if s in t["seats"]]), "score": t["score"],
                  "by_fickle": t["by_fickle"], "by_loved": t["by_loved"],
                  "unbroken": t["unbroken"]} for t in f["ties"]],
    }


PICKERS: dict[str, Callable[[Facts, Sequence[str]], dict[str, Any]]] = {
    "tisigui": _tisigui,
    "wurenshenghuan": _wurenshenghuan,
    "niutouwang": _niutouwang,
    "aizhewudi": _aizhewudi,
}


def example_facts(workspace: Workspace, game: Game) -> dict[str, Any]:
    """The worked example's moments, from game.yaml's ``example:`` game played by the engine."""
    # The narration facts re-derive every score from the event log and raise if they disagree
    # with the engine, so the moments below are proven, not copied.
    from pnp.narrate import FACTS, SEAT_NAMES, play_sample  # the engines load late

    spec = game.info.example
    assert spec is not None
    sample = play_sample(workspace, game.slug, spec.players, spec.seed, spec.variant, game=game)
    names = SEAT_NAMES[: sample.players]
    return PICKERS[game.slug](FACTS[game.slug](sample), names)
