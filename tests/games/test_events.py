"""pnp/games/events.py: typed events written as the JSON the event-log contract fixes."""

from __future__ import annotations

import json
import random
from dataclasses import FrozenInstanceError, dataclass

import pytest

from pnp.games.aizhewudi.log import AbilityEvent
from pnp.games.events import fast_init, key, omitted_when_none, to_json, to_json_object
from pnp.games.niutouwang.play import play as niutouwang_play
from pnp.games.niutouwang.rules import rules_from_mapping as niutouwang_rules


@dataclass(frozen=True)
class Leaf:
    seat: int
    took: tuple[int, ...]


@dataclass(frozen=True)
class Node:
    name: str
    leaves: tuple[Leaf, ...]
    rows: tuple[tuple[int, ...], ...]
    pick: Leaf | None
    renamed: int = key("in")
    source: int | None = omitted_when_none("from")
    after: str = "x"


def test_fields_in_order_nested_and_converted() -> None:
    node = Node("a", (Leaf(0, (1, 2)), Leaf(1, ())), ((3,), (4, 5)), None, 7, None, "y")
    assert json.dumps(to_json(node)) == json.dumps({
        "name": "a", "leaves": [{"seat": 0, "took": [1, 2]}, {"seat": 1, "took": []}],
        "rows": [[3], [4, 5]], "pick": None, "in": 7, "after": "y"})


def test_an_omitted_field_keeps_the_others_in_field_order() -> None:
    node = Node("a", (), (), Leaf(2, (9,)), 1, 3, "z")
    assert list(to_json_object(node)) == ["name", "leaves", "rows", "pick", "in", "from", "after"]
    assert to_json_object(node)["pick"] == {"seat": 2, "took": [9]}


def test_ability_event_extras_come_in_the_logged_order() -> None:
    swap = AbilityEvent(1, "second_thoughts", "swap", hand=0, from_="flee", to="rush")
    assert json.dumps(to_json(swap)) == json.dumps(
        {"seat": 1, "ability": "second_thoughts", "event": "swap", "hand": 0, "from": "flee",
         "to": "rush"})
    assert to_json(AbilityEvent(0, "minor", "used", down=())) == {
        "seat": 0, "ability": "minor", "event": "used", "down": []}


def test_plain_values_lists_and_dicts_pass_through() -> None:
    assert to_json({"a": (1, Leaf(0, ())), "b": [None, True]}) == {
        "a": [1, {"seat": 0, "took": []}], "b": [None, True]}
    with pytest.raises(TypeError):
        to_json({1, 2})
    with pytest.raises(TypeError):
        to_json_object({"not": "an event"})


def test_a_written_log_is_plain_json() -> None:
    rules = niutouwang_rules({})
    log = niutouwang_play(rules, 4, random.Random(5), seed=5, variant="official",
                          bots=["greedy", "random"] * 2)
    assert json.loads(json.dumps(log)) == log
    turn = log["rounds"][0]["turns"][0]
    assert list(turn) == ["plays", "placements", "rows"]
    assert isinstance(turn["rows"][0], list) and isinstance(turn["placements"][0]["took"], list)


@fast_init
@dataclass(frozen=True, slots=True)
class Quick:
    seat: int
    took: tuple[int, ...] = ()


def test_fast_init_builds_the_same_frozen_values() -> None:
    assert Quick(1) == Quick(seat=1, took=()) and Quick(2, (3,)).took == (3,)
    assert hash(Quick(1)) == hash(Quick(1))
    with pytest.raises(FrozenInstanceError):
        Quick(1).seat = 2  # type: ignore[misc]
    with pytest.raises(TypeError):
        Quick()  # type: ignore[call-arg]
    assert AbilityEvent(0, "minor", "used") == AbilityEvent(0, "minor", "used", down=None)


def test_fast_init_refuses_classes_it_cannot_fill() -> None:
    @dataclass(frozen=True)
    class NoSlots:
        seat: int

    with pytest.raises(TypeError, match="slots"):
        fast_init(NoSlots)
