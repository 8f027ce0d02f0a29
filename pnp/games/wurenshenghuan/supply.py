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
    }
