"""Every whole number of each engine's rules has one declared range: the shared reader refuses a
value past it at the field's path, docs/number-ranges.md lists each table exactly, and a field
without a declared range is an engine bug caught here rather than a number with no bound."""

from __future__ import annotations

import copy
import importlib
import re
from pathlib import Path
from typing import Any

import pytest
import yaml

from pnp.core.numbers import shown
from pnp.games.base import RulesError
from pnp.games.params import ANY_NUMBER, Params, declared_range
from pnp.games.registry import get_game

ROOT = Path(__file__).resolve().parents[2]
SLUGS = ("aizhewudi", "niutouwang", "tisigui", "wurenshenghuan")
_ROW = re.compile(r"^\| `([^`]+)` \| (-?[\d,]+)–(-?[\d,]+) \|$")


def _ranges(slug: str) -> dict[str, tuple[int, int]]:
    return dict(importlib.import_module(f"pnp.games.{slug}.rules").RANGES)


def _documented() -> dict[str, dict[str, tuple[int, int]]]:
    tables: dict[str, dict[str, tuple[int, int]]] = {}
    current: dict[str, tuple[int, int]] | None = None
    for line in (ROOT / "docs" / "number-ranges.md").read_text(encoding="utf-8").splitlines():
        if line.startswith("### "):
            current = tables.setdefault(line[4:].strip(), {})
        elif current is not None and (row := _ROW.match(line)):
            low, high = (int(part.replace(",", "")) for part in row.group(2, 3))
            current[row.group(1)] = (low, high)
    return tables


def test_docs_list_every_engine_table_exactly() -> None:
    documented = _documented()
    assert sorted(documented) == sorted(SLUGS)
    for slug in SLUGS:
        assert documented[slug] == _ranges(slug), slug


def _mapping_with(slug: str, field: str, value: int) -> dict[str, Any]:
    """The shipped game's rules with ``field`` (its ``[]`` parts: the first item) = ``value``,
    so list items keep the siblings they need (an action card's id) to be read at all."""
    text = (ROOT / "card_data" / slug / "game.yaml").read_text(encoding="utf-8")
    rules = copy.deepcopy(yaml.safe_load(text)["rules"])
    node: Any = rules
    parts = field.split(".")
    for i, part in enumerate(parts):
        last = i == len(parts) - 1
        if part.endswith("[]"):
            items = node.setdefault(part[:-2], [] if last else [{}])
            if last:
                items[:1] = [value]
                break
            node = items[0]
        elif last:
            node[part] = value
        else:
            node = node.setdefault(part, {}) or node.__setitem__(part, {}) or node[part]
    return rules


@pytest.mark.parametrize("slug", SLUGS)
def test_a_value_past_each_declared_maximum_is_refused_at_its_field(slug: str) -> None:
    engine = get_game(slug)
    for field, (_, high) in _ranges(slug).items():
        with pytest.raises(RulesError) as raised:
            engine.rules.read(_mapping_with(slug, field, high + 1), None)
        expected = f"{field.replace('[]', '[0]')}: must be at most {high}, got {high + 1}"
        assert expected in str(raised.value), (field, str(raised.value))


def test_a_variant_field_takes_the_top_fields_range() -> None:
    table = {"big_die_sides": (1, 20), "variants.official.end_at": (1, 5)}
    assert declared_range(table, "variants.classic.big_die_sides") == (1, 20)
    assert declared_range(table, "variants.official.end_at") == (1, 5)
    assert declared_range({"setup[].players": (2, 8)}, "setup[3].players") == (2, 8)
    with pytest.raises(LookupError):
        declared_range(table, "no_such_field")


def test_an_engine_without_a_table_stays_within_any_number() -> None:
    reader = Params({"huge": 10**40, "fine": 7})
    assert reader.integer("huge", 1) == 1
    assert reader.integer("fine", 1) == 7
    assert [p.message for p in reader.problems] == [
        f"must be at most {ANY_NUMBER[1]}, got {shown(10**40)}"]


def test_over_long_numbers_are_quoted_by_their_size() -> None:
    assert shown(999_999_999_999_999_999) == "999999999999999999"
    assert shown(10**18) == "a number of about 19 digits"
    assert shown(-(10**4000)) == "a negative number of about 4,001 digits"
