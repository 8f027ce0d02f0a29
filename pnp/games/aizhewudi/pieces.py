"""愛者無敵 (aizhewudi): the pieces of a game in progress, as the round's steps
(round_steps.py) move them: a seat with its sets and money, a card in play, and a choice the
rules leave to a player."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, NamedTuple

from pnp.games.aizhewudi.log import (
    Aim,
)

if TYPE_CHECKING:
    pass

# The abilities a player may arm (turn face up) at the start of a round, in the order asked.
ARMED_AT_START = ("cupid", "not_the_groom", "second_thoughts")


Origin = tuple[int, int]
"""Where a set started: (seat, set); 千面人's second set keeps the origin it was taken with."""


class Ask(NamedTuple):
    """A choice the rules leave to ``seat``: ``hand`` is the set and ``play`` the index of the
    card in play it is about (-1: none); ``last`` marks the revealed groom's aims."""

    kind: str
    seat: int
    hand: int = 0
    play: int = -1
    last: bool = False


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
    origins: list[Origin]
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

    def copy(self) -> Seat:
        return replace(self, hands=[Counter(h) for h in self.hands], origins=list(self.origins),
                       bills=list(self.bills))
