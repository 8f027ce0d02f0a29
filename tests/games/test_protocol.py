"""Every game in the registry is a proper ``GamePlugin``, and its lint speaks one dialect:
kebab-case codes, ``where`` paths that start at ``rules.``."""

from __future__ import annotations

import dataclasses
import inspect
import random
import re
from pathlib import Path
from typing import Any

import pytest
import yaml

from pnp.games.base import GamePlugin, LintFinding, Play, RulesPart
from pnp.games.registry import game_slugs, get_game

FIXTURES = Path(__file__).parent / "fixtures"
KEBAB = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*$")

# What every game answers, as (part of the plugin, its function).
PROTOCOL = (("rules", "read"), ("rules", "lint"), ("tables", "compute"), ("play", "run"),
            ("play", "replay"), ("play", "player_range"), ("play", "default_players"))


def test_the_plugin_is_a_few_parts_one_per_concern() -> None:
    # Issue 22: at most ten fields, each a small record or a plain value.
    names = [f.name for f in dataclasses.fields(GamePlugin)]
    assert names == ["slug", "title", "rules", "play", "tables", "narration", "report", "supply",
                     "calculators"]


def test_the_protocol_names_lint_and_one_play_signature() -> None:
    assert "lint" in RulesPart.__dataclass_fields__
    assert [field.name for field in dataclasses.fields(LintFinding)] == ["code", "message", "where"]
    assert list(inspect.signature(Play.__call__).parameters) == [
        "self", "rules", "players", "rng", "seed", "variant", "bots", "budget"]


def test_the_four_games_are_found_by_listing_the_package() -> None:
    assert set(game_slugs()) >= {"tisigui", "wurenshenghuan", "niutouwang", "aizhewudi"}


@pytest.mark.parametrize("slug", sorted(game_slugs()))
def test_every_game_is_a_plugin(slug: str) -> None:
    engine = get_game(slug)
    assert isinstance(engine, GamePlugin)
    assert engine.slug == slug
    assert isinstance(engine.rules.variants, tuple)
    for part, name in PROTOCOL:
        assert callable(getattr(getattr(engine, part), name, None)), f"{slug} plugin lacks {part}.{name}"
    rules = engine.rules.read({}, None)
    low, high = engine.play.player_range(rules)
    players = engine.play.default_players(rules)
    assert low <= players <= high
    assert isinstance(engine.tables.compute(rules), dict)
    log = engine.play.run(rules, players, random.Random(3), seed=3, variant=None,
                          bots=[engine.play.bots[0]] * players)
    assert log["game"] == slug and engine.play.replay(rules, log) == []
    for variant in ("", *engine.rules.variants):
        findings = engine.rules.lint(engine.rules.read({}, variant or None))
        assert isinstance(findings, list)
        assert all(isinstance(f.code, str) and isinstance(f.message, str)
                   and isinstance(f.where, str) for f in findings)


def _seed(name: str) -> dict[str, Any]:
    data = yaml.safe_load((FIXTURES / name).read_text(encoding="utf-8"))
    return data.get("rules", data)  # the wurenshenghuan fixture nests it under rules:


# Rules that make each engine report (nearly) every kind of finding it has.
LINTED: list[tuple[str, dict[str, Any], str | None]] = [
    ("tisigui", _seed("tisigui_seed_rules.yaml"), None),
    ("tisigui", {"variants": {"classic": {"small_die_sides": 4}}}, "classic"),
    ("tisigui", {"big_die_sides": 4, "question_marker_supply": 29,
                 "scoring": {"ghost_per_confirmed": 2}, "players": {"min": 3, "max": 7}}, None),
    ("wurenshenghuan", _seed("wurenshenghuan_seed_rules.yaml"), None),
    ("wurenshenghuan", {"weapon_kinds": 2, "days": 4, "search_divisor": 11,
                        "murderer_bands": [{"kills_min": 1, "kills_max": 3, "points": 1},
                                           {"kills_min": 3, "kills_max": 5, "points": 2}]},
     None),
    ("wurenshenghuan", {"murderer_bands": [{"kills_min": 1, "kills_max": 3, "points": 1},
                                           {"kills_min": 6, "kills_max": 9, "points": 2}]},
     None),
    ("niutouwang", {"deck": {"lowest": 1, "highest": 20}, "players": {"min": 2, "max": 30},
                    "heads": {"overrides": [{"multiple_of": 5, "heads": 2},
                                            {"multiple_of": 55, "heads": 7},
                                            {"multiple_of": 2, "heads": 3}]}}, None),
    ("aizhewudi", {"bills_per_round": 6, "princess_eliminated_at": 3, "abilities": True,
                   "players": {"max": 13, "default": 5},
                   "action_cards": [{"id": "rush", "per_player": 1}]}, None),
    ("aizhewudi", {"bills_per_round": 4}, None),
]


@pytest.mark.parametrize(("slug", "mapping", "variant"), LINTED)
def test_lint_codes_are_kebab_case_and_paths_start_at_rules(
    slug: str, mapping: dict[str, Any], variant: str | None
) -> None:
    engine = get_game(slug)
    findings = engine.rules.lint(engine.rules.read(mapping, variant))
    assert findings, (slug, mapping)
    for finding in findings:
        assert KEBAB.match(finding.code), (slug, finding.code)
        assert finding.where == "rules" or finding.where.startswith("rules."), \
            (slug, finding.code, finding.where)
        assert finding.message


def test_wurenshenghuan_codes_are_the_kebab_forms() -> None:
    engine = get_game("wurenshenghuan")
    found = {f.code for _, mapping, _ in LINTED[4:6]
             for f in engine.rules.lint(engine.rules.read(mapping, None))}
    assert found >= {"item-supply", "band-overlap", "band-gap", "guess-table-length",
                     "allowance-never"}
    seed = engine.rules.read(_seed("wurenshenghuan_seed_rules.yaml"), None)
    assert [f.code for f in engine.rules.lint(seed)] == ["unreachable-band"]
