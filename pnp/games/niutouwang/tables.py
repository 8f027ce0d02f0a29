"""Bull heads per card, computed once per rules as a table, and the printed heads tables."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from functools import lru_cache

from pnp.games.base import Table, TableColumn
from pnp.games.niutouwang.rules import NiutouwangRules


@lru_cache(maxsize=32)
def head_table(rules: NiutouwangRules) -> tuple[int, ...]:
    """Heads of every card, indexed by the card itself (0 below the deck's lowest card).

    Play looks heads up hundreds of times a game; the first matching rule is found once here.
    """
    table = [0] * (rules.highest + 1)
    for card in rules.deck:
        table[card] = next(
            (rule.heads for rule in rules.head_rules if card % rule.multiple_of == 0),
            rules.default_heads,
        )
    return tuple(table)


def heads(rules: NiutouwangRules, card: int) -> int:
    """Heads of one card, for people (pnp calc): anything not a card of the deck is an error."""
    if isinstance(card, bool) or not isinstance(card, int):
        raise ValueError(f"card must be an integer, got {card!r}")
    if not rules.lowest <= card <= rules.highest:
        raise ValueError(f"card {card} is not in the deck ({rules.lowest}–{rules.highest})")
    return head_table(rules)[card]


def total_heads(rules: NiutouwangRules, cards: Sequence[int]) -> int:
    table = head_table(rules)
    return sum(table[c] for c in cards)


def compute_tables(rules: NiutouwangRules) -> dict[str, Table]:
    table = head_table(rules)
    per_card = [{"card": c, "heads": table[c]} for c in rules.deck]
    counts = Counter(row["heads"] for row in per_card)
    summary = [{"heads": h, "cards": counts[h]} for h in sorted(counts)]
    return {"heads": per_card, "heads_summary": summary}


# What each printed table shows, in order: tables.yaml's headings are checked against these.
COLUMNS: dict[str, tuple[TableColumn, ...]] = {
    "heads": (TableColumn("card", "牌號"), TableColumn("heads", "牛頭數")),
    "heads_summary": (TableColumn("heads", "牛頭數"), TableColumn("cards", "張數")),
}
