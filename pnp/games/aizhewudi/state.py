"""愛者無敵 (aizhewudi): one game in progress, the engine kit's state (``AizhewudiState``).

The deal is one chance step: the bills shuffled (revealed from the end of the deck, a round's
worth at a time) and, with the ability cards, one card per seat. Every choice the rules leave
to a player is then a step of the seat it asks (``Ask``), in the rulebook's order: arm an
ability (step 1), a card per set (2), its aim (3, the revealed groom last), a 三心兩意 swap,
withdraw or stay (4, decided together, hidden until all have chosen), 強盜理論 after the 搶婚
(5), 未成年 and 花店老闆 (6), 千面人's set when the first players go out, 視而不見 (before 7).
Between the choices the rules run by themselves, stage by stage (``next_stage``); a round's
steps are methods of ``RoundSteps`` (round_steps.py), in the rulebook's order, and ``scoring``
scores and ranks the end.

Each round is recorded as the typed values of ``log.py`` (a ``Round``, made when the round
closes from what it left on the table, the event ``apply`` returns); the bots read
the rounds played so far from ``history``, and the game ends as a ``GameLog``, which play
writes as the JSON event log.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from dataclasses import replace
from typing import cast

from pnp.games.aizhewudi.log import Round
from pnp.games.aizhewudi.pieces import CardInPlay
from pnp.games.aizhewudi.round_steps import RoundSteps
from pnp.games.aizhewudi.rules import ABILITIES
from pnp.games.draws import shuffle
from pnp.games.kit import CHANCE, Action, Outcome

YES_NO = {"arm": ("pass", "arm"), "withdraw": ("stay", "withdraw"), "minor": ("pass", "use"),
          "florist": ("pass", "use"), "blind_eye": ("pass", "use")}
"""The two answers of a yes-or-no choice, no first."""

WHY_ILLEGAL = {
    "aim": "seat {seat} aims at {action}: not another player in the game",
    "card": "seat {seat} plays {action!r} from set {hand}, not in hand",
    "swap": "seat {seat} swaps in {action!r}, not in set {hand}",
    "robber": "seat {seat} discards {action!r} for 強盜理論, not in hand",
    "faces": "千面人 takes the set of seat {action}, who did not just go out",
    "yes_no": "seat {seat} answers {action!r} to {kind}: expected one of {answers}",
}
"""Why replay refuses an answer to each kind of choice."""

class AizhewudiState(RoundSteps):
    """A game in progress (see the module's docstring): its table, the rules that move it
    on (``RoundSteps``), and whose choice is next."""

    # -- whose step ---------------------------------------------------------------------

    def to_move(self) -> int:
        if self.deck is None:
            return CHANCE
        return self.asks[self.asked].seat

    def chance_outcomes(self) -> Sequence[tuple[Action, float]]:
        return ()  # a shuffled deck: drawn by sample_chance

    def sample_chance(self, rng: random.Random) -> Action:
        """The bills shuffled, then the ability cards dealt: play's draws, in its order."""
        deck = list(self.rules.deck)
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
        return WHY_ILLEGAL.get(ask.kind, WHY_ILLEGAL["yes_no"]).format(
            seat=ask.seat, action=action, hand=ask.hand, kind=ask.kind, answers=YES_NO.get(ask.kind))

    # -- steps -------------------------------------------------------------------------

    def apply(self, action: Action) -> Sequence[Round]:
        """One step; then the rules' own steps, until a player must choose or the game is
        over. Returns the rounds that closed on the way."""
        if self.deck is None:
            self.deal(*cast("tuple[tuple[int, ...], tuple[str | None, ...]]", action))
        else:
            asks = self.asks
            ask = asks[self.asked]
            self.asked += 1
            kind, seat = ask.kind, ask.seat
            if kind == "aim":  # the commonest choices first
                self.plays[ask.play].target = action  # type: ignore[assignment]
            elif kind == "withdraw":
                if action == "withdraw":
                    self.withdrawing.append(seat)
            elif kind == "card":
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
            if self.asked < len(asks):
                return ()  # the next choice of the same stage
        closed = len(self.history)
        while self.ended is None:
            next_asks = self.next_stage()
            if next_asks:
                self.asks, self.asked = next_asks, 0
                break
        return self.history[closed:] if len(self.history) > closed else ()

    # -- what a seat may know, and dealing the rest again
    def public_history(self, seat: int) -> list[tuple[object, ...]]:
        """The rounds played so far as ``seat`` saw them: the cards thrown away unseen and
        the others' 三心兩意 swaps left out."""
        out: list[tuple[object, ...]] = []
        for r in self.history:
            unseen = {(d.seat, d.hand) for d in r.discarded}
            plays = tuple((pl.seat, pl.hand, pl.target, pl.card if pl.seat == seat or (
                pl.seat, pl.hand) not in unseen else None) for pl in r.plays)
            events = tuple(e for e in r.abilities if e.event != "swap" or e.seat == seat)
            out.append((replace(r, plays=(), abilities=()), plays, events))
        return out

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
        if other.abilities_dealt:
            hidden = [p for p in other.seats if p.seat != seat and not p.revealed]
            known = {p.ability for p in other.seats if p.seat == seat or p.revealed}
            unseen = [a for a in ABILITIES if a not in known]
            for p, ability in zip(hidden, rng.sample(unseen, len(hidden)), strict=True):
                p.ability = ability
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
