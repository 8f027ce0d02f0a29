"""A problem as a value: its text rendering is the one every Error: message shows, its JSON
rendering the same fields, and a DataError keeps the records."""

from __future__ import annotations

import pickle
from pathlib import Path
from typing import Any

import pytest

from pnp.core.errors import DataError
from pnp.core.problems import Place, Problem
from pnp.data.yamlmarks import load_yaml


@pytest.mark.parametrize(("problem", "text"), [
    (Problem("msg", "a.yaml", 3, path=("cards", 2, "name")), "a.yaml:3: cards[2].name: msg"),
    (Problem("msg", "a.yaml", 3), "a.yaml:3: msg"),
    (Problem("msg", "a.yaml", path=("rules", "x")), "a.yaml: rules.x: msg"),
    (Problem("msg", "a.yaml"), "a.yaml: msg"),
    (Problem("msg", path=("setup", 0)), "setup[0]: msg"),
    (Problem("msg"), "msg"),
    (Problem("msg", "d.xlsx", 4, 5, ("cards", 2, "id"), cell="Cards!E4"), "d.xlsx:4:5: Cards!E4: cards[2].id: msg"),
    (Problem("msg", "a.yaml", 1, hint="do this"), "a.yaml:1: msg; do this"),
])
def test_the_text_rendering(problem: Problem, text: str) -> None:
    assert str(problem) == text


def test_the_json_rendering_has_every_field() -> None:
    problem = Problem("msg", "a.yaml", 3, path=("cards", 2), code="duplicate-key")
    assert problem.as_json() == {"message": "msg", "file": "a.yaml", "line": 3, "column": None,
                                 "path": ["cards", 2], "cell": None, "code": "duplicate-key", "hint": None}


def test_a_place_is_its_text_and_keeps_its_parts() -> None:
    place = Place("a.yaml", 7, ("layouts", "front", "elements", 0))
    assert place == "a.yaml:7: layouts.front.elements[0]"
    assert str(place.child("box").problem("too wide")) == "a.yaml:7: layouts.front.elements[0].box: too wide"
    copy = pickle.loads(pickle.dumps(place))
    assert (copy, copy.file, copy.line, copy.path) == (place, "a.yaml", 7, place.path)


def test_the_yaml_reader_raises_records(tmp_path: Path) -> None:
    file = tmp_path / "x.yaml"
    file.write_text("a: 1\nb: 2\na: 3\n", encoding="utf-8")
    with pytest.raises(DataError) as caught:
        load_yaml(file)
    [record] = caught.value.records
    assert (record.line, record.path, record.code) == (3, ("a",), "duplicate-key")
    assert caught.value.problems == [str(record)]
    assert str(record).endswith("x.yaml:3: a: duplicate key 'a'")


@pytest.mark.parametrize(("parts", "text"), [
    (("a.yaml", 3, ("a", 0, "b"), 4), "a.yaml:3:4: a[0].b"),
    (("a.yaml", None, ("a",)), "a.yaml: a"),
    (("a.yaml", None, (), 4), "a.yaml"),
    (("", 3, ("a",)), "a"),
    (("deck.xlsx", 2, (), None, "Cards!E4"), "deck.xlsx:2: Cards!E4"),
    (("", None, ("x", 1), None, "Cards!E4"), "Cards!E4: x[1]"),
    (("", None, ()), ""),
])
def test_a_place_reads_as_the_problem_it_makes_is_placed(parts: tuple[Any, ...], text: str) -> None:
    place = Place(*parts)
    assert place == text
    assert place.problem("m").place == text
    assert str(place.problem("m")) == (f"{text}: m" if text else "m")
