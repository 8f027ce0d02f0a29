"""愛者無敵 (aizhewudi): the bots, a policy choosing among what the state machine allows."""

from __future__ import annotations

import math
import random
from collections import Counter, defaultdict
from collections.abc import Sequence

from pnp.games.aizhewudi.policy import Policy
from pnp.games.aizhewudi.split import table_share
from pnp.games.aizhewudi.state import CardInPlay, Game, Illegal, Seat


class Bots(Policy):
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
        self._greedy = [b == "greedy" for b in self.bots]
        self.rng = rng
        self.deck = deck  # shuffled; revealed from the end
        self.plan: dict[tuple[int, int], int] = {}
        # What the table has seen of each set (by the set it started as), and of how many
        # recorded rounds; 千面人's taker -> the seat whose first set it took.
        self._seen: defaultdict[tuple[int, int], Counter[str]] = defaultdict(Counter)
        self._read = 0
        self._taken_from: dict[int, int] = {}
        # Per set (by origin), [hits, total] of the cards not yet seen face up, kept as each
        # shown card is counted (``_count``), so a hit chance is one division.
        self._unseen: dict[tuple[int, int], list[int]] = {}
        self._mix: dict[str, int] | None = None
        self._blank = (0, 0)  # [hits, total] of a set nobody has seen a card of
        # By the player aimed at, for one round's plays (``_read_aims``): hit_chance of each
        # pending flower, and 1 - hit_chance of every flower.
        self._aims_of: list[CardInPlay] | None = None
        # The card step's reading of the table, for one round's plays (``_read_table``).
        self._table_of: list[CardInPlay] | None = None
        self._income = self._table_ratio = 0.0
        self._worths: list[tuple[int, float]] = []
        self._aims: dict[int, list[float]] = {}
        self._misses: dict[int, list[float]] = {}

    def reveal(self, g: Game, count: int) -> list[int]:
        return [self.deck.pop() for _ in range(count)]

    def greedy(self, seat: int) -> bool:
        return self._greedy[seat]

    def last_round(self, g: Game) -> bool:
        return g.round == g.rules.rounds

    def arm(self, g: Game, seat: int, ability: str) -> bool:
        return self.greedy(seat) or self.rng.random() < 0.3

    # -- what everyone at the table knows
    def _origin(self, seat: int, hand: int) -> tuple[int, int]:
        """Where a set started: 千面人's second set is the first set of the player it was
        taken from."""
        if hand and seat in self._taken_from:
            return (self._taken_from[seat], 0)
        return (seat, hand)

    def _catch_up(self, g: Game) -> None:
        """Count the cards shown face up in the rounds recorded since the last call.

        The history only grows, and only between rounds, so each record is read once.
        """
        if self._mix is None:
            self._mix = dict(g.rules.action_mix)
            self._blank = self._fresh(self._mix)
        count = self._count
        while self._read < len(g.history):
            rec = g.history[self._read]
            self._read += 1
            for e in rec.abilities:
                if e.ability == "many_faces" and e.event == "took" and isinstance(e.from_, int):
                    self._taken_from.setdefault(e.seat, e.from_)
            unseen = {(d.seat, d.hand) for d in rec.discarded} if rec.discarded else ()
            for pl in rec.plays:
                if (pl.seat, pl.hand) not in unseen:
                    count(self._origin(pl.seat, pl.hand), pl.card, 1)
            for e in rec.abilities:
                if e.ability == "robber_logic" and e.event == "used" and e.hand is not None:
                    origin = self._origin(e.seat, e.hand)
                    count(origin, "rush", -1)  # back in the hand
                    count(origin, str(e.discarded), 1)

    def _count(self, origin: tuple[int, int], card: str, step: int) -> None:
        """One more (or one fewer) ``card`` of a set seen face up, and its unseen cards.

        A card adds ``max(0, per set - max(0, seen))`` to the unseen total (and to the hits
        for 搶婚 and 嫁給我吧): what ``hit_chance`` counted card by card.
        """
        seen = self._seen[origin]
        before = seen[card]
        seen[card] = after = before + step
        assert self._mix is not None
        per_set = self._mix.get(card)
        if per_set is None:
            return
        change = max(0, per_set - max(0, after)) - max(0, per_set - max(0, before))
        if not change:
            return
        unseen = self._unseen.get(origin)
        if unseen is None:
            unseen = self._unseen[origin] = list(self._blank)
        if card == "rush" or card == "propose":
            unseen[0] += change
        unseen[1] += change

    @staticmethod
    def _fresh(mix: dict[str, int]) -> tuple[int, int]:
        """[hits, total] of a set nobody has seen a card of."""
        hits = sum(n for c, n in mix.items() if n > 0 and (c == "rush" or c == "propose"))
        return hits, sum(n for n in mix.values() if n > 0)

    def shown(self, g: Game, seat: int, hand: int) -> Counter[str]:
        """The cards of a set seen face up in the rounds played so far."""
        self._catch_up(g)
        return +self._seen[self._origin(seat, hand)]

    def hit_chance(self, g: Game, seat: int, hand: int) -> float:
        """The chance that the card this set plays now is a 搶婚 or 嫁給我吧, as the table sees
        it: the set's cards not yet seen face up, the one in play among them."""
        if self._read < len(g.history) or self._mix is None:
            self._catch_up(g)
        unseen = self._unseen.get((self._taken_from[seat], 0) if hand and seat in self._taken_from
                                  else (seat, hand))  # _origin, inlined
        hits, total = self._blank if unseen is None else unseen
        return hits / total if total else 0.0

    def _read_aims(self, g: Game) -> None:
        """The hit chances of this round's flowers by target, for the withdrawal step: its
        decisions are taken together, so the plays do not change while they are asked."""
        if self._read < len(g.history) or self._mix is None:
            self._catch_up(g)
        self._aims_of = g.plays
        aims: dict[int, list[float]] = {}
        misses: dict[int, list[float]] = {}
        self._aims, self._misses = aims, misses
        unseen_of, blank, taken = self._unseen.get, self._blank, self._taken_from
        for pl in g.plays:
            seat, hand = pl.seat, pl.hand
            # hit_chance, inlined
            unseen = unseen_of((taken[seat], 0) if hand and seat in taken else (seat, hand))
            hits, total = blank if unseen is None else unseen
            chance = hits / total if total else 0.0
            if pl.state == "pending":
                aims.setdefault(pl.target, []).append(chance)
            misses.setdefault(pl.target, []).append(1 - chance)

    @staticmethod
    def round_income(g: Game) -> float:
        """What one player still in may expect from the bills of one round."""
        return g.rules.round_bills_value / max(1, len(g.ins()))

    def stake(self, g: Game, p: Seat) -> float:
        """What going out costs: the money in hand and what the rounds to come may bring
        (a player out cannot win, so it never counts for less than one 花心)."""
        net = p.money + p.bank - g.rules.fickle_penalty * p.fickle
        future = (g.rules.rounds - g.round) * self.round_income(g)
        return max(net, 0) + future + g.rules.fickle_penalty

    # -- decisions
    def choose_target(self, g: Game, seat: int) -> int:
        """Another player, the more likely the closer to going out and the richer."""
        if self._table_of is not g.plays:
            self._read_table(g)
        income = self._income
        random = self.rng.random
        best, best_worth = -1, 0.0
        # In seat order, one random draw each, the first of equals kept (as max() would).
        for other, worth in self._worths:
            if other == seat:
                continue
            worth += random() * income
            if best < 0 or worth > best_worth:
                best, best_worth = other, worth
        return best

    def _read_table(self, g: Game) -> None:
        """What the card step weighs, once a round: nothing it looks at changes while the
        sets choose their cards (only the hands do). Per player still in, in seat order, its
        worth as a target before the random part: money plus how close it is to going out."""
        self._table_of = g.plays
        ins = g._ins
        rules = g.rules
        standing = len(ins)
        self._income = income = rules.round_bills_value / max(1, standing)
        self._table_ratio = sum(g.table) / max(1.0, income * standing)
        usual, princess = rules.eliminated_at, rules.princess_eliminated_at
        worths = []
        for p in ins:
            # g.limit(p) once the card is face up, inlined
            limit = princess if p.revealed and p.ability == "princess" else usual
            room = limit - p.loved
            closeness = 3 * income if room <= 1 else income * (limit - room)
            worths.append((p.seat, p.money + closeness))
        self._worths = worths

    def card(self, g: Game, seat: int, hand: int) -> str:
        seats = g.seats
        cards = seats[seat].hands[hand]
        if not self._greedy[seat]:
            return self.rng.choice(sorted(cards.elements()))
        target = self.choose_target(g, seat)
        self.plan[(seat, hand)] = target
        t = seats[target]
        rush, propose = cards["rush"], cards["propose"]
        hits = rush + propose
        left = sum(cards.values())
        if not left:
            raise Illegal(f"seat {seat} has no card in set {hand}")
        if hits and g.public_limit(t) - t.loved <= 1:
            return "rush" if rush else "propose"  # it may put them out
        # Spend the flowers that hit on rich tables, and never keep them past the last round.
        # (The table's worth per player standing, against one round's income: _read_table.)
        if hits and (hits >= left or self.rng.random() < hits / left * self._table_ratio):
            return "propose" if propose else "rush"
        if cards["flee"]:
            return "flee"
        return "propose" if propose else "rush"

    def target(self, g: Game, seat: int, hand: int, last: bool) -> int:
        planned = self.plan.get((seat, hand))
        if self._greedy[seat] and not last and planned is not None and planned != seat \
                and not g.seats[planned].out:
            return planned  # the player chosen with the card, still in the game
        others = [p.seat for p in g.ins() if p.seat != seat]
        if not self._greedy[seat]:
            return self.rng.choice(others)
        if last:
            # Seeing every aim, pile onto the most-aimed player.
            aimed = Counter(pl.target for pl in g.plays if pl.target >= 0 and pl.seat != seat)
            if aimed:
                return min(others, key=lambda s: (-aimed[s], s))
        return planned if planned in others else others[0]

    def swap(self, g: Game, seat: int, hand: int) -> str | None:
        pl = next(pl for pl in g.plays if pl.seat == seat and pl.hand == hand)
        cards = g.seats[seat].hands[hand]
        if not self._greedy[seat]:
            choices = sorted(c for c in cards.elements() if c != pl.card)
            return self.rng.choice(choices) if choices and self.rng.random() < 0.2 else None
        t = g.seats[pl.target]
        if pl.card != "rush" and cards["rush"] and g.public_limit(t) - t.loved <= 1:
            return "rush"
        return None

    def withdraw(self, g: Game, seat: int) -> bool:
        p = g.seats[seat]
        if not self._greedy[seat]:
            return self.rng.random() < 0.15
        if self._aims_of is not g.plays:  # once per round: the aims are all known by now
            self._read_aims(g)
        aims = self._aims.get(seat, [])
        rules = g.rules  # g.limit(p), inlined
        room = (rules.princess_eliminated_at if p.ability == "princess"
                else rules.eliminated_at) - p.loved
        if len(aims) < room and p.ability != "queen":
            return False  # not enough flowers aimed at me to put me out
        # How many of the flowers aimed at me hit: one chance per aimer's set (the first
        # step of the product, from [1.0], is [1 - chance, chance] exactly).
        hits = [1 - aims[0], aims[0]] if aims else [1.0]
        for chance in aims[1:]:
            hits = [a * (1 - chance) + b * chance for a, b in zip([*hits, 0.0], [0.0, *hits],
                                                                  strict=True)]
        if p.ability == "queen":
            hits = [hits[0], 1 - hits[0]]  # at most one marker a round
        out = sum(hits[room:])
        if out < 0.1:
            return False  # withdraw only when going out is a real risk this round
        # Staying in and untouched pays this round's share (the table split among me and
        # the others likely to stay standing); going out costs the stake.
        misses = self._misses
        standing = 1.0
        for q in g.ins():
            if q.seat != seat:
                standing += math.prod(misses.get(q.seat, ()))
        share = table_share(g.table, max(1, round(standing)), g.rules)
        return out * self.stake(g, p) > g.rules.fickle_penalty + hits[0] * share

    def robber(self, g: Game, seat: int, hand: int) -> str | None:
        cards = g.seats[seat].hands[hand]
        if not self._greedy[seat]:
            return self.rng.choice(sorted(cards.elements())) if self.rng.random() < 0.5 else None
        return "flee" if cards["flee"] else None

    def faces(self, g: Game, seat: int, candidates: list[int]) -> int:
        if not self._greedy[seat]:
            return self.rng.choice(candidates)
        hands = {s: g.seats[s].hands[0] for s in candidates}
        return min(candidates, key=lambda s: (-(hands[s]["rush"] + hands[s]["propose"]), s))

    def use(self, g: Game, seat: int, ability: str) -> bool:
        last = self.last_round(g)
        if not self._greedy[seat]:
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
