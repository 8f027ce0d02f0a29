"""愛者無敵 (aizhewudi): the printed tables of the rules."""

from __future__ import annotations

from pnp.games.aizhewudi.rules import AizhewudiRules
from pnp.games.base import Table, TableColumn


def compute_tables(rules: AizhewudiRules) -> dict[str, Table]:
    return {
        "bills": [{"value": b.value, "count": b.count} for b in rules.bills],
        "action_cards": [{"card": c.name, "per_player": c.per_player}
                         for c in rules.action_cards],
    }


# What each printed table shows, in order: tables.yaml's headings are checked against these.
COLUMNS: dict[str, tuple[TableColumn, ...]] = {
    "bills": (TableColumn("value", "面額"), TableColumn("count", "張數")),
    "action_cards": (TableColumn("card", "行動牌", "text"), TableColumn("per_player", "每套張數")),
}
