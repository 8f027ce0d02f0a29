"""替死鬼 (tisigui): lint, the rules held against themselves and against a rules text."""

from __future__ import annotations

from collections.abc import Iterable

from pnp.games.base import LintFinding
from pnp.games.tisigui.rules import (
    TisiguiRules,
    row_round_values,
    setup_for,
)

# --------------------------------------------------------------------------------------------
# Lint


def _counts(seq: Iterable[int]) -> str:
    return ", ".join(str(n) for n in seq)


def lint(rules: TisiguiRules) -> list[LintFinding]:
    """Problems in the rules visible from the parameters alone (no simulation needed)."""
    findings: list[LintFinding] = []
    prefix = f"rules.variants.{rules.variant}." if rules.variant else "rules."

    def add(code: str, where: str, message: str) -> None:
        findings.append(LintFinding(code, message, prefix + where))

    lo, hi = rules.min_players, rules.max_players
    columns = sorted(row.players for row in rules.setup)
    span = set(range(lo, hi + 1))
    if missing := sorted(span - set(columns)):
        add(
            "players-vs-setup",
            "players",
            f"the player range is {lo}–{hi}, but the setup table has no column for "
            f"{_counts(missing)} players",
        )
    if extra := sorted(set(columns) - span):
        add(
            "players-vs-setup",
            "setup",
            f"the setup table has a column for {_counts(extra)} players, outside the player "
            f"range {lo}–{hi}",
        )
    if rules.stated_players is not None:
        slo, shi = rules.stated_players
        stated = set(range(slo, shi + 1))
        if outside := sorted(set(columns) - stated):
            add(
                "stated-players-vs-setup",
                "stated_players",
                f"the rules text says {slo}–{shi} players, but the setup table has a column "
                f"for {_counts(outside)} players",
            )
        if uncovered := sorted(stated - set(columns)):
            add(
                "stated-players-vs-setup",
                "stated_players",
                f"the rules text says {slo}–{shi} players, but the setup table has no column "
                f"for {_counts(uncovered)} players",
            )
        if (slo, shi) != (lo, hi):
            add(
                "stated-players-vs-players",
                "stated_players",
                f"the rules text says {slo}–{shi} players, the player range is {lo}–{hi}",
            )

    for i, row in enumerate(rules.setup):
        where = f"setup[{i}]"
        start = row.big_die - (1 if rules.count_down_first_big_round else 0)
        if not 1 <= start <= rules.big_die_sides:
            add(
                "big-die-face",
                f"{where}.big_die",
                f"with {row.players} players the first big round is played with the big die "
                f"at {start}, but a d{rules.big_die_sides} shows only 1–{rules.big_die_sides}",
            )
        values = row_round_values(rules, row)
        if values and values[0] > rules.small_die_sides:
            add(
                "small-die-face",
                f"{where}.small_rounds",
                f"with {row.players} players the first small round is worth {values[0]}, but "
                f"the small die (d{rules.small_die_sides}) cannot show it",
            )
        if values and values[-1] < 1:
            add(
                "round-value-nonpositive",
                f"{where}.small_rounds",
                f"with {row.players} players the last small round would be worth "
                f"{values[-1]}: the small die cannot show it and naming there scores nothing",
            )
        if (
            rules.use_question_markers
            and row.question_markers is not None
            and row.players * row.question_markers > rules.question_marker_supply
        ):
            need = row.players * row.question_markers
            add(
                "marker-supply",
                f"{where}.question_markers",
                f"{row.players} players × {row.question_markers} question markers = {need}, "
                f"but the game has only {rules.question_marker_supply}",
            )
        if rules.ghost_per_player * row.players < rules.ghost_per_confirmed * row.players:
            add(
                "ghost-score-negative",
                "scoring",
                f"with {row.players} players the ghost's score can fall below 0",
            )

    if rules.start_player == "rolled" and hi > rules.small_die_sides:
        add(
            "start-roll-face",
            "start_player",
            f"the start player is rolled on a d{rules.small_die_sides}, which cannot pick "
            f"seats beyond {rules.small_die_sides} of {hi} players",
        )

    if rules.stated_small_rounds_range is not None:
        slo, shi = rules.stated_small_rounds_range
        off = [r for r in rules.setup if not slo <= r.small_rounds <= shi]
        if off:
            add(
                "stated-small-rounds-range",
                "stated_small_rounds_range",
                f"the rules text says {slo}–{shi} small rounds per big round, but the setup "
                "table has " + "; ".join(f"{r.small_rounds} for {r.players} players" for r in off),
            )
    if rules.stated_small_rounds_before_ghost_scores is not None:
        before = rules.stated_small_rounds_before_ghost_scores
        off = [r for r in rules.setup if r.small_rounds != before]
        if off:
            add(
                "stated-small-rounds-before-ghost-scores",
                "stated_small_rounds_before_ghost_scores",
                f"the rules text says the ghost scores after {before} small rounds, but the "
                "setup table has "
                + "; ".join(f"{r.small_rounds} for {r.players} players" for r in off),
            )

    example = rules.stated_example
    if example is not None:
        try:
            row = setup_for(rules, example.players)
        except ValueError:
            add(
                "example-vs-rules",
                "stated_example.players",
                f"the worked example has {example.players} players, which the setup table "
                "does not cover",
            )
        else:
            die = row.big_die - (1 if rules.count_down_first_big_round else 0)
            if die != example.big_die:
                add(
                    "example-vs-rules",
                    "stated_example.big_die",
                    f"the worked example plays its first big round with the big die at "
                    f"{example.big_die}; the rules give {die}",
                )
            values = row_round_values(rules, row)
            if values != example.round_values:
                add(
                    "example-vs-rules",
                    "stated_example.round_values",
                    "the worked example's small rounds are worth "
                    f"{_counts(example.round_values)}; the rules give {_counts(values)}",
                )
    return findings


