"""愛者無敵 (aizhewudi): the hand-written bots, the kit's named styles ``greedy`` and ``random``.

The greedy bot decides only from what a player at the table knows: the bills and markers in
front of everyone, the aims, and the cards each set has shown face up so far (not the cards
thrown away unseen, nor anyone's hand). It weighs a withdrawal's certain cost (one 花心,
worth ``fickle_penalty`` at the end, and this round's share) against the chance that the
flowers aimed at it put it out (every 搶婚 and 嫁給我吧 the aimers may still hold) times what
it would lose (its money and the rounds still to come); it spends its 搶婚 and 嫁給我吧 on
players one marker from going out, on rich tables, or when its hand holds nothing else; it
aims at players close to going out or with the most money. The random bot makes any legal
choice, arming and using abilities now and then.
"""

from __future__ import annotations

import math
import random
from collections import Counter

from pnp.games.aizhewudi.pieces import Ask, CardInPlay, Seat
from pnp.games.aizhewudi.scoring import final_score
from pnp.games.aizhewudi.split import split_table
from pnp.games.aizhewudi.state import AizhewudiState as Game
from pnp.games.kit import Action, BotKind, Match


class Brain:
    """The greedy bots' reading of the table, shared by every greedy seat of a game (kept on
    the state, ``state.brain``): what each seat plans to aim at, and the readings made once a
    round (the table's worth per player; the hit chances of the flowers aimed at each)."""

    def __init__(self, g: Game) -> None:
        self.plan: dict[tuple[int, int], int] = {}
        mix = g.rules.action_mix
        # [hits, total] of the cards of a set nobody has seen a card of
        self._blank = (sum(n for c, n in mix if n > 0 and c in ("rush", "propose")),
                       sum(n for _, n in mix if n > 0))
        # By the player aimed at, for one round's plays (``_read_aims``): the hit chance of
        # each pending flower, and 1 - the hit chance of every flower.
        self._aims_of: list[CardInPlay] | None = None
        # The card step's reading of the table, for one round's plays (``_read_table``).
        self._table_of: list[CardInPlay] | None = None
        self._income = self._table_ratio = 0.0
        self._worths: list[tuple[int, float]] = []
        self._aims: dict[int, list[float]] = {}
        self._misses: dict[int, list[float]] = {}

    def _read_aims(self, g: Game) -> None:
        """The hit chances of this round's flowers by target, for the withdrawal step: its
        decisions are taken together, so the plays do not change while they are asked."""
        self._aims_of = g.plays
        aims: dict[int, list[float]] = {}
        misses: dict[int, list[float]] = {}
        self._aims, self._misses = aims, misses
        unseen_of, blank, seats = g.unseen.get, self._blank, g.seats
        for pl in g.plays:
            # The chance that the card this set plays is a 搶婚 or 嫁給我吧, as the table sees
            # it: the set's cards not yet seen face up, the one in play among them.
            hits, total = unseen_of(seats[pl.seat].origins[pl.hand], blank)
            chance = hits / total if total else 0.0
            if pl.state == "pending":
                aims.setdefault(pl.target, []).append(chance)
            misses.setdefault(pl.target, []).append(1 - chance)

    def stake(self, g: Game, p: Seat) -> float:
        """What going out costs: the money in hand and what the rounds to come may bring
        (a player out cannot win, so it never counts for less than one 花心)."""
        net = final_score(g.rules, p.money, p.bank, p.fickle)
        # what one player still in may expect from the bills of each round to come
        future = (g.rules.rounds - g.round) * (g.rules.round_bills_value / max(1, len(g.ins)))
        return max(net, 0) + future + g.rules.fickle_penalty

    # -- decisions
    def choose_target(self, g: Game, seat: int, rng: random.Random) -> int:
        """Another player, the more likely the closer to going out and the richer."""
        if self._table_of is not g.plays:
            self._read_table(g)
        income = self._income
        draw = rng.random
        best, best_worth = -1, 0.0
        # In seat order, one random draw each, the first of equals kept (as max() would).
        for other, worth in self._worths:
            if other == seat:
                continue
            worth += draw() * income
            if best < 0 or worth > best_worth:
                best, best_worth = other, worth
        return best

    def _read_table(self, g: Game) -> None:
        """What the card step weighs, once a round: nothing it looks at changes while the
        sets choose their cards (only the hands do). Per player still in, in seat order, its
        worth as a target before the random part: money plus how close it is to going out."""
        self._table_of = g.plays
        ins = g.ins
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

    def card(self, g: Game, seat: int, hand: int, rng: random.Random) -> str:
        cards = g.seats[seat].hands[hand]
        target = self.choose_target(g, seat, rng)
        self.plan[(seat, hand)] = target
        t = g.seats[target]
        rush, propose = cards["rush"], cards["propose"]
        hits = rush + propose
        left = sum(cards.values())
        if hits and g.public_limit(t) - t.loved <= 1:
            return "rush" if rush else "propose"  # it may put them out
        # Spend the flowers that hit on rich tables, and never keep them past the last round.
        # (The table's worth per player standing, against one round's income: _read_table.)
        if hits and (hits >= left or rng.random() < hits / left * self._table_ratio):
            return "propose" if propose else "rush"
        if cards["flee"]:
            return "flee"
        return "propose" if propose else "rush"

    def target(self, g: Game, seat: int, hand: int, last: bool) -> int:
        planned = self.plan.get((seat, hand))
        if not last and planned is not None and planned != seat and not g.seats[planned].out:
            return planned  # the player chosen with the card, still in the game
        others = [p.seat for p in g.ins if p.seat != seat]
        if last:
            # Seeing every aim, pile onto the most-aimed player.
            aimed = Counter(pl.target for pl in g.plays if pl.target >= 0 and pl.seat != seat)
            if aimed:
                return min(others, key=lambda s: (-aimed[s], s))
        return planned if planned in others else others[0]

    def withdraw(self, g: Game, seat: int) -> bool:
        p = g.seats[seat]
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
        for q in g.ins:
            if q.seat != seat:
                standing += math.prod(misses.get(q.seat, ()))
        share = split_table(g.table, max(1, round(standing)), g.rules).share
        return out * self.stake(g, p) > g.rules.fickle_penalty + hits[0] * share

    def use(self, g: Game, seat: int, ability: str) -> bool:
        last = g.round == g.rules.rounds
        if ability == "minor":
            aimers = {pl.seat for pl in g.pending() if pl.target == seat}
            return len(aimers) >= 2 or (last and bool(aimers))
        if ability == "florist":
            holders = {pl.seat for pl in g.pending()}
            return len(holders) >= 3 or (last and bool(holders))
        standing = sum(not p.down for p in g.ins)  # blind_eye
        return last or sum(g.table) >= 10000 * (standing + 1)

    def decide(self, g: Game, ask: Ask) -> Action:
        """The rarer choices (GreedyStyle answers a card, an aim and a withdrawal itself)."""
        kind, seat = ask.kind, ask.seat
        if kind == "arm":
            return "arm"
        if kind == "swap":
            pl = g.plays[ask.play]
            t = g.seats[pl.target]
            if (pl.card != "rush" and g.seats[seat].hands[ask.hand]["rush"]
                    and g.public_limit(t) - t.loved <= 1):
                return "rush"
            return "keep"
        if kind == "robber":
            return "flee" if g.seats[seat].hands[ask.hand]["flee"] else "pass"
        if kind == "faces":
            hands = {s: g.seats[s].hands[0] for s in g.gone}
            return min(g.gone, key=lambda s: (-(hands[s]["rush"] + hands[s]["propose"]), s))
        return "use" if self.use(g, seat, kind) else "pass"


class GreedyStyle:
    """The hand-written greedy bot at one seat of the kit's play loop."""

    def choose(self, match: Match, seat: int, rng: random.Random) -> Action:
        g: Game = match.state  # type: ignore[assignment]
        brain = g.brain
        if brain is None:
            brain = g.brain = Brain(g)
        ask = g.asks[g.asked]
        kind = ask.kind
        if kind == "card":  # the commonest choices, asked here
            return brain.card(g, seat, ask.hand, rng)
        if kind == "aim":
            return brain.target(g, seat, ask.hand, ask.last)
        if kind == "withdraw":
            return "withdraw" if brain.withdraw(g, seat) else "stay"
        return brain.decide(g, ask)


class RandomStyle:
    """The random bot at one seat of the kit's play loop: any card, aim and set; arms, swaps,
    withdraws and uses now and then."""

    def choose(self, match: Match, seat: int, rng: random.Random) -> Action:
        g: Game = match.state  # type: ignore[assignment]
        ask = g.asks[g.asked]
        kind = ask.kind
        if kind == "card":
            return rng.choice(sorted(g.seats[seat].hands[ask.hand].elements()))
        if kind in ("aim", "faces"):
            return rng.choice(g.legal_actions())
        if kind == "withdraw":
            return "withdraw" if rng.random() < 0.15 else "stay"
        if kind == "arm":
            return "arm" if rng.random() < 0.3 else "pass"
        if kind == "swap":
            played = g.plays[ask.play].card
            choices = sorted(c for c in g.seats[seat].hands[ask.hand].elements() if c != played)
            return rng.choice(choices) if choices and rng.random() < 0.2 else "keep"
        if kind == "robber":
            cards = sorted(g.seats[seat].hands[ask.hand].elements())
            return rng.choice(cards) if rng.random() < 0.5 else "pass"
        return "use" if g.round == g.rules.rounds or rng.random() < 0.3 else "pass"


STYLES = {
    "greedy": BotKind("greedy", lambda budget: GreedyStyle(),
                      "aims at players close to going out or rich; withdraws when a hit is "
                      "likely enough to be worth a 花心"),
    "random": BotKind("random", lambda budget: RandomStyle(),
                      "any card and aim; arms, swaps, withdraws and uses abilities at random"),
}
