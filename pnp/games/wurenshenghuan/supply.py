"""What the rules of 無人生還 need of each component (checked by ``pnp check``).

The item deck's weapon cards are every card but ``key`` (components.yaml keeps them in the
engine's W1..W10 order).
"""

from __future__ import annotations

from pnp.games.base import Requirement
from pnp.games.wurenshenghuan.rules import WurenshenghuanRules


def requirements(rules: WurenshenghuanRules) -> dict[str, Requirement]:
    characters = rules.characters
    weapons = rules.weapon_kinds * rules.copies_per_weapon
    seats = rules.max_players
    return {
        "identity": Requirement(characters, f"rules.characters: {characters}"),
        "identity/*": Requirement(1, "one identity card per character"),
        "character": Requirement(characters, f"rules.characters: {characters}"),
        "character/*": Requirement(1, "one character card per character"),
        "item": Requirement(weapons + rules.keys,
                            f"{rules.weapon_kinds} weapons × {rules.copies_per_weapon} copies "
                            f"+ {rules.keys} key"),
        "item/key": Requirement(rules.keys, "rules.keys"),
        "item/*": Requirement(rules.copies_per_weapon, "rules.copies_per_weapon"),
        # The table's own paper: one aid between two neighbours, a slip for every seat at the
        # largest table (the murderer's is the spare), one record sheet.
        "aid": Requirement(-(-seats // 2), f"one aid per two players, up to {seats} players"),
        "slip": Requirement(seats, f"one guess slip per seat, up to {seats} players"),
        "record": Requirement(1, "one record sheet for the table"),
    }
