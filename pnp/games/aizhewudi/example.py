"""The few moments of a seeded game the rulebook's worked example is written from: who
scored what and why, how the game ended, a tie broken, as plain values the template words.

And the rulebook's hand-worked examples (``WORKED``, called from the template as
``worked.<name>``): a fund the author picked, split the engine's way, the two-round demo,
a script of plays the engine resolves, and an end of game the engine scores and ranks.
The template names the inputs; every share, remainder, marker, total and winner it prints
comes from here.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from pnp.games.aizhewudi.log import FinalSeat
from pnp.games.aizhewudi.play import resolve
from pnp.games.aizhewudi.rules import AizhewudiRules
from pnp.games.aizhewudi.scoring import final_score, winner
from pnp.games.aizhewudi.split import split

Facts = Mapping[str, Any]


def _named(names: Sequence[str], seats: Sequence[int]) -> list[str]:
    return [names[s] for s in seats]


def example_moments(f: Facts, names: Sequence[str]) -> dict[str, Any]:
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
            "bills": [{"value": v, "count": list(split["table"]).count(v)}
                      for v in sorted(set(split["table"]), reverse=True)],
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


# ------------------------------------------------------------------ hand-worked examples


def split_fund(rules: AizhewudiRules, bills: Sequence[int], sharers: int) -> dict[str, Any]:
    """``bills`` shared by ``sharers`` as the engine splits them (docs/rulings.md,
    aizhewudi-split), with the numbers the rulebook's method of finding the share walks
    through: the fund, and the cap (the fund over the sharers, down to a multiple of the
    smallest bill) from which the method counts down."""
    fund = [int(b) for b in bills]
    result = split(fund, int(sharers), rules)
    total = sum(fund)
    step = min(rules.denominations)
    return {"bills": sorted(fund, reverse=True), "total": total, "sharers": sharers,
            "share": result.share, "groups": result.groups, "carried": result.carried,
            "cap": total // sharers // step * step if sharers else 0}


def scripted_rounds(rules: AizhewudiRules, names: Sequence[str],
                    rounds: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """Rounds played from a script and resolved by the engine (``play.resolve``). ``names``
    seats the players in order; each round gives the bills turned up (``revealed``), each
    player's card and target by name (``plays``: ``{name: [card, target]}``) and who
    withdrew (``withdrew``). Per round: the bills in the fund, the 被愛 and 花心 markers each
    player holds after it (and how many 被愛 each reached, which a player who went out gave
    back), who went out, who shared, the share, the groups and what stayed on the table."""
    seat = {name: i for i, name in enumerate(names)}

    def seat_of(name: Any) -> int:
        if name not in seat:
            raise ValueError(f"the script names {name!r}, who is not one of {', '.join(names)}")
        return seat[name]

    script = {"players": len(names), "abilities": False, "rounds": [{
        "revealed": [int(b) for b in r["revealed"]],
        "plays": [{"seat": seat_of(name), "hand": 0, "card": card, "target": seat_of(target)}
                  for name, (card, target) in r["plays"].items()],
        "withdrew": [seat_of(name) for name in r.get("withdrew", ())]} for r in rounds]}
    log = resolve(rules, script)
    out = []
    reached = [0] * len(names)
    for r in log["rounds"]:
        for aim in (*r["rushes"], *r["proposals"]):
            reached[aim["target"]] += 1
        out.append({
            "revealed": r["revealed"], "carried_in": r["carried_in"],
            "fund": sum(r["revealed"]) + sum(r["carried_in"]),
            "loved": {names[s]: n for s, n in enumerate(r["loved"])},
            "reached": {names[s]: n for s, n in enumerate(reached)},
            "fickle": {names[s]: n for s, n in enumerate(r["fickle"])},
            "eliminated": _named(names, r["eliminated"]),
            "sharers": _named(names, r["sharers"]), "share": r["share"],
            "groups": r["groups"], "carried": r["carried_out"]})
    return out


def final_standing(rules: AizhewudiRules, players: Mapping[str, Mapping[str, int]]) -> dict[str, Any]:
    """The end of a game for ``players`` (by name: their ``money``, 花心 markers ``fickle``
    and 被愛 markers ``loved``, all still in the game) as the engine scores and ranks it: each
    total, the winner or those who share the win, and what settled it: the totals, the 花心
    markers or the 被愛 markers (None when nothing did)."""
    names = list(players)
    final = [FinalSeat(seat, int(p["money"]), 0, int(p.get("fickle", 0)), int(p.get("loved", 0)),
                       False, final_score(rules, int(p["money"]), 0, int(p.get("fickle", 0))))
             for seat, p in enumerate(players.values())]
    best, shared = winner(final)
    top = max(f.score or 0 for f in final)
    level = [f for f in final if f.score == top]
    fewest = min(f.fickle for f in level)
    settled = ("score" if len(level) == 1 else
               "fickle" if sum(f.fickle == fewest for f in level) == 1 else
               "loved" if best is not None else None)
    return {"scores": {names[f.seat]: f.score for f in final},
            "winner": None if best is None else names[best], "shared": _named(names, shared),
            "settled_by": settled}


# The functions the rulebook template calls as worked.<name>(...), the rules bound first.
WORKED: dict[str, Callable[..., Any]] = {"split": split_fund, "rounds": scripted_rounds,
                                         "standing": final_standing}
