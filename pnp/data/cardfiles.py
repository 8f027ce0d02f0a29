"""Which files of a game folder a component may read its cards from (``cards: deck.csv``).

Kept apart from :mod:`pnp.data.csvcards`, the reader of those files: every build plans with
these names, but only a game whose cards come from a spreadsheet needs the reader.
"""

from __future__ import annotations

import re
from pathlib import Path

CSV_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]*\.(csv|xlsx)$")


def card_files(game_dir: Path) -> list[Path]:
    """The spreadsheets in a game folder a component may read its cards from: inputs of a
    build as much as components.yaml is."""
    if not game_dir.is_dir():
        return []
    return sorted(p for p in game_dir.iterdir() if CSV_NAME.fullmatch(p.name) and p.is_file())
