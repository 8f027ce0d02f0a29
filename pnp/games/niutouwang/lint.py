"""Problems in niutouwang rules themselves, found from the parameters alone."""

from __future__ import annotations

from collections import Counter

from pnp.games.base import LintFinding
from pnp.games.niutouwang.rules import NiutouwangRules
from pnp.games.niutouwang.tables import head_table


def lint(rules: NiutouwangRules) -> list[LintFinding]:
    """Problems in the rules themselves; the shipped defaults lint clean."""
    findings: list[LintFinding] = []
    deck = list(rules.deck)
    canonical = (len(deck) - rules.rows) // rules.max_players
    if canonical < 1:
        findings.append(LintFinding(
            "deal-empty-hands",
            f"{len(deck)} cards less {rules.rows} row cards cannot give each of "
            f"{rules.max_players} players a card ({len(deck) - rules.rows} to deal)",
            "rules.players.max",
        ))
    official_need = rules.rows + rules.max_players * rules.official_hand_size
    if official_need > len(deck):
        findings.append(LintFinding(
            "official-deal-short",
            f"variant official needs {rules.rows} + {rules.max_players} × "
            f"{rules.official_hand_size} = {official_need} cards, the deck has {len(deck)}",
            "rules.variants.official.hand_size",
        ))
    # With no more cards than the rows can absorb, or a card worth no heads, an official
    # round may score nothing, so "play to end_at" might never end.
    absorb = rules.rows * (rules.row_limit - 2)
    table = head_table(rules)
    cheapest = min(table[c] for c in deck)
    if rules.min_players * rules.official_hand_size <= absorb or cheapest == 0:
        findings.append(LintFinding(
            "official-may-not-end",
            f"an official round of {rules.min_players} players can pass with no heads taken "
            f"(rows absorb {absorb} cards; cheapest card {cheapest} heads)",
            "rules.variants.official",
        ))
    decides: Counter[int] = Counter()
    order_dependent: dict[tuple[int, int], list[int]] = {}
    for card in deck:
        matching = [i for i, r in enumerate(rules.head_rules) if card % r.multiple_of == 0]
        if not matching:
            continue
        first = matching[0]
        decides[first] += 1
        for later in matching[1:]:
            # An earlier rule refines a later one when its multiples are all the later's.
            if rules.head_rules[first].multiple_of % rules.head_rules[later].multiple_of:
                order_dependent.setdefault((first, later), []).append(card)
    for i, rule in enumerate(rules.head_rules):
        if not decides[i]:
            findings.append(LintFinding(
                "head-rule-unused",
                f"'multiple of {rule.multiple_of} → {rule.heads} heads' decides no card of the "
                f"deck (no multiple in it, or earlier rules take them all)",
                f"rules.heads.overrides[{i}]",
            ))
    for (first, later), cards in sorted(order_dependent.items()):
        a, b = rules.head_rules[first], rules.head_rules[later]
        findings.append(LintFinding(
            "head-rule-overlap",
            f"cards {cards} are multiples of both {a.multiple_of} and {b.multiple_of}; only the "
            f"order of the rules gives them {a.heads} heads, not {b.heads} (add a rule for them)",
            f"rules.heads.overrides[{first}]",
        ))
    return findings
