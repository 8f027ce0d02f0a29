"""愛者無敵 (aizhewudi): where a game's decisions come from. ``Policy`` names every choice the
rules leave to the players and the witness, one method each, with a cautious default where
the rules allow one; the state machine (``state.Game``) asks it and checks every answer.
``bots.Bots`` answers to play, ``play.FromLog`` answers from a log to replay.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from pnp.games.aizhewudi.split import Split

if TYPE_CHECKING:
    from pnp.games.aizhewudi.state import Game


class Policy:
    """Where a game's decisions come from; the base answers like a cautious person."""

    def reveal(self, g: Game, count: int) -> list[int]:
        raise NotImplementedError

    def arm(self, g: Game, seat: int, ability: str) -> bool:
        return False

    def card(self, g: Game, seat: int, hand: int) -> str:
        raise NotImplementedError

    def target(self, g: Game, seat: int, hand: int, last: bool) -> int:
        raise NotImplementedError

    def swap(self, g: Game, seat: int, hand: int) -> str | None:
        return None

    def withdraw(self, g: Game, seat: int) -> bool:
        return False

    def robber(self, g: Game, seat: int, hand: int) -> str | None:
        return None

    def faces(self, g: Game, seat: int, candidates: list[int]) -> int:
        return candidates[0]

    def use(self, g: Game, seat: int, ability: str) -> bool:
        return False

    def groups(self, g: Game, sharers: list[int], best: Split) -> list[list[int]]:
        return best.groups
