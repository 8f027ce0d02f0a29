"""What the rules of 誰是牛頭王 SP need of each component (checked by ``pnp check``)."""

from __future__ import annotations

from pnp.games.base import Requirement
from pnp.games.niutouwang.rules import NiutouwangRules
from pnp.games.niutouwang.tables import head_table


def requirements(rules: NiutouwangRules) -> dict[str, Requirement]:
    cards = rules.highest - rules.lowest + 1
    heads = head_table(rules)
    # Card ids are components.yaml's `card-{n}`: each face's bull heads are the rules' heads
    # of its number, whatever table, field or layout line the face reads them from.
    per_card = {f"card-{card}": heads[card] for card in rules.deck}
    total = sum(per_card.values())
    return {
        "cards": Requirement(cards, f"rules.deck: {rules.lowest}–{rules.highest}"),
        "cards/*": Requirement(1, "one card of each number"),
        "cards#bull": Requirement(total, f"rules.heads: {total} bull heads in a "
                                         f"{cards}-card deck", per_card),
    }


def hands(rules: NiutouwangRules) -> dict[str, str]:
    players = rules.max_players
    return {"cards": f"the deck is dealt out as hands ({rules.hand_size(players)} cards each at "
                     f"{players} players) and a card is played from hand every turn"}
