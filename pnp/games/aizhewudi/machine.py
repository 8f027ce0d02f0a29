"""愛者無敵 (aizhewudi) written to the engine kit: one state per game, driven by pnp's play loop.

The deal is one chance step: the bills shuffled (revealed from the end of the deck, a round's
worth at a time) and, with the ability cards, one card per seat, drawn exactly as ``play``
always drew them. Every choice the rules leave to a player is then a step of the seat it
asks (``Ask``), in the rulebook's order: arm an ability (step 1), a card per set (2), its aim
(3, the revealed groom last), a 三心兩意 swap, withdraw or stay (4, decided together, hidden
until all have chosen), 強盜理論 after the 搶婚 (5), 未成年 and 花店老闆 (6), 千面人's set
when the first players go out, 視而不見 (before 7). Between the choices the rules run by
themselves (``Rounds`` in ``state.py``); each round closes as a typed ``log.Round``, the event
``apply`` returns.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from typing import TYPE_CHECKING, cast

from pnp.games.aizhewudi.log import Round
from pnp.games.aizhewudi.rules import ABILITIES, AizhewudiRules
from pnp.games.aizhewudi.state import ARMED_AT_START, Ask, CardInPlay, Rounds
from pnp.games.draws import shuffle
from pnp.games.kit import CHANCE, Action, Outcome

if TYPE_CHECKING:
    from pnp.games.aizhewudi.bots import Brain

YES_NO = {"arm": ("pass", "arm"), "withdraw": ("stay", "withdraw"), "minor": ("pass", "use"),
          "florist": ("pass", "use"), "blind_eye": ("pass", "use")}
"""The two answers of a yes-or-no choice, no first."""


class AizhewudiState(Rounds):
    """A game in progress (see the module's docstring): ``Rounds`` runs the rules, this class
    says whose choice is next and applies it."""

    def __init__(self, rules: AizhewudiRules, players: int, last_round: int | None = None) -> None:
        super().__init__(rules, players, last_round)
        self.asks: list[Ask] = []
        self.asked = 0  # asks[asked] is the choice now
        self.brain: Brain | None = None  # the greedy bots' reading of the table

    def clone(self) -> AizhewudiState:
        other = object.__new__(AizhewudiState)
        self.copy_into(other)
        # The list of asks is replaced at each stage, never changed: shared.
        other.asks, other.asked, other.brain = self.asks, self.asked, None
        return other

    # -- whose step ---------------------------------------------------------------------

    def ask(self) -> Ask:
        return self.asks[self.asked]

    def to_move(self) -> int:
        if self.deck is None:
            return CHANCE
        return self.asks[self.asked].seat

    def chance_outcomes(self) -> Sequence[tuple[Action, float]]:
        return ()  # a shuffled deck: drawn by sample_chance

    def sample_chance(self, rng: random.Random) -> Action:
        """The bills shuffled, then the ability cards dealt: play's draws, in its order."""
        deck = self.rules.deck
        shuffle(deck, rng)  # rng.shuffle(deck), draw for draw
        dealt = tuple(rng.sample(ABILITIES, self.players)) if self.rules.abilities else (
            (None,) * self.players)
        return (tuple(deck), dealt)

    def chance_possible(self, action: Action) -> bool:
        if not (isinstance(action, tuple) and len(action) == 2):
            return False
        deck, dealt = action
        if not isinstance(deck, tuple) or sorted(deck) != sorted(self.rules.deck):
            return False
        if not isinstance(dealt, tuple) or len(dealt) != self.players:
            return False
        if not self.rules.abilities:
            return all(a is None for a in dealt)
        return len(set(dealt)) == self.players and set(dealt) <= set(ABILITIES)

    def legal_actions(self) -> Sequence[Action]:
        ask = self.asks[self.asked]
        kind = ask.kind
        if kind in YES_NO:
            return YES_NO[kind]
        if kind == "aim":
            return [p.seat for p in self.ins if p.seat != ask.seat]
        if kind == "faces":
            return list(self.gone)
        hand = self.seats[ask.seat].hands[ask.hand]
        cards = sorted(c for c, n in hand.items() if n > 0)
        if kind == "card":
            return cards
        if kind == "swap":
            played = self.plays[ask.play].card
            return ["keep", *[c for c in cards if c != played]]
        return ["pass", *cards]  # robber

    def why_illegal(self, action: Action) -> str | None:
        ask = self.asks[self.asked]
        seat, kind = ask.seat, ask.kind
        if kind == "aim":
            return f"seat {seat} aims at {action}: not another player in the game"
        if kind == "card":
            return f"seat {seat} plays {action!r} from set {ask.hand}, not in hand"
        if kind == "swap":
            return f"seat {seat} swaps in {action!r}, not in set {ask.hand}"
        if kind == "robber":
            return f"seat {seat} discards {action!r} for 強盜理論, not in hand"
        if kind == "faces":
            return f"千面人 takes the set of seat {action}, who did not just go out"
        return f"seat {seat} answers {action!r} to {kind}: expected one of {YES_NO[kind]}"

    # -- steps -------------------------------------------------------------------------

    def apply(self, action: Action) -> Sequence[Round]:
        if self.deck is None:
            deck, dealt = cast("tuple[tuple[int, ...], tuple[str | None, ...]]", action)
            self.deal(list(deck), dealt)
        else:
            asks = self.asks
            ask = asks[self.asked]
            self.asked += 1
            if ask.kind == "aim":  # the commonest choices, answered here
                self.plays[ask.play].target = action  # type: ignore[assignment]
            elif ask.kind == "withdraw":
                if action == "withdraw":
                    self.withdrawing.append(ask.seat)
            else:
                self.answer(ask, action)
            if self.asked < len(asks):
                return ()  # the next choice of the same stage
        closed = len(self.history)
        self.run_until_asked()
        return self.history[closed:] if len(self.history) > closed else ()

    def answer(self, ask: Ask, action: Action) -> None:
        kind, seat = ask.kind, ask.seat
        if kind == "card":
            hand = self.seats[seat].hands[ask.hand]
            hand[action] -= 1  # type: ignore[index]
            self.plays.append(CardInPlay(seat, ask.hand, action))  # type: ignore[arg-type]
        elif kind == "swap":
            if action != "keep":
                self.swap(self.plays[ask.play], action)  # type: ignore[arg-type]
        elif kind == "robber":
            if action != "pass":
                self.rob(seat, ask.hand, action)  # type: ignore[arg-type]
        elif kind == "faces":
            self.take_set(seat, action)  # type: ignore[arg-type]
        elif action == "arm":
            self.use(seat, str(self.seats[seat].ability))
        elif action == "use":
            self.use(seat, kind)

    def run_until_asked(self) -> None:
        """The rules' own steps, until a player must choose or the game is over."""
        while self.ended is None:
            asks = self.next_stage()
            if asks:
                self.asks, self.asked = asks, 0
                return

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
            self.plays, self.rushes = [], []
            return [Ask("card", p.seat, h) for p in self.ins
                    for h, hand in enumerate(p.hands) if any(hand.values())]
        if stage == 2:
            return self.aims()
        if stage == 3:
            return [Ask("swap", pl.seat, pl.hand, i) for i, pl in enumerate(self.plays)
                    if self.seats[pl.seat].armed("second_thoughts")
                    ] if self.abilities_dealt else []
        if stage == 4:
            self.record_plays()
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
        for pl in self.rushes:
            p = self.seats[pl.seat]
            if (not p.out and p.ability == "robber_logic" and not p.spent
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

    # -- the end and what each seat sees ------------------------------------------------

    def is_over(self) -> bool:
        return self.ended is not None

    def outcome(self) -> Outcome:
        """Scores as the rules count them; a seat out of the game scores 0 and places after
        every seat still in; ties the rules cannot break share a place."""
        result = self.result
        assert result is not None
        final = result.final
        scores = tuple(float(f.score or 0) for f in final)
        keys = [(1, f.score or 0, -f.fickle, f.loved) if not f.out else (0, 0, 0, 0)
                for f in final]
        places = tuple(1 + sum(other > mine for other in keys) for mine in keys)
        return Outcome(scores, places, result.end)

    def observation(self, seat: int) -> tuple[object, ...]:
        """The table as ``seat`` sees it: everything face up, every aim, its own ability and
        sets; the others' abilities only once revealed, their sets only by how many cards
        each holds and which have been seen; cards in play face down until revealed; the
        others' withdrawals only once everyone has chosen; the bills still to come only by
        how many are left."""
        if self.deck is None:
            return ("deal",)
        ask = self.asks[self.asked] if self.asked < len(self.asks) else None
        seats = tuple(
            (p.seat, p.ability if p.revealed or p.seat == seat else None,
             p.spent if p.revealed or p.seat == seat else None,
             p.loved, p.fickle, tuple(p.bills), p.bank, p.out, p.down,
             tuple(tuple(sorted(h.items())) if p.seat == seat else sum(h.values())
                   for h in p.hands))
            for p in self.seats)
        plays = tuple(
            (pl.seat, pl.hand, pl.target, pl.state,
             pl.card if pl.seat == seat or pl.state == "resolved" else None)
            for pl in self.plays)
        withdrawing = tuple(self.withdrawing) if ask is None or ask.kind != "withdraw" else (
            seat in self.withdrawing)
        return (self.round, self.stage, ask, tuple(self.table), len(self.deck), seats, plays,
                withdrawing, tuple(self.public_history(seat)),
                tuple(sorted((o, tuple(sorted(c.items()))) for o, c in self.shown.items())))

    def resample(self, seat: int, rng: random.Random) -> AizhewudiState:
        """The hidden parts dealt again as ``seat`` cannot tell apart: the bills to come
        shuffled, the others' unrevealed abilities dealt among them from the cards ``seat``
        has not seen, each other set's unseen cards shared again between its hand and its
        face-down card, and the others' withdrawals not yet shown drawn at random."""
        other = self.clone()
        if other.deck is None:
            return other
        shuffle(other.deck, rng)
        other.redeal_abilities(seat, rng)
        other.redeal_sets(seat, rng)
        ask = self.asks[self.asked] if self.asked < len(self.asks) else None
        if ask is not None and ask.kind == "withdraw":
            mine = seat in other.withdrawing
            decided = [a.seat for a in self.asks[:self.asked] if a.seat != seat]
            other.withdrawing = [s for s in decided if rng.random() < 0.5]
            if mine:
                other.withdrawing.append(seat)
        return other

    def redeal_sets(self, seat: int, rng: random.Random) -> None:
        """Each other set's cards not seen face up (the rules' mix less what the table saw),
        dealt again to its face-down card in play and its hand; the rest were thrown away
        unseen."""
        mix = self.rules.action_mix
        face_up: dict[tuple[int, int], list[str]] = {}
        face_down: dict[tuple[int, int], CardInPlay] = {}
        for pl in self.plays:
            if pl.state == "resolved":
                face_up.setdefault((pl.seat, pl.hand), []).append(pl.card)
            elif pl.state == "pending":
                face_down[(pl.seat, pl.hand)] = pl
        for p in self.seats:
            if p.seat == seat:
                continue
            for h, hand in enumerate(p.hands):
                seen = self.shown.get(p.origins[h], {})
                unseen = [c for c, n in mix for _ in range(max(0, n - max(0, seen.get(c, 0))))]
                for card in face_up.get((p.seat, h), ()):
                    if card in unseen:
                        unseen.remove(card)
                down = face_down.get((p.seat, h))
                size = sum(hand.values())
                if len(unseen) < size + (down is not None):
                    continue  # a set whose history this cannot explain: left as it is
                shuffle(unseen, rng)
                if down is not None:
                    # Once step 5 is over, a card still face down is no 搶婚.
                    pick = next((i for i, c in enumerate(unseen) if c != "rush"), 0
                                ) if self.stage > 5 else 0
                    down.card = unseen.pop(pick)
                p.hands[h] = Counter(unseen[:size])
