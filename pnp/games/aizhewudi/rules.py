"""愛者無敵 (aizhewudi): the rules parameters and the ability cards.

Pure engine: no I/O, no printing, randomness only from a passed ``random.Random``.
Defaults are the rulings in docs/rulings.md; the card and bill mixes are rulings from the
adapted game's first edition, not seed text. Seats count from 0 here and in logs.

Rules mapping (card_data/aizhewudi/game.yaml ``rules:``; every key optional; bill and action
card entries may carry a ``ruling:`` note, which the engine ignores)::

    players: {min: 4, max: 6, default: 5}
    rounds: 8
    bills:
      - {value: 5000, count: 15}
      - {value: 10000, count: 15}
      - {value: 20000, count: 10}
    bills_per_round: 5
    action_cards:                     # ids are fixed; names and counts are data
      - {id: rush, name: 搶婚喔！！！先搶先贏！, per_player: 1}
      - {id: propose, name: 嫁給我吧！！！, per_player: 2}
      - {id: flee, name: 逃婚, per_player: 5}
    eliminated_at: 3                  # 被愛 markers that put a player out
    princess_eliminated_at: 4
    fickle_penalty: 5000              # per 花心 marker
    markers: {loved: 14, fickle: 14}  # supply in the box
    abilities: false                  # deal the 12 ability cards
    ability_bonuses: {chapel_owner: 10000, florist: 2000, playboy: 5000}

The event log a game writes (rounds, final scores, the kit's "steps") is described once, key
for key, in docs/sample-and-simulate.md (aizhewudi); ``log.py`` holds its typed values.
"""

from __future__ import annotations

import dataclasses
from collections import Counter
from collections.abc import Mapping
from functools import cached_property
from typing import Any

from pnp.core.problems import Problem
from pnp.core.records import record
from pnp.games.params import Params, field_problem, raise_problems

slug = "aizhewudi"

ACTIONS: tuple[str, ...] = ("rush", "propose", "flee")
BOTS: tuple[str, ...] = ("greedy", "random", "ismcts")

# Seed order of the ability cards, with their printed names (display data).
ABILITY_NAMES: dict[str, str] = {
    "chapel_owner": "教堂東主",
    "florist": "花店老闆",
    "minor": "未成年",
    "princess": "公主",
    "many_faces": "千面人",
    "queen": "女王",
    "cupid": "邱比特",
    "not_the_groom": "新郎不是你",
    "second_thoughts": "三心兩意",
    "playboy": "花花公子",
    "robber_logic": "強盜理論",
    "blind_eye": "視而不見",
}
ABILITIES: tuple[str, ...] = tuple(ABILITY_NAMES)

# The rulings of each ability and of the engine's other choices are written once, in
# docs/rulings.md (aizhewudi-ability-<id> and the sections before them).


@record
class BillKind:
    value: int
    count: int


@record
class ActionCard:
    id: str
    name: str
    per_player: int


DEFAULT_BILLS: tuple[BillKind, ...] = (
    BillKind(5000, 15), BillKind(10000, 15), BillKind(20000, 10),
)
DEFAULT_ACTION_CARDS: tuple[ActionCard, ...] = (
    ActionCard("rush", "搶婚喔！！！先搶先贏！", 1),
    ActionCard("propose", "嫁給我吧！！！", 2),
    ActionCard("flee", "逃婚", 5),
)
DEFAULT_BONUSES: tuple[tuple[str, int], ...] = (
    ("chapel_owner", 10000), ("florist", 2000), ("playboy", 5000),
)


@record
class AizhewudiRules:
    min_players: int = 4
    max_players: int = 6
    default_players: int = 5
    rounds: int = 8
    bills: tuple[BillKind, ...] = DEFAULT_BILLS
    bills_per_round: int = 5
    action_cards: tuple[ActionCard, ...] = DEFAULT_ACTION_CARDS
    eliminated_at: int = 3
    princess_eliminated_at: int = 4
    fickle_penalty: int = 5000
    loved_markers: int = 14
    fickle_markers: int = 14
    abilities: bool = False
    bonuses: tuple[tuple[str, int], ...] = DEFAULT_BONUSES

    # Derived once per rules object: the bots ask for these many times a game.
    @cached_property
    def denominations(self) -> tuple[int, ...]:
        return tuple(sorted({b.value for b in self.bills}, reverse=True))

    @cached_property
    def deck(self) -> tuple[int, ...]:
        """Every bill of the game, in the order of ``bills``."""
        return tuple(b.value for b in self.bills for _ in range(b.count))

    @cached_property
    def round_bills_value(self) -> float:
        """What the bills revealed in one round are worth on average."""
        values = self.deck
        return (sum(values) / len(values) if values else 0.0) * self.bills_per_round

    @cached_property
    def action_mix(self) -> tuple[tuple[str, int], ...]:
        """(card id, cards per set), one entry per id as the set is made."""
        return tuple(Counter({c.id: c.per_player for c in self.action_cards}).items())

    def bonus(self, ability: str) -> int:
        return dict(self.bonuses)[ability]


# --------------------------------------------------------------------------- rules mapping

_TOP_KEYS = (
    "players", "rounds", "bills", "bills_per_round", "action_cards", "eliminated_at",
    "princess_eliminated_at", "fickle_penalty", "markers", "abilities", "ability_bonuses",
)


# The range of every whole number the rules mapping holds (docs/number-ranges.md lists them).
# Money is in the game's currency (the largest shipped bill is 20,000); counts stay small
# enough that a sample game and check's simulations finish in seconds.
_MONEY = (0, 1_000_000)
RANGES: dict[str, tuple[int, int]] = {
    "players.min": (2, 20),
    "players.max": (2, 20),
    "players.default": (2, 20),
    "markers.loved": (0, 1000),
    "markers.fickle": (0, 1000),
    **{f"ability_bonuses.{name}": _MONEY for name, _ in DEFAULT_BONUSES},
    "rounds": (1, 100),
    "bills[].value": (1, 1_000_000),
    "bills[].count": (0, 1000),
    "bills_per_round": (1, 100),
    "action_cards[].per_player": (0, 100),
    "eliminated_at": (1, 100),
    "princess_eliminated_at": (1, 100),
    "fickle_penalty": _MONEY,
}


def _entries(p: Params, key: str) -> list[Params] | None:
    """Readers for the mappings of a list; entries that are no mapping are reported once."""
    items = p.items(key)
    if items is None:
        return None
    return [item for item, raw in zip(items, p.raw(key), strict=True)
            if isinstance(raw, Mapping)]


def _read_bills(p: Params) -> tuple[BillKind, ...]:
    items = _entries(p, "bills")
    if items is None:
        return DEFAULT_BILLS
    kinds = []
    for item in items:
        value = item.required_integer("value")
        count = item.integer("count", 0)
        item.finish(("value", "count", "ruling"))
        if value is not None:
            kinds.append(BillKind(value, count))
    values = [k.value for k in kinds]
    for value in sorted({v for v in values if values.count(v) > 1}):
        p.problem("bills", f"value {value} is listed more than once")
    if not any(k.count for k in kinds):
        p.problem("bills", "the game needs at least one bill")
    return tuple(sorted(kinds, key=lambda k: k.value))


def _read_actions(p: Params) -> tuple[ActionCard, ...]:
    items = _entries(p, "action_cards")
    if items is None:
        return DEFAULT_ACTION_CARDS
    defaults = {c.id: c for c in DEFAULT_ACTION_CARDS}
    cards = []
    for item in items:
        card_id = item.raw("id")
        item.finish(("id", "name", "per_player", "ruling"))
        if card_id not in defaults:
            item.problem("id", f"must be one of {', '.join(ACTIONS)}, got {card_id!r}")
            continue
        name = item.raw("name", defaults[card_id].name)
        if not isinstance(name, str) or not name.strip():
            item.problem("name", "expected the card's printed name")
            name = defaults[card_id].name
        per = item.integer("per_player", defaults[card_id].per_player)
        cards.append(ActionCard(card_id, name, per))
    ids = [c.id for c in cards]
    for card_id in ACTIONS:
        if ids.count(card_id) > 1:
            p.problem("action_cards", f"{card_id} is listed more than once")
        elif card_id not in ids:
            # A card the designer leaves out is simply not in the sets.
            cards.append(dataclasses.replace(defaults[card_id], per_player=0))
    return tuple(sorted(cards, key=lambda c: ACTIONS.index(c.id)))


def rules_from_mapping(
    mapping: Mapping[str, Any] | None, variant: str | None = None
) -> AizhewudiRules:
    """Rules from game.yaml's ``rules:`` mapping under any variant (the abilities variant
    changes the deal, which play takes, not a rules parameter); raises RulesError listing
    every problem."""
    problems: list[Problem] = []
    p = Params(mapping, "", problems, RANGES)
    d = AizhewudiRules()
    players = p.section("players")
    pmin = players.integer("min", d.min_players)
    pmax = players.integer("max", d.max_players)
    pdefault = players.integer("default", min(max(d.default_players, pmin), pmax))
    players.finish(("min", "max", "default"))
    if pmin > pmax:
        problems.append(field_problem("players", f"min ({pmin}) is greater than max ({pmax})"))
    elif not pmin <= pdefault <= pmax:
        problems.append(field_problem("players.default", f"{pdefault} is outside {pmin}–{pmax}"))
    markers = p.section("markers")
    loved = markers.integer("loved", d.loved_markers)
    fickle = markers.integer("fickle", d.fickle_markers)
    markers.finish(("loved", "fickle"))
    raw_bonus = p.section("ability_bonuses")
    bonuses = tuple((k, raw_bonus.integer(k, v)) for k, v in DEFAULT_BONUSES)
    raw_bonus.finish(tuple(k for k, _ in DEFAULT_BONUSES))
    rules = AizhewudiRules(
        min_players=pmin, max_players=pmax, default_players=pdefault,
        rounds=p.integer("rounds", d.rounds),
        bills=_read_bills(p),
        bills_per_round=p.integer("bills_per_round", d.bills_per_round),
        action_cards=_read_actions(p),
        eliminated_at=p.integer("eliminated_at", d.eliminated_at),
        princess_eliminated_at=p.integer(
            "princess_eliminated_at", d.princess_eliminated_at
        ),
        fickle_penalty=p.integer("fickle_penalty", d.fickle_penalty),
        loved_markers=loved, fickle_markers=fickle,
        abilities=p.boolean("abilities", d.abilities), bonuses=bonuses,
    )
    p.finish(_TOP_KEYS)
    raise_problems(problems)
    return rules
