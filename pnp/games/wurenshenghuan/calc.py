"""wurenshenghuan's playtest-night calculators (``pnp calc wurenshenghuan ...``)."""

from __future__ import annotations

from typing import Any, cast

from pnp.core.errors import PnpError
from pnp.games.calcargs import WHOLE, Flag, Option
from pnp.games.calculators import CalcResult, Calculator, make_result
from pnp.games.wurenshenghuan.rules import INNOCENT, MURDERER, Role, WurenshenghuanRules
from pnp.games.wurenshenghuan.tables import score_parts


def score(rules: WurenshenghuanRules, *, murderer: bool, kills: int | None,
          guess_day: int | None, correct: bool, alive: bool,
          guessed_before_death: bool) -> CalcResult:
    """One player's final score from the facts known at the end of the game."""
    if murderer:
        if kills is None:
            raise PnpError("the murderer's score needs --kills N (characters really killed)")
        if guess_day is not None or correct or guessed_before_death:
            raise PnpError("the murderer hands in no guess: drop --guess-day, --correct and "
                           "--guessed-before-death")
    else:
        if kills is not None:
            raise PnpError("only the murderer kills: --kills needs --murderer")
        if (correct or guessed_before_death) and guess_day is None:
            raise PnpError("a guess needs the day written on the slip: --guess-day D")
        if alive and guessed_before_death:
            raise PnpError("--alive and --guessed-before-death contradict: a character alive "
                           "at the end was never killed")
    try:
        parts = score_parts(
            rules, role=cast(Role, MURDERER if murderer else INNOCENT),
            kills=kills or 0, guess_correct=correct, guess_day=guess_day,
            alive_at_end=alive, guessed_before_death=guessed_before_death)
    except ValueError as exc:
        raise PnpError(str(exc)) from None
    data: dict[str, Any] = {
        "role": "murderer" if murderer else "innocent",
        "kills": kills if murderer else None,
        "guess": None if guess_day is None else {"day": guess_day, "correct": correct},
        "alive": alive,
        "guessed_before_death": guessed_before_death,
        "breakdown": {"murderer": parts.murderer, "guess": parts.guess,
                      "survival": parts.survival},
        "points": parts.total,
    }
    lines: list[str] = []
    if murderer:
        lines.append(f"兇手：實際殺死 {kills} 個角色 → {parts.murderer} 分")
        lines.append("兇手不猜測，也沒有存活加分")
    else:
        if guess_day is None:
            lines.append("猜測：沒有交出 → 0 分")
        else:
            verdict = "猜中" if correct else "猜錯"
            lines.append(f"猜測：第 {guess_day} 天交出，{verdict} → {parts.guess} 分")
        if alive:
            lines.append(f"存活：角色活到最後 → +{parts.survival} 分")
        elif parts.survival:
            lines.append(f"存活：角色被殺前已交出正確的猜測 → +{parts.survival} 分")
        else:
            lines.append("存活：角色被殺，被殺前沒有猜中 → 0 分")
    lines.append(f"合計 {parts.total} 分")
    return make_result(data, lines)


CALCULATORS = (
    Calculator("score", "One player's final score, with its breakdown.", score, (
        Flag("murderer", "The player was the murderer."),
        Option("kills", "Murderer: characters really killed (their own feigned death not counted).", WHOLE),
        Option("guess_day", "Day written on the guess slip.", WHOLE),
        Flag("correct", "The guess named the murderer's character."),
        Flag("alive", "The player's character was alive at the end."),
        Flag("guessed_before_death", "The correct guess was handed in before the character was killed."))),
)
