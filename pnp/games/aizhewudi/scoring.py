"""愛者無敵 (aizhewudi): the end of a game in numbers: each player's final score and who wins,
breaking ties by 花心 then 被愛. The state machine ends a game with them, and the rulebook's
hand-worked end of game is scored and ranked by the same two functions.
"""

from __future__ import annotations

from collections.abc import Sequence

from pnp.games.aizhewudi.log import FinalSeat
from pnp.games.aizhewudi.rules import AizhewudiRules


def final_score(rules: AizhewudiRules, money: int, bank: int, fickle: int) -> int:
    """A player's total at the end: their bills and what abilities paid from the bank, less
    the penalty for each 花心 marker."""
    return money + bank - rules.fickle_penalty * fickle


def winner(final: Sequence[FinalSeat]) -> tuple[int | None, list[int]]:
    """(winner, []) or, when still tied after 花心 and 被愛, (None, tied seats); nobody in:
    (None, [])."""
    standing = [f for f in final if not f.out]
    if not standing:
        return None, []
    key = {f.seat: (f.score, -f.fickle, f.loved) for f in standing}
    best = max(key.values())
    top = sorted(s for s, k in key.items() if k == best)
    return (top[0], []) if len(top) == 1 else (None, top)
