"""A game writes only the parts of its plugin it has: the optional parts default to absent,
and a command that needs an absent part says which is missing."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from types import SimpleNamespace
from typing import Any

import pytest

from pnp.core.errors import PnpError
from pnp.core.workspace import Workspace
from pnp.games.base import GamePlugin, PlayPart, RulesPart, Sample
from pnp.play import narrate, simulate
from tests.conftest import ROOT


def _read(mapping: Mapping[str, Any], variant: str | None) -> dict[str, Any]:
    return dict(mapping)


def _run(rules: Any, players: int, rng: random.Random, *, seed: int, variant: str | None,
         bots: Sequence[str], budget: int = 50) -> dict[str, Any]:
    return {"game": "bare", "seed": seed, "players": players}


def _replay(rules: Any, log: Mapping[str, Any]) -> list[str]:
    return []


# Only what every game must give: its rules and how it is played.
BARE = GamePlugin("bare", "裸", RulesPart(_read), PlayPart(_run, _replay, lambda r: (2, 4), lambda r: 3))


def test_a_bare_plugin_has_no_tables_lint_narration_report_supply_or_calculators() -> None:
    assert BARE.tables.compute({}) == {} and dict(BARE.tables.columns) == {}
    assert list(BARE.rules.lint({})) == [] and BARE.rules.variants == () and BARE.rules.doc == ""
    assert BARE.narration is None and BARE.report is None
    assert BARE.supply.requirements is None and BARE.supply.hands is None
    assert BARE.calculators == ()
    assert BARE.play.bots == ("greedy", "random") and BARE.play.kit is None
    assert BARE.play.playable_counts({}) == [2, 3, 4]


def test_sample_without_narration_and_simulate_without_report_say_what_is_missing(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(narrate, "plugin", lambda slug: BARE)
    monkeypatch.setattr(simulate, "plugin", lambda slug: BARE)
    sample = Sample(SimpleNamespace(slug="bare"), {}, 3, 1, None, {})  # type: ignore[arg-type]
    with pytest.raises(PnpError, match="bare has no narration"):
        narrate.facts(sample)
    with pytest.raises(PnpError, match="bare cannot be simulated"):
        simulate.simulate(Workspace(ROOT), "bare", 10, jobs=1)
