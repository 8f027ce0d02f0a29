"""無人生還: the printed tables and the scoring they come from (pure functions of the rules)."""

from __future__ import annotations

from typing import Any

from pnp.core.records import record
from pnp.games.base import Table, TableColumn
from pnp.games.params import is_integer
from pnp.games.wurenshenghuan.rules import INNOCENT, MURDERER, Role, WurenshenghuanRules


def search_allowance(rules: WurenshenghuanRules, alive: int) -> int:
    """Looks a search day allows when ``alive`` characters are known alive."""
    return alive // rules.search_divisor


def prison_allowance(rules: WurenshenghuanRules, alive: int) -> int:
    """Characters an imprisonment day may lock up when ``alive`` are known alive."""
    return alive // rules.imprison_divisor


def max_kills(rules: WurenshenghuanRules) -> int:
    """Most real kills a murderer could ever score (their own character never counts)."""
    return rules.characters - 1


def murderer_points(rules: WurenshenghuanRules, kills: int) -> int:
    """Points for ``kills`` real kills: the first band covering it, 0 when none does."""
    if not is_integer(kills) or not 0 <= kills <= max_kills(rules):
        raise ValueError(f"kills must be 0–{max_kills(rules)} (the murderer's own character "
                         f"is never a kill), got {kills!r}")
    for band in rules.murderer_bands:
        if band.covers(kills):
            return band.points
    return 0


def guess_points(rules: WurenshenghuanRules, day: int) -> int:
    """Points for a correct guess handed in on ``day`` (0 past the end of a short table)."""
    if not is_integer(day) or not 1 <= day <= rules.days:
        raise ValueError(f"guess day must be 1–{rules.days}, got {day!r}")
    return rules.guess_points[day - 1] if day <= len(rules.guess_points) else 0


@record
class Score:
    """One player's final score, split the way the narration explains it."""

    murderer: int = 0
    guess: int = 0
    survival: int = 0

    @property
    def total(self) -> int:
        return self.murderer + self.guess + self.survival


def score_parts(
    rules: WurenshenghuanRules,
    *,
    role: Role,
    kills: int = 0,
    guess_correct: bool = False,
    guess_day: int | None = None,
    alive_at_end: bool = False,
    guessed_before_death: bool = False,
) -> Score:
    """A player's score from the facts a player at the table knows at the end.

    - ``role``: ``"murderer"`` or ``"innocent"`` (every other player).
    - murderer: ``kills`` = characters really killed, their own feigned death not counted.
      A murderer never guesses and never earns the survival bonus.
    - innocent: ``guess_correct`` and ``guess_day`` (the day written on the slip; needed
      of any guess handed in; points only when correct); ``alive_at_end`` = their character
      was never killed; ``guessed_before_death`` = the slip was handed in on a day before
      the night their character was killed. The survival bonus is paid once, when the
      character is alive at the end or when a *correct* guess came before the death.

    Raises ``ValueError`` for facts that cannot go together (a murderer's guess, an
    innocent's kills, a correct guess without its day, a day outside the game, a character
    alive at the end whose guess came "before its death": it was never killed).
    """
    if role == MURDERER:
        if guess_correct or guess_day is not None or guessed_before_death:
            raise ValueError("the murderer hands in no guess")
        return Score(murderer=murderer_points(rules, kills))
    if role != INNOCENT:
        raise ValueError(f"role must be {MURDERER!r} or {INNOCENT!r}, got {role!r}")
    if kills:
        raise ValueError("only the murderer kills; an innocent player's kills must be 0")
    if alive_at_end and guessed_before_death:
        raise ValueError("alive_at_end and guessed_before_death contradict: a character alive "
                         "at the end was never killed, so no guess came before its death")
    if guess_day is None:
        if guess_correct or guessed_before_death:
            raise ValueError("a guess needs the day it was handed in (guess_day)")
        points = 0
    else:
        day_points = guess_points(rules, guess_day)  # checks the day even for a wrong guess
        points = day_points if guess_correct else 0
    survived = alive_at_end or (guess_correct and guessed_before_death)
    return Score(guess=points, survival=rules.survival_bonus if survived else 0)


def innocent_score(rules: WurenshenghuanRules, *, guess_day: int | None, correct: bool,
                   died: int | None) -> Score:
    """The score of a player who is not the murderer, from the day their slip was handed in
    (None: no slip), whether it named the murderer's character, and the night their character
    was killed (None: alive at the end). A slip is "before the death" when its day is earlier
    than that night."""
    return score_parts(rules, role="innocent", guess_correct=correct, guess_day=guess_day,
                       alive_at_end=died is None,
                       guessed_before_death=guess_day is not None and died is not None
                       and guess_day < died)


def player_score(rules: WurenshenghuanRules, **facts: Any) -> int:
    """Total points of one player, from the same facts ``score_parts`` takes."""
    return score_parts(rules, **facts).total


def compute_tables(rules: WurenshenghuanRules) -> dict[str, Table]:
    return {
        "allowances": [
            {"alive": alive, "searches": search_allowance(rules, alive),
             "prisoners": prison_allowance(rules, alive)}
            for alive in range(1, rules.characters + 1)
        ],
        "murderer_score": [
            {"kills": kills, "points": murderer_points(rules, kills)}
            for kills in range(0, max_kills(rules) + 1)
        ],
        "guess_score": [
            {"day": day, "points": guess_points(rules, day)}
            for day in range(1, rules.days + 1)
        ],
    }


# What each printed table shows, in order: tables.yaml's headings are checked against these.
COLUMNS: dict[str, tuple[TableColumn, ...]] = {
    "allowances": (TableColumn("alive", "已知存活"), TableColumn("searches", "盤查次數"),
                   TableColumn("prisoners", "囚禁人數")),
    "murderer_score": (TableColumn("kills", "實際殺死人數"), TableColumn("points", "得分")),
    "guess_score": (TableColumn("day", "第幾天交出"), TableColumn("points", "得分")),
}
