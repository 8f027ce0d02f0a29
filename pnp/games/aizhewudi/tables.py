"""愛者無敵 (aizhewudi): the printed tables of the rules."""

from __future__ import annotations

from pnp.games.aizhewudi.rules import (
    AizhewudiRules,
)
from pnp.games.base import Table


def compute_tables(rules: AizhewudiRules) -> dict[str, Table]:
    return {
        "bills": [{"value": b.value, "count": b.count} for b in rules.bills],
        "action_cards": [{"card": c.name, "per_player": c.per_player}
                         for c in rules.action_cards],
    }
