"""無人生還: the murderer's night as the kit's steps.

The murderer first chooses what to do with their own row: ``("none",)``, ``("kill", discard,
order)`` or ``("frame", give, order)``; ``order`` rearranges the row by position after the draw
(a kill) or the swap (a frame), so no step names a card the murderer has not yet seen. A kill
then names its victims one ``("victim", letter)`` at a time (as many as weapons discarded), a
frame the card it takes, ``("take", letter, position)``, blind
(docs/rulings.md#wurenshenghuan-frame-blind). Choosing in parts keeps each choice small, which
is what lets a search bot tell a good night from a bad one.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from itertools import combinations
from typing import Any

from pnp.games.kit import Action
from pnp.games.params import is_integer
from pnp.games.wurenshenghuan.rules import KEY, WurenshenghuanRules
from pnp.games.wurenshenghuan.state import (
    Frame,
    Idle,
    Kill,
    NightAction,
    State,
    night_step,
    refill,
    without,
)

NONE: Action = ("none",)


def first_choices(rules: WurenshenghuanRules, state: State) -> list[Action]:
    """Every first choice once (discards in order, the kept items left where they lay)."""
    own = state.murderer
    row = state.items(own)
    listed: list[Action] = [NONE]
    if state.murderer_locked:
        return listed
    weapons = sorted(item for item in row if item != KEY)
    most = min(rules.max_kills_per_night, len(weapons), len(state.victims()))
    keyed = [(), (KEY,)] if KEY in row else [()]
    for count in range(1, most + 1):
        for used in sorted(set(combinations(weapons, count))):
            listed += [("kill", used + key, keep_order(rules, row, used + key, len(state.pile)))
                       for key in keyed]
    if state.frame_targets():
        listed += [("frame", give, tuple(range(len(row)))) for give in sorted(set(row))]
    return listed


def second_choices(state: State, first: Any, victims: Sequence[str]) -> list[Action]:
    if first[0] == "kill":
        return [("victim", c) for c in state.victims() if c not in victims]
    return [("take", c, p) for c in state.frame_targets() for p in range(len(state.items(c)))]


def problem(rules: WurenshenghuanRules, state: State, first: Any,
            victims: Sequence[str], action: Any) -> str | None:
    """Why ``action`` may not be the murderer's next step tonight (None: it may)."""
    if first is None:
        night = _probe(rules, state, action)
        if isinstance(night, str):
            return night
    elif first[0] == "kill":
        if not (isinstance(action, tuple) and len(action) == 2 and action[0] == "victim"):
            return f"{action!r}: a kill goes on with its victims, ('victim', letter)"
        chosen = [*victims, action[1]]
        rest = [c for c in state.victims() if c not in chosen]
        night = complete(rules, state, first, chosen + rest[:_weapons(first) - len(chosen)],
                         None)
    else:
        if not (isinstance(action, tuple) and len(action) == 3 and action[0] == "take"):
            return f"{action!r}: a frame goes on with the card it takes, ('take', letter, place)"
        night = complete(rules, state, first, (), action)
    return "; ".join(night_step(rules, state, night)[0]) or None


def _probe(rules: WurenshenghuanRules, state: State, action: Any) -> NightAction | str:
    """A whole night that begins with ``action`` (its reasons are the first choice's), or why
    none can."""
    if action == NONE:
        return Idle()
    if not (isinstance(action, tuple) and len(action) == 3 and action[0] in ("kill", "frame")):
        return f"{action!r} is not a night action: ('none',), ('kill', discard, order) or " \
               f"('frame', give, order)"
    if action[0] == "kill":
        allowed = state.victims()
        weapons = _weapons(action)
        if weapons > len(allowed):
            return f"only {len(allowed)} characters can be killed tonight, {weapons} weapons"
        return complete(rules, state, action, allowed[:weapons], None)
    targets = state.frame_targets()
    if not targets:
        return "no other character's row can be reached for a frame tonight"
    return complete(rules, state, action, (), ("take", targets[0], 0))


def _weapons(first: Any) -> int:
    return sum(item != KEY for item in first[1])


def waiting(first: Any, victims: Sequence[str]) -> bool:
    """Does the night still lack a step after ``first`` and ``victims``?"""
    return first[0] == "kill" and len(victims) < _weapons(first)


def complete(rules: WurenshenghuanRules, state: State, first: Any, victims: Sequence[str],
             take: Any) -> NightAction:
    """The engine's night action the steps make."""
    row = state.items(state.murderer)
    if first[0] == "none":
        return Idle()
    if first[0] == "kill":
        _, discard, order = first
        rest = without(row, discard)
        base = row if rest is None else rest
        drawn, _ = refill(rules, base, state.pile)
        return Kill(tuple(victims), tuple(discard), arranged(base + drawn, order))
    _, give, order = first
    _, target, position = take
    if target not in state.letters or give not in row or target == state.murderer:
        return Frame(target, position, give)  # the rules say why not
    theirs = state.items(target)
    if not is_integer(position) or not 0 <= position < len(theirs):
        return Frame(target, position, give)
    mine = list(row)
    mine[mine.index(give)] = theirs[position]
    return Frame(target, position, give, arranged(tuple(mine), order))


def arranged(base: tuple[str, ...], order: Any) -> tuple[str, ...]:
    """``base`` reordered by position (``order[i]`` is the position that goes to i); an order
    that is not a reordering of the row gives a row the rules refuse."""
    if sorted(order) != list(range(len(base))):
        return (*base, "?")
    return tuple(base[i] for i in order)


def keep_order(rules: WurenshenghuanRules, row: Sequence[str], discard: Sequence[str],
               pile: int) -> tuple[int, ...]:
    """The order leaving every kept card where it lay and the drawn ones in the gaps (then
    on the right), by position in ``rest + drawn``: known before the draw."""
    rest = len(row) - len(discard)
    drawn = max(0, min(rules.items_per_character - rest, pile))
    gone = Counter(discard)
    order: list[int] = []
    kept, fresh = 0, rest
    for item in row:
        if gone[item]:
            gone[item] -= 1
            if fresh < rest + drawn:
                order.append(fresh)
                fresh += 1
        else:
            order.append(kept)
            kept += 1
    return (*order, *range(fresh, rest + drawn))


def keep_places(rules: WurenshenghuanRules, state: State,
                discard: Sequence[str]) -> tuple[str, ...]:
    """The murderer's row after a kill discarding ``discard``, every kept card where it lay
    and the drawn ones in the gaps, so that a card the table saw there is still there."""
    row = state.items(state.murderer)
    rest = without(row, discard) or ()
    drawn, _ = refill(rules, rest, state.pile)
    return arranged(rest + drawn, keep_order(rules, row, discard, len(state.pile)))


def order_of(base: Sequence[str], row: Sequence[str] | None) -> tuple[int, ...]:
    """The order that makes ``row`` from ``base`` (None: no reordering)."""
    if row is None:
        return tuple(range(len(base)))
    free = list(range(len(base)))
    order = []
    for item in row:
        i = next(i for i in free if base[i] == item)
        free.remove(i)
        order.append(i)
    return tuple(order)


def steps_of(rules: WurenshenghuanRules, state: State, action: NightAction) -> list[Action]:
    """The kit's steps for an engine night action (the hand-written bots choose the latter)."""
    row = state.items(state.murderer)
    if isinstance(action, Kill):
        rest = without(row, action.discard)
        assert rest is not None
        drawn, _ = refill(rules, rest, state.pile)
        first = ("kill", tuple(action.discard), order_of(rest + drawn, action.arrange))
        return [first, *(("victim", c) for c in action.targets)]
    if isinstance(action, Frame):
        mine = list(row)
        mine[mine.index(action.give)] = state.items(action.target)[action.position]
        return [("frame", action.give, order_of(mine, action.arrange)),
                ("take", action.target, action.position)]
    return [NONE]
