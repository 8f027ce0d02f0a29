"""愛者無敵 (aizhewudi): problems in the rules themselves, found from the parameters alone."""

from __future__ import annotations

from pnp.games.aizhewudi.rules import ABILITIES, AizhewudiRules
from pnp.games.base import LintFinding

# --------------------------------------------------------------------------- lint


def worst_case_markers(rules: AizhewudiRules) -> dict[str, int]:
    """The most markers the rules can need at once (an upper bound, reached in the worst game).

    被愛: everyone one short of going out, then every flower hits in one step (all players'
    markers are on the table before the out ones go back), plus Cupid's round with abilities.
    花心: everyone withdraws every round.
    """
    n = rules.max_players
    held = (n - 1) * (rules.eliminated_at - 1)
    held += (rules.princess_eliminated_at if rules.abilities else rules.eliminated_at) - 1
    cupid = n - 1 if rules.abilities else 0
    return {"loved": held + n + cupid, "fickle": n * rules.rounds}


def lint(rules: AizhewudiRules) -> list[LintFinding]:
    """Problems in the rules themselves (supply, counts that do not fit the rounds)."""
    findings: list[LintFinding] = []
    deck = len(rules.deck)
    need = rules.bills_per_round * rules.rounds
    if need > deck:
        findings.append(LintFinding(
            "bills-run-out",
            f"{rules.bills_per_round} bills × {rules.rounds} rounds = {need}, the deck has "
            f"{deck}: round {deck // rules.bills_per_round + 1} reveals fewer",
            "rules.bills_per_round",
        ))
    elif need < deck:
        findings.append(LintFinding(
            "bills-unused",
            f"{rules.bills_per_round} bills × {rules.rounds} rounds = {need}: {deck - need} of "
            f"the {deck} bills are never revealed",
            "rules.bills_per_round",
        ))
    cards = sum(c.per_player for c in rules.action_cards)
    if cards != rules.rounds:
        findings.append(LintFinding(
            "action-cards-short" if cards < rules.rounds else "action-cards-unused",
            f"each player has {cards} action cards for {rules.rounds} rounds (one per round)",
            "rules.action_cards",
        ))
    worst = worst_case_markers(rules)
    for kind, supply, label in (("loved", rules.loved_markers, "被愛"),
                                ("fickle", rules.fickle_markers, "花心")):
        if worst[kind] > supply:
            findings.append(LintFinding(
                f"{kind}-markers-worst-case",
                f"{supply} {label} markers; the worst game needs {worst[kind]} at once "
                f"(how often real games run short is a simulation's question: markers_in_use)",
                f"rules.markers.{kind}",
            ))
    if rules.princess_eliminated_at <= rules.eliminated_at:
        findings.append(LintFinding(
            "princess-no-effect",
            f"公主 goes out at {rules.princess_eliminated_at} 被愛, no later than everyone else "
            f"({rules.eliminated_at})",
            "rules.princess_eliminated_at",
        ))
    if rules.abilities and rules.max_players > len(ABILITIES):
        findings.append(LintFinding(
            "ability-cards-short",
            f"{len(ABILITIES)} ability cards for up to {rules.max_players} players",
            "rules.players.max",
        ))
    return findings
