"""愛者無敵 (aizhewudi): the split, round resolution, 12 ability cards, bots, replay, lint.

Pure engine: no I/O, no printing, randomness only from a passed ``random.Random``.
Defaults are the rulings in shared/RULINGS.md; the card and bill mixes are rulings from the
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

Event log::

    {"game": "aizhewudi", "seed", "players", "abilities": bool, "bots": [name per seat],
     "dealt": [ability id per seat] (abilities only),
     "rounds": [{"round", "revealed": [bills], "carried_in": [bills],
                 "plays": [{"seat", "hand", "card", "target"}],   # secret: hand 1 = 千面人's
                 "withdrew": [seats],
                 "discarded": [{"seat", "hand", "reason"}],       # cards thrown away unseen
                 "rushes": [{"seat", "target"}],                  # resolved 搶婚 cards
                 "proposals": [{"seat", "target"}],               # resolved 嫁給我吧 cards
                 "flees": [{"seat", "target"}],
                 "abilities": [{"seat", "ability", "event", ...}],
                 "eliminated": [seats], "sharers": [seats], "share": n,
                 "groups": [[bills] per sharer, or [] when the share is 0],
                 "carried_out": [bills],
                 "loved": [per seat], "fickle": [per seat],
                 "peak_loved", "peak_fickle",                      # markers in use at once
                 "ended": bool}],                                  # the game ended in it
     "lost": [bills left after the last round], "bank": [{"seat", "ability", "amount"}],
     "final": [{"seat", "money", "bank", "fickle", "loved", "out", "score"}],
     "end": "rounds"|"last_standing"|"nobody_left", "winner": seat or null, "shared": [seats]}

"money" is bills only (conserved: revealed = shared out + carried + lost); "bank" is what
abilities paid from the bank; "score" = money + bank − fickle_penalty × 花心 for players
still in, null for players out. "shared" lists the tied winners when "winner" is null.
Discard reasons: "withdrew", "aimed_at_withdrawn", "rushed", "out" (its player went out),
"target_out", "round_over" (Cupid ended the round).
"""

from __future__ import annotations

import dataclasses
import math
import random
from collections import Counter, defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache, cached_property, lru_cache
from typing import Any

from pnp.games.base import Table
from pnp.games.params import Params, raise_problems

slug = "aizhewudi"
variants: tuple[str, ...] = ()

ACTIONS: tuple[str, ...] = ("rush", "propose", "flee")
BOTS: tuple[str, ...] = ("greedy", "random")

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

ABILITY_RULINGS: dict[str, str] = {
    "chapel_owner": (
        "At the end of the game the holder, if still in, reveals the card and takes 10,000 from "
        "the bank for every character out of the game."
    ),
    "florist": (
        "Used at the start of step 6 (before any card is revealed), once: the holder takes "
        "2,000 from the bank for each player then holding a flower, the florist included; a "
        "player holding two flowers counts once."
    ),
    "minor": (
        "Used once, after step 5 and before step 6: every player still holding a flower aimed "
        "at the holder lays their character down (no share this round); their cards still "
        "resolve in step 6."
    ),
    "princess": (
        "Passive from the start: the holder goes out at 4 被愛 instead of 3 and reveals the "
        "card on reaching 3."
    ),
    "many_faces": (
        "When the first character goes out, the holder (if still in) takes that player's "
        "remaining action set and plays one card from each set every round from the next round "
        "on, aiming each flower separately; withdrawing discards both cards for one 花心 "
        "marker, a 搶婚 on the holder cancels both, and aiming at a withdrawn player discards "
        "only that flower's card; if the holder goes out in the same step, nothing happens."
    ),
    "queen": (
        "Passive from the start: the holder gains at most one 被愛 marker per round from 搶婚 "
        "and 嫁給我吧 cards together, and reveals the card the first time a second one is "
        "aimed at her in a round; Cupid's marker is not a proposal and is not capped."
    ),
    "cupid": (
        "May be revealed in steps 1–3 of any round; from then on, the first time the holder "
        "receives a 被愛 marker from a 搶婚 or 嫁給我吧 card, every player in the game whose "
        "character still stands gains one 被愛, the round ends at once with no split (the "
        "bills carry), unresolved cards are discarded, and the card is discarded."
    ),
    "not_the_groom": (
        "May be revealed before step 3 of any round and stays face up: from then on the holder "
        "aims after everyone else has aimed, before 三心兩意 swaps."
    ),
    "second_thoughts": (
        "May be revealed before step 3 of any round and stays face up: from then on, after all "
        "aims (the groom's included) and before step 4, the holder may swap each played card "
        "for a card of the same set in hand."
    ),
    "playboy": (
        "At the end of the game the holder, if still in, reveals the card and takes 5,000 from "
        "the bank for each of their own 花心 markers."
    ),
    "robber_logic": (
        "Used once, right after the holder's 搶婚 card was revealed and resolved in step 5 "
        "(not when it was discarded unseen) while the holder is still in: the 搶婚 goes back to "
        "that set in hand and another card of the same set is discarded, so the holder needs "
        "one more card in that set."
    ),
    "blind_eye": (
        "Used once, before step 7, by a holder still in whose character is down: it stands "
        "again and shares this round; 花心 and 被愛 markers already taken stay."
    ),
}

# Other rulings this engine makes beyond RULINGS.md (for the rulebook writer too).
ENGINE_RULINGS: dict[str, str] = {
    "elimination_timing": (
        "Eliminations are checked after each simultaneous step (withdrawals, 搶婚, Cupid, "
        "嫁給我吧): a player put out by 搶婚 resolves no card in step 6 and a 嫁給我吧 aimed at "
        "them is discarded."
    ),
    "last_standing": (
        "When one player or none is left the game ends at once: the bills on the table are "
        "not shared and count as lost."
    ),
    "markers_return": (
        "A player who goes out returns their 被愛 and 花心 markers to the supply."
    ),
    "aims": "Each flower must be aimed at another player still in the game.",
}


@dataclass(frozen=True)
class BillKind:
    value: int
    count: int


@dataclass(frozen=True)
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


@dataclass(frozen=True)
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
    def bill_values(self) -> tuple[int, ...]:
        return tuple(b.value for b in self.bills for _ in range(b.count))

    @property
    def deck(self) -> list[int]:
        return list(self.bill_values)

    def per_player(self, action: str) -> int:
        return next(c.per_player for c in self.action_cards if c.id == action)

    def bonus(self, ability: str) -> int:
        return dict(self.bonuses)[ability]


@dataclass(frozen=True)
class Split:
    share: int
    groups: list[list[int]]
    carried: list[int]

    def as_dict(self) -> dict[str, Any]:
        return {"share": self.share, "groups": [list(g) for g in self.groups],
                "carried": list(self.carried)}


@dataclass(frozen=True)
class Finding:
    code: str
    message: str
    where: str


# --------------------------------------------------------------------------- rules mapping

_TOP_KEYS = (
    "players", "rounds", "bills", "bills_per_round", "action_cards", "eliminated_at",
    "princess_eliminated_at", "fickle_penalty", "markers", "abilities", "ability_bonuses",
)


def _is_int(value: Any) -> bool:
    # bool is an int subclass, but `rounds: true` is a typo, not a count.
    return isinstance(value, int) and not isinstance(value, bool)


def _section(p: Params, key: str) -> Params:
    """A nested reader; an absent section reads as empty so its defaults apply."""
    return p.sub(key) or Params({}, p.where(key), p.problems)


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
        value = item.required_integer("value", minimum=1)
        count = item.integer("count", 0, minimum=0)
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
        per = item.integer("per_player", defaults[card_id].per_player, minimum=0)
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
    """Rules from game.yaml's ``rules:`` mapping; raises RulesError listing every problem."""
    problems: list[str] = []
    if variant not in (None, ""):
        problems.append(f"variant: {slug} has no variants, got {variant!r}")
    p = Params(mapping, "", problems)
    d = AizhewudiRules()
    players = _section(p, "players")
    pmin = players.integer("min", d.min_players, minimum=2)
    pmax = players.integer("max", d.max_players, minimum=2)
    pdefault = players.integer("default", min(max(d.default_players, pmin), pmax), minimum=2)
    players.finish(("min", "max", "default"))
    if pmin > pmax:
        problems.append(f"players: min ({pmin}) is greater than max ({pmax})")
    elif not pmin <= pdefault <= pmax:
        problems.append(f"players.default: {pdefault} is outside {pmin}–{pmax}")
    markers = _section(p, "markers")
    loved = markers.integer("loved", d.loved_markers, minimum=0)
    fickle = markers.integer("fickle", d.fickle_markers, minimum=0)
    markers.finish(("loved", "fickle"))
    raw_bonus = _section(p, "ability_bonuses")
    bonuses = tuple((k, raw_bonus.integer(k, v, minimum=0)) for k, v in DEFAULT_BONUSES)
    raw_bonus.finish(tuple(k for k, _ in DEFAULT_BONUSES))
    rules = AizhewudiRules(
        min_players=pmin, max_players=pmax, default_players=pdefault,
        rounds=p.integer("rounds", d.rounds, minimum=1),
        bills=_read_bills(p),
        bills_per_round=p.integer("bills_per_round", d.bills_per_round, minimum=1),
        action_cards=_read_actions(p),
        eliminated_at=p.integer("eliminated_at", d.eliminated_at, minimum=1),
        princess_eliminated_at=p.integer(
            "princess_eliminated_at", d.princess_eliminated_at, minimum=1
        ),
        fickle_penalty=p.integer("fickle_penalty", d.fickle_penalty, minimum=0),
        loved_markers=loved, fickle_markers=fickle,
        abilities=p.boolean("abilities", d.abilities), bonuses=bonuses,
    )
    p.finish(_TOP_KEYS)
    raise_problems(problems)
    return rules


def player_range(rules: AizhewudiRules) -> tuple[int, int]:
    return rules.min_players, rules.max_players


def default_players(rules: AizhewudiRules) -> int:
    return rules.default_players


def compute_tables(rules: AizhewudiRules) -> dict[str, Table]:
    return {
        "bills": [{"value": b.value, "count": b.count} for b in rules.bills],
        "action_cards": [{"card": c.name, "per_player": c.per_player}
                         for c in rules.action_cards],
    }


# --------------------------------------------------------------------------- the split


def split(bills: Sequence[int], sharers: int, rules: AizhewudiRules | None = None) -> Split:
    """The largest equal share for ``sharers`` disjoint groups of ``bills``; the rest carries.

    Among groupings with that share the first sharer gets the one with the most large bills
    that still lets the others be served, then the second, and so on, so a seed always gives
    the same game. Searches over count vectors per denomination, not subsets of bills.
    """
    rules = rules or AizhewudiRules()
    if not _is_int(sharers) or sharers < 0:
        raise ValueError(f"sharers must be a whole number of at least 0, got {sharers!r}")
    denoms = rules.denominations
    bad = sorted({b for b in bills if not _is_int(b) or b not in denoms}, key=str)
    if bad:
        known = ", ".join(f"{d:,}" for d in sorted(denoms))
        raise ValueError(f"not a bill of this game: {', '.join(map(str, bad))} (bills: {known})")
    counts = tuple(list(bills).count(d) for d in denoms)
    share, groups, carried = _split_counts(denoms, counts, sharers)
    return Split(share, [list(g) for g in groups], list(carried))


@lru_cache(maxsize=4096)
def _split_counts(
    denoms: tuple[int, ...], counts: tuple[int, ...], sharers: int
) -> tuple[int, tuple[tuple[int, ...], ...], tuple[int, ...]]:
    """``split`` on bill counts per denomination (descending): the same tables recur, and
    the bots ask what a table would split into several times a round."""
    bills = [d for d, c in zip(denoms, counts, strict=True) for _ in range(c)]
    carried_all = tuple(bills)  # denominations descend, so this is largest first
    if sharers == 0 or not bills:
        return 0, (), carried_all
    total = sum(bills)
    if sharers == 1:
        return total, (carried_all,), ()
    sums = {0}
    for d, c in zip(denoms, counts, strict=True):
        sums = {s + d * i for s in sums for i in range(c + 1)}
    for share in sorted((s for s in sums if s and s * sharers <= total), reverse=True):
        plan = _plan(denoms, counts, share, sharers)
        if plan is None:
            continue
        groups = tuple(
            tuple(d for d, n in zip(denoms, v, strict=True) for _ in range(n)) for v in plan
        )
        left = Counter(bills) - Counter(b for g in groups for b in g)
        return share, groups, tuple(sorted(left.elements(), reverse=True))
    return 0, (), carried_all


def _compositions(
    denoms: tuple[int, ...], counts: tuple[int, ...], share: int
) -> list[tuple[int, ...]]:
    """Every count vector within ``counts`` worth ``share``, most large bills first."""
    found: list[tuple[int, ...]] = []

    def walk(i: int, rest: int, acc: list[int]) -> None:
        if i == len(denoms):
            if rest == 0:
                found.append(tuple(acc))
            return
        for n in range(min(counts[i], rest // denoms[i]), -1, -1):
            acc.append(n)
            walk(i + 1, rest - n * denoms[i], acc)
            acc.pop()

    walk(0, share, [])
    return found


def _plan(
    denoms: tuple[int, ...], counts: tuple[int, ...], share: int, sharers: int
) -> list[tuple[int, ...]] | None:
    comps = _compositions(denoms, counts, share)

    def fits(v: tuple[int, ...], rem: tuple[int, ...]) -> bool:
        return all(a <= b for a, b in zip(v, rem, strict=True))

    def minus(rem: tuple[int, ...], v: tuple[int, ...]) -> tuple[int, ...]:
        return tuple(b - a for a, b in zip(v, rem, strict=True))

    # Memoised on what is left: the groups still to form all have the same value, so the
    # reachable remainders are few (one plane of the count box per group formed).
    @cache
    def can(rem: tuple[int, ...], left: int) -> bool:
        return left == 0 or any(fits(v, rem) and can(minus(rem, v), left - 1) for v in comps)

    if not can(counts, sharers):
        return None
    plan = []
    rem = counts
    for left in range(sharers, 0, -1):
        v = next(v for v in comps if fits(v, rem) and can(minus(rem, v), left - 1))
        plan.append(v)
        rem = minus(rem, v)
    return plan


# --------------------------------------------------------------------------- game state


class Illegal(ValueError):
    """A decision (from a bot or a log) the rules do not allow."""


@dataclass
class _Play:
    seat: int
    hand: int
    card: str
    target: int = -1
    state: str = "pending"  # pending | resolved | discarded

    def aim(self) -> dict[str, int]:
        return {"seat": self.seat, "target": self.target}


@dataclass
class _Seat:
    # Mutable on purpose: it is the running game state, never returned to callers.
    seat: int
    ability: str | None
    hands: list[Counter[str]]
    loved: int = 0
    fickle: int = 0
    bills: list[int] = field(default_factory=list)
    bank: int = 0
    out: bool = False
    down: bool = False
    revealed: bool = False
    spent: bool = False

    def has(self, ability: str) -> bool:
        return self.ability == ability and not self.spent

    def armed(self, ability: str) -> bool:
        return self.has(ability) and self.revealed


class _Game:
    """One game; decisions come from a policy (bots in play, the log in replay)."""

    def __init__(
        self, rules: AizhewudiRules, players: int, dealt: Sequence[str | None],
        policy: _Policy,
    ) -> None:
        self.rules = rules
        self.policy = policy
        mix = Counter({c.id: c.per_player for c in rules.action_cards})
        self.seats = [_Seat(s, dealt[s], [Counter(mix)]) for s in range(players)]
        self.round = 0
        self.table: list[int] = []
        self.deck = Counter(rules.deck)
        self.someone_out = False
        self.bank_log: list[dict[str, Any]] = []
        self.rec: dict[str, Any] = {}
        self.plays: list[_Play] = []
        self.hits: Counter[int] = Counter()
        self.round_over = False
        self.history: list[dict[str, Any]] = []  # the records of the rounds played so far

    # -- helpers
    def ins(self) -> list[_Seat]:
        return [p for p in self.seats if not p.out]

    def limit(self, p: _Seat) -> int:
        r = self.rules
        return r.princess_eliminated_at if p.ability == "princess" else r.eliminated_at

    def public_limit(self, p: _Seat) -> int:
        """What the others know: the princess only once her card is face up."""
        return self.limit(p) if p.revealed else self.rules.eliminated_at

    def pending(self) -> list[_Play]:
        return [pl for pl in self.plays if pl.state == "pending"]

    def event(self, seat: int, ability: str, kind: str, **extra: Any) -> None:
        self.rec["abilities"].append({"seat": seat, "ability": ability, "event": kind, **extra})

    def discard(self, pl: _Play, reason: str) -> None:
        pl.state = "discarded"
        self.rec["discarded"].append({"seat": pl.seat, "hand": pl.hand, "reason": reason})

    def pay(self, p: _Seat, ability: str, amount: int) -> None:
        p.bank += amount
        self.bank_log.append({"seat": p.seat, "ability": ability, "amount": amount,
                              "round": self.round})

    def loved_in_use(self) -> int:
        return sum(p.loved for p in self.ins())

    # -- the game
    def run(self, limit: int | None = None) -> dict[str, Any]:
        """Play to the end, or only ``limit`` rounds (a scripted example: end "unfinished")."""
        rounds = self.history
        end = "rounds"
        last = self.rules.rounds if limit is None else min(limit, self.rules.rounds)
        for number in range(1, last + 1):
            self.round = number
            ended = self.play_round()
            rounds.append(self.rec)
            if ended:
                end = "last_standing" if self.ins() else "nobody_left"
                break
        else:
            if last < self.rules.rounds:
                end = "unfinished"
        for p in self.ins() if end != "unfinished" else []:
            if p.has("chapel_owner"):
                p.revealed = True
                outs = sum(q.out for q in self.seats)
                self.pay(p, "chapel_owner", outs * self.rules.bonus("chapel_owner"))
            if p.has("playboy"):
                p.revealed = True
                self.pay(p, "playboy", p.fickle * self.rules.bonus("playboy"))
        final = [{
            "seat": p.seat, "money": sum(p.bills), "bank": p.bank, "fickle": p.fickle,
            "loved": p.loved, "out": p.out,
            "score": None if p.out else
            sum(p.bills) + p.bank - self.rules.fickle_penalty * p.fickle,
        } for p in self.seats]
        best, shared = winner(final) if end != "unfinished" else (None, [])
        return {"rounds": rounds, "lost": sorted(self.table, reverse=True), "bank": self.bank_log,
                "final": final, "end": end, "winner": best, "shared": shared}

    def play_round(self) -> bool:
        """One round; True when the game ended in it."""
        self.rec = {"round": self.round, "revealed": [], "carried_in": list(self.table),
                    "plays": [], "withdrew": [], "discarded": [], "rushes": [], "proposals": [],
                    "flees": [], "abilities": [], "eliminated": [], "sharers": [], "share": 0,
                    "groups": [], "carried_out": [], "ended": False, "loved": [],
                    "fickle": [], "peak_loved": 0, "peak_fickle": 0}
        self.hits = Counter()
        self.round_over = False
        self.peak_loved = self.loved_in_use()
        # Step 1: characters stand, the witness reveals the bills.
        for p in self.ins():
            p.down = False
        revealed = self.policy.reveal(self, min(self.rules.bills_per_round,
                                                sum(self.deck.values())))
        if Counter(revealed) - self.deck:
            raise Illegal(f"revealed {revealed}: not that many such bills left in the deck")
        self.deck -= Counter(revealed)
        self.rec["revealed"] = list(revealed)
        self.table = self.table + list(revealed)
        for p in self.ins():
            for ability in ("cupid", "not_the_groom", "second_thoughts"):
                if p.has(ability) and not p.revealed and self.policy.arm(self, p.seat, ability):
                    p.revealed = True
                    self.event(p.seat, ability, "armed")
        # Step 2: one card per set, face down.
        self.plays = []
        for p in self.ins():
            for h, hand in enumerate(p.hands):
                if not sum(hand.values()):
                    continue
                card = self.policy.card(self, p.seat, h)
                if hand[card] < 1:
                    raise Illegal(f"seat {p.seat} plays {card!r} from set {h}, not in hand")
                hand[card] -= 1
                self.plays.append(_Play(p.seat, h, card))
        # Step 3: aim; the revealed groom aims last, seeing the others.
        groom = [pl for pl in self.plays if self.seats[pl.seat].armed("not_the_groom")]
        for pl in [pl for pl in self.plays if pl not in groom] + groom:
            target = self.policy.target(self, pl.seat, pl.hand, pl in groom)
            if target == pl.seat or not 0 <= target < len(self.seats) or \
                    self.seats[target].out:
                raise Illegal(f"seat {pl.seat} aims at {target}: not another player in the game")
            pl.target = target
        for pl in self.plays:
            p = self.seats[pl.seat]
            if not p.armed("second_thoughts"):
                continue
            new = self.policy.swap(self, pl.seat, pl.hand)
            if new is None or new == pl.card:
                continue
            hand = p.hands[pl.hand]
            if hand[new] < 1:
                raise Illegal(f"seat {pl.seat} swaps in {new!r}, not in set {pl.hand}")
            hand[new] -= 1
            hand[pl.card] += 1
            self.event(pl.seat, "second_thoughts", "swap", hand=pl.hand, **{"from": pl.card},
                       to=new)
            pl.card = new
        self.rec["plays"] = [{"seat": pl.seat, "hand": pl.hand, "card": pl.card,
                              "target": pl.target} for pl in self.plays]
        # Step 4: withdrawals, decided together.
        withdrew = sorted(p.seat for p in self.ins() if self.policy.withdraw(self, p.seat))
        self.rec["withdrew"] = withdrew
        for seat in withdrew:
            self.seats[seat].fickle += 1
            self.seats[seat].down = True
        for pl in self.plays:
            if pl.seat in withdrew:
                self.discard(pl, "withdrew")
            elif pl.target in withdrew:
                self.discard(pl, "aimed_at_withdrawn")
        self.rec["peak_fickle"] = sum(p.fickle for p in self.ins())
        # Step 5: every 搶婚 at once.
        rushes = [pl for pl in self.pending() if pl.card == "rush"]
        rushed = {pl.target for pl in rushes}
        for pl in rushes:
            pl.state = "resolved"
        for pl in self.pending():
            if pl.seat in rushed:
                self.discard(pl, "rushed")
        self.rec["rushes"] = [pl.aim() for pl in rushes]
        self.give_loved([pl.target for pl in rushes])
        if self.after_batch():
            return True
        for pl in rushes:
            p = self.seats[pl.seat]
            if p.out or not p.has("robber_logic"):
                continue
            hand = p.hands[pl.hand]
            if not sum(hand.values()):
                continue
            thrown = self.policy.robber(self, pl.seat, pl.hand)
            if thrown is None:
                continue
            if hand[thrown] < 1:
                raise Illegal(f"seat {pl.seat} discards {thrown!r} for 強盜理論, not in hand")
            hand[thrown] -= 1
            hand["rush"] += 1
            p.revealed = p.spent = True
            self.event(pl.seat, "robber_logic", "used", hand=pl.hand, discarded=thrown)
        if not self.round_over and self.step_six():
            return True
        if not self.round_over:
            for p in self.ins():
                if p.down and p.has("blind_eye") and self.policy.use(self, p.seat, "blind_eye"):
                    p.down = False
                    p.revealed = p.spent = True
                    self.event(p.seat, "blind_eye", "used")
            self.share_out()
        else:
            self.rec["carried_out"] = sorted(self.table, reverse=True)
        self.close_round()
        return False

    def step_six(self) -> bool:
        for p in self.ins():
            if p.has("minor") and self.policy.use(self, p.seat, "minor"):
                aimers = sorted({pl.seat for pl in self.pending() if pl.target == p.seat})
                for seat in aimers:
                    self.seats[seat].down = True
                p.revealed = p.spent = True
                self.event(p.seat, "minor", "used", down=aimers)
        for p in self.ins():
            if p.has("florist") and self.policy.use(self, p.seat, "florist"):
                holders = sorted({pl.seat for pl in self.pending()})
                amount = len(holders) * self.rules.bonus("florist")
                p.revealed = p.spent = True
                self.event(p.seat, "florist", "used", holders=holders, amount=amount)
                self.pay(p, "florist", amount)
        proposals = [pl for pl in self.pending() if pl.card == "propose"]
        for pl in self.pending():
            pl.state = "resolved"
        self.rec["proposals"] = [pl.aim() for pl in proposals]
        self.rec["flees"] = [pl.aim() for pl in self.plays
                             if pl.card == "flee" and pl.state == "resolved"]
        self.give_loved([pl.target for pl in proposals])
        return self.after_batch()

    def give_loved(self, targets: list[int]) -> None:
        for target in targets:
            p = self.seats[target]
            p.down = True
            self.hits[target] += 1
            if p.ability == "queen":
                if self.hits[target] == 2 and not p.revealed:
                    p.revealed = True
                    self.event(target, "queen", "revealed")
                if self.hits[target] > 1:
                    continue
            p.loved += 1
        cupid = next((self.seats[t] for t in sorted(set(targets))
                      if self.seats[t].armed("cupid")), None)
        if cupid is not None:
            standing = [p.seat for p in self.ins() if not p.down]
            for seat in standing:
                self.seats[seat].loved += 1
            cupid.spent = True
            self.event(cupid.seat, "cupid", "triggered", loved=standing)
            self.round_over = True
            for pl in self.pending():
                self.discard(pl, "round_over")
        for p in self.ins():
            if p.ability == "princess" and not p.revealed and p.loved >= self.rules.eliminated_at:
                p.revealed = True
                self.event(p.seat, "princess", "revealed")
        self.peak_loved = max(self.peak_loved, self.loved_in_use())

    def after_batch(self) -> bool:
        """Eliminations after a simultaneous step; True when the game is over."""
        gone = [p for p in self.ins() if p.loved >= self.limit(p)]
        if not gone:
            return False
        for p in gone:
            p.out = True
            p.down = True
            self.rec["eliminated"].append(p.seat)
        for pl in self.pending():
            if self.seats[pl.seat].out:
                self.discard(pl, "out")
            elif self.seats[pl.target].out:
                self.discard(pl, "target_out")
        if not self.someone_out:
            self.someone_out = True
            faces = next((p for p in self.seats if p.has("many_faces")), None)
            if faces is not None and not faces.out:
                choice = self.policy.faces(self, faces.seat, [p.seat for p in gone])
                if choice not in [p.seat for p in gone]:
                    raise Illegal(f"千面人 takes the set of seat {choice}, who did not just go out")
                taken = self.seats[choice]
                faces.hands.append(taken.hands[0])
                taken.hands = [Counter()]
                faces.revealed = faces.spent = True
                self.event(faces.seat, "many_faces", "took", **{"from": choice})
            elif faces is not None:
                faces.spent = True
        if len(self.ins()) > 1:
            return False
        for pl in self.pending():
            self.discard(pl, "round_over")
        self.rec["ended"] = True
        self.rec["carried_out"] = sorted(self.table, reverse=True)
        self.close_round()
        return True

    def share_out(self) -> None:
        sharers = [p.seat for p in self.ins() if not p.down]
        best = split(self.table, len(sharers), self.rules)
        groups = self.policy.groups(self, sharers, best)
        if len(groups) != (len(sharers) if best.share else 0):
            raise Illegal(f"{len(groups)} groups for {len(sharers)} sharers (share {best.share})")
        if any(sum(g) != best.share for g in groups):
            raise Illegal(f"groups {groups} are not each worth the largest share {best.share}")
        handed = Counter(b for g in groups for b in g)
        if handed - Counter(self.table):
            raise Illegal(f"groups {groups} use bills not on the table {self.table}")
        self.rec["sharers"] = sharers
        self.rec["share"] = best.share
        self.rec["groups"] = [list(g) for g in groups]
        for seat, group in zip(sharers, groups, strict=False):
            self.seats[seat].bills.extend(group)
        self.table = sorted((Counter(self.table) - handed).elements(), reverse=True)
        self.rec["carried_out"] = list(self.table)

    def close_round(self) -> None:
        self.rec["loved"] = [p.loved for p in self.seats]
        self.rec["fickle"] = [p.fickle for p in self.seats]
        self.rec["peak_loved"] = self.peak_loved


def winner(final: Sequence[Mapping[str, Any]]) -> tuple[int | None, list[int]]:
    """(winner, []) or, when still tied after 花心 and 被愛, (None, tied seats); nobody in:
    (None, [])."""
    standing = [f for f in final if not f["out"]]
    if not standing:
        return None, []
    key = {f["seat"]: (f["score"], -f["fickle"], f["loved"]) for f in standing}
    best = max(key.values())
    top = sorted(s for s, k in key.items() if k == best)
    return (top[0], []) if len(top) == 1 else (None, top)


# --------------------------------------------------------------------------- policies


class _Policy:
    """Where a game's decisions come from; the base answers like a cautious person."""

    def reveal(self, g: _Game, count: int) -> list[int]:
        raise NotImplementedError

    def arm(self, g: _Game, seat: int, ability: str) -> bool:
        return False

    def card(self, g: _Game, seat: int, hand: int) -> str:
        raise NotImplementedError

    def target(self, g: _Game, seat: int, hand: int, last: bool) -> int:
        raise NotImplementedError

    def swap(self, g: _Game, seat: int, hand: int) -> str | None:
        return None

    def withdraw(self, g: _Game, seat: int) -> bool:
        return False

    def robber(self, g: _Game, seat: int, hand: int) -> str | None:
        return None

    def faces(self, g: _Game, seat: int, candidates: list[int]) -> int:
        return candidates[0]

    def use(self, g: _Game, seat: int, ability: str) -> bool:
        return False

    def groups(self, g: _Game, sharers: list[int], best: Split) -> list[list[int]]:
        return best.groups


class _Bots(_Policy):
    """Seated bots: "random" (any legal choice) and "greedy" (a simple heuristic).

    The greedy bot decides only from what a player at the table knows: the bills and markers
    in front of everyone, the aims, and the cards each set has shown face up so far (not the
    cards thrown away unseen, nor anyone's hand). It weighs a withdrawal's certain cost (one
    花心, worth ``fickle_penalty`` at the end, and this round's share) against the chance that
    the flowers aimed at it put it out (every 搶婚 and 嫁給我吧 the aimers may still hold)
    times what it would lose (its money and the rounds still to come); it spends its 搶婚 and
    嫁給我吧 on players one marker from going out, on rich tables, or when its hand holds
    nothing else; it aims at players close to going out or with the most money.
    """

    def __init__(self, bots: Sequence[str], rng: random.Random, deck: list[int]) -> None:
        self.bots = list(bots)
        self.rng = rng
        self.deck = deck  # shuffled; revealed from the end
        self.plan: dict[tuple[int, int], int] = {}
        # What the table has seen of each set (by the set it started as), and of how many
        # recorded rounds; 千面人's taker -> the seat whose first set it took.
        self._seen: defaultdict[tuple[int, int], Counter[str]] = defaultdict(Counter)
        self._read = 0
        self._taken_from: dict[int, int] = {}
        self._mix: Counter[str] | None = None

    def reveal(self, g: _Game, count: int) -> list[int]:
        return [self.deck.pop() for _ in range(count)]

    def greedy(self, seat: int) -> bool:
        return self.bots[seat] == "greedy"

    def last_round(self, g: _Game) -> bool:
        return g.round == g.rules.rounds

    def arm(self, g: _Game, seat: int, ability: str) -> bool:
        return self.greedy(seat) or self.rng.random() < 0.3

    # -- what everyone at the table knows
    def _origin(self, seat: int, hand: int) -> tuple[int, int]:
        """Where a set started: 千面人's second set is the first set of the player it was
        taken from."""
        if hand and seat in self._taken_from:
            return (self._taken_from[seat], 0)
        return (seat, hand)

    def _catch_up(self, g: _Game) -> None:
        """Count the cards shown face up in the rounds recorded since the last call.

        The history only grows, and only between rounds, so each record is read once.
        """
        while self._read < len(g.history):
            rec = g.history[self._read]
            self._read += 1
            for e in rec["abilities"]:
                if e["ability"] == "many_faces" and e["event"] == "took":
                    self._taken_from.setdefault(e["seat"], e["from"])
            unseen = {(d["seat"], d["hand"]) for d in rec["discarded"]}
            for pl in rec["plays"]:
                if (pl["seat"], pl["hand"]) not in unseen:
                    self._seen[self._origin(pl["seat"], pl["hand"])][pl["card"]] += 1
            for e in rec["abilities"]:
                if e["ability"] == "robber_logic" and e["event"] == "used":
                    seen = self._seen[self._origin(e["seat"], e["hand"])]
                    seen["rush"] -= 1  # back in the hand
                    seen[e["discarded"]] += 1

    def shown(self, g: _Game, seat: int, hand: int) -> Counter[str]:
        """The cards of a set seen face up in the rounds played so far."""
        self._catch_up(g)
        return +self._seen[self._origin(seat, hand)]

    def hit_chance(self, g: _Game, seat: int, hand: int) -> float:
        """The chance that the card this set plays now is a 搶婚 or 嫁給我吧, as the table sees
        it: the set's cards not yet seen face up, the one in play among them."""
        if self._mix is None:
            self._mix = Counter({c.id: c.per_player for c in g.rules.action_cards})
        unseen = self._mix - self.shown(g, seat, hand)
        total = sum(unseen.values())
        return (unseen["rush"] + unseen["propose"]) / total if total else 0.0

    @staticmethod
    def round_income(g: _Game) -> float:
        """What one player still in may expect from the bills of one round."""
        deck = g.rules.bill_values
        per_round = sum(deck) / len(deck) * g.rules.bills_per_round if deck else 0.0
        return per_round / max(1, len(g.ins()))

    def stake(self, g: _Game, p: _Seat) -> float:
        """What going out costs: the money in hand and what the rounds to come may bring
        (a player out cannot win, so it never counts for less than one 花心)."""
        net = sum(p.bills) + p.bank - g.rules.fickle_penalty * p.fickle
        future = (g.rules.rounds - g.round) * self.round_income(g)
        return max(net, 0) + future + g.rules.fickle_penalty

    # -- decisions
    def choose_target(self, g: _Game, seat: int) -> int:
        """Another player, the more likely the closer to going out and the richer."""
        income = self.round_income(g)

        def worth(p: _Seat) -> float:
            room = g.public_limit(p) - p.loved
            closeness = 3 * income if room <= 1 else income * (g.public_limit(p) - room)
            return sum(p.bills) + closeness + self.rng.random() * income

        others = [p for p in g.ins() if p.seat != seat]
        return max(others, key=worth).seat

    def card(self, g: _Game, seat: int, hand: int) -> str:
        cards = g.seats[seat].hands[hand]
        if not self.greedy(seat):
            return self.rng.choice(sorted(cards.elements()))
        target = self.choose_target(g, seat)
        self.plan[(seat, hand)] = target
        t = g.seats[target]
        hits = cards["rush"] + cards["propose"]
        left = sum(cards.values())
        if not left:
            raise Illegal(f"seat {seat} has no card in set {hand}")
        if hits and g.public_limit(t) - t.loved <= 1:
            return "rush" if cards["rush"] else "propose"  # it may put them out
        # Spend the flowers that hit on rich tables, and never keep them past the last round.
        table = sum(g.table) / max(1.0, self.round_income(g) * len(g.ins()))
        if hits and (hits >= left or self.rng.random() < hits / left * table):
            return "propose" if cards["propose"] else "rush"
        if cards["flee"]:
            return "flee"
        return "propose" if cards["propose"] else "rush"

    def target(self, g: _Game, seat: int, hand: int, last: bool) -> int:
        others = [p.seat for p in g.ins() if p.seat != seat]
        if not self.greedy(seat):
            return self.rng.choice(others)
        if last:
            # Seeing every aim, pile onto the most-aimed player.
            aimed = Counter(pl.target for pl in g.plays if pl.target >= 0 and pl.seat != seat)
            if aimed:
                return min(others, key=lambda s: (-aimed[s], s))
        planned = self.plan.get((seat, hand))
        return planned if planned in others else others[0]

    def swap(self, g: _Game, seat: int, hand: int) -> str | None:
        pl = next(pl for pl in g.plays if pl.seat == seat and pl.hand == hand)
        cards = g.seats[seat].hands[hand]
        if not self.greedy(seat):
            choices = sorted(c for c in cards.elements() if c != pl.card)
            return self.rng.choice(choices) if choices and self.rng.random() < 0.2 else None
        t = g.seats[pl.target]
        if pl.card != "rush" and cards["rush"] and g.public_limit(t) - t.loved <= 1:
            return "rush"
        return None

    def withdraw(self, g: _Game, seat: int) -> bool:
        p = g.seats[seat]
        if not self.greedy(seat):
            return self.rng.random() < 0.15
        aims = [pl for pl in g.plays if pl.target == seat and pl.state == "pending"]
        # How many of the flowers aimed at me hit: one chance per aimer's set.
        hits = [1.0]
        for pl in aims:
            chance = self.hit_chance(g, pl.seat, pl.hand)
            hits = [a * (1 - chance) + b * chance for a, b in zip([*hits, 0.0], [0.0, *hits],
                                                                  strict=True)]
        if p.ability == "queen":
            hits = [hits[0], 1 - hits[0]]  # at most one marker a round
        room = g.limit(p) - p.loved
        out = sum(hits[room:])
        if out < 0.1:
            return False  # withdraw only when going out is a real risk this round
        # Staying in and untouched pays this round's share (the table split among me and
        # the others likely to stay standing); going out costs the stake.
        standing = 1.0
        for q in g.ins():
            if q.seat != seat:
                standing += math.prod(1 - self.hit_chance(g, pl.seat, pl.hand)
                                      for pl in g.plays if pl.target == q.seat)
        share = split(g.table, max(1, round(standing)), g.rules).share
        return out * self.stake(g, p) > g.rules.fickle_penalty + hits[0] * share

    def robber(self, g: _Game, seat: int, hand: int) -> str | None:
        cards = g.seats[seat].hands[hand]
        if not self.greedy(seat):
            return self.rng.choice(sorted(cards.elements())) if self.rng.random() < 0.5 else None
        return "flee" if cards["flee"] else None

    def faces(self, g: _Game, seat: int, candidates: list[int]) -> int:
        if not self.greedy(seat):
            return self.rng.choice(candidates)
        hands = {s: g.seats[s].hands[0] for s in candidates}
        return min(candidates, key=lambda s: (-(hands[s]["rush"] + hands[s]["propose"]), s))

    def use(self, g: _Game, seat: int, ability: str) -> bool:
        last = self.last_round(g)
        if not self.greedy(seat):
            return last or self.rng.random() < 0.3
        if ability == "minor":
            aimers = {pl.seat for pl in g.pending() if pl.target == seat}
            return len(aimers) >= 2 or (last and bool(aimers))
        if ability == "florist":
            holders = {pl.seat for pl in g.pending()}
            return len(holders) >= 3 or (last and bool(holders))
        if ability == "blind_eye":
            standing = sum(not p.down for p in g.ins())
            return last or sum(g.table) >= 10000 * (standing + 1)
        return False


class _FromLog(_Policy):
    """Replays the decisions a log records; the game then rechecks everything else."""

    def __init__(self, log: Mapping[str, Any]) -> None:
        self.rounds = log["rounds"]

    def rec(self, g: _Game) -> Mapping[str, Any]:
        if g.round > len(self.rounds):
            raise Illegal(f"the log stops before round {g.round}, but the game goes on")
        return self.rounds[g.round - 1]

    def events(self, g: _Game, seat: int, ability: str, kind: str) -> list[Mapping[str, Any]]:
        return [e for e in self.rec(g).get("abilities", []) if e.get("seat") == seat
                and e.get("ability") == ability and e.get("event") == kind]

    def play(self, g: _Game, seat: int, hand: int) -> Mapping[str, Any]:
        for pl in self.rec(g).get("plays", []):
            if pl.get("seat") == seat and pl.get("hand", 0) == hand:
                return pl
        raise Illegal(f"round {g.round}: no play logged for seat {seat} set {hand}")

    def reveal(self, g: _Game, count: int) -> list[int]:
        revealed = list(self.rec(g).get("revealed", []))
        if len(revealed) != count:
            raise Illegal(f"round {g.round}: {len(revealed)} bills revealed, the rules reveal "
                          f"{count}")
        return revealed

    def arm(self, g: _Game, seat: int, ability: str) -> bool:
        return bool(self.events(g, seat, ability, "armed"))

    def card(self, g: _Game, seat: int, hand: int) -> str:
        swaps = [e for e in self.events(g, seat, "second_thoughts", "swap")
                 if e.get("hand") == hand]
        if swaps:
            return str(swaps[0].get("from"))
        return str(self.play(g, seat, hand).get("card"))

    def target(self, g: _Game, seat: int, hand: int, last: bool) -> int:
        target = self.play(g, seat, hand).get("target")
        return target if _is_int(target) else -1

    def swap(self, g: _Game, seat: int, hand: int) -> str | None:
        swaps = [e for e in self.events(g, seat, "second_thoughts", "swap")
                 if e.get("hand") == hand]
        return str(swaps[0].get("to")) if swaps else None

    def withdraw(self, g: _Game, seat: int) -> bool:
        return seat in self.rec(g).get("withdrew", [])

    def robber(self, g: _Game, seat: int, hand: int) -> str | None:
        used = [e for e in self.events(g, seat, "robber_logic", "used") if e.get("hand") == hand]
        return str(used[0].get("discarded")) if used else None

    def faces(self, g: _Game, seat: int, candidates: list[int]) -> int:
        took = self.events(g, seat, "many_faces", "took")
        choice = took[0].get("from") if took else None
        return choice if _is_int(choice) else -1

    def use(self, g: _Game, seat: int, ability: str) -> bool:
        return bool(self.events(g, seat, ability, "used"))

    def groups(self, g: _Game, sharers: list[int], best: Split) -> list[list[int]]:
        # People may group equal shares differently from the engine; any valid grouping is
        # legal, so take the log's and let the game check it.
        groups = self.rec(g).get("groups")
        if groups is None:
            return best.groups
        return [list(grp) for grp in groups] if isinstance(groups, list) else []


# --------------------------------------------------------------------------- play and replay


def play(
    rules: AizhewudiRules,
    players: int,
    rng: random.Random,
    seed: int = 1,
    abilities: bool | None = None,
    bots: Sequence[str] | None = None,
) -> dict[str, Any]:
    """One whole game with bots (default all greedy) as a JSON-ready event log.

    ``abilities`` None follows the rules' own ``abilities`` flag.
    """
    if not rules.min_players <= players <= rules.max_players:
        raise ValueError(f"players must be {rules.min_players}–{rules.max_players}, "
                         f"got {players}")
    with_abilities = rules.abilities if abilities is None else abilities
    if with_abilities and players > len(ABILITIES):
        raise ValueError(f"only {len(ABILITIES)} ability cards for {players} players")
    bots = list(bots) if bots is not None else ["greedy"] * players
    if len(bots) != players or any(b not in BOTS for b in bots):
        raise ValueError(f"bots must name one of {', '.join(BOTS)} per seat, got {bots}")
    deck = rules.deck
    rng.shuffle(deck)
    dealt: list[str | None] = (
        list(rng.sample(ABILITIES, players)) if with_abilities else [None] * players
    )
    game = _Game(rules, players, dealt, _Bots(bots, rng, deck))
    log: dict[str, Any] = {"game": slug, "seed": seed, "players": players,
                           "abilities": with_abilities, "bots": bots}
    if with_abilities:
        log["dealt"] = dealt
    log.update(game.run())
    return log


def resolve(rules: AizhewudiRules, log: Mapping[str, Any]) -> dict[str, Any]:
    """The full log that a log's decisions lead to (for scripted examples and tests).

    Each round needs only the decisions: "revealed", "plays" (seat, hand, card, target),
    "withdrew", the ability events that are choices ("armed", "used", "swap", "took") and
    optionally "groups" (default: the engine's own grouping). A script shorter than the game
    ends with "end": "unfinished" and no winner. Raises ``Illegal`` (a ValueError) on a
    decision the rules do not allow.
    """
    players = log["players"]
    dealt = log.get("dealt") if log.get("abilities") else None
    game = _Game(rules, players, dealt or [None] * players, _FromLog(log))
    full: dict[str, Any] = {"game": slug, "seed": log.get("seed", 1), "players": players,
                            "abilities": bool(log.get("abilities"))}
    if dealt:
        full["dealt"] = list(dealt)
    full.update(game.run(limit=len(log["rounds"])))
    return full


def replay(rules: AizhewudiRules, log: Mapping[str, Any]) -> list[str]:
    """Replay a log's decisions under the rules and report every field that differs."""
    if log.get("game") != slug:
        return [f"game: expected {slug!r}, got {log.get('game')!r}"]
    players = log.get("players")
    if not _is_int(players) or not rules.min_players <= players <= rules.max_players:
        return [f"players: {players!r} is outside {rules.min_players}–{rules.max_players}"]
    rounds = log.get("rounds")
    if not isinstance(rounds, list) or not all(isinstance(r, Mapping) for r in rounds):
        return ["rounds: expected a list of round records"]
    if len(rounds) > rules.rounds:
        return [f"rounds: {len(rounds)} rounds, the game has {rules.rounds}"]
    try:
        problems = _money_problems(rules, log)
    except (TypeError, AttributeError) as exc:
        return [f"rounds: malformed bills ({exc!r})"]
    if log.get("abilities"):
        dealt = log.get("dealt")
        if (not isinstance(dealt, list) or len(dealt) != players
                or len(set(dealt)) != players or not set(dealt) <= set(ABILITIES)):
            return [*problems, "dealt: expected a different ability card per seat"]
    else:
        dealt = [None] * players
    game = _Game(rules, players, dealt, _FromLog(log))
    try:
        expected = game.run()
    except Illegal as exc:
        return [*problems, f"round {game.round}: {exc}"]
    except (KeyError, IndexError, TypeError, ValueError) as exc:
        return [*problems, f"round {game.round}: malformed log ({exc!r})"]
    if len(expected["rounds"]) != len(rounds):
        problems.append(f"rounds: logged {len(rounds)}, the game lasts "
                        f"{len(expected['rounds'])}")
    for mine, theirs in zip(expected["rounds"], rounds, strict=False):
        for key, value in mine.items():
            if theirs.get(key) != value:
                problems.append(f"round {mine['round']}.{key}: logged {theirs.get(key)!r}, "
                                f"rules give {value!r}")
    for key in ("lost", "bank", "final", "end", "winner", "shared"):
        if (key in log or key in ("final", "winner")) and log.get(key) != expected[key]:
            problems.append(f"{key}: logged {log.get(key)!r}, rules give {expected[key]!r}")
    return problems


def _money_problems(rules: AizhewudiRules, log: Mapping[str, Any]) -> list[str]:
    """Bill conservation, straight from the logged numbers."""
    problems = []
    carried: list[int] = []
    revealed_all: list[int] = []
    shared_all: list[int] = []
    for rec in log["rounds"]:
        r = rec.get("round")
        revealed = list(rec.get("revealed", []))
        groups = rec.get("groups", [])
        revealed_all += revealed
        if sorted(rec.get("carried_in", [])) != sorted(carried):
            problems.append(f"round {r}.carried_in: not what the round before carried out")
        handed = [b for g in groups for b in g]
        shared_all += handed
        if sorted(carried + revealed) != sorted(handed + list(rec.get("carried_out", []))):
            problems.append(f"round {r}: table bills ≠ bills shared out + carried out")
        carried = list(rec.get("carried_out", []))
    if Counter(revealed_all) - Counter(rules.deck):
        problems.append("rounds: more bills revealed than the deck holds")
    if "lost" in log and sorted(log["lost"]) != sorted(carried):
        problems.append("lost: not what the last round carried out")
    if sum(revealed_all) != sum(shared_all) + sum(carried):
        problems.append("money: revealed ≠ shared out + lost")
    final = log.get("final")
    if isinstance(final, list) and sum(f.get("money", 0) for f in final) != sum(shared_all):
        problems.append("final: the players' bills do not add up to the bills shared out")
    return problems


def markers_in_use(log: Mapping[str, Any]) -> dict[str, int]:
    """Peak 被愛 and 花心 markers in use at once in a game (players still in hold them)."""
    rounds = log.get("rounds", [])
    return {
        "loved": max((r.get("peak_loved", 0) for r in rounds), default=0),
        "fickle": max((r.get("peak_fickle", 0) for r in rounds), default=0),
    }


# --------------------------------------------------------------------------- lint


def worst_case_markers(rules: AizhewudiRules) -> dict[str, int]:
    """The most markers the rules can need at once (an upper bound, reached in the worst game).

    被愛: everyone one short of going out, then every flower hits in one step (all players'
    markers are on the table before the out ones go back), plus Cupid's round with abilities.
    花心: everyone withdraws every round.
    """
    n = rules.max_players
    held = (n - 1) * (rules.eliminated_at - 1)
    held += (rules.princess_eliminated_at if rules.abilities else rules.eliminated_at) - 1
    cupid = n - 1 if rules.abilities else 0
    return {"loved": held + n + cupid, "fickle": n * rules.rounds}


def lint(rules: AizhewudiRules) -> list[Finding]:
    """Problems in the rules themselves (supply, counts that do not fit the rounds)."""
    findings: list[Finding] = []
    deck = len(rules.deck)
    need = rules.bills_per_round * rules.rounds
    if need > deck:
        findings.append(Finding(
            "bills-run-out",
            f"{rules.bills_per_round} bills × {rules.rounds} rounds = {need}, the deck has "
            f"{deck}: round {deck // rules.bills_per_round + 1} reveals fewer",
            "rules.bills_per_round",
        ))
    elif need < deck:
        findings.append(Finding(
            "bills-unused",
            f"{rules.bills_per_round} bills × {rules.rounds} rounds = {need}: {deck - need} of "
            f"the {deck} bills are never revealed",
            "rules.bills_per_round",
        ))
    cards = sum(c.per_player for c in rules.action_cards)
    if cards != rules.rounds:
        findings.append(Finding(
            "action-cards-short" if cards < rules.rounds else "action-cards-unused",
            f"each player has {cards} action cards for {rules.rounds} rounds (one per round)",
            "rules.action_cards",
        ))
    worst = worst_case_markers(rules)
    for kind, supply, label in (("loved", rules.loved_markers, "被愛"),
                                ("fickle", rules.fickle_markers, "花心")):
        if worst[kind] > supply:
            findings.append(Finding(
                f"{kind}-markers-worst-case",
                f"{supply} {label} markers; the worst game needs {worst[kind]} at once "
                f"(how often real games run short is a simulation's question: markers_in_use)",
                f"rules.markers.{kind}",
            ))
    if rules.princess_eliminated_at <= rules.eliminated_at:
        findings.append(Finding(
            "princess-no-effect",
            f"公主 goes out at {rules.princess_eliminated_at} 被愛, no later than everyone else "
            f"({rules.eliminated_at})",
            "rules.princess_eliminated_at",
        ))
    if rules.abilities and rules.max_players > len(ABILITIES):
        findings.append(Finding(
            "ability-cards-short",
            f"{len(ABILITIES)} ability cards for up to {rules.max_players} players",
            "rules.players.max",
        ))
    return findings


# --------------------------------------------------------------------------- the registry's object
