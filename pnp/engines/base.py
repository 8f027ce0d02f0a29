"""The protocol every game engine follows.

Engines are pure: no I/O, no drawing, no printing; randomness only from a passed
``random.Random``. A designer's rules parameters (the ``rules:`` mapping of
card_data/<slug>/game.yaml) reach an engine through ``rules_from_mapping``; the
engine's defaults are the rulings in shared/RULINGS.md.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from types import ModuleType
from typing import Any, Protocol

# A printed table: a list of row objects, each mapping a column name to a value.
Table = list[dict[str, Any]]


class RulesError(ValueError):
    """A rules mapping is invalid; ``problems`` lists every problem as 'field: message'."""

    def __init__(self, problems: list[str]) -> None:
        self.problems = problems
        super().__init__("; ".join(problems))


class LintFinding(Protocol):
    """One problem an engine's lint finds in a set of rules (each engine has its own frozen
    ``Finding`` dataclass of this shape)."""

    @property
    def code(self) -> str:
        """Stable kebab-case code, e.g. ``unreachable-band`` (what game.yaml acknowledges)."""

    @property
    def message(self) -> str:
        """One sentence for the designer, naming the numbers involved."""

    @property
    def where(self) -> str:
        """The rules field at fault as a path from the ``rules:`` mapping, always starting
        with ``rules.``: ``rules.murderer_bands[4]``, ``rules.variants.classic.setup[0]``."""


class Engine(Protocol):
    """A game's rules engine: its module's ``ENGINE`` object, found through registry.py.

    An engine with several bots may also name them in ``BOTS`` and take ``bots=[name per
    seat]`` in ``play``; ``pnp check`` then simulates marker supplies with every bot mix.
    """

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

    def lint(self, rules: Any) -> list[LintFinding]:
        """Problems in the rules themselves (contradictions, unreachable or unused entries,
        supplies that run short), found from the parameters alone; empty = clean.

        Each finding has a kebab-case ``code``, a ``message`` and a ``where`` path that starts
        with ``rules.`` (a variant's field: ``rules.variants.<name>.<field>``). ``pnp check``
        reports them, minus the codes acknowledged in game.yaml; a code ending in
        ``-markers-worst-case`` makes it simulate games for that marker supply.
        """


class ModuleEngine:
    """An ``Engine`` made of the functions of one engine module.

    Engines are written as plain module functions (which calculators and narration also call
    directly); this object hands those same functions to the registry, signatures and all, so
    callers can see which options a game's ``play`` takes (``bots``, ``variant``, …).
    """

    def __init__(self, module: ModuleType) -> None:
        self.slug: str = module.slug
        self.variants: tuple[str, ...] = tuple(module.variants)
        self.BOTS: tuple[str, ...] = tuple(getattr(module, "BOTS", ()))
        self.rules_from_mapping = module.rules_from_mapping
        self.compute_tables = module.compute_tables
        self.player_range = module.player_range
        self.default_players = module.default_players
        self.play = module.play
        self.replay = module.replay
        self.lint = module.lint
