"""niutouwang's playtest-night calculators (``pnp calc niutouwang ...``)."""

from __future__ import annotations

from collections.abc import Sequence

import pnp.games.niutouwang.scoring as scoring
import pnp.games.niutouwang.tables as tables
from pnp.core.errors import PnpError
from pnp.games.calcargs import TEXT, WHOLE, Argument, Option, Toggle, in_range, whole_number
from pnp.games.calculators import CalcResult, Calculator, make_result
from pnp.games.niutouwang.rules import NiutouwangRules
from pnp.games.params import ANY_NUMBER


def heads(rules: NiutouwangRules, card: int) -> CalcResult:
    try:
        count = tables.heads(rules, card)
    except ValueError as exc:
        raise PnpError(str(exc)) from None
    return make_result({"card": card, "heads": count}, [f"{card} 號牌：{count} 個牛頭"])


def punish(rules: NiutouwangRules, penalties: Sequence[str], base: int | None = None,
           paired: bool | None = None) -> CalcResult:
    """The SP ending for penalties given in seat order (seat 1 first)."""
    values = []
    for seat, text in enumerate(penalties, start=1):
        value = whole_number(text, f"penalty of seat {seat}")
        in_range(value, 0, None, f"penalty of seat {seat}")
        values.append(in_range(value, 0, ANY_NUMBER[1], f"penalty of seat {seat}"))
    low, high = rules.min_players, rules.max_players
    if not low <= len(values) <= high:
        raise PnpError(f"the SP ending is for {low}–{high} players, got {len(values)} penalties")
    if base is not None:
        in_range(base, 1, None, "--base")
        in_range(base, 1, ANY_NUMBER[1], "--base")
    try:
        rows = scoring.punish(rules, values, base, paired)
    except ValueError as exc:
        raise PnpError(str(exc)) from None
    players = [{"seat": r.seat + 1, "penalty": r.penalty, "hits": r.hits,
                "hitter": None if r.hitter is None else r.hitter + 1, "tie": r.tie}
               for r in rows]
    lines = ["座位  扣分  挨打  打人者"]
    for p in players:
        hitter = "自選" if p["hitter"] is None else f"{p['hitter']} 號"
        tie = "  同分" if p["tie"] else ""
        lines.append(f"{p['seat']:>4}  {p['penalty']:>4}  {p['hits']:>4}  {hitter}{tie}")
    return make_result({"players": players}, lines)


CALCULATORS = (
    Calculator("heads", "Bull heads on CARD.", heads, (Argument("card", WHOLE),)),
    Calculator("punish", "The SP ending for PENALTIES given in seat order (seat 1 first).", punish, (
        Argument("penalties", TEXT, many=True),
        Option("base", "Hits per penalty point (default: the rules').", WHOLE),
        Toggle("paired", "The k-th highest hits the k-th lowest (default: the rules').",
               off="unpaired", off_help="Everyone chooses whom to hit (default: the rules')."))),
)
