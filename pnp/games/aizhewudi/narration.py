"""The facts a aizhewudi narration template reads, from a game's event log."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from pnp.data.model import Game
from pnp.games.aizhewudi.rules import ABILITY_NAMES
from pnp.games.base import Sample


def facts(sample: Sample) -> dict[str, Any]:
    rules, game_log = sample.rules, sample.log
    n = game_log["players"]
    rounds = _rounds(game_log["rounds"], n)
    money = rounds[-1]["money"] if rounds else [0] * n
    final = [dict(f) for f in game_log["final"]]
    for f in final:
        if f["money"] != money[f["seat"]]:
            raise ValueError(f"seat {f['seat']}: narrated money {money[f['seat']]} differs from "
                             f"the log's {f['money']}")
        f["penalty"] = f["fickle"] * rules.fickle_penalty
        f["bank_items"] = [b for b in game_log["bank"] if b["seat"] == f["seat"]]
    standing = [f for f in final if not f["out"]]
    order = [f["seat"] for f in sorted(standing, key=lambda f: (-f["score"], f["fickle"],
                                                                  -f["loved"], f["seat"]))]
    order += [f["seat"] for f in final if f["out"]]
    names = {c.id: c.name for c in rules.action_cards}
    return {
        "ability_names": _ability_names(sample.game),
        "players": n,
        "abilities": game_log["abilities"],
        "dealt": list(game_log.get("dealt") or []),
        "cards": names,
        "per_player": {c.id: c.per_player for c in rules.action_cards},
        "rule": {
            "rounds": rules.rounds,
            "bills_per_round": rules.bills_per_round,
            "eliminated_at": rules.eliminated_at,
            "princess_at": rules.princess_eliminated_at,
            "fickle_penalty": rules.fickle_penalty,
            "bonuses": dict(rules.bonuses),
        },
        "rounds": rounds,
        "lost": list(game_log["lost"]),
        "lost_sum": sum(game_log["lost"]),
        "bank": [dict(b) for b in game_log["bank"]],
        "final": final,
        "order": order,
        "end": game_log["end"],
        "winner": game_log["winner"],
        "shared": list(game_log.get("shared") or []),
        "ties": _aizhewudi_ties(standing),
    }


def _rounds(logged: Sequence[Mapping[str, Any]], n: int) -> list[dict[str, Any]]:
    """Every round's facts, with the markers, money and players out as they stand after it."""
    loved = [0] * n
    fickle = [0] * n
    money = [0] * n
    out: list[int] = []
    rounds: list[dict[str, Any]] = []
    witness = 0  # seat 0 runs the steps; when out, the next player still in on the left
    for rnd in logged:
        runs_it = witness
        for seat, group in zip(rnd["sharers"], rnd["groups"], strict=False):
            money[seat] += sum(group)
        standing_before = [s for s in range(n) if s not in out]
        out.extend(rnd["eliminated"])
        if witness in out:
            witness = next(((witness + k) % n for k in range(1, n)
                            if (witness + k) % n not in out), witness)
        # What happened in the round, step by step: the log's own facts of it, by their
        # keys, and what the template reads besides (sums, the plays' fates, the markers).
        events = [dict(e) for e in rnd["abilities"]]
        discarded = {(d["seat"], d["hand"]): d["reason"] for d in rnd["discarded"]}
        plays = [{**p, "fate": discarded.get((p["seat"], p["hand"]), "resolved")}
                 for p in rnd["plays"]]
        table = list(rnd["carried_in"]) + list(rnd["revealed"])
        rounds.append({
            **rnd,
            "number": rnd["round"],
            "witness": runs_it,
            "next_witness": witness if witness != runs_it and witness not in out else None,
            "revealed_sum": sum(rnd["revealed"]),
            "carried_in_sum": sum(rnd["carried_in"]),
            "table": sorted(table, reverse=True),
            "table_sum": sum(table),
            "in_game": standing_before,
            "plays": plays,
            "aimed_at_withdrawn": sorted({d["seat"] for d in rnd["discarded"]
                                          if d["reason"] == "aimed_at_withdrawn"}),
            # The resolved rushes, proposals and flees, each with the set ("hand") it came from.
            **{key: [p for p in plays if p["card"] == card and p["fate"] == "resolved"]
               for key, card in (("rushes", "rush"), ("proposals", "propose"), ("flees", "flee"))},
            "abilities": events,
            "armed": [e for e in events if e["event"] == "armed"],
            "carried_out_sum": sum(rnd["carried_out"]),
            "gained": [now - before for now, before in zip(rnd["loved"], loved, strict=True)],
            "fickle_gained": [now - before for now, before in zip(rnd["fickle"], fickle,
                                                                   strict=True)],
            "money": list(money),
            "out": list(out),
            "cupid": next((e for e in events if e["event"] == "triggered"), None),
        })
        loved, fickle = rnd["loved"], rnd["fickle"]
    return rounds


def _ability_names(game: Game) -> dict[str, str]:
    """Ability id -> printed name: card_data's cards (ids written with "-") over the engine's."""
    names = dict(ABILITY_NAMES)
    for component in game.components:
        for card in component.cards:
            key = card.id.replace("-", "_")
            if key in names and "name" in card.fields:
                names[key] = card.fields["name"].value
    return names


def _aizhewudi_ties(standing: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """Groups of standing players with the same score, and how the tie-breaks settle them."""
    by_score: dict[int, list[Mapping[str, Any]]] = {}
    for f in standing:
        by_score.setdefault(f["score"], []).append(f)
    ties = []
    for score in sorted(by_score, reverse=True):
        group = by_score[score]
        if len(group) < 2:
            continue
        fickle = Counter(f["fickle"] for f in group)
        pairs = Counter((f["fickle"], f["loved"]) for f in group)
        ties.append({
            "score": score,
            "seats": [f["seat"] for f in group],
            "by_fickle": len(fickle) > 1,
            "by_loved": any(c == 1 for c in pairs.values()) and any(
                fickle[k[0]] > 1 for k in pairs),
            "unbroken": any(c > 1 for c in pairs.values()),
        })
    return ties
