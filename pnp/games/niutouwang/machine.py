"""niutouwang written to the engine kit: one state per game, driven by pnp's play loop.

A deal is one chance step (the whole deck shuffled, exactly as ``play.deal`` always drew
it). Then each turn every seat chooses a card in seat order, hidden from the others until
all have chosen; when the lowest card of the turn is below every row end, its seat chooses
the row it takes (``("row", i)``); the turn then resolves lowest card first through
``state.Hand``. The official variant deals again until someone reaches its end score.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from pnp.games.draws import shuffle
from pnp.games.kit import CHANCE, Action, Outcome
from pnp.games.niutouwang.log import Deal
from pnp.games.niutouwang.rules import MAX_OFFICIAL_ROUNDS, NiutouwangRules
from pnp.games.niutouwang.state import Hand, Turn


class NiutouwangState:
    """The table, the hands and whose choice is next (see the module's docstring)."""

    def __init__(self, rules: NiutouwangRules, players: int) -> None:
        self.rules, self.players = rules, players
        self.official = rules.variant == "official"
        self.hand: Hand | None = None  # None: the next step deals
        self.dealt: tuple[tuple[tuple[int, ...], ...], tuple[tuple[int, ...], ...],
                          tuple[int, ...]] = ((), (), ())
        self.deals: list[Deal] = []
        self.totals = [0] * players
        self.pending: list[int] = []  # this turn's chosen cards, in seat order
        self.ended: str | None = None
        self.row_actions = tuple(("row", i) for i in range(rules.rows))
        self.gaps: object = None  # the greedy bot's ranking of this turn (bots.greedy_gaps)

    def clone(self) -> NiutouwangState:
        other = object.__new__(NiutouwangState)
        other.__dict__.update(self.__dict__)
        other.hand = self.hand.copy() if self.hand is not None else None
        other.deals, other.totals, other.pending = list(self.deals), list(self.totals), list(
            self.pending)
        return other

    # -- whose step ---------------------------------------------------------------------

    def to_move(self) -> int:
        if self.hand is None:
            return CHANCE
        if len(self.pending) < self.players:
            return len(self.pending)
        return self.pending.index(min(self.pending))  # the low card's seat picks its row

    def chance_outcomes(self) -> Sequence[tuple[Action, float]]:
        return ()  # a shuffled deck: drawn by sample_chance

    def sample_chance(self, rng: random.Random) -> tuple[int, ...]:
        deck = list(self.rules.deck)
        shuffle(deck, rng)  # rng.shuffle(deck), draw for draw
        return tuple(deck)

    def chance_possible(self, action: Action) -> bool:
        return isinstance(action, tuple) and sorted(action) == list(self.rules.deck)

    def legal_actions(self) -> Sequence[Action]:
        hand = self.hand
        assert hand is not None
        if len(self.pending) < self.players:
            return hand.hands[len(self.pending)]
        return self.row_actions

    def why_illegal(self, action: Action) -> str | None:
        seat = self.to_move()
        if len(self.pending) < self.players:
            return f"card {action} is not in seat {seat}'s hand"
        return f"{action} is not a row: the low card takes one of rows 0–{self.rules.rows - 1}"

    # -- steps -------------------------------------------------------------------------

    def apply(self, action: Action) -> Sequence[Turn]:
        if self.hand is None:
            self._deal(action)  # type: ignore[arg-type]
            return ()
        pending = self.pending
        if len(pending) < self.players:
            pending.append(action)  # type: ignore[arg-type]
            if len(pending) < self.players or min(pending) > self.hand.order[0]:
                return () if len(pending) < self.players else self._resolve(None)
            return ()
        return self._resolve(action[1])  # type: ignore[index]

    def _deal(self, deck: tuple[int, ...]) -> None:
        rules, n = self.rules, self.players
        first, size = rules.rows, rules.hand_size(n)
        rows = tuple(zip(deck[:first]))
        hands = tuple(tuple(sorted(deck[s:s + size])) for s in range(first, first + n * size, size))
        self.dealt = (rows, hands, tuple(sorted(deck[first + n * size:])))
        self.hand = Hand(rules, rows, hands)

    def _resolve(self, row: int | None) -> Sequence[Turn]:
        hand = self.hand
        assert hand is not None
        plays, self.pending, self.gaps = self.pending, [], None
        turn = hand.push(plays, lambda seat, card: row)  # type: ignore[arg-type, return-value]
        if hand.over():
            self._finish_deal(hand)
        return (turn,)

    def _finish_deal(self, hand: Hand) -> None:
        rows, hands, box = self.dealt
        self.deals.append(Deal(rows, hands, box, tuple(hand.turns), tuple(hand.penalties)))
        self.totals = [t + p for t, p in zip(self.totals, hand.penalties, strict=True)]
        if not self.official:
            self.ended = "hands_played_out"
        elif max(self.totals) >= self.rules.official_end_at:
            self.ended = "reached"
        elif len(self.deals) == MAX_OFFICIAL_ROUNDS:
            self.ended = "round_limit"
        else:
            self.hand = None

    # -- the end and what each seat sees ------------------------------------------------

    def is_over(self) -> bool:
        return self.ended is not None

    def outcome(self) -> Outcome:
        assert self.ended is not None
        return Outcome.from_scores(self.totals, self.ended, lower_wins=True)

    def observation(self, seat: int) -> tuple[object, ...]:
        hand = self.hand
        if hand is None:
            return (len(self.deals), tuple(self.totals))
        everyone_chose = len(self.pending) == self.players
        return (len(self.deals), tuple(self.totals), tuple(hand.rows), tuple(hand.hands[seat]),
                tuple(hand.penalties), len(self.pending),
                self.pending[seat] if seat < len(self.pending) else None,
                tuple(self.pending) if everyone_chose else None)

    def resample(self, seat: int, rng: random.Random) -> NiutouwangState:
        """The other seats' hands (and the cards they chose unseen) dealt again from the
        cards ``seat`` has not seen: the box and their hands."""
        other = self.clone()
        hand = other.hand
        if hand is None:
            return other
        revealed = len(self.pending) == self.players
        unseen = [c for s in range(self.players) if s != seat for c in hand.hands[s]
                  if not (revealed and c == self.pending[s])]
        unseen += self.dealt[2]
        shuffle(unseen, rng)
        for s in range(self.players):
            if s == seat:
                continue
            keep = [self.pending[s]] if revealed else []
            size = len(hand.hands[s]) - len(keep)
            hand.hands[s] = sorted(keep + unseen[:size])
            del unseen[:size]
            if not revealed and s < len(self.pending):
                other.pending[s] = rng.choice(hand.hands[s])
        rows, hands, _ = other.dealt
        other.dealt = (rows, hands, tuple(sorted(unseen)))
        return other
