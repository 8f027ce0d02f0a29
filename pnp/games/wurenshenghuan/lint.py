"""無人生還: questionable rules that still play (``pnp check``)."""

from __future__ import annotations

from pnp.games.base import LintFinding
from pnp.games.wurenshenghuan.rules import WurenshenghuanRules
from pnp.games.wurenshenghuan.tables import max_kills


def reachable_kills(rules: WurenshenghuanRules) -> tuple[int, str]:
    """The most real kills any game can reach, and what caps it."""
    caps = [
        (max_kills(rules), f"only {max_kills(rules)} characters besides the murderer's own, "
                           f"whose death is never a kill"),
        (rules.days * rules.max_kills_per_night,
         f"{rules.days} nights × at most {rules.max_kills_per_night} kills"),
        # Frames swap one for one, so only the starting row and the pile ever reach the
        # murderer's hand; at best none of them is a key.
        (min(rules.weapon_kinds * rules.copies_per_weapon,
             rules.items_per_character + max(rules.pile_size, 0)),
         f"the murderer can discard at most {rules.items_per_character} starting items + "
         f"{max(rules.pile_size, 0)} from the pile"),
    ]
    return min(caps, key=lambda cap: cap[0])


def lint(rules: WurenshenghuanRules) -> list[LintFinding]:
    """Questionable rules: unreachable or overlapping score bands, gaps, short tables, supply."""
    findings: list[LintFinding] = []
    need = rules.characters * rules.items_per_character
    if rules.deck_size < need:
        findings.append(LintFinding(
            "item-supply",
            f"{rules.deck_size} items cannot deal {rules.items_per_character} under each of "
            f"{rules.characters} characters ({need} needed)",
            "rules.weapon_kinds"))
    elif rules.pile_size == 0:
        findings.append(LintFinding(
            "item-supply",
            "no items are left for the murderer's draw pile: after the first kill the "
            "murderer's row shrinks and gives the murderer away",
            "rules.weapon_kinds"))

    top, cap = reachable_kills(rules)
    covered: dict[int, list[int]] = {}
    for i, band in enumerate(rules.murderer_bands):
        where = f"rules.murderer_bands[{i}]"
        if band.kills_max > top:
            never = _ranges(list(range(max(band.kills_min, top + 1), band.kills_max + 1)))
            findings.append(LintFinding(
                "unreachable-band",
                f"band {band.kills_min}–{band.kills_max} → {band.points}: kills {never} can "
                f"never happen, at most {top} real kills: {cap}",
                where))
        for kills in range(band.kills_min, min(band.kills_max, top) + 1):
            covered.setdefault(kills, []).append(i)
    # One finding per pair of bands, not per kill count, so a wide overlap reads as one.
    overlaps: dict[tuple[int, int], list[int]] = {}
    for kills in sorted(covered):
        for other in covered[kills][1:]:
            overlaps.setdefault((covered[kills][0], other), []).append(kills)
    for (first, other), kills_list in overlaps.items():
        findings.append(LintFinding(
            "band-overlap",
            f"kills {_ranges(kills_list)} fall in murderer_bands[{first}] and "
            f"murderer_bands[{other}]; the first one counts",
            f"rules.murderer_bands[{other}]"))
    gaps = [k for k in range(1, top + 1) if k not in covered]
    if gaps:
        findings.append(LintFinding(
            "band-gap",
            f"no band covers {_ranges(gaps)} kills: the murderer would score 0",
            "rules.murderer_bands"))

    if len(rules.guess_points) != rules.days:
        findings.append(LintFinding(
            "guess-table-length",
            f"the guess table has {len(rules.guess_points)} entries for {rules.days} days",
            "rules.guess_points"))

    for name, divisor, what in (("search_divisor", rules.search_divisor, "search"),
                                ("imprison_divisor", rules.imprison_divisor, "imprisonment")):
        if rules.characters // divisor == 0:
            findings.append(LintFinding(
                "allowance-never",
                f"with {rules.characters} characters at most, a {what} never allows anything",
                f"rules.{name}"))
    return findings


def _ranges(values: list[int]) -> str:
    """[1, 2, 3, 5] -> "1–3, 5"."""
    runs: list[list[int]] = []
    for value in values:
        if runs and value == runs[-1][-1] + 1:
            runs[-1].append(value)
        else:
            runs.append([value])
    return ", ".join(str(r[0]) if len(r) == 1 else f"{r[0]}–{r[-1]}" for r in runs)
