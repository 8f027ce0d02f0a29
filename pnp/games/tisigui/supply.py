"""What the rules of 替死鬼 need of each component (checked by ``pnp check``)."""

from __future__ import annotations

from pnp.games.base import Requirement
from pnp.games.tisigui.rules import TisiguiRules


def requirements(rules: TisiguiRules) -> dict[str, Requirement]:
    seats = rules.max_players
    need: dict[str, Requirement] = {
        "identity": Requirement(seats, f"one per player, up to {seats} players"),
        "identity/ghost": Requirement(1, "one player is the ghost"),
        "identity/human": Requirement(seats - 1, f"everyone else, up to {seats} players"),
        "shield": Requirement(seats, f"one per player, up to {seats} players"),
        # One shield per seat number 1..seats: a shield numbered past them leaves a seat bare.
        **{f"shield/shield-{seat}": Requirement(1, f"one shield for seat {seat} of up to {seats}")
           for seat in range(1, seats + 1)},
        # Each player, the ghost too, takes as many cubes as there are players.
        "cube": Requirement(seats * seats, f"{seats} players × {seats} cubes each"),
    }
    if rules.use_question_markers:
        most = max(rules.setup, key=lambda row: row.players * (row.question_markers or 0))
        markers = most.players * (most.question_markers or 0)
        need["question"] = Requirement(
            markers, f"{most.players} players × {most.question_markers} markers each "
                     "(rules.setup, the largest need)")
    return need
