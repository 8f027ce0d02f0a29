"""愛者無敵 (aizhewudi): a game's table and the rulebook's steps of a round (``RoundSteps``).

Between the players' choices the rules run by themselves, stage by stage (``next_stage``); each
step is a method, in the rulebook's order, and returns the choices it leaves to the players
(``Ask``). Each round is recorded as the typed values of ``log.py`` (a ``Round``, made when the
round closes from what it left on the table); the game ends as a ``GameLog``. The kit's state
(state.py) is this table with the contract pnp's play loop drives.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import replace
from typing import TYPE_CHECKING, Any, Self

from pnp.games.aizhewudi.log import (
    AbilityEvent,
    Aim,
    BankPayment,
    Discard,
    FinalSeat,
    GameLog,
    PlayedCard,
    Round,
)
from pnp.games.aizhewudi.rules import AizhewudiRules, slug
from pnp.games.aizhewudi.scoring import final_score, winner
from pnp.games.aizhewudi.split import Split, split_table

if TYPE_CHECKING:
    from pnp.games.aizhewudi.bots import Brain

from pnp.games.aizhewudi.pieces import ARMED_AT_START, Ask, CardInPlay, Origin, Seat


class RoundSteps:
    """A game in progress: its table and the rulebook's steps that move it on between the
    players' choices (the kit's state, ``AizhewudiState`` in state.py, asks and applies them)."""

    def __init__(self, rules: AizhewudiRules, players: int, last_round: int | None = None) -> None:
        self.rules, self.players = rules, players
        self.last_round = rules.rounds if last_round is None else min(last_round, rules.rounds)
        self.seats: list[Seat] = []
        # The players still in, in seat order (replaced as players go out, never changed).
        self.ins: list[Seat] = []
        self.abilities_dealt = False
        self.dealt: tuple[str | None, ...] = (None,) * players
        self.deck: list[int] | None = None  # None until dealt; revealed from the end
        self.round = 0
        self.stage = 0
        self.table: list[int] = []
        self.someone_out = False
        self.bank_log: list[BankPayment] = []
        # What the round being played records besides its plays and the markers.
        self.carried_in: tuple[int, ...] = ()
        self.revealed: tuple[int, ...] = ()
        self.discarded: list[Discard] = []
        self.ability_events: list[AbilityEvent] = []
        self.eliminated: list[int] = []
        self.sharers: tuple[int, ...] = ()
        self.split: Split | None = None
        self.peak_fickle = 0
        self.plays: list[CardInPlay] = []
        self.withdrawing: list[int] = []
        self.gone: list[int] = []  # who went out in the batch still open
        self.batch_open = False
        self.hits: dict[int, int] = {}  # 被愛 given per target this round
        self.round_over = False
        self.peak_loved = 0
        self.history: list[Round] = []  # the records of the rounds played so far
        self.shown: dict[Origin, dict[str, int]] = {}  # cards seen face up, per set
        # Per set seen, (搶婚 and 嫁給我吧, all cards) of the cards not seen face up yet.
        self.unseen: dict[Origin, tuple[int, int]] = {}
        self.ended: str | None = None
        self.result: GameLog | None = None
        self.asks: list[Ask] = []
        self.asked = 0  # asks[asked] is the choice now
        self.brain: Brain | None = None  # the greedy bots' reading of the table

    def clone(self) -> Self:
        other = object.__new__(type(self))
        other.__dict__.update(self.__dict__)
        seats = other.seats = [p.copy() for p in self.seats]
        other.ins = [seats[p.seat] for p in self.ins]
        other.deck = None if self.deck is None else list(self.deck)
        other.table, other.bank_log = list(self.table), list(self.bank_log)
        other.discarded, other.ability_events = list(self.discarded), list(self.ability_events)
        other.eliminated = list(self.eliminated)
        other.plays = [replace(pl) for pl in self.plays]
        other.withdrawing, other.gone = list(self.withdrawing), list(self.gone)
        other.hits, other.history = dict(self.hits), list(self.history)
        other.shown = dict(self.shown)  # its counters are replaced, never changed
        other.unseen = dict(self.unseen)
        # The list of asks is replaced at each stage, never changed: shared.
        other.brain = None
        return other

    def next_stage(self) -> list[Ask]:
        """Run the next stage of the round; the choices it leaves to the players."""
        stage = self.stage
        self.stage += 1
        if stage == 0:
            self.start_round()
            return [Ask("arm", p.seat) for p in self.ins
                    if p.ability in ARMED_AT_START and not p.spent and not p.revealed
                    ] if self.abilities_dealt else []
        if stage == 1:
            self.plays, self.withdrawing = [], []
            return [Ask("card", p.seat, h) for p in self.ins
                    for h, hand in enumerate(p.hands) if any(hand.values())]
        if stage == 2:
            return self.aims()
        if stage == 3:
            return [Ask("swap", pl.seat, pl.hand, i) for i, pl in enumerate(self.plays)
                    if self.seats[pl.seat].armed("second_thoughts")
                    ] if self.abilities_dealt else []
        if stage == 4:
            return [Ask("withdraw", p.seat) for p in self.ins]
        if stage == 5:
            self.withdraw()
            return self.rush()
        if stage == 6:
            return self.robbers()
        if stage == 7:
            return self.use_asks("minor")
        if stage == 8:
            return self.use_asks("florist")
        if stage == 9:
            return [] if self.round_over else self.resolve_proposals()
        if stage == 10:
            return self.blind_eyes()
        self.end_round()
        return []

    def aims(self) -> list[Ask]:
        """Step 3: aim; the revealed groom aims last, seeing the others."""
        plays = self.plays
        grooms = {p.seat for p in self.ins if p.armed("not_the_groom")
                  } if self.abilities_dealt else set()
        asks = [Ask("aim", pl.seat, pl.hand, i) for i, pl in enumerate(plays)
                if pl.seat not in grooms]
        return asks + [Ask("aim", pl.seat, pl.hand, i, True) for i, pl in enumerate(plays)
                       if pl.seat in grooms]

    def robbers(self) -> list[Ask]:
        """After the 搶婚 (ended by them, or not): 強盜理論 and 千面人's set."""
        if self.batch_over() or not self.abilities_dealt:
            return []
        asks = []
        for pl in self.plays:  # the 搶婚 resolved, in the order played
            p = self.seats[pl.seat]
            if (pl.card == "rush" and pl.state == "resolved" and not p.out
                    and p.ability == "robber_logic" and not p.spent
                    and any(p.hands[pl.hand].values())):
                asks.append(Ask("robber", pl.seat, pl.hand, -1))
        return asks

    def use_asks(self, ability: str) -> list[Ask]:
        """Step 6 begins: 未成年, then 花店老闆, each once, before any card is revealed."""
        if self.round_over or not self.abilities_dealt:
            return []
        return [Ask(ability, p.seat) for p in self.ins if p.ability == ability and not p.spent]

    def blind_eyes(self) -> list[Ask]:
        """Before step 7 (once step 6 did not end the game): 視而不見."""
        if self.batch_over() or self.round_over or not self.abilities_dealt:
            return []
        return [Ask("blind_eye", p.seat) for p in self.ins if p.down and p.has("blind_eye")]

    # -- helpers
    def limit(self, p: Seat) -> int:
        r = self.rules
        return r.princess_eliminated_at if p.ability == "princess" else r.eliminated_at

    def public_limit(self, p: Seat) -> int:
        """What the others know: the princess only once her card is face up."""
        return self.limit(p) if p.revealed else self.rules.eliminated_at

    def pending(self) -> list[CardInPlay]:
        return [pl for pl in self.plays if pl.state == "pending"]

    def event(self, seat: int, ability: str, kind: str, **extra: Any) -> None:
        self.ability_events.append(AbilityEvent(seat, ability, kind, **extra))

    def discard(self, pl: CardInPlay, reason: str) -> None:
        pl.state = "discarded"
        self.discarded.append(Discard(pl.seat, pl.hand, reason))

    def pay(self, p: Seat, ability: str, amount: int) -> None:
        p.bank += amount
        self.bank_log.append(BankPayment(p.seat, ability, amount, self.round))

    # -- the deal and step 1
    def deal(self, deck: Sequence[int], dealt: tuple[str | None, ...]) -> None:
        mix = Counter(dict(self.rules.action_mix))
        self.deck, self.dealt = list(deck), dealt
        self.seats = [Seat(s, dealt[s], [Counter(mix)], [(s, 0)]) for s in range(self.players)]
        self.ins = list(self.seats)
        # Without ability cards no ability step can do anything: those steps are skipped.
        self.abilities_dealt = any(a is not None for a in dealt)
        self.round = 1

    def start_round(self) -> None:
        """Step 1: characters stand, the witness reveals the bills."""
        self.carried_in = tuple(self.table)
        self.discarded, self.ability_events, self.eliminated = [], [], []
        self.sharers, self.split = (), None
        self.hits = {}
        self.round_over = False
        self.peak_loved = sum([p.loved for p in self.ins])  # loved_in_use
        for p in self.ins:
            p.down = False
        deck = self.deck
        assert deck is not None
        revealed = [deck.pop() for _ in range(min(self.rules.bills_per_round, len(deck)))]
        self.revealed = tuple(revealed)
        self.table = self.table + revealed

    def use(self, seat: int, ability: str) -> None:
        """An ability its holder chose to arm or use now."""
        p = self.seats[seat]
        if ability in ARMED_AT_START:
            p.revealed = True
            self.event(seat, ability, "armed")
        elif ability == "minor":
            aimers = tuple(sorted({pl.seat for pl in self.pending() if pl.target == seat}))
            for aimer in aimers:
                self.seats[aimer].down = True
            p.revealed = p.spent = True
            self.event(seat, "minor", "used", down=aimers)
        elif ability == "florist":
            holders = tuple(sorted({pl.seat for pl in self.pending()}))
            amount = len(holders) * self.rules.bonus("florist")
            p.revealed = p.spent = True
            self.event(seat, "florist", "used", holders=holders, amount=amount)
            self.pay(p, "florist", amount)
        else:  # blind_eye: stand up again before step 7
            p.down = False
            p.revealed = p.spent = True
            self.event(seat, "blind_eye", "used")

    # -- steps 3 to 5
    def swap(self, pl: CardInPlay, new: str) -> None:
        """Step 3, last: an armed 三心兩意 swaps a played card for one of the same set."""
        hand = self.seats[pl.seat].hands[pl.hand]
        hand[new] -= 1
        hand[pl.card] += 1
        self.event(pl.seat, "second_thoughts", "swap", hand=pl.hand, from_=pl.card, to=new)
        pl.card = new

    def withdraw(self) -> None:
        """Step 4: withdrawals, decided together."""
        seats = self.seats
        withdrew = self.withdrawing
        if withdrew:
            for seat in withdrew:
                seats[seat].fickle += 1
                seats[seat].down = True
            for pl in self.plays:
                if pl.seat in withdrew:
                    self.discard(pl, "withdrew")
                elif pl.target in withdrew:
                    self.discard(pl, "aimed_at_withdrawn")
        self.peak_fickle = sum([p.fickle for p in self.ins])

    def rush(self) -> list[Ask]:
        """Step 5: every 搶婚 at once; the choice of 千面人 if the first players go out."""
        rushes = [pl for pl in self.plays if pl.card == "rush" and pl.state == "pending"]
        if not rushes:
            return []
        rushed = {pl.target for pl in rushes}
        for pl in rushes:
            pl.state = "resolved"
        for pl in self.pending():
            if pl.seat in rushed:
                self.discard(pl, "rushed")
        self.give_loved([pl.target for pl in rushes])
        return self.batch_out()

    def rob(self, seat: int, hand_index: int, thrown: str) -> None:
        """Step 5, last: 強盜理論 takes a resolved 搶婚 back into its set for another card."""
        p = self.seats[seat]
        hand = p.hands[hand_index]
        hand[thrown] -= 1
        hand["rush"] += 1
        p.revealed = p.spent = True
        self.event(seat, "robber_logic", "used", hand=hand_index, discarded=thrown)

    # -- step 6 and the markers
    def resolve_proposals(self) -> list[Ask]:
        pending = self.pending()
        proposals = [pl for pl in pending if pl.card == "propose"]
        for pl in pending:
            pl.state = "resolved"
        if not proposals:
            return []  # no 被愛 given: nobody can go out in this step
        self.give_loved([pl.target for pl in proposals])
        return self.batch_out()

    def give_loved(self, targets: list[int]) -> None:
        seats = self.seats
        hits = self.hits
        for target in targets:
            p = seats[target]
            p.down = True
            hits[target] = hit = hits.get(target, 0) + 1
            if p.ability == "queen":
                if hit == 2 and not p.revealed:
                    p.revealed = True
                    self.event(target, "queen", "revealed")
                if hit > 1:
                    continue
            p.loved += 1
        if self.abilities_dealt:
            cupid = next((seats[t] for t in sorted(set(targets)) if seats[t].armed("cupid")),
                         None)
            if cupid is not None:
                standing = tuple([p.seat for p in self.ins if not p.down])
                for seat in standing:
                    seats[seat].loved += 1
                cupid.spent = True
                self.event(cupid.seat, "cupid", "triggered", loved=standing)
                self.round_over = True
                for pl in self.pending():
                    self.discard(pl, "round_over")
            for p in self.ins:
                if (p.ability == "princess" and not p.revealed
                        and p.loved >= self.rules.eliminated_at):
                    p.revealed = True
                    self.event(p.seat, "princess", "revealed")
        self.peak_loved = max(self.peak_loved, sum([p.loved for p in self.ins]))

    def batch_out(self) -> list[Ask]:
        """Eliminations after a simultaneous step; 千面人's choice when they are the first."""
        gone = [p for p in self.ins if p.loved >= self.limit(p)]
        if not gone:
            return []
        self.batch_open = True
        for p in gone:
            p.out = True
            p.down = True
            self.eliminated.append(p.seat)
        self.ins = [p for p in self.seats if not p.out]
        for pl in self.pending():
            if self.seats[pl.seat].out:
                self.discard(pl, "out")
            elif self.seats[pl.target].out:
                self.discard(pl, "target_out")
        if self.someone_out:
            return []
        self.someone_out = True
        faces = next((p for p in self.seats if p.has("many_faces")), None)
        if faces is not None and not faces.out:
            self.gone = [p.seat for p in gone]
            return [Ask("faces", faces.seat)]
        if faces is not None:
            faces.spent = True
        return []

    def take_set(self, seat: int, choice: int) -> None:
        faces, taken = self.seats[seat], self.seats[choice]
        faces.hands.append(taken.hands[0])
        faces.origins.append(taken.origins[0])
        taken.hands = [Counter()]
        faces.revealed = faces.spent = True
        self.event(seat, "many_faces", "took", from_=choice)

    def batch_over(self) -> bool:
        """Close the batch of eliminations; True when it ended the game."""
        if not self.batch_open:
            return False
        self.batch_open = False
        if len(self.ins) > 1:
            return False
        for pl in self.pending():
            self.discard(pl, "round_over")
        self.close_round(ended=True)
        self.finish("last_standing" if self.ins else "nobody_left")
        return True

    # -- step 7 and the end
    def end_round(self) -> None:
        if self.batch_over():
            return
        if not self.round_over:
            self.share_out()
        self.close_round()
        if self.round < self.last_round:
            self.round += 1
            self.stage = 0
        else:
            self.finish("rounds" if self.last_round == self.rules.rounds else "unfinished")

    def share_out(self) -> None:
        sharers = [p.seat for p in self.ins if not p.down]
        # The witness makes the shares largest bills first, so what stays is fixed
        # (docs/rulings.md#aizhewudi-split); who takes which share is the table's business.
        best = self.split = split_table(self.table, len(sharers), self.rules)
        self.sharers = tuple(sharers)
        for seat, group in zip(sharers, best.groups, strict=False):
            p = self.seats[seat]
            p.bills.extend(group)
            p.money += sum(group)
        self.table = sorted(best.carried, reverse=True)

    def close_round(self, ended: bool = False) -> None:
        """The round's record (``ended``: its eliminations ended the game)."""
        seats, plays, split = self.seats, self.plays, self.split

        def resolved(card: str) -> tuple[Aim, ...]:  # in the order played, as they resolved
            return tuple([pl.aim() for pl in plays if pl.card == card and pl.state == "resolved"])

        record = Round(
            self.round, self.revealed, self.carried_in,
            tuple([PlayedCard(pl.seat, pl.hand, pl.card, pl.target) for pl in plays]),
            tuple(sorted(self.withdrawing)), tuple(self.discarded), resolved("rush"),
            resolved("propose"), resolved("flee"), tuple(self.ability_events),
            tuple(self.eliminated), self.sharers, split.share if split else 0,
            split.groups if split else (),
            tuple(sorted(self.table, reverse=True)), ended, tuple([p.loved for p in seats]),
            tuple([p.fickle for p in seats]), self.peak_loved, self.peak_fickle)
        self.history.append(record)
        self.count_shown(record)

    def count_shown(self, record: Round) -> None:
        """The cards of each set the table saw face up in the round: the plays not thrown
        away unseen, and 強盜理論's discard for the 搶婚 it took back."""
        thrown = {(d.seat, d.hand) for d in record.discarded}
        shown = self.shown
        changed: dict[Origin, dict[str, int]] = {}

        def count(seat: int, hand: int, card: str, step: int) -> None:
            origin = self.seats[seat].origins[hand]
            seen = changed.get(origin)
            if seen is None:
                seen = changed[origin] = dict(shown.get(origin, ()))
            seen[card] = seen.get(card, 0) + step

        for pl in record.plays:
            if (pl.seat, pl.hand) not in thrown:
                count(pl.seat, pl.hand, pl.card, 1)
        for e in record.abilities:
            if e.ability == "robber_logic" and e.event == "used" and e.hand is not None:
                count(e.seat, e.hand, "rush", -1)  # back in the hand
                count(e.seat, e.hand, str(e.discarded), 1)
        if changed:
            self.shown = {**shown, **changed}
            unseen = self.unseen = dict(self.unseen)
            for origin, seen in changed.items():
                hits = total = 0
                for card, per_set in self.rules.action_mix:
                    left = max(0, per_set - max(0, seen.get(card, 0)))
                    total += left
                    if card == "rush" or card == "propose":
                        hits += left
                unseen[origin] = (hits, total)

    def finish(self, end: str) -> None:
        for p in self.ins if end != "unfinished" else []:
            if p.has("chapel_owner"):
                p.revealed = True
                outs = sum(q.out for q in self.seats)
                self.pay(p, "chapel_owner", outs * self.rules.bonus("chapel_owner"))
            if p.has("playboy"):
                p.revealed = True
                self.pay(p, "playboy", p.fickle * self.rules.bonus("playboy"))
        final = tuple(FinalSeat(
            p.seat, p.money, p.bank, p.fickle, p.loved, p.out,
            None if p.out else final_score(self.rules, p.money, p.bank, p.fickle),
        ) for p in self.seats)
        best, shared = winner(final) if end != "unfinished" else (None, [])
        abilities = self.rules.abilities
        self.result = GameLog(slug, 0, self.players, abilities, None,
                              self.dealt if abilities else None, tuple(self.history),
                              tuple(sorted(self.table, reverse=True)), tuple(self.bank_log),
                              final, end, best, tuple(shared))
        self.ended = end
