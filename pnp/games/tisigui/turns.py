"""What a 替死鬼 turn may do, and what an action seen at the table tells about the ghost.

The lists of legal actions a turn offers (``turn_actions``, one list per shape of turn) and
the truth tests the state machine (machine.py), its bots and its resampling share: the true
answer to a choice (``truth_of``) and whether an answer seen could have been given with a
given ghost and targets (``allows``).
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations
from typing import Any

from pnp.games.kit import Action
from pnp.games.tisigui.choices import (
    TRUE_IF_ALL,
    TRUE_IF_ANY,
    TRUE_IF_COUNT,
    TRUE_IF_GHOST,
    TRUE_IF_NONE,
    Choice,
    answered,
    read_action,
)

STOP = "stop"


class Legal(list[Action]):
    """The legal actions, listed (sorted seat lists only, no question in free words); ``in``
    asks the rules, so a log's unsorted ``among`` or worded question is legal too."""

    def __init__(self, items: Sequence[Action], test: Any) -> None:
        super().__init__(items)
        self.test = test

    def __contains__(self, action: object) -> bool:
        return bool(self.test(action))


def truth_of(test: tuple[int, int], ghost: int, mask: int) -> bool | None:
    """The true answer to a choice's ``test`` with this ghost and these targets (a mask), or
    None where no rule can tell."""
    code, value = test
    if code == TRUE_IF_ALL:
        return mask & value == value
    if code == TRUE_IF_ANY:
        return mask & value != 0
    if code == TRUE_IF_COUNT:
        return mask.bit_count() == value
    if code == TRUE_IF_GHOST:
        return value == ghost
    if code == TRUE_IF_NONE:
        return mask == 0
    return None  # TRUTH_UNKNOWN


def turn_actions(n: int, most: int | None, own_naming: str, confirmed: int, may_stop: bool,
                 may_pass: bool, ghost: bool) -> list[Action]:
    """Every action of a turn, listed (shared by every turn alike: read, never changed)."""
    out: list[Action] = [STOP] if may_stop else []
    if may_pass:
        out.append("pass")
    seats = range(n)
    asked: list[Action] = [("question", asks, s) for asks in ("is_target", "is_ghost")
                           for s in seats]
    asked += [("question", "target_count", k) for k in range(n + 1)]
    asked += [("question", "any_target", among) for k in range(2, n + 1)
              for among in combinations(seats, k)]
    free = [s for s in seats if not confirmed >> s & 1]
    claims: list[Action] = ["no_targets"]
    claims += [("name", named) for k in range(1, min(most or n, len(free)) + 1)
               for named in combinations(free, k)]
    # The ghost's own action carries the answer it shows (its namings' only where it may
    # say yes to them).
    for actions, shown in ((claims, ghost and own_naming != "always_no"), (asked, ghost)):
        if not shown:
            out += actions
            continue
        for action in actions:
            read = read_action(action)
            assert read is not None
            out += [answered(read[0], True), answered(read[0], False)]
    return out


def allows(seat: int, choice: Choice, answer: bool | None, ghost: int, mask: int,
           always_no: bool) -> bool:
    """Whether an action seen at the table could have happened with this ghost and these
    targets: the ghost alone passes and may answer anything (in classic, never yes to its
    own naming); every other seat's answer is the truth."""
    if choice.kind == "pass":
        return seat == ghost
    if seat == ghost:
        return not (always_no and answer and choice.kind != "question")
    truth = truth_of(choice.test, ghost, mask)
    return truth is None or answer == truth
