"""無人生還: the murderer's row as steps, written for the bots and the scripted examples: a
kill's discard and the order it leaves the row in (``kill_steps``), and the small counts and
reorderings the state machine (machine.py) checks them with."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from pnp.games.kit import Action
from pnp.games.wurenshenghuan.rules import KEY, WurenshenghuanRules
from pnp.games.wurenshenghuan.state import State, refill, without


def weapons(discard: Sequence[str]) -> int:
    return sum(item != KEY for item in discard)


def reorder(base: Sequence[str], order: Sequence[int]) -> tuple[str, ...]:
    """``base`` reordered by position: ``order[i]`` is the position that goes to i."""
    return tuple(base[i] for i in order)


def order_of(base: Sequence[str], row: Sequence[str]) -> tuple[int, ...]:
    """The order that makes ``row`` from ``base``, each item from the first place holding it;
    a row that is not a reordering gives an order the rules refuse."""
    free = list(range(len(base)))
    order = []
    for item in row:
        i = next((i for i in free if base[i] == item), -1)
        if i >= 0:
            free.remove(i)
        order.append(i)
    return tuple(order)


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


def kill_steps(rules: WurenshenghuanRules, table: State, victims: Sequence[str],
               discard: Sequence[str], arranged: Sequence[str] | None = None) -> list[Action]:
    """The steps of a kill leaving the murderer's row ``arranged`` (None: every kept card
    where it lay and the drawn ones in the gaps, so that a card the table saw there is still
    there)."""
    row = table.items(table.murderer)
    rest = without(row, discard) or ()
    base = rest + refill(rules, rest, table.pile)[0]
    if arranged is None:
        arranged = reorder(base, keep_order(rules, row, discard, len(table.pile)))
    return [("kill", tuple(discard), order_of(base, arranged)), *(("victim", c) for c in victims)]
