"""愛者無敵 (aizhewudi): the game state machine (``Game``), driven by a policy that makes every
choice (``policy.Policy``): ``bots.Bots`` to play, ``play.FromLog`` to replay a log. A round's
steps are its methods, in the rulebook's order; ``scoring`` scores and ranks the end.

Each round is recorded as the typed values of ``log.py`` (filled in as a ``RoundDraft``,
frozen into a ``Round`` when the round closes); the bots read the rounds played so far from
``history``, and play and replay write the game's ``Outcome`` as the JSON event log.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from pnp.games.aizhewudi.log import (
    AbilityEvent,
    Aim,
    BankPayment,
    Discard,
    FinalSeat,
    Outcome,
    PlayedCard,
    Round,
    RoundDraft,
)
from pnp.games.aizhewudi.policy import Policy
from pnp.games.aizhewudi.rules import AizhewudiRules
from pnp.games.aizhewudi.scoring import final_score, winner
from pnp.games.aizhewudi.split import split_table

# --------------------------------------------------------------------------- game state

# The abilities a player may arm (turn face up) at the start of a round, in the order asked.
_ARMED_AT_START = ("cupid", "not_the_groom", "second_thoughts")


class Illegal(ValueError):
    """A decision (from a bot or a log) the rules do not allow."""


@dataclass(slots=True)
class CardInPlay:
    seat: int
    hand: int
    card: str
    target: int = -1
    state: str = "pending"  # pending | resolved | discarded

    def aim(self) -> Aim:
        return Aim(self.seat, self.target)


@dataclass(slots=True)
class Seat:
    # Mutable on purpose: it is the running game state, never returned to callers.
    seat: int
    ability: str | None
    hands: list[Counter[str]]
    loved: int = 0
    fickle: int = 0
    bills: list[int] = field(default_factory=list)
    money: int = 0  # sum(bills), kept as bills come in
    bank: int = 0
    out: bool = False
    down: bool = False
    revealed: bool = False
    spent: bool = False

    def has(self, ability: str) -> bool:
        return self.ability == ability and not self.spent

    def armed(self, ability: str) -> bool:
        return self.has(ability) and self.revealed


class Game:
    """One game; decisions come from a policy (bots in play, the log in replay)."""

    def __init__(
        self, rules: AizhewudiRules, players: int, dealt: Sequence[str | None],
        policy: Policy,
    ) -> None:
        self.rules = rules
        self.policy = policy
        mix = Counter({c.id: c.per_player for c in rules.action_cards})
        self.seats = [Seat(s, dealt[s], [Counter(mix)]) for s in range(players)]
        self._ins = list(self.seats)
        # Without ability cards no ability step can do anything: those steps are skipped.
        self.abilities_dealt = any(a is not None for a in dealt)
        self.round = 0
        self.table: list[int] = []
        self.deck = Counter(rules.deck)
        self.someone_out = False
        self.bank_log: list[BankPayment] = []
        self.rec = RoundDraft(0, ())
        self.plays: list[CardInPlay] = []
        self.hits: dict[int, int] = {}  # 被愛 given per target this round
        self.round_over = False
        self.peak_loved = 0
        self.history: list[Round] = []  # the records of the rounds played so far

    # -- helpers
    def ins(self) -> list[Seat]:
        """The players still in, in seat order (kept as players go out; do not change it)."""
        return self._ins

    def limit(self, p: Seat) -> int:
        r = self.rules
        return r.princess_eliminated_at if p.ability == "princess" else r.eliminated_at

    def public_limit(self, p: Seat) -> int:
        """What the others know: the princess only once her card is face up."""
        return self.limit(p) if p.revealed else self.rules.eliminated_at

    def pending(self) -> list[CardInPlay]:
        return [pl for pl in self.plays if pl.state == "pending"]

    def event(self, seat: int, ability: str, kind: str, **extra: Any) -> None:
        self.rec.abilities.append(AbilityEvent(seat, ability, kind, **extra))

    def discard(self, pl: CardInPlay, reason: str) -> None:
        pl.state = "discarded"
        self.rec.discarded.append(Discard(pl.seat, pl.hand, reason))

    def pay(self, p: Seat, ability: str, amount: int) -> None:
        p.bank += amount
        self.bank_log.append(BankPayment(p.seat, ability, amount, self.round))

    def loved_in_use(self) -> int:
        return sum([p.loved for p in self._ins])

    # -- the game
    def run(self, limit: int | None = None) -> Outcome:
        """Play to the end, or only ``limit`` rounds (a scripted example: end "unfinished")."""
        rounds = self.history
        end = "rounds"
        last = self.rules.rounds if limit is None else min(limit, self.rules.rounds)
        for number in range(1, last + 1):
            self.round = number
            ended = self.play_round()
            rounds.append(self.rec.freeze())
            if ended:
                end = "last_standing" if self._ins else "nobody_left"
                break
        else:
            if last < self.rules.rounds:
                end = "unfinished"
        for p in self._ins if end != "unfinished" else []:
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
        return Outcome(tuple(rounds), tuple(sorted(self.table, reverse=True)),
                       tuple(self.bank_log), final, end, best, tuple(shared))

    def play_round(self) -> bool:
        """One round; True when the game ended in it."""
        self.rec = RoundDraft(self.round, tuple(self.table))
        self.hits = {}
        self.round_over = False
        self.peak_loved = sum([p.loved for p in self._ins])  # loved_in_use
        abilities = self.abilities_dealt
        self.stand_and_reveal()
        if abilities:
            self.arm_abilities()
        plays = self.play_cards()
        self.aim_cards(plays)
        if abilities:
            self.second_thoughts(plays)
        self.rec.plays = tuple([PlayedCard(pl.seat, pl.hand, pl.card, pl.target) for pl in plays])
        self.withdrawals(plays)
        rushes = [pl for pl in plays if pl.card == "rush" and pl.state == "pending"]
        if rushes and self.rush(rushes):
            return True
        if abilities:
            self.robber_logic(rushes)
        if not self.round_over and self.step_six():
            return True
        if not self.round_over:
            if abilities:
                self.blind_eye()
            self.share_out()
        else:
            self.rec.carried_out = tuple(sorted(self.table, reverse=True))
        self.close_round()
        return False

    def stand_and_reveal(self) -> None:
        """Step 1: characters stand, the witness reveals the bills."""
        for p in self._ins:
            p.down = False
        deck = self.deck
        revealed = self.policy.reveal(self, min(self.rules.bills_per_round, sum(deck.values())))
        short = False
        for bill in revealed:  # deck.subtract(revealed), then no count below 0
            left = deck[bill] - 1
            deck[bill] = left
            short = short or left < 0
        if short:
            raise Illegal(f"revealed {revealed}: not that many such bills left in the deck")
        self.rec.revealed = tuple(revealed)
        self.table = self.table + list(revealed)

    def arm_abilities(self) -> None:
        """Step 1, last: each player may reveal an ability that works only once face up."""
        arm = self.policy.arm
        for p in self._ins:
            # p.has(ability) for each ability armed at the start: only its own can be.
            ability = p.ability
            if (ability in _ARMED_AT_START and not p.spent and not p.revealed
                    and arm(self, p.seat, ability)):
                p.revealed = True
                self.event(p.seat, ability, "armed")

    def play_cards(self) -> list[CardInPlay]:
        """Step 2: one card per set, face down."""
        plays: list[CardInPlay] = []
        self.plays = plays
        choose_card = self.policy.card
        for p in self._ins:
            seat = p.seat
            for h, hand in enumerate(p.hands):
                if not any(hand.values()):
                    continue
                card = choose_card(self, seat, h)
                if hand[card] < 1:
                    raise Illegal(f"seat {seat} plays {card!r} from set {h}, not in hand")
                hand[card] -= 1
                plays.append(CardInPlay(seat, h, card))
        return plays

    def aim_cards(self, plays: list[CardInPlay]) -> None:
        """Step 3: aim; the revealed groom aims last, seeing the others."""
        seats = self.seats
        # The groom's sets (a play is one set's, so its seat says whether it is the groom's).
        grooms = {p.seat for p in self._ins if p.ability == "not_the_groom"
                  and p.armed("not_the_groom")} if self.abilities_dealt else ()
        aim = self.policy.target
        count = len(seats)
        for pl in ([pl for pl in plays if pl.seat not in grooms]
                   + [pl for pl in plays if pl.seat in grooms]) if grooms else plays:
            target = aim(self, pl.seat, pl.hand, pl.seat in grooms)
            if target == pl.seat or not 0 <= target < count or seats[target].out:
                raise Illegal(f"seat {pl.seat} aims at {target}: not another player in the game")
            pl.target = target

    def second_thoughts(self, plays: list[CardInPlay]) -> None:
        """Step 3, last: an armed 三心兩意 may swap each played card for one of the same set."""
        for pl in plays:
            p = self.seats[pl.seat]
            if p.ability != "second_thoughts" or not p.armed("second_thoughts"):
                continue
            new = self.policy.swap(self, pl.seat, pl.hand)
            if new is None or new == pl.card:
                continue
            hand = p.hands[pl.hand]
            if hand[new] < 1:
                raise Illegal(f"seat {pl.seat} swaps in {new!r}, not in set {pl.hand}")
            hand[new] -= 1
            hand[pl.card] += 1
            self.event(pl.seat, "second_thoughts", "swap", hand=pl.hand, from_=pl.card, to=new)
            pl.card = new

    def withdrawals(self, plays: list[CardInPlay]) -> None:
        """Step 4: withdrawals, decided together."""
        seats = self.seats
        withdraw = self.policy.withdraw
        withdrew = sorted([p.seat for p in self._ins if withdraw(self, p.seat)])
        self.rec.withdrew = tuple(withdrew)
        if withdrew:
            for seat in withdrew:
                seats[seat].fickle += 1
                seats[seat].down = True
            for pl in plays:
                if pl.seat in withdrew:
                    self.discard(pl, "withdrew")
                elif pl.target in withdrew:
                    self.discard(pl, "aimed_at_withdrawn")
        self.rec.peak_fickle = sum([p.fickle for p in self._ins])

    def rush(self, rushes: list[CardInPlay]) -> bool:
        """Step 5: every 搶婚 at once; True when the game ended in it."""
        rushed = {pl.target for pl in rushes}
        for pl in rushes:
            pl.state = "resolved"
        for pl in self.pending():
            if pl.seat in rushed:
                self.discard(pl, "rushed")
        self.rec.rushes = tuple([pl.aim() for pl in rushes])
        self.give_loved([pl.target for pl in rushes])
        return self.after_batch()

    def robber_logic(self, rushes: list[CardInPlay]) -> None:
        """Step 5, last: 強盜理論 takes a resolved 搶婚 back into its set for another card."""
        for pl in rushes:
            p = self.seats[pl.seat]
            if p.out or p.ability != "robber_logic" or p.spent:  # not p.has("robber_logic")
                continue
            hand = p.hands[pl.hand]
            if not any(hand.values()):
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

    def step_six(self) -> bool:
        policy = self.policy
        if self.abilities_dealt:
            for p in self._ins:
                if p.ability == "minor" and not p.spent and policy.use(self, p.seat, "minor"):
                    aimers = tuple(sorted({pl.seat for pl in self.pending()
                                           if pl.target == p.seat}))
                    for seat in aimers:
                        self.seats[seat].down = True
                    p.revealed = p.spent = True
                    self.event(p.seat, "minor", "used", down=aimers)
            for p in self._ins:
                if (p.ability == "florist" and not p.spent
                        and policy.use(self, p.seat, "florist")):
                    holders = tuple(sorted({pl.seat for pl in self.pending()}))
                    amount = len(holders) * self.rules.bonus("florist")
                    p.revealed = p.spent = True
                    self.event(p.seat, "florist", "used", holders=holders, amount=amount)
                    self.pay(p, "florist", amount)
        pending = self.pending()
        proposals = [pl for pl in pending if pl.card == "propose"]
        for pl in pending:
            pl.state = "resolved"
        rec = self.rec
        rec.proposals = tuple([pl.aim() for pl in proposals])
        rec.flees = tuple([pl.aim() for pl in self.plays
                           if pl.card == "flee" and pl.state == "resolved"])
        if not proposals:
            return False  # no 被愛 given: nobody can go out in this step
        self.give_loved([pl.target for pl in proposals])
        return self.after_batch()

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
                standing = tuple([p.seat for p in self._ins if not p.down])
                for seat in standing:
                    seats[seat].loved += 1
                cupid.spent = True
                self.event(cupid.seat, "cupid", "triggered", loved=standing)
                self.round_over = True
                for pl in self.pending():
                    self.discard(pl, "round_over")
            for p in self._ins:
                if (p.ability == "princess" and not p.revealed
                        and p.loved >= self.rules.eliminated_at):
                    p.revealed = True
                    self.event(p.seat, "princess", "revealed")
        self.peak_loved = max(self.peak_loved, sum([p.loved for p in self._ins]))

    def after_batch(self) -> bool:
        """Eliminations after a simultaneous step; True when the game is over."""
        gone = [p for p in self._ins if p.loved >= self.limit(p)]
        if not gone:
            return False
        for p in gone:
            p.out = True
            p.down = True
            self.rec.eliminated.append(p.seat)
        self._ins = [p for p in self.seats if not p.out]
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
                self.event(faces.seat, "many_faces", "took", from_=choice)
            elif faces is not None:
                faces.spent = True
        if len(self._ins) > 1:
            return False
        for pl in self.pending():
            self.discard(pl, "round_over")
        self.rec.ended = True
        self.rec.carried_out = tuple(sorted(self.table, reverse=True))
        self.close_round()
        return True

    def blind_eye(self) -> None:
        """Before step 7: 視而不見 stands its holder's character up again."""
        for p in self._ins:
            if p.down and p.has("blind_eye") and self.policy.use(self, p.seat, "blind_eye"):
                p.down = False
                p.revealed = p.spent = True
                self.event(p.seat, "blind_eye", "used")

    def share_out(self) -> None:
        sharers = [p.seat for p in self._ins if not p.down]
        best = split_table(self.table, len(sharers), self.rules)
        groups = self.policy.groups(self, sharers, best)
        if len(groups) != (len(sharers) if best.share else 0):
            raise Illegal(f"{len(groups)} groups for {len(sharers)} sharers (share {best.share})")
        if any(sum(g) != best.share for g in groups):
            raise Illegal(f"groups {groups} are not each worth the largest share {best.share}")
        left = list(self.table)
        for group in groups:
            for bill in group:
                if bill not in left:
                    raise Illegal(f"groups {groups} use bills not on the table {self.table}")
                left.remove(bill)
        # The witness makes the shares largest bills first, so what stays is fixed
        # (docs/rulings.md#aizhewudi-split); who takes which share is free.
        if sorted(left) != sorted(best.carried):
            raise Illegal(f"groups {groups} leave {sorted(left, reverse=True)} on the table; the "
                          f"witness makes the shares largest bills first, which leaves {best.carried}")
        rec = self.rec
        rec.sharers = tuple(sharers)
        rec.share = best.share
        rec.groups = tuple(tuple(g) for g in groups)
        for seat, group in zip(sharers, groups, strict=False):
            p = self.seats[seat]
            p.bills.extend(group)
            p.money += sum(group)
        self.table = sorted(left, reverse=True)
        rec.carried_out = tuple(self.table)

    def close_round(self) -> None:
        rec, seats = self.rec, self.seats
        rec.loved = tuple([p.loved for p in seats])
        rec.fickle = tuple([p.fickle for p in seats])
        rec.peak_loved = self.peak_loved
