"""The facts a niutouwang narration template reads: the log's steps replayed through the
state machine (the kit's replay), told from the deals and turns the machine recorded."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from pnp.games.base import Sample
from pnp.games.facts import tie_groups
from pnp.games.kit import replay_log
from pnp.games.niutouwang.machine import NiutouwangState
from pnp.games.niutouwang.rules import NiutouwangRules, with_variant
from pnp.games.niutouwang.scoring import punish, winners
from pnp.games.niutouwang.state import Rows, Turn
from pnp.games.niutouwang.tables import heads as card_heads
from pnp.games.niutouwang.tables import total_heads


def _niutouwang_hand(rules: NiutouwangRules, rows: Rows, turns: Sequence[Turn],
                     penalties: list[int], taken: list[int]) -> list[dict[str, Any]]:
    narrated = []
    now = list(rows)  # the rows as each card of a turn meets them
    for number, turn in enumerate(turns, start=1):
        placements = []
        for p in turn.placements:
            before = now[p.row]
            if all(p.card < r[-1] for r in now):
                kind = "low"
                heads_by_row = [total_heads(rules, r) for r in now]
                fewest = heads_by_row[p.row] == min(heads_by_row)
            else:
                kind = "sixth" if p.took else "append"
                fewest = False
            heads = [card_heads(rules, c) for c in p.took]
            penalties[p.seat] += sum(heads)
            taken[p.seat] += len(p.took)
            placements.append({
                "seat": p.seat, "card": p.card, "row": p.row, "kind": kind, "after": before[-1],
                "position": len(before) + 1, "took": list(p.took), "heads": heads,
                "sum": sum(heads), "fewest": fewest, "total": penalties[p.seat],
            })
            now[p.row] = (p.card,) if p.took else before + (p.card,)
        narrated.append({
            "number": number,
            "plays": list(turn.plays),
            "order": [p.seat for p in turn.placements],
            "placements": placements,
            "rows": [{"cards": list(r), "heads": total_heads(rules, r)} for r in turn.rows],
            "penalties": list(penalties),
        })
    return narrated


def facts(sample: Sample) -> dict[str, Any]:
    rules, n = sample.rules, sample.log["players"]
    if sample.log["variant"] != rules.variant:
        rules = with_variant(rules, sample.log["variant"])
    state: NiutouwangState = replay_log(lambda: NiutouwangState(rules, n), sample.log
                                        ).state  # type: ignore[assignment]
    official = state.official
    penalties = [0] * n
    taken = [0] * n
    rounds = []
    for number, deal in enumerate(state.deals, start=1):
        before = list(penalties)
        turns = _niutouwang_hand(rules, deal.rows, deal.turns, penalties, taken)
        rounds.append({
            "number": number,
            "rows": [{"cards": list(r), "heads": total_heads(rules, r)} for r in deal.rows],
            "hands": [list(h) for h in deal.hands],
            "box": list(deal.box),
            "turns": turns,
            "gained": [p - b for p, b in zip(penalties, before, strict=True)],
            "totals": list(penalties),
        })
    order = sorted(range(n), key=lambda s: (penalties[s], s))
    punishment = []
    if not official:
        by_seat = punish(rules, penalties)
        for k, seat in enumerate(order):
            partner = order[n - 1 - k]
            entry = by_seat[seat]
            punishment.append({"seat": seat, "rank": k + 1, "partner": partner,
                               "partner_penalty": penalties[partner], "hits": entry.hits,
                               "hitter": entry.hitter, "tie": entry.tie,
                               "penalty": penalties[seat]})
    return {
        "players": n,
        "official": official,
        "hand_size": rules.hand_size(n),
        "row_count": rules.rows,
        "row_limit": rules.row_limit,
        "end_at": rules.official_end_at,
        "base": rules.base,
        "paired": rules.paired,
        "rounds": rounds,
        "penalties": penalties,
        "taken": taken,
        "order": order,
        "places": [1 + sum(1 for p in penalties if p < penalties[s]) for s in range(n)],
        "winners": winners(penalties),
        "ties": tie_groups(penalties, order),
        "punishment": punishment,
        "end": state.ended if official else None,
    }
