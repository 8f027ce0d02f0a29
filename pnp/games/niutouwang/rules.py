"""誰是牛頭王 SP (niutouwang) rules parameters: what game.yaml may set, and its defaults.

Defaults are the rulings in docs/rulings.md. Seats count from 0 here and in logs.

Rules mapping (card_data/niutouwang/game.yaml ``rules:``; every key optional)::

    deck: {lowest: 1, highest: 104}
    rows: 4                      # row-starting cards, and new ones per official round
    row_limit: 6                 # the card that would be the 6th takes the 5 below it
    players: {min: 2, max: 10, default: 5}
    heads:
      default: 1
      overrides:                 # first match wins
        - {multiple_of: 55, heads: 7}
        - {multiple_of: 11, heads: 5}
        - {multiple_of: 10, heads: 3}
        - {multiple_of: 5, heads: 2}
    punishment: {base: 1, paired: false}
    variants:
      official: {hand_size: 10, end_at: 66}   # 10 cards each per round, play to 66

Event log of the canonical (SP) game::

    {"game": "niutouwang", "seed", "players", "variant": "", "bots": [name per seat],
     "rows": [[card] x rows], "hands": [[cards] per seat], "box": [cards],
     "turns": [{"plays": [card per seat],
                "placements": [{"seat", "card", "row", "took": [cards]}],
                "rows": [[cards] x rows]}],
     "penalties": [heads per seat], "winners": [seats],
     "punishment": [{"seat", "penalty", "hits", "hitter", "tie"}]}

Variant ``official`` replaces the top-level "rows", "hands", "box" and "turns" by
``"rounds": [{"round" (from 1), "rows", "hands", "box", "turns", "penalties" (this round),
"totals" (running totals after it)}]``; "penalties" is then the final totals, "end" is
"reached" (someone has ``end_at`` or more) or "round_limit" (a safety stop for rules under
which rounds may score nothing), and there is no "punishment".
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any

from pnp.core.problems import Problem
from pnp.core.records import record
from pnp.games.params import Params, field_problem, raise_problems

slug = "niutouwang"
variants: tuple[str, ...] = ("official",)
BOTS: tuple[str, ...] = ("greedy", "random", "ismcts")
# A designer's rules may let official rounds pass with nobody scoring; this keeps play finite.
MAX_OFFICIAL_ROUNDS = 200

# The range of every whole number the rules mapping holds (docs/number-ranges.md lists them):
# wide enough for any printable variant of the game, small enough that a calculator, a sample
# game and check's simulations finish in seconds (a 1,000-card deck is ten times the SP deck).
RANGES: dict[str, tuple[int, int]] = {
    "deck.lowest": (0, 1000),
    "deck.highest": (0, 1000),
    "rows": (1, 20),
    "row_limit": (2, 50),
    "players.min": (2, 100),
    "players.max": (2, 100),
    "players.default": (2, 100),
    "heads.default": (0, 100),
    "heads.overrides[].multiple_of": (1, 1000),
    "heads.overrides[].heads": (0, 100),
    "punishment.base": (1, 100),
    "variants.official.hand_size": (1, 100),
    "variants.official.end_at": (1, 10_000),
}


@record
class HeadRule:
    multiple_of: int
    heads: int


DEFAULT_HEAD_RULES: tuple[HeadRule, ...] = (
    HeadRule(55, 7),
    HeadRule(11, 5),
    HeadRule(10, 3),
    HeadRule(5, 2),
)


@record
class NiutouwangRules:
    lowest: int = 1
    highest: int = 104
    rows: int = 4
    row_limit: int = 6
    min_players: int = 2
    max_players: int = 10
    default_players: int = 5
    default_heads: int = 1
    head_rules: tuple[HeadRule, ...] = DEFAULT_HEAD_RULES
    base: int = 1
    paired: bool = False
    official_hand_size: int = 10
    official_end_at: int = 66
    variant: str = ""

    @property
    def deck(self) -> range:
        return range(self.lowest, self.highest + 1)

    def hand_size(self, players: int) -> int:
        if self.variant == "official":
            return self.official_hand_size
        return (len(self.deck) - self.rows) // players


# --------------------------------------------------------------------------- rules mapping

_TOP_KEYS = ("deck", "rows", "row_limit", "players", "heads", "punishment", "variants")


def rules_from_mapping(
    mapping: Mapping[str, Any] | None, variant: str | None = None
) -> NiutouwangRules:
    """Rules from game.yaml's ``rules:`` mapping; raises RulesError listing every problem."""
    problems: list[Problem] = []
    chosen = variant or ""
    if chosen not in ("", *variants):
        problems.append(field_problem("variant", f"unknown variant {variant!r} (known: {', '.join(variants)})"))
        chosen = ""
    p = Params(mapping, "", problems, RANGES)
    d = NiutouwangRules()

    deck = p.section("deck")
    lowest = deck.integer("lowest", d.lowest)
    highest = deck.integer("highest", d.highest)
    deck.finish(("lowest", "highest"))
    rows = p.integer("rows", d.rows)
    row_limit = p.integer("row_limit", d.row_limit)

    players = p.section("players")
    pmin = players.integer("min", d.min_players)
    pmax = players.integer("max", d.max_players)
    pdefault = players.integer("default", min(max(d.default_players, pmin), pmax))
    players.finish(("min", "max", "default"))

    heads = p.section("heads")
    default_heads = heads.integer("default", d.default_heads)
    head_rules = d.head_rules
    items = heads.items("overrides")
    if items is not None:
        parsed = []
        for item, raw in zip(items, heads.raw("overrides"), strict=True):
            if not isinstance(raw, Mapping):
                continue  # already reported as not a mapping
            multiple = item.required_integer("multiple_of")
            count = item.required_integer("heads")
            item.finish(("multiple_of", "heads"))
            if multiple is not None and count is not None:
                parsed.append(HeadRule(multiple, count))
        head_rules = tuple(parsed)
    heads.finish(("default", "overrides"))

    punishment = p.section("punishment")
    base = punishment.integer("base", d.base)
    paired = punishment.boolean("paired", d.paired)
    punishment.finish(("base", "paired"))

    # Variant settings live under variants.<name>, as in the other engines' game.yaml.
    named = p.section("variants")
    named.finish(variants)
    official = named.section("official")
    hand_size = official.integer("hand_size", d.official_hand_size)
    end_at = official.integer("end_at", d.official_end_at)
    official.finish(("hand_size", "end_at"))
    p.finish(_TOP_KEYS)

    if highest < lowest:
        problems.append(field_problem("deck", f"highest ({highest}) is below lowest ({lowest})"))
    elif rows >= highest - lowest + 1:
        problems.append(field_problem(
            "rows", f"{rows} row cards leave nothing to deal from a {highest - lowest + 1}-card deck"))
    if pmin > pmax:
        problems.append(field_problem("players", f"min ({pmin}) is greater than max ({pmax})"))
    elif not pmin <= pdefault <= pmax:
        problems.append(field_problem("players.default", f"{pdefault} is outside {pmin}–{pmax}"))
    raise_problems(problems)
    return NiutouwangRules(
        lowest=lowest, highest=highest, rows=rows, row_limit=row_limit,
        min_players=pmin, max_players=pmax, default_players=pdefault,
        default_heads=default_heads, head_rules=head_rules, base=base, paired=paired,
        official_hand_size=hand_size, official_end_at=end_at, variant=chosen,
    )


def with_variant(rules: NiutouwangRules, variant: str | None) -> NiutouwangRules:
    """The same rules played as ``variant`` ("" or None = the canonical SP game)."""
    chosen = variant or ""
    if chosen not in ("", *variants):
        raise ValueError(f"unknown variant {variant!r} (known: {', '.join(variants)})")
    return dataclasses.replace(rules, variant=chosen)


def player_range(rules: NiutouwangRules) -> tuple[int, int]:
    return rules.min_players, rules.max_players


def default_players(rules: NiutouwangRules) -> int:
    return rules.default_players
