"""What the rules of 誰是牛頭王 SP need of each component (checked by ``pnp check``)."""

from __future__ import annotations

from pnp.games.base import Requirement
from pnp.games.niutouwang.rules import NiutouwangRules


def requirements(rules: NiutouwangRules) -> dict[str, Requirement]:
    cards = rules.highest - rules.lowest + 1
    return {
        "cards": Requirement(cards, f"rules.deck: {rules.lowest}–{rules.highest}"),
        "cards/*": Requirement(1, "one card of each number"),
    }
