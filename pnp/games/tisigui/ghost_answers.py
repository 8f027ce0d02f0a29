"""替死鬼 (tisigui): the answers a greedy ghost could give on its own turn, and how close each
would leave the table to finding its targets (``judge_answers``; the ghost bot in ``bots.py``
takes the least dangerous)."""

from __future__ import annotations

from collections.abc import Sequence

from pnp.games.tisigui.deduce import DOUBT, Deductions
from pnp.games.tisigui.target_sets import Pick, Tables, tables

# A ghost's option: (statement, value, answer) as the table's deductions read it, and the
# seats of the question it stands for (the choice is built only for the one picked).
Option = tuple[str, int, bool, tuple[int, ...]]


def judge_answers(d: Deductions, seat: int, hidden: int,
                  can_pass: bool) -> tuple[float, tuple[Option, ...], float, tuple[int, ...]]:
    """(the danger now, every answer the ghost could give, the least danger after one of
    them, which options leave it), all in the start player's frame (``Deductions``), as
    ``seat`` and ``hidden`` are.

    A pure function of the public position, so remembered per player count: the ghost's
    first moves of a big round meet the same positions game after game. Kept as tuples of
    plain values, which the garbage collector stops visiting (the memory holds thousands)."""
    t = tables(d.n)
    memo_key = (d.packed, d.confirmed, d.not_ghost, d.ghost, seat, hidden, can_pass)
    found = t.dangers.get(memo_key)
    if found is not None:
        return found
    options, statements, which = _options(t, d.confirmed, hidden, can_pass)
    now, *after = _dangers(t, hidden, d.table_after(seat, statements, DOUBT))
    dangers = list(map(after.__getitem__, which))
    least = min(dangers)
    result = (now, options, least, tuple(i for i, x in enumerate(dangers) if x == least))
    t.dangers.put(memo_key, result)
    return result


def _dangers(t: Tables, hidden: int, weighings: Sequence[Sequence[float]]) -> list[float]:
    """How close the table is to finding every target (lower suits the ghost), for each of
    the table's ``weighings``: the chance of its least suspected hidden target plus a
    quarter of their mean, or with no target the chance that nobody was taken. Summed a
    sum per seat for every weighing at once (in C), the same floats as one by one."""
    totals = list(map(sum, weighings))
    if not hidden:
        return [w[0] / total if total > 0 else 1.0 for w, total in zip(weighings, totals, strict=True)]
    held = [list(map(sum, map(t.pick_holding[s], weighings))) for s in t.members[hidden]]
    # One or two hidden targets (most big rounds): the formula below written out, the same
    # floats (the sum of [x] is x, of [x, y] is x + y).
    if len(held) == 1:
        return [(x := h / total) + 0.25 * x / 1 if total > 0 else 1.0
                for h, total in zip(held[0], totals, strict=True)]
    if len(held) == 2:
        return [min(x := a / total, y := b / total) + 0.25 * (x + y) / 2 if total > 0 else 1.0
                for a, b, total in zip(held[0], held[1], totals, strict=True)]
    out = []
    for i, total in enumerate(totals):
        if total <= 0:
            out.append(1.0)
            continue
        found = [h[i] / total for h in held]
        out.append(min(found) + 0.25 * sum(found) / len(found))
    return out


# Per player count, (confirmed seats, hidden targets, may pass): the ghost's options, the
# distinct statements they make (each as the reader of the table's weights after it,
# ``Tables.after``; None for a pass) and which statement each option makes.
# A pure function of those masks, worked out once.
Options = tuple[tuple[Option, ...], tuple[Pick | None, ...], tuple[int, ...]]
_OPTIONS: dict[tuple[int, int, int, bool], Options] = {}


def _options(t: Tables, confirmed: int, hidden: int, can_pass: bool) -> Options:
    key = (t.n, confirmed, hidden, can_pass)
    found = _OPTIONS.get(key)
    if found is not None:
        return found
    unconfirmed = [s for s in range(t.n) if not confirmed >> s & 1]
    others = [s for s in unconfirmed if not hidden >> s & 1]
    options: list[Option] = []
    for s in unconfirmed:
        # A false "no" about a target, a false "yes" about anyone else, or the truth.
        lie = not hidden >> s & 1
        options.append(("all", 1 << s, lie, (s,)))
        if not lie:
            options.append(("all", 1 << s, False, (s,)))
    if hidden:
        for target in unconfirmed:
            if hidden >> target & 1:
                for o in others[:3]:
                    options.append(("any", 1 << target | 1 << o, False,
                                    tuple(sorted((target, o)))))
    else:
        options.append(("no_targets", 0, False, ()))
        for i, a in enumerate(unconfirmed):
            for b in unconfirmed[i + 1 :]:
                options.append(("any", 1 << a | 1 << b, True, (a, b)))
    if can_pass:
        options.append(("pass", 0, False, ()))  # it unmasks the ghost: rarely the best
    statements: list[Pick | None] = []
    index: dict[tuple[str, int, bool], int] = {}
    which = []
    for kind, value, answer, _ in options:
        known = index.get((kind, value, answer))
        if known is None:
            known = index[(kind, value, answer)] = len(statements)
            if kind == "pass":
                statements.append(None)
            elif kind == "no_targets":
                statements.append(t.after("count", 0, False))  # "no targets?" answered no
            else:
                statements.append(t.after(kind, value, answer))  # type: ignore[arg-type]
        which.append(known)
    found = _OPTIONS[key] = (tuple(options), tuple(statements), tuple(which))
    return found
