"""The event log of an aizhewudi game as typed values.

The state machine (``state.AizhewudiState``) records each round as these values when it
closes, from what the round left on its table; play and replay write them with
``pnp.games.events.to_json``, key for key the JSON that docs/sample-and-simulate.md fixes.
"""

from __future__ import annotations

from dataclasses import dataclass

from pnp.games.events import fast_init, omitted_when_none


@fast_init
@dataclass(frozen=True, slots=True)
class PlayedCard:
    """A card played face down from one set (千面人's second set is hand 1), and its aim."""

    seat: int
    hand: int
    card: str
    target: int


@fast_init
@dataclass(frozen=True, slots=True)
class Discard:
    """A played card thrown away unseen, and why (the reasons: docs/sample-and-simulate.md)."""

    seat: int
    hand: int
    reason: str


@fast_init
@dataclass(frozen=True, slots=True)
class Aim:
    """A resolved flower: who played it at whom."""

    seat: int
    target: int


@fast_init
@dataclass(frozen=True, slots=True)
class AbilityEvent:
    """Something an ability card did; the extras depend on the ability and the event:

    second_thoughts swap: hand, from (card), to; robber_logic used: hand, discarded;
    many_faces took: from (seat); minor used: down; florist used: holders, amount;
    cupid triggered: loved. The others (armed, revealed, used) carry none.
    """

    seat: int
    ability: str
    event: str
    hand: int | None = omitted_when_none()
    from_: str | int | None = omitted_when_none("from")
    to: str | None = omitted_when_none()
    discarded: str | None = omitted_when_none()
    down: tuple[int, ...] | None = omitted_when_none()
    holders: tuple[int, ...] | None = omitted_when_none()
    amount: int | None = omitted_when_none()
    loved: tuple[int, ...] | None = omitted_when_none()


@fast_init
@dataclass(frozen=True, slots=True)
class Round:
    """One round as it happened, step by step."""

    round: int
    revealed: tuple[int, ...]
    carried_in: tuple[int, ...]
    plays: tuple[PlayedCard, ...]
    withdrew: tuple[int, ...]
    discarded: tuple[Discard, ...]
    rushes: tuple[Aim, ...]
    proposals: tuple[Aim, ...]
    flees: tuple[Aim, ...]
    abilities: tuple[AbilityEvent, ...]
    eliminated: tuple[int, ...]
    sharers: tuple[int, ...]
    share: int
    groups: tuple[tuple[int, ...], ...]
    carried_out: tuple[int, ...]
    ended: bool
    loved: tuple[int, ...]
    fickle: tuple[int, ...]
    peak_loved: int
    peak_fickle: int


@fast_init
@dataclass(frozen=True, slots=True)
class BankPayment:
    """Money an ability took from the bank."""

    seat: int
    ability: str
    amount: int
    round: int


@fast_init
@dataclass(frozen=True, slots=True)
class FinalSeat:
    """One player at the end; ``score`` is None for a player out of the game."""

    seat: int
    money: int
    bank: int
    fickle: int
    loved: int
    out: bool
    score: int | None


@fast_init
@dataclass(frozen=True, slots=True)
class GameLog:
    """A whole game: the state machine makes it when the game ends (seed and bots left for
    play to fill in); ``bots`` is None for a game resolved from a script (``play.resolve``)."""

    game: str
    seed: int
    players: int
    abilities: bool
    bots: tuple[str, ...] | None = omitted_when_none()
    dealt: tuple[str | None, ...] | None = omitted_when_none()
    rounds: tuple[Round, ...] = ()
    lost: tuple[int, ...] = ()
    bank: tuple[BankPayment, ...] = ()
    final: tuple[FinalSeat, ...] = ()
    end: str = ""
    winner: int | None = None
    shared: tuple[int, ...] = ()
