"""誰是牛頭王 SP (niutouwang): bull heads, row placement, SP punishment, bots, replay.

Pure engine: no I/O, no printing, randomness only from a passed ``random.Random``.
Defaults are the rulings in shared/RULINGS.md. Seats count from 0 here and in logs.

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
import random
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from pnp.games.base import Table
from pnp.games.params import Params, raise_problems

slug = "niutouwang"
variants: tuple[str, ...] = ("official",)

Row = tuple[int, ...]
Rows = tuple[Row, ...]
# Called for a card lower than every row end: (seat, card, rows) -> index of the row to take.
Chooser = Callable[[int, int, Rows], int]

BOTS: tuple[str, ...] = ("greedy", "random")
# A designer's rules may let official rounds pass with nobody scoring; this keeps play finite.
MAX_OFFICIAL_ROUNDS = 200


@dataclass(frozen=True)
class HeadRule:
    multiple_of: int
    heads: int


DEFAULT_HEAD_RULES: tuple[HeadRule, ...] = (
    HeadRule(55, 7),
    HeadRule(11, 5),
    HeadRule(10, 3),
    HeadRule(5, 2),
)


@dataclass(frozen=True)
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


@dataclass(frozen=True)
class Placement:
    seat: int
    card: int
    row: int
    took: tuple[int, ...]

    def as_log(self) -> dict[str, Any]:
        return {"seat": self.seat, "card": self.card, "row": self.row, "took": list(self.took)}


@dataclass(frozen=True)
class Finding:
    code: str
    message: str
    where: str


# --------------------------------------------------------------------------- rules mapping

_TOP_KEYS = ("deck", "rows", "row_limit", "players", "heads", "punishment", "variants")


def _section(p: Params, key: str) -> Params:
    """A nested reader; an absent section reads as empty so its defaults apply."""
    return p.sub(key) or Params({}, p.where(key), p.problems)


def rules_from_mapping(
    mapping: Mapping[str, Any] | None, variant: str | None = None
) -> NiutouwangRules:
    """Rules from game.yaml's ``rules:`` mapping; raises RulesError listing every problem."""
    problems: list[str] = []
    chosen = variant or ""
    if chosen not in ("", *variants):
        problems.append(f"variant: unknown variant {variant!r} (known: {', '.join(variants)})")
        chosen = ""
    p = Params(mapping, "", problems)
    d = NiutouwangRules()

    deck = _section(p, "deck")
    lowest = deck.integer("lowest", d.lowest, minimum=0)
    highest = deck.integer("highest", d.highest, minimum=0)
    deck.finish(("lowest", "highest"))
    rows = p.integer("rows", d.rows, minimum=1)
    row_limit = p.integer("row_limit", d.row_limit, minimum=2)

    players = _section(p, "players")
    pmin = players.integer("min", d.min_players, minimum=2)
    pmax = players.integer("max", d.max_players, minimum=2)
    pdefault = players.integer("default", min(max(d.default_players, pmin), pmax), minimum=2)
    players.finish(("min", "max", "default"))

    heads = _section(p, "heads")
    default_heads = heads.integer("default", d.default_heads, minimum=0)
    head_rules = d.head_rules
    items = heads.items("overrides")
    if items is not None:
        parsed = []
        for item, raw in zip(items, heads.raw("overrides"), strict=True):
            if not isinstance(raw, Mapping):
                continue  # already reported as not a mapping
            multiple = item.required_integer("multiple_of", minimum=1)
            count = item.required_integer("heads", minimum=0)
            item.finish(("multiple_of", "heads"))
            if multiple is not None and count is not None:
                parsed.append(HeadRule(multiple, count))
        head_rules = tuple(parsed)
    heads.finish(("default", "overrides"))

    punishment = _section(p, "punishment")
    base = punishment.integer("base", d.base, minimum=1)
    paired = punishment.boolean("paired", d.paired)
    punishment.finish(("base", "paired"))

    # Variant settings live under variants.<name>, as in the other engines' game.yaml.
    named = _section(p, "variants")
    named.finish(variants)
    official = _section(named, "official")
    hand_size = official.integer("hand_size", d.official_hand_size, minimum=1)
    end_at = official.integer("end_at", d.official_end_at, minimum=1)
    official.finish(("hand_size", "end_at"))
    p.finish(_TOP_KEYS)

    if highest < lowest:
        problems.append(f"deck: highest ({highest}) is below lowest ({lowest})")
    elif rows >= highest - lowest + 1:
        problems.append(
            f"rows: {rows} row cards leave nothing to deal from a {highest - lowest + 1}-card deck"
        )
    if pmin > pmax:
        problems.append(f"players: min ({pmin}) is greater than max ({pmax})")
    elif not pmin <= pdefault <= pmax:
        problems.append(f"players.default: {pdefault} is outside {pmin}–{pmax}")
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


# --------------------------------------------------------------------------- heads and tables


def heads(rules: NiutouwangRules, card: int) -> int:
    if isinstance(card, bool) or not isinstance(card, int):
        raise ValueError(f"card must be an integer, got {card!r}")
    if not rules.lowest <= card <= rules.highest:
        raise ValueError(f"card {card} is not in the deck ({rules.lowest}–{rules.highest})")
    return _heads(rules, card)


def _heads(rules: NiutouwangRules, card: int) -> int:
    for rule in rules.head_rules:
        if card % rule.multiple_of == 0:
            return rule.heads
    return rules.default_heads


def total_heads(rules: NiutouwangRules, cards: Sequence[int]) -> int:
    return sum(_heads(rules, c) for c in cards)


def compute_tables(rules: NiutouwangRules) -> dict[str, Table]:
    per_card = [{"card": c, "heads": _heads(rules, c)} for c in rules.deck]
    counts = Counter(row["heads"] for row in per_card)
    summary = [{"heads": h, "cards": counts[h]} for h in sorted(counts)]
    return {"heads": per_card, "heads_summary": summary}


# --------------------------------------------------------------------------- placement


def target_row(rows: Rows, card: int) -> int | None:
    """The row whose end is the highest below ``card``; None when the card is lower than all."""
    best: int | None = None
    for i, row in enumerate(rows):
        if row[-1] < card and (best is None or row[-1] > rows[best][-1]):
            best = i
    return best


def fewest_heads_row(rules: NiutouwangRules, rows: Rows) -> int:
    """The bots' pick for a low card (RULINGS): fewest heads, lowest index on a tie."""
    return min(range(len(rows)), key=lambda i: (total_heads(rules, rows[i]), i))


def place(
    rules: NiutouwangRules, rows: Rows, seat: int, card: int, chooser: Chooser | None = None
) -> tuple[Rows, Placement]:
    """Place one card; returns the new rows and what happened."""
    index = target_row(rows, card)
    if index is None:
        index = chooser(seat, card, rows) if chooser else fewest_heads_row(rules, rows)
        if not 0 <= index < len(rows):
            raise ValueError(f"row {index} does not exist (rows 0–{len(rows) - 1})")
        took = rows[index]
        new_row: Row = (card,)
    elif len(rows[index]) + 1 >= rules.row_limit:
        took = rows[index]
        new_row = (card,)
    else:
        took = ()
        new_row = (*rows[index], card)
    new_rows = rows[:index] + (new_row,) + rows[index + 1:]
    return new_rows, Placement(seat, card, index, took)


def resolve_turn(
    rules: NiutouwangRules, rows: Rows, plays: Sequence[int], chooser: Chooser | None = None
) -> tuple[Rows, tuple[Placement, ...]]:
    """Resolve one turn's revealed cards (one per seat), lowest card first."""
    on_table = {c for row in rows for c in row}
    if len(set(plays)) != len(plays):
        raise ValueError(f"plays repeat a card: {list(plays)}")
    if on_table & set(plays):
        raise ValueError(f"plays {sorted(on_table & set(plays))} are already in a row")
    placements = []
    for seat in sorted(range(len(plays)), key=lambda s: plays[s]):
        rows, placement = place(rules, rows, seat, plays[seat], chooser)
        placements.append(placement)
    return rows, tuple(placements)


# --------------------------------------------------------------------------- SP punishment


def punish(
    rules: NiutouwangRules,
    penalties: Sequence[int],
    base: int | None = None,
    paired: bool | None = None,
) -> list[dict[str, Any]]:
    """SP ending per seat (0-based, seat order); base/paired default to the rules' own.

    Error messages name seats from 1, as the people at the table count them.
    """
    base = rules.base if base is None else base
    paired = rules.paired if paired is None else paired
    if isinstance(base, bool) or not isinstance(base, int) or base < 1:
        raise ValueError(f"base must be a whole number of at least 1, got {base!r}")
    for seat, p in enumerate(penalties):
        if isinstance(p, bool) or not isinstance(p, int) or p < 0:
            # People read this (pnp calc): name the seat as the table counts it.
            raise ValueError(f"penalty of seat {seat + 1} (counting from 1) must be a whole "
                             f"number ≥ 0, got {p!r}")
    n = len(penalties)
    # Equal penalties: the lower seat counts as the lower penalty (RULINGS).
    order = sorted(range(n), key=lambda s: (penalties[s], s))
    counts = Counter(penalties)
    result: list[dict[str, Any]] = [{} for _ in range(n)]
    for k, seat in enumerate(order):
        partner = order[n - 1 - k]
        result[seat] = {
            "seat": seat,
            "penalty": penalties[seat],
            "hits": penalties[partner] * base,
            # The middle of an odd count is their own partner: they pick their hitter.
            "hitter": partner if paired and partner != seat else None,
            "tie": counts[penalties[seat]] > 1,
        }
    return result


# --------------------------------------------------------------------------- bots


def _immediate_cost(rules: NiutouwangRules, rows: Rows, card: int) -> tuple[int, int, int]:
    """(heads this card takes if played alone, how full its row gets, card) for the greedy bot."""
    index = target_row(rows, card)
    if index is None:
        return total_heads(rules, rows[fewest_heads_row(rules, rows)]), 0, card
    if len(rows[index]) + 1 >= rules.row_limit:
        return total_heads(rules, rows[index]), 0, card
    return 0, len(rows[index]) + 1, card


def choose_card(
    rules: NiutouwangRules, bot: str, rows: Rows, hand: Sequence[int], rng: random.Random
) -> int:
    if bot == "random":
        return rng.choice(sorted(hand))
    if bot == "greedy":
        return min(hand, key=lambda c: _immediate_cost(rules, rows, c))
    raise ValueError(f"unknown bot {bot!r} (known: {', '.join(BOTS)})")


# --------------------------------------------------------------------------- play


def _deal(
    rules: NiutouwangRules, players: int, rng: random.Random
) -> tuple[Rows, list[list[int]], list[int]]:
    deck = list(rules.deck)
    rng.shuffle(deck)
    rows: Rows = tuple((c,) for c in deck[: rules.rows])
    size = rules.hand_size(players)
    hands = [
        sorted(deck[rules.rows + s * size: rules.rows + (s + 1) * size]) for s in range(players)
    ]
    box = sorted(deck[rules.rows + players * size:])
    return rows, hands, box


def _play_hand(
    rules: NiutouwangRules,
    rows: Rows,
    hands: list[list[int]],
    bots: Sequence[str],
    rng: random.Random,
) -> tuple[list[dict[str, Any]], list[int]]:
    hands = [list(h) for h in hands]
    penalties = [0] * len(hands)
    turns = []
    while hands[0]:
        plays = [choose_card(rules, bots[s], rows, hands[s], rng) for s in range(len(hands))]
        for seat, card in enumerate(plays):
            hands[seat].remove(card)
        rows, placements = resolve_turn(rules, rows, plays)
        for p in placements:
            penalties[p.seat] += total_heads(rules, p.took)
        turns.append({
            "plays": plays,
            "placements": [p.as_log() for p in placements],
            "rows": [list(r) for r in rows],
        })
    return turns, penalties


def _winners(penalties: Sequence[int]) -> list[int]:
    least = min(penalties)
    return [s for s, p in enumerate(penalties) if p == least]


def play(
    rules: NiutouwangRules,
    players: int,
    rng: random.Random,
    seed: int = 1,
    variant: str | None = None,
    bots: Sequence[str] | None = None,
) -> dict[str, Any]:
    """One whole game with bots (default: all greedy) as a JSON-ready event log."""
    if variant is not None:
        rules = with_variant(rules, variant)
    if not rules.min_players <= players <= rules.max_players:
        raise ValueError(
            f"players must be {rules.min_players}–{rules.max_players}, got {players}"
        )
    if rules.hand_size(players) < 1 or rules.rows + players * rules.hand_size(players) > len(
        rules.deck
    ):
        raise ValueError(f"the deck cannot be dealt to {players} players under these rules")
    bots = list(bots) if bots is not None else ["greedy"] * players
    if len(bots) != players or any(b not in BOTS for b in bots):
        raise ValueError(f"bots must name one of {', '.join(BOTS)} per seat, got {bots}")
    log: dict[str, Any] = {
        "game": slug, "seed": seed, "players": players, "variant": rules.variant, "bots": bots,
    }
    if rules.variant != "official":
        rows, hands, box = _deal(rules, players, rng)
        turns, penalties = _play_hand(rules, rows, hands, bots, rng)
        log.update({
            "rows": [list(r) for r in rows], "hands": hands, "box": box, "turns": turns,
            "penalties": penalties, "winners": _winners(penalties),
            "punishment": punish(rules, penalties),
        })
        return log
    totals = [0] * players
    rounds = []
    end = "round_limit"
    for number in range(1, MAX_OFFICIAL_ROUNDS + 1):
        rows, hands, box = _deal(rules, players, rng)
        turns, penalties = _play_hand(rules, rows, hands, bots, rng)
        totals = [t + p for t, p in zip(totals, penalties, strict=True)]
        rounds.append({
            "round": number, "rows": [list(r) for r in rows], "hands": hands, "box": box,
            "turns": turns, "penalties": penalties, "totals": list(totals),
        })
        if max(totals) >= rules.official_end_at:
            end = "reached"
            break
    log.update({"rounds": rounds, "penalties": totals, "winners": _winners(totals), "end": end})
    return log
