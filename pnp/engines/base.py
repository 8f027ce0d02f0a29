"""The protocol every game engine follows.

Engines are pure: no I/O, no drawing, no printing; randomness only from a passed
``random.Random``. A designer's rules parameters (the ``rules:`` mapping of
card_data/<slug>/game.yaml) reach an engine through ``rules_from_mapping``; the
engine's defaults are the rulings in shared/RULINGS.md.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any, Protocol

# A printed table: a list of row objects, each mapping a column name to a value.
Table = list[dict[str, Any]]


class RulesError(ValueError):
    """A rules mapping is invalid; ``problems`` lists every problem as 'field: message'."""

    def __init__(self, problems: list[str]) -> None:
        self.problems = problems
        super().__init__("; ".join(problems))


class Engine(Protocol):
    slug: str
    variants: tuple[str, ...]  # named rule variants besides the canonical rules ("" = canonical)

    def rules_from_mapping(self, mapping: Mapping[str, Any], variant: str | None = None) -> Any:
        """Frozen rules dataclass from game.yaml's ``rules:`` mapping (missing keys = rulings)."""

    def compute_tables(self, rules: Any) -> dict[str, Table]:
        """Every printed table, recomputed from the rules."""

    def player_range(self, rules: Any) -> tuple[int, int]: ...

    def default_players(self, rules: Any) -> int: ...

    def play(self, rules: Any, players: int, rng: random.Random, seed: int = 1) -> dict[str, Any]:
        """Play one whole game with the engine's bots and return its JSON event log."""

    def replay(self, rules: Any, log: Mapping[str, Any]) -> list[str]:
        """Check a log step by step against the rules; return problems (empty = legal)."""
