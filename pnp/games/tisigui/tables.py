"""替死鬼 (tisigui): the printed tables, computed from the rules."""

from __future__ import annotations

from pnp.games.base import Table, TableColumn
from pnp.games.tisigui.rules import (
    TisiguiRules,
    expected_big_rounds,
    first_big_die,
    ghost_points,
    playable_counts,
    small_round_values,
    unchecked_naming_points,
)

# Printed tables


def compute_tables(rules: TisiguiRules) -> dict[str, Table]:
    playable = playable_counts(rules)
    # Rules without question markers (the classic variant) have no markers column; rules
    # without the end roll play a known number of big rounds, which the table then gives.
    setup: Table = [
        {
            "players": row.players,
            "big_die": row.big_die,
            **({} if rules.end_roll else {"big_rounds": _fixed_big_rounds(rules, row.players)}),
            "small_rounds": row.small_rounds,
            **({"question_markers": row.question_markers} if rules.use_question_markers else {}),
        }
        for row in sorted(rules.setup, key=lambda r: r.players)
    ]
    top_value = max(
        (v for n in playable for v in small_round_values(rules, n)),
        default=1,
    )
    most_named = rules.max_named_per_action or rules.max_players
    naming: Table = [
        {"round_value": value, "named": named, "points": unchecked_naming_points(rules, value, named)}
        for value in range(1, top_value + 1)
        for named in range(1, min(most_named, rules.max_players) + 1)
    ]
    ghost: Table = [
        {"players": n, "confirmed": c, "points": ghost_points(rules, n, c)}
        for n in range(rules.min_players, rules.max_players + 1)
        for c in range(n + 1)
    ]
    length: Table = [
        {"players": n, "expected_big_rounds": str(expected_big_rounds(rules, n))} for n in playable
    ]
    return {"setup": setup, "naming_score": naming, "ghost_score": ghost, "game_length": length}


def _fixed_big_rounds(rules: TisiguiRules, players: int) -> int:
    """How many big rounds a game without the end roll lasts: one at each value of the big
    die from the first down to 1."""
    return max(first_big_die(rules, players), 1)


# What each printed table shows, in order: tables.yaml's headings are checked against these.
COLUMNS: dict[str, tuple[TableColumn, ...]] = {
    "setup": (TableColumn("players", "人数"), TableColumn("big_die", "大局骰起始"),
              TableColumn("big_rounds", "大局数"), TableColumn("small_rounds", "每大局小局数"),
              TableColumn("question_markers", "每人问题标记")),
    "naming_score": (TableColumn("round_value", "小局分值"), TableColumn("named", "指认人数"),
                     TableColumn("points", "得分")),
    "ghost_score": (TableColumn("players", "人数"), TableColumn("confirmed", "已确认替身"),
                    TableColumn("points", "碟仙得分")),
    # A fraction such as "33/8", printed as text.
    "game_length": (TableColumn("players", "人数"),
                    TableColumn("expected_big_rounds", "平均大局数", "text")),
}
