"""card_data validation: every problem at once, each with file, line and field path."""

from __future__ import annotations

from pathlib import Path

import pytest

from pnp.core.errors import DataError
from pnp.data.load import load_game
from pnp.games.registry import tables_from_engine
from tests.conftest import ROOT, edit


def problems_of(game_dir: Path) -> list[str]:
    with pytest.raises(DataError) as caught:
        load_game(game_dir, tables_from_engine)
    return caught.value.problems


def test_shipped_games_load():
    game = load_game(ROOT / "card_data" / "tisigui", tables_from_engine)
    counts = {c.id: c.count for c in game.components}
    assert counts["identity"] == 6 and counts["shield"] == 6
    assert counts["score"] == 43 and counts["question"] == 30 and counts["cube"] == 36


def test_malformed_yaml_names_file_and_line(workspace_copy):
    path = workspace_copy / "card_data/tisigui/components.yaml"
    edit(path, "    count: 1\n\n  - id: shield", "    count: [1\n\n  - id: shield")
    broken = path.read_text(encoding="utf-8").splitlines().index("    count: [1") + 1
    (problem,) = problems_of(path.parent)
    assert str(path) in problem and "malformed YAML" in problem
    line = int(problem.split(str(path) + ":")[1].split(":")[0])
    assert broken <= line <= broken + 3


def test_every_problem_is_reported_at_once(workspace_copy):
    path = workspace_copy / "card_data/tisigui/components.yaml"
    edit(path, "      - id: human\n        count: 5", "      - id: human\n        count: -5")
    edit(path, "    size: [150, 100]", "    size: [150, 100]\n    colour: red")
    edit(path, "    front: plate_front\n", "    front: plate_frnt\n")
    edit(path, "size: 18pt", "size: big")
    problems = problems_of(path.parent)
    text = "\n".join(problems)
    assert len(problems) == 4, text
    assert "components[0].cards[1].count: must be at least 1, got -5" in text
    assert "components[3].colour: unknown key 'colour'" in text
    assert "components[4].front: unknown layout 'plate_frnt'" in text
    assert "layouts.identity_front.elements[3].size: expected a font size" in text
    for problem in problems:
        assert problem.startswith(str(path) + ":")


def test_missing_fields_and_wrong_types(workspace_copy):
    game = workspace_copy / "card_data/tisigui/game.yaml"
    edit(game, "version: rev2-pnp.1\n", "")
    edit(game, "players: {min: 3, max: 6, common: 5}", "players: {min: three, max: 6}")
    text = "\n".join(problems_of(game.parent))
    assert "missing required field 'version'" in text
    assert "players.min: expected a whole number, got str 'three'" in text


def test_unknown_field_reference_names_the_card(workspace_copy):
    path = workspace_copy / "card_data/tisigui/components.yaml"
    edit(path, 'text: "{title}"', 'text: "{titel}"')
    text = "\n".join(problems_of(path.parent))
    assert "field {titel} is not defined by card 'ghost' of component 'identity'" in text


def test_text_outside_the_safe_zone_is_refused(workspace_copy):
    path = workspace_copy / "card_data/tisigui/components.yaml"
    edit(path, "box: [6, 50, 51, 9]", "box: [1, 50, 51, 9]")
    text = "\n".join(problems_of(path.parent))
    assert "leaves the safe zone" in text and "'identity'" in text


def test_duplicate_keys_are_reported(workspace_copy):
    path = workspace_copy / "card_data/tisigui/game.yaml"
    edit(path, "age: 7+\n", "age: 7+\nage: 8+\n")
    (problem,) = problems_of(path.parent)
    assert "duplicate key 'age'" in problem


def test_printed_table_rows_must_have_their_columns(workspace_copy):
    path = workspace_copy / "card_data/tisigui/tables.yaml"
    edit(path, "{players: 3, big_die: 3, small_rounds: 2, question_markers: 2}",
         "{players: 3, big_die: 3, small_rounds: 2, questions: 2}")
    text = "\n".join(problems_of(path.parent))
    assert "tables.setup.rows[0].questions: unknown key" in text
    assert "tables.setup.rows[0]: missing required field 'question_markers'" in text


def test_example_game_must_be_playable(workspace_copy):
    path = workspace_copy / "card_data/tisigui/game.yaml"
    edit(path, "example: {seed: 16, players: 4}", "example: {seed: -1, players: 9, sead: 3}")
    text = "\n".join(problems_of(path.parent))
    assert "example.seed: must be at least 0, got -1" in text
    assert "example.players: must be at most 6, got 9" in text
    assert "example.sead: unknown key 'sead'" in text


def test_rulebook_example_is_the_seeded_sample_game():
    """The example's numbers are the seeded game's: its final scores, as the engine logs them."""
    from pnp.core.workspace import Workspace
    from pnp.play.examples import book_engine
    from pnp.play.narrate import SEAT_NAMES, play_sample
    from pnp.rulebook.source import rulebook_markdown

    game = load_game(ROOT / "card_data" / "tisigui", tables_from_engine)
    markdown = rulebook_markdown(Workspace(ROOT), game, book_engine(Workspace(ROOT), game))
    spec = game.info.example
    log = play_sample(Workspace(ROOT), "tisigui", spec.players, spec.seed, game=game).log
    section = markdown[markdown.index("## 一整局打下来"):]
    section = section[:section.index("\n## ")]
    for seat, points in enumerate(log["scores"]):
        assert f"{SEAT_NAMES[seat]} {points} 分" in section
    assert len(log["big_rounds"]) == section.count("个大局（大局值")


# -- property test: whatever a careless edit does to the data, the loader answers with a DataError

_MUTANTS = [None, True, False, -1, 0, 1, 2.5, 10 ** 9, -(10 ** 12), float("nan"), float("inf"),
            float("-inf"), "", "x", "{nope}", "9pt", "1000000000pt", "#zzzzzz", "50%", "-5mm",
            [], {}, [1, 2], [[0, 0]], {"a": 1}, ["a", ["b"]], "字" * 50]


def _paths(value, path=()):
    """Every path into a parsed YAML document, containers and leaves alike."""
    yield path
    if isinstance(value, dict):
        for key, item in value.items():
            yield from _paths(item, (*path, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from _paths(item, (*path, index))


def _mutate(doc, path, how, replacement):
    import copy

    doc = copy.deepcopy(doc)
    if not path:
        return replacement if how == "replace" else doc
    parent = doc
    for step in path[:-1]:
        parent = parent[step]
    last = path[-1]
    if how == "replace":
        parent[last] = replacement
    elif how == "delete":
        del parent[last]
    elif isinstance(parent, list):  # duplicate a list item
        parent.insert(last, copy.deepcopy(parent[last]))
    else:  # duplicate a key's value under a new, unknown key
        parent[f"{last}_copy"] = copy.deepcopy(parent[last])
    return doc


@pytest.mark.parametrize("slug", ["tisigui", "niutouwang"])
def test_mutated_card_data_loads_or_raises_data_error(slug, tmp_path_factory):
    """Change a value's type or number, delete a key, duplicate an item anywhere in a game's
    files: load_game either accepts the result or raises DataError, never anything else."""
    import shutil

    import yaml
    from hypothesis import HealthCheck, given, settings
    from hypothesis import strategies as st

    source = ROOT / "card_data" / slug
    names = sorted(p.name for p in source.glob("*.yaml"))
    docs = {name: yaml.safe_load((source / name).read_text(encoding="utf-8")) for name in names}
    paths = {name: list(_paths(doc)) for name, doc in docs.items()}
    folder = tmp_path_factory.mktemp("mutant") / slug

    @settings(max_examples=40, deadline=None, derandomize=True, database=None,
              suppress_health_check=[HealthCheck.too_slow])
    @given(st.data())
    def check(data):
        name = data.draw(st.sampled_from(names))
        path = data.draw(st.sampled_from(paths[name]))
        how = data.draw(st.sampled_from(["replace", "replace", "delete", "duplicate"]))
        replacement = data.draw(st.sampled_from(_MUTANTS))
        if how != "replace" and not path:
            how = "replace"
        shutil.rmtree(folder, ignore_errors=True)
        shutil.copytree(source, folder)
        mutant = _mutate(docs[name], path, how, replacement)
        (folder / name).write_text(yaml.safe_dump(mutant, allow_unicode=True, sort_keys=False),
                                   encoding="utf-8")
        try:
            load_game(folder, tables_from_engine)
        except DataError as exc:
            assert exc.problems and all(isinstance(p, str) and p for p in exc.problems)

    check()


# -- glossary and script purity --------------------------------------------------------------

_ANCHOR = "  - zh-Hans: 局限\n    zh-Hant: 局限\n"


def _glossary_problems(workspace_copy, extra):
    edit(workspace_copy / "card_data/tisigui/glossary.yaml", _ANCHOR, _ANCHOR + extra)
    return problems_of(workspace_copy / "card_data/tisigui")


def test_glossary_conflict_names_both_entries(workspace_copy):
    problems = _glossary_problems(workspace_copy, "  - {zh-Hans: 局限, zh-Hant: 侷限}\n")
    first = line_of(workspace_copy / "card_data/tisigui/glossary.yaml", "zh-Hans: 局限")
    assert len(problems) == 1
    assert "conflicts with terms[0]" in problems[0] and f"glossary.yaml:{first}" in problems[0]


def test_glossary_cycle_and_chain(workspace_copy):
    problems = _glossary_problems(
        workspace_copy, "  - {zh-Hans: 发型, zh-Hant: 髮型}\n  - {zh-Hans: 髮型, zh-Hant: 发型}\n"
                        "  - {zh-Hans: 台面, zh-Hant: 檯面}\n  - {zh-Hans: 檯面, zh-Hant: 枱面}\n")
    assert any("a cycle of conversions" in p for p in problems)
    assert any("a chain of conversions" in p for p in problems)


def test_glossary_empty_term(workspace_copy):
    problems = _glossary_problems(workspace_copy, "  - {zh-Hans: '', zh-Hant: 大局}\n")
    assert len(problems) == 1 and "zh-Hans: empty term" in problems[0]


def test_simplified_character_in_a_zh_hant_source_is_located(workspace_copy):
    game_dir = workspace_copy / "card_data/aizhewudi"
    edit(game_dir / "components.yaml", "fields: {name: 阿凱,", "fields: {name: 阿凯,")
    problems = problems_of(game_dir)
    line = line_of(game_dir / "components.yaml", "阿凯")
    assert len(problems) == 1 and f"components.yaml:{line}:" in problems[0] and "'凯'" in problems[0]


def test_script_exceptions_acknowledge_a_character(workspace_copy):
    game_dir = workspace_copy / "card_data/aizhewudi"
    edit(game_dir / "components.yaml", "fields: {name: 阿凱,", "fields: {name: 阿凯,")
    edit(game_dir / "game.yaml", "name: 愛者無敵", "name: 愛者無敵\nscript_exceptions:\n"
         "  - {chars: 凯, reason: the player's own spelling of the name}")
    game = load_game(game_dir, tables_from_engine)
    assert game.info.script_exceptions == {"凯": "the player's own spelling of the name"}


def test_credits_must_be_lines_of_text(workspace_copy):
    game_dir = workspace_copy / "card_data/tisigui"
    edit(game_dir / "game.yaml", "credits:\n", "credits:\n  - [a, b]\n  - {who: me}\n")
    problems = problems_of(game_dir)
    assert [p.split(": ", 2)[1] for p in problems] == ["credits[0]", "credits[1]"]


def line_of(path, needle):
    return next(i for i, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1) if needle in line)
