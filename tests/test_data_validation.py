"""card_data validation: every problem at once, each with file, line and field path."""

from __future__ import annotations

from pathlib import Path

import pytest

from pnp.data.load import load_game
from pnp.errors import DataError
from tests.conftest import ROOT, edit


def problems_of(game_dir: Path) -> list[str]:
    with pytest.raises(DataError) as caught:
        load_game(game_dir)
    return caught.value.problems


def test_shipped_games_load():
    game = load_game(ROOT / "card_data" / "tisigui")
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
    edit(path, "size: 92pt", "size: big")
    problems = problems_of(path.parent)
    text = "\n".join(problems)
    assert len(problems) == 4, text
    assert "components[0].cards[1].count: must be at least 1, got -5" in text
    assert "components[3].colour: unknown key 'colour'" in text
    assert "components[4].front: unknown layout 'plate_frnt'" in text
    assert "layouts.identity_front.elements[1].size: expected a font size" in text
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
    from pnp.narrate import SEAT_NAMES, play_sample
    from pnp.rulebook import rulebook_markdown
    from pnp.workspace import Workspace

    game = load_game(ROOT / "card_data" / "tisigui")
    markdown = rulebook_markdown(Workspace(ROOT), game)
    spec = game.info.example
    log = play_sample(Workspace(ROOT), "tisigui", spec.players, spec.seed, game=game).log
    section = markdown[markdown.index("## 一整局打下来"):]
    section = section[:section.index("\n## ")]
    for seat, points in enumerate(log["scores"]):
        assert f"{SEAT_NAMES[seat]} {points} 分" in section
    assert len(log["big_rounds"]) == section.count("个大局（大局值")
