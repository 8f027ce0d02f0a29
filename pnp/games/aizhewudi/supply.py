"""What the rules of 愛者無敵 need of each component (checked by ``pnp check``).

Card ids follow components.yaml: bills are ``bill-<value>``, action cards ``<set>-<id>``.
"""

from __future__ import annotations

from pnp.games.aizhewudi.rules import ABILITIES, AizhewudiRules
from pnp.games.base import Requirement


def requirements(rules: AizhewudiRules) -> dict[str, Requirement]:
    seats = rules.max_players
    per_set = sum(card.per_player for card in rules.action_cards)
    need: dict[str, Requirement] = {
        "character": Requirement(seats, f"one per player, up to {seats} players"),
        "flower": Requirement(seats, f"one per player, up to {seats} players"),
        "action": Requirement(seats * per_set,
                              f"{seats} sets (one per player) of {per_set} cards"),
        "bill": Requirement(sum(bill.count for bill in rules.bills),
                            "the bills of rules.bills"),
        "loved": Requirement(rules.loved_markers, "rules.markers.loved"),
        "fickle": Requirement(rules.fickle_markers, "rules.markers.fickle"),
        "ability": Requirement(len(ABILITIES), f"the engine's {len(ABILITIES)} abilities"),
        # One officiant, one round track with its marker.
        "steps": Requirement(1, "one steps card for the officiant"),
        "tracker": Requirement(1, "one round track for the table"),
        "round_marker": Requirement(1, "one marker on the round track"),
    }
    for card in rules.action_cards:
        need[f"action/*-{card.id}"] = Requirement(
            card.per_player, f"rules.action_cards: {card.per_player} {card.id} in each set")
    for bill in rules.bills:
        need[f"bill/bill-{bill.value}"] = Requirement(
            bill.count, f"rules.bills: {bill.count} bills of {bill.value}")
    return need


def hands(rules: AizhewudiRules) -> dict[str, str]:
    per_set = sum(card.per_player for card in rules.action_cards)
    kinds = ", ".join(f"{card.per_player} {card.id}" for card in rules.action_cards)
    return {"action": f"each player holds a set of {per_set} action cards ({kinds}) and picks one a round"}
