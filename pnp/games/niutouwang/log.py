"""The event log of a niutouwang game as typed values (the JSON shape is in ``rules.py``).

Play builds these from the state machine's events; ``pnp.games.events.to_json`` writes them
as the log's JSON, key for key as the contract in docs/sample-and-simulate.md fixes.
"""

from __future__ import annotations

from dataclasses import dataclass

from pnp.games.events import fast_init
from pnp.games.niutouwang.scoring import Punishment
from pnp.games.niutouwang.state import Rows, Turn


@fast_init
@dataclass(frozen=True, slots=True)
class Deal:
    """One deal played out: the cards dealt, every turn, the heads each seat took."""

    rows: Rows  # the row-starting cards
    hands: tuple[tuple[int, ...], ...]  # ascending, per seat
    box: tuple[int, ...]  # the cards nobody got, ascending
    turns: tuple[Turn, ...]
    penalties: tuple[int, ...]  # heads taken in this deal, per seat


@fast_init
@dataclass(frozen=True, slots=True)
class Round:
    """One round of the official variant: a deal and the running totals after it."""

    round: int  # from 1
    rows: Rows
    hands: tuple[tuple[int, ...], ...]
    box: tuple[int, ...]
    turns: tuple[Turn, ...]
    penalties: tuple[int, ...]
    totals: tuple[int, ...]

    @classmethod
    def of(cls, number: int, deal: Deal, totals: tuple[int, ...]) -> Round:
        return cls(number, deal.rows, deal.hands, deal.box, deal.turns, deal.penalties, totals)


@fast_init
@dataclass(frozen=True, slots=True)
class SpGame:
    """The canonical SP game: one deal, then the punishment."""

    game: str
    seed: int
    players: int
    variant: str
    bots: tuple[str, ...]
    rows: Rows
    hands: tuple[tuple[int, ...], ...]
    box: tuple[int, ...]
    turns: tuple[Turn, ...]
    penalties: tuple[int, ...]
    winners: tuple[int, ...]
    punishment: tuple[Punishment, ...]


@fast_init
@dataclass(frozen=True, slots=True)
class OfficialGame:
    """The official variant: rounds until someone reaches ``end_at`` (or the safety stop)."""

    game: str
    seed: int
    players: int
    variant: str
    bots: tuple[str, ...]
    rounds: tuple[Round, ...]
    penalties: tuple[int, ...]  # the final totals
    winners: tuple[int, ...]
    end: str  # "reached" or "round_limit"
