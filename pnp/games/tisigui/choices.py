"""替死鬼 (tisigui): the choices a player may make (questions, namings, "no targets?", a
pass), as immutable values; bots share the ones they make over and over.

Each choice works out once what the game (``machine.py``) asks of it on every action: what
its true answer checks (``test``).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from functools import cached_property
from typing import Any, NamedTuple

from pnp.core.records import record
from pnp.games.params import is_integer

QUESTION_KINDS = ("is_target", "any_target", "target_count", "is_ghost", "other")




@record
class Question:
    """An abstract yes/no question; ``other`` stands for one whose answer no rule can check."""

    asks: str
    about: int | None = None  # is_target, is_ghost: "is seat X a target / the ghost?"
    among: tuple[int, ...] | None = None  # any_target: "do you take anyone of these?"
    value: int | None = None  # target_count: "do you take exactly N players?"
    text: str | None = None  # other: the question in words

    def to_json(self) -> dict[str, Any]:
        if self.among is None and self.value is None and self.text is None:
            if self.about is None:
                return {"asks": self.asks}
            return {"asks": self.asks, "about": self.about}  # is_target, is_ghost
        out: dict[str, Any] = {"asks": self.asks}
        if self.about is not None:
            out["about"] = self.about
        if self.among is not None:
            out["among"] = list(self.among)
        if self.value is not None:
            out["value"] = self.value
        if self.text is not None:
            out["text"] = self.text
        return out


@record
class Choice:
    kind: str
    named: tuple[int, ...] = ()
    question: Question | None = None

    @cached_property
    def test(self) -> tuple[int, int]:
        """What the true answer checks: (one of the codes below, the seat mask or number it
        checks against); (``TRUTH_UNKNOWN``, 0) too for a choice with seats no mask can hold,
        which the game refuses."""
        kind = self.kind
        q = self.question
        if kind == "no_targets":
            return TRUE_IF_NONE, 0
        if kind == "name":
            seats: Sequence[Any] = self.named
            code = TRUE_IF_ALL
        elif kind != "question" or q is None:
            return TRUTH_UNKNOWN, 0
        elif q.asks == "target_count":
            value = q.value
            return (TRUE_IF_COUNT, value) if isinstance(value, int) and is_integer(value) else (TRUTH_UNKNOWN, 0)
        elif q.asks == "is_target" or q.asks == "is_ghost":
            about = q.about
            if not (isinstance(about, int) and is_integer(about) and about >= 0):
                return TRUTH_UNKNOWN, 0
            return (TRUE_IF_ALL, 1 << about) if q.asks == "is_target" else (TRUE_IF_GHOST, about)
        elif q.asks == "any_target":
            seats, code = q.among or (), TRUE_IF_ANY
        else:
            return TRUTH_UNKNOWN, 0
        if not all(is_integer(s) and s >= 0 for s in seats):
            return TRUTH_UNKNOWN, 0
        return code, mask_of(seats)

    @cached_property
    def shown(self) -> tuple[Any, Any]:
        """The choice as the ghost's own action, answered yes and answered no."""
        action = self.action
        body = action if type(action) is tuple else (action,)
        return (ANSWERS[0], *body), (ANSWERS[1], *body)

    @cached_property
    def action(self) -> Any:
        """The choice as an action of the engine kit (JSON-ready, compared with ``==``):
        ``"pass"``, ``"no_targets"``, ``("name", seats)``, ``("question", asks, about |
        among | value)``, ``("question", "other"[, text])``. ``read_action`` reads it back."""
        kind, q = self.kind, self.question
        if kind == "name":
            return ("name", self.named)
        if kind != "question":
            return kind
        if q is None or q.asks == "other":
            return ("question", "other") if q is None or q.text is None else (
                "question", "other", q.text)
        if q.asks == "any_target":
            return ("question", "any_target", q.among)
        return ("question", q.asks, q.value if q.asks == "target_count" else q.about)


class Event(NamedTuple):
    """One action as everyone at the table saw it (the bots' history, not the log: a tuple,
    cheaper to build than a frozen dataclass, one per action)."""

    seat: int
    choice: Choice
    answer: bool | None
    confirms: tuple[int, ...]


def mask_of(seats: Iterable[int]) -> int:
    """Seats as a bit mask (seat s is bit s)."""
    out = 0
    for s in seats:
        out |= 1 << s
    return out


# What a choice's true answer checks (``Choice.test``), as small ints: the game and the
# deductions compare them on every action. True if every seat of the mask is a target, if
# any is, if there are exactly that many targets, if the seat is the ghost, if there are no
# targets; or no rule can tell.
TRUE_IF_ALL, TRUE_IF_ANY, TRUE_IF_COUNT, TRUE_IF_GHOST, TRUE_IF_NONE, TRUTH_UNKNOWN = range(6)


PASS = Choice("pass")
NO_TARGETS = Choice("no_targets")

# Bots take the same few choices over and over: each is built once (they are immutable).
_ASKED: dict[tuple[str, int | tuple[int, ...]], Choice] = {}
_NAMED: dict[tuple[int, ...], Choice] = {}


def asking(asks: str, about: int | tuple[int, ...]) -> Choice:
    """The question ``asks`` (is_target, is_ghost: about a seat; any_target: among seats;
    target_count: about a number) as a choice, shared."""
    key = (asks, about)
    choice = _ASKED.get(key)
    if choice is None:
        if isinstance(about, tuple):
            question = Question(asks, among=about)
        elif asks == "target_count":
            question = Question(asks, value=about)
        else:
            question = Question(asks, about=about)
        choice = _ASKED[key] = Choice("question", question=question)
    return choice


def naming(named: tuple[int, ...]) -> Choice:
    """Naming ``named`` (sorted seats) as a choice, shared."""
    choice = _NAMED.get(named)
    if choice is None:
        choice = _NAMED[named] = Choice("name", named)
    return choice


READ_ACTIONS: dict[Any, tuple[Choice, bool | None] | None] = {}
READ_ACTIONS_KEPT = 4096
ANSWERS = ("yes", "no")


def read_action(action: Any) -> tuple[Choice, bool | None] | None:
    """(the choice, the answer shown with it or None) an action stands for: the bots' shared
    choice where there is one. The ghost's own action carries the answer it shows, first:
    ``("no", "question", "is_target", 2)``. None for an action of no known shape."""
    try:
        found = READ_ACTIONS.get(action, READ_ACTIONS)
    except TypeError:  # unhashable: no action
        return None
    if found is not READ_ACTIONS:
        return found  # type: ignore[return-value]
    read: tuple[Choice, bool | None] | None = None
    if type(action) is tuple and len(action) >= 2 and action[0] in ANSWERS:
        choice = _read(action[1:] if len(action) > 2 else action[1])
        if choice is not None:
            read = (choice, action[0] == "yes")
    else:
        choice = _read(action)
        read = None if choice is None else (choice, None)
    if len(READ_ACTIONS) >= READ_ACTIONS_KEPT:
        READ_ACTIONS.clear()
    READ_ACTIONS[action] = read
    return read


def answered(choice: Choice, answer: bool) -> Any:
    """The ghost's own action with the answer it shows (``read_action`` reads it back)."""
    return choice.shown[not answer]


def _is_seat(value: Any) -> bool:
    return type(value) is int


def _read(action: Any) -> Choice | None:
    if action == "pass":
        return PASS
    if action == "no_targets":
        return NO_TARGETS
    if type(action) is not tuple or len(action) < 2:
        return None
    if action[0] == "name" and len(action) == 2:
        named = action[1]
        if type(named) is tuple and all(map(_is_seat, named)):
            return naming(named)
        return None
    if action[0] != "question":
        return None
    asks = action[1]
    if asks == "other":
        if len(action) == 2:
            return Choice("question")
        return Choice("question", question=Question("other", text=action[2])) if (
            len(action) == 3 and type(action[2]) is str) else None
    if len(action) != 3 or asks not in QUESTION_KINDS:
        return None
    about = action[2]
    if asks == "any_target":
        if type(about) is tuple and all(map(_is_seat, about)):
            return asking(asks, about)
        return None
    return asking(asks, about) if _is_seat(about) else None


def is_well_formed(q: Question, n: int) -> bool:
    """Whether a question is well formed; ``other`` always is (its words are not checked)."""

    def seat_ok(s: int | None) -> bool:
        return is_integer(s) and 0 <= s < n  # type: ignore[operator]

    if q.asks in ("is_target", "is_ghost"):
        return seat_ok(q.about)
    if q.asks == "any_target":
        among = q.among or ()
        return bool(among) and len(set(among)) == len(among) and all(map(seat_ok, among))
    if q.asks == "target_count":
        return is_integer(q.value)
    return q.asks == "other"
