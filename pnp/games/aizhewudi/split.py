"""愛者無敵 (aizhewudi): splitting the bills on the table into equal shares."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from functools import cache, lru_cache

from pnp.core.records import record
from pnp.games.aizhewudi.rules import AizhewudiRules
from pnp.games.params import is_integer


@record
class Split:
    share: int
    groups: tuple[tuple[int, ...], ...]
    carried: tuple[int, ...]


# --------------------------------------------------------------------------- the split


def split(bills: Sequence[int], sharers: int, rules: AizhewudiRules | None = None) -> Split:
    """The largest equal share for ``sharers`` disjoint groups of ``bills``; the rest carries.

    Among groupings with that share the first sharer gets the one with the most large bills
    that still lets the others be served, then the second, and so on: the rulebook's method,
    by which the witness makes the shares largest bills first, so what stays on the table is
    the ruling's (docs/rulings.md#aizhewudi-split) and a seed always gives the same game.
    Searches over count vectors per denomination, not subsets of bills.
    """
    rules = rules or AizhewudiRules()
    if not is_integer(sharers) or sharers < 0:
        raise ValueError(f"sharers must be a whole number of at least 0, got {sharers!r}")
    denoms = rules.denominations
    bad = sorted({b for b in bills if not is_integer(b) or b not in denoms}, key=str)
    if bad:
        known = ", ".join(f"{d:,}" for d in sorted(denoms))
        raise ValueError(f"not a bill of this game: {', '.join(map(str, bad))} (bills: {known})")
    return split_table(list(bills), sharers, rules)


def split_table(table: Sequence[int], sharers: int, rules: AizhewudiRules) -> Split:
    """``split`` of bills the game itself dealt (so known to be bills of these rules).

    The bots ask what the table would split into several times a round; this skips the
    checks ``split`` makes of bills people type in.
    """
    denoms = rules.denominations
    return Split(*_split_counts(denoms, tuple(map(table.count, denoms)), sharers))


# Every table of a game's bills, for every number of sharers: 11 × 16 × 16 × 7 counts for
# the shipped bills, so simulations find nearly every split already made.
@lru_cache(maxsize=1 << 16)
def _split_counts(
    denoms: tuple[int, ...], counts: tuple[int, ...], sharers: int
) -> tuple[int, tuple[tuple[int, ...], ...], tuple[int, ...]]:
    """``split`` on bill counts per denomination (descending): the same tables recur, and
    the bots ask what a table would split into several times a round."""
    bills = [d for d, c in zip(denoms, counts, strict=True) for _ in range(c)]
    carried_all = tuple(bills)  # denominations descend, so this is largest first
    if sharers == 0 or not bills:
        return 0, (), carried_all
    total = sum(bills)
    if sharers == 1:
        return total, (carried_all,), ()
    sums = {0}
    for d, c in zip(denoms, counts, strict=True):
        sums = {s + d * i for s in sums for i in range(c + 1)}
    for share in sorted((s for s in sums if s and s * sharers <= total), reverse=True):
        plan = _plan(denoms, counts, share, sharers)
        if plan is None:
            continue
        groups = tuple(
            tuple(d for d, n in zip(denoms, v, strict=True) for _ in range(n)) for v in plan
        )
        left = Counter(bills) - Counter(b for g in groups for b in g)
        return share, groups, tuple(sorted(left.elements(), reverse=True))
    return 0, (), carried_all


def _compositions(
    denoms: tuple[int, ...], counts: tuple[int, ...], share: int
) -> list[tuple[int, ...]]:
    """Every count vector within ``counts`` worth ``share``, most large bills first."""
    found: list[tuple[int, ...]] = []

    def walk(i: int, rest: int, acc: list[int]) -> None:
        if i == len(denoms):
            if rest == 0:
                found.append(tuple(acc))
            return
        for n in range(min(counts[i], rest // denoms[i]), -1, -1):
            acc.append(n)
            walk(i + 1, rest - n * denoms[i], acc)
            acc.pop()

    walk(0, share, [])
    return found


def _plan(
    denoms: tuple[int, ...], counts: tuple[int, ...], share: int, sharers: int
) -> list[tuple[int, ...]] | None:
    comps = _compositions(denoms, counts, share)

    def fits(v: tuple[int, ...], rem: tuple[int, ...]) -> bool:
        return all(a <= b for a, b in zip(v, rem, strict=True))

    def minus(rem: tuple[int, ...], v: tuple[int, ...]) -> tuple[int, ...]:
        return tuple(b - a for a, b in zip(v, rem, strict=True))

    # Memoised on what is left: the groups still to form all have the same value, so the
    # reachable remainders are few (one plane of the count box per group formed).
    @cache
    def can(rem: tuple[int, ...], left: int) -> bool:
        return left == 0 or any(fits(v, rem) and can(minus(rem, v), left - 1) for v in comps)

    if not can(counts, sharers):
        return None
    plan = []
    rem = counts
    for left in range(sharers, 0, -1):
        v = next(v for v in comps if fits(v, rem) and can(minus(rem, v), left - 1))
        plan.append(v)
        rem = minus(rem, v)
    return plan
