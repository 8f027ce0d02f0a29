"""aizhewudi's playtest-night calculators (``pnp calc aizhewudi ...``)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from pnp.core.errors import PnpError
from pnp.games.aizhewudi.rules import AizhewudiRules
from pnp.games.aizhewudi.split import split_table
from pnp.games.calcargs import TEXT, WHOLE, Argument, Option, in_range, whole_number
from pnp.games.calculators import CalcResult, Calculator, make_result, money


def split(rules: AizhewudiRules, sharers: int, bills: Sequence[str]) -> CalcResult:
    """The largest equal share for ``sharers`` players from the bills on the table."""
    # Sharers are the players still standing: none at all is a real (if sad) table.
    in_range(sharers, 0, rules.max_players, "--sharers (players standing)")
    if not bills:
        raise PnpError("no bills given: list the bills on the table, e.g. 20,000 5,000")
    values = [whole_number(text, "bill") for text in bills]
    denominations = ", ".join(money(d) for d in sorted(rules.denominations))
    bad = sorted({v for v in values if v not in rules.denominations})
    if bad:
        raise PnpError(f"not a bill of aizhewudi: {', '.join(money(b) for b in bad)} "
                       f"(its bills are {denominations})")
    supply = {kind.value: kind.count for kind in rules.bills}
    for value, count in sorted(Counter(values).items()):
        if count > supply[value]:
            raise PnpError(f"{count} bills of {money(value)} given, but the game has only "
                           f"{supply[value]}")
    result = split_table(values, sharers, rules)  # the bills and sharers checked above
    data = {"share": result.share, "groups": result.groups, "carried": result.carried}
    lines: list[str] = []
    if result.share:
        lines.append(f"{sharers} 人各分 {money(result.share)}")
        lines += [f"第 {i} 份：{' + '.join(money(b) for b in group)}"
                  for i, group in enumerate(result.groups, start=1)]
    elif sharers == 0:
        lines.append("沒有人分錢")
    else:
        lines.append(f"{sharers} 人分不出相同的金額，沒有人分到錢")
    carried = " + ".join(money(b) for b in result.carried) if result.carried else "無"
    lines.append(f"留到下一輪：{carried}")
    return make_result(data, lines)


CALCULATORS = (
    Calculator("split", "The largest equal share of BILLS for K sharers, one group each; the rest carries.",
               split, (Option("sharers", "Players sharing (standing).", WHOLE, required=True, short="k"),
                       Argument("bills", TEXT, many=True, required=False))),
)
