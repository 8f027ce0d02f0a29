"""替死鬼 (tisigui): lint, the rules held against themselves and against a rules text."""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from pnp.games.base import LintFinding
from pnp.games.tisigui.rules import (
    SetupRow,
    TisiguiRules,
    row_round_values,
    setup_for,
)

# One problem before it is placed in the rules: (code, where under the rules, message).
Found = tuple[str, str, str]


def _counts(seq: Iterable[int]) -> str:
    return ", ".join(str(n) for n in seq)


def lint(rules: TisiguiRules) -> list[LintFinding]:
    """Problems in the rules visible from the parameters alone (no simulation needed)."""
    prefix = f"rules.variants.{rules.variant}." if rules.variant else "rules."
    found = [
        *_player_counts(rules),
        *(problem for i, row in enumerate(rules.setup) for problem in _setup_row(rules, i, row)),
        *_start_roll(rules),
        *_stated_small_rounds(rules),
        *_stated_example(rules),
    ]
    return [LintFinding(code, message, prefix + where) for code, where, message in found]


def _player_counts(rules: TisiguiRules) -> Iterator[Found]:
    """The player range, the setup table's columns and the counts the rules text states."""
    lo, hi = rules.min_players, rules.max_players
    columns = sorted(row.players for row in rules.setup)
    span = set(range(lo, hi + 1))
    if missing := sorted(span - set(columns)):
        yield ("players-vs-setup", "players",
               f"the player range is {lo}–{hi}, but the setup table has no column for "
               f"{_counts(missing)} players")
    if extra := sorted(set(columns) - span):
        yield ("players-vs-setup", "setup",
               f"the setup table has a column for {_counts(extra)} players, outside the player "
               f"range {lo}–{hi}")
    if rules.stated_players is None:
        return
    slo, shi = rules.stated_players
    stated = set(range(slo, shi + 1))
    if outside := sorted(set(columns) - stated):
        yield ("stated-players-vs-setup", "stated_players",
               f"the rules text says {slo}–{shi} players, but the setup table has a column "
               f"for {_counts(outside)} players")
    if uncovered := sorted(stated - set(columns)):
        yield ("stated-players-vs-setup", "stated_players",
               f"the rules text says {slo}–{shi} players, but the setup table has no column "
               f"for {_counts(uncovered)} players")
    if (slo, shi) != (lo, hi):
        yield ("stated-players-vs-players", "stated_players",
               f"the rules text says {slo}–{shi} players, the player range is {lo}–{hi}")


def _setup_row(rules: TisiguiRules, i: int, row: SetupRow) -> Iterator[Found]:
    """One column of the setup table: its dice faces, round values, markers and scores."""
    where = f"setup[{i}]"
    start = row.big_die - (1 if rules.count_down_first_big_round else 0)
    if not 1 <= start <= rules.big_die_sides:
        yield ("big-die-face", f"{where}.big_die",
               f"with {row.players} players the first big round is played with the big die "
               f"at {start}, but a d{rules.big_die_sides} shows only 1–{rules.big_die_sides}")
    values = row_round_values(rules, row)
    if values and values[0] > rules.small_die_sides:
        yield ("small-die-face", f"{where}.small_rounds",
               f"with {row.players} players the first small round is worth {values[0]}, but "
               f"the small die (d{rules.small_die_sides}) cannot show it")
    if values and values[-1] < 1:
        yield ("round-value-nonpositive", f"{where}.small_rounds",
               f"with {row.players} players the last small round would be worth "
               f"{values[-1]}: the small die cannot show it and naming there scores nothing")
    if (
        rules.use_question_markers
        and row.question_markers is not None
        and row.players * row.question_markers > rules.question_marker_supply
    ):
        need = row.players * row.question_markers
        yield ("marker-supply", f"{where}.question_markers",
               f"{row.players} players × {row.question_markers} question markers = {need}, "
               f"but the game has only {rules.question_marker_supply}")
    if rules.ghost_per_player * row.players < rules.ghost_per_confirmed * row.players:
        yield ("ghost-score-negative", "scoring",
               f"with {row.players} players the ghost's score can fall below 0")


def _start_roll(rules: TisiguiRules) -> Iterator[Found]:
    """A start player rolled on a die too small for the table."""
    hi = rules.max_players
    if rules.start_player == "rolled" and hi > rules.small_die_sides:
        yield ("start-roll-face", "start_player",
               f"the start player is rolled on a d{rules.small_die_sides}, which cannot pick "
               f"seats beyond {rules.small_die_sides} of {hi} players")


def _stated_small_rounds(rules: TisiguiRules) -> Iterator[Found]:
    """The setup table's small rounds against what the rules text says of them."""
    if rules.stated_small_rounds_range is not None:
        slo, shi = rules.stated_small_rounds_range
        off = [r for r in rules.setup if not slo <= r.small_rounds <= shi]
        if off:
            yield ("stated-small-rounds-range", "stated_small_rounds_range",
                   f"the rules text says {slo}–{shi} small rounds per big round, but the setup "
                   "table has " + "; ".join(f"{r.small_rounds} for {r.players} players" for r in off))
    if rules.stated_small_rounds_before_ghost_scores is not None:
        before = rules.stated_small_rounds_before_ghost_scores
        off = [r for r in rules.setup if r.small_rounds != before]
        if off:
            yield ("stated-small-rounds-before-ghost-scores", "stated_small_rounds_before_ghost_scores",
                   f"the rules text says the ghost scores after {before} small rounds, but the "
                   "setup table has "
                   + "; ".join(f"{r.small_rounds} for {r.players} players" for r in off))


def _stated_example(rules: TisiguiRules) -> Iterator[Found]:
    """The rules text's worked example against the setup the rules give for its table."""
    example = rules.stated_example
    if example is None:
        return
    try:
        row = setup_for(rules, example.players)
    except ValueError:
        yield ("example-vs-rules", "stated_example.players",
               f"the worked example has {example.players} players, which the setup table "
               "does not cover")
        return
    die = row.big_die - (1 if rules.count_down_first_big_round else 0)
    if die != example.big_die:
        yield ("example-vs-rules", "stated_example.big_die",
               f"the worked example plays its first big round with the big die at "
               f"{example.big_die}; the rules give {die}")
    values = row_round_values(rules, row)
    if values != example.round_values:
        yield ("example-vs-rules", "stated_example.round_values",
               "the worked example's small rounds are worth "
               f"{_counts(example.round_values)}; the rules give {_counts(values)}")
