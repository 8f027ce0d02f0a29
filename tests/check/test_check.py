"""``pnp check`` and ``pnp tables``: printed tables against the engine, rules lint, script
purity and glyph coverage, each finding with where it was found; the JSON shapes."""

from __future__ import annotations

import difflib
import json
import random
import shutil
from pathlib import Path
from typing import Any

import pytest
import yaml
from click.testing import CliRunner, Result

from pnp.check.proof import CheckFinding, supply_simulation
from pnp.cli import cli
from pnp.data.fieldpaths import parse_path
from pnp.games.aizhewudi import GAME as AIZHEWUDI
from pnp.games.aizhewudi.lint import lint as aizhewudi_lint
from pnp.games.aizhewudi.play import play as aizhewudi_play
from pnp.games.aizhewudi.rules import rules_from_mapping as aizhewudi_rules
from tests.conftest import ROOT, edit, game_workspace

LINT_FIXTURE = ROOT / "tests" / "fixtures" / "lint"
ENGINE_FIXTURES = ROOT / "tests" / "games" / "fixtures"


def run(root: Path, *args: str) -> Result:
    result = CliRunner().invoke(cli, ["--root", str(root), *args])
    assert "Traceback" not in result.output, result.output
    assert not isinstance(result.exception, Exception) or isinstance(result.exception, SystemExit), \
        result.exception
    return result


def check_json(root: Path, game: str) -> tuple[int, dict[str, Any]]:
    result = run(root, "check", game, "--format", "json")
    return result.exit_code, json.loads(result.stdout)


def findings(report: dict[str, Any], game: str, kind: str | None = None) -> list[dict[str, Any]]:
    return [f for f in report["games"][game]["findings"] if kind is None or f["kind"] == kind]


def line_of(path: Path, needle: str) -> int:
    """1-based line of the first line containing ``needle`` (or stripped equal to ``=needle``)."""
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        if needle in line or (needle.startswith("=") and line.strip() == needle[1:]):
            return number
    raise AssertionError(f"{needle!r} not in {path}")


@pytest.fixture
def tisigui_ws(tmp_path: Path) -> Path:
    """A workspace holding only tisigui (the other games' data is not this test's subject)."""
    return game_workspace(tmp_path, "tisigui", templates=True)


@pytest.fixture
def lint_ws(tmp_path: Path) -> Path:
    root = tmp_path / "lint"
    shutil.copytree(LINT_FIXTURE / "card_data", root / "card_data")
    return root


# --------------------------------------------------------------------------------------------
# The shipped data


def test_shipped_tisigui_checks_clean() -> None:
    result = run(ROOT, "check", "tisigui")
    assert result.exit_code == 0, result.output
    assert result.stdout.strip() == "tisigui: ok"


def test_check_all_on_a_clean_workspace_exits_0(tisigui_ws: Path) -> None:
    code, report = check_json(tisigui_ws, "all")
    assert code == 0
    assert report == {"games": {"tisigui": {"ok": True, "findings": [], "acknowledged": []}},
                      "ok": True}


# --------------------------------------------------------------------------------------------
# (a) printed tables


def test_a_changed_printed_number_is_reported_by_table_row_and_column(tisigui_ws: Path) -> None:
    tables = tisigui_ws / "card_data/tisigui/tables.yaml"
    edit(tables, "{players: 4, confirmed: 1, points: 3}", "{players: 4, confirmed: 1, points: 4}")
    line = line_of(tables, "{players: 4, confirmed: 1, points: 4}")

    code, report = check_json(tisigui_ws, "tisigui")
    assert code == 1
    assert report["ok"] is False and report["games"]["tisigui"]["ok"] is False
    # ghost_score rows: 3 players (confirmed 0-3) are rows 0-3, then 4 players from row 4.
    assert findings(report, "tisigui") == [{
        "kind": "table", "code": "cell-differs",
        "message": "table 'ghost_score', row 6, column 'points': printed 4, the rules give 3",
        "where": f"card_data/tisigui/tables.yaml:{line}: tables.ghost_score.rows[5].points",
        "table": "ghost_score", "row": 5, "column": "points", "printed": 4, "computed": 3,
    }]

    text = run(tisigui_ws, "check", "tisigui")
    assert text.exit_code == 1
    assert "tisigui: 1 finding" in text.stdout
    assert f"tables.yaml:{line}: tables.ghost_score.rows[5].points" in text.stdout
    assert "Error: check found 1 problem in tisigui" in text.stderr


def test_a_variant_table_is_computed_from_that_variants_rules(tisigui_ws: Path) -> None:
    tables = tisigui_ws / "card_data/tisigui/tables.yaml"
    # classic_setup is the classic rules' setup: no end roll, so a game lasts one big round
    # per value of the big die from its start (4 for four players) down to 1.
    edit(tables, "{players: 4, big_die: 4, big_rounds: 4, small_rounds: 3}",
         "{players: 4, big_die: 3, big_rounds: 3, small_rounds: 3}")
    line = line_of(tables, "{players: 4, big_die: 3, big_rounds: 3, small_rounds: 3}")
    code, report = check_json(tisigui_ws, "tisigui")
    assert code == 1
    assert findings(report, "tisigui") == [{
        "kind": "table", "code": "cell-differs",
        "message": f"table 'classic_setup', row 2, column '{key}': printed 3, the rules give 4",
        "where": f"card_data/tisigui/tables.yaml:{line}: tables.classic_setup.rows[1].{key}",
        "table": "classic_setup", "row": 1, "column": key, "printed": 3, "computed": 4,
    } for key in ("big_die", "big_rounds")]
    # The variant's own rules decide: a classic big die starting at 3 for four makes 3 right
    # (the canonical rules keep starting it at 4).
    edit(tisigui_ws / "card_data/tisigui/game.yaml", "  actions_per_turn: {min: 1, max: 2}\n",
         "  actions_per_turn: {min: 1, max: 2}\n  variants:\n    classic:\n      setup:\n"
         + "".join(f"        - {{players: {n}, big_die: {3 if n == 4 else n}, small_rounds: 3}}\n"
                   for n in range(3, 7)))
    assert check_json(tisigui_ws, "tisigui") == (
        0, {"games": {"tisigui": {"ok": True, "findings": [], "acknowledged": []}}, "ok": True})


def test_a_variant_table_of_an_unknown_variant_is_not_computed(tisigui_ws: Path) -> None:
    tables = tisigui_ws / "card_data/tisigui/tables.yaml"
    edit(tables, "    variant: classic\n", "    variant: clasic\n")
    code, report = check_json(tisigui_ws, "tisigui")
    assert code == 1
    # The printed table, and the rulebook's two uses of it, name nothing the engine computes.
    assert [(f["code"], f["table"]) for f in findings(report, "tisigui")] == [
        ("table-not-computed", "classic_setup"), ("unknown-table", "classic_setup"),
        ("unknown-table", "classic_setup")]


def test_an_engine_table_needs_a_variant(tisigui_ws: Path) -> None:
    tables = tisigui_ws / "card_data/tisigui/tables.yaml"
    edit(tables, "    variant: classic\n", "")
    code, report = check_json(tisigui_ws, "tisigui")
    assert code == 1
    assert [f["message"] for f in findings(report, "tisigui")] == [
        "`engine_table:` names a table of a variant's rules; give the variant too (`variant:`)"]


def test_a_changed_rules_parameter_reports_the_stale_tables_and_update_fixes_only_rows(
        tisigui_ws: Path) -> None:
    game = tisigui_ws / "card_data/tisigui/game.yaml"
    tables = tisigui_ws / "card_data/tisigui/tables.yaml"
    edit(game, "{players: 5, big_die: 5, small_rounds: 3, question_markers: 3}",
         "{players: 5, big_die: 5, small_rounds: 4, question_markers: 3}")
    before = tables.read_text(encoding="utf-8")

    code, report = check_json(tisigui_ws, "tisigui")
    assert code == 1
    stale = findings(report, "tisigui", "table")
    assert [(f["table"], f["row"], f["column"], f["printed"], f["computed"]) for f in stale] == [
        ("setup", 2, "small_rounds", 3, 4)]
    assert findings(report, "tisigui") == stale

    updated = run(tisigui_ws, "tables", "tisigui", "--update")
    assert updated.exit_code == 0
    assert updated.stderr.strip() == "updated card_data/tisigui/tables.yaml: setup"
    assert run(tisigui_ws, "check", "tisigui").exit_code == 0

    diff = [line for line in difflib.unified_diff(before.splitlines(), tables.read_text(
        encoding="utf-8").splitlines(), lineterm="", n=0) if line[:1] in "+-"
        and not line.startswith(("+++", "---"))]
    assert diff == ["-      - {players: 5, big_die: 5, small_rounds: 3, question_markers: 3}",
                    "+      - {players: 5, big_die: 5, small_rounds: 4, question_markers: 3}"]
    again = run(tisigui_ws, "tables", "tisigui", "--update")
    assert again.stderr.strip() == "card_data/tisigui/tables.yaml is up to date"


def test_missing_and_extra_rows_and_tables_the_engine_does_not_compute(tisigui_ws: Path) -> None:
    tables = tisigui_ws / "card_data/tisigui/tables.yaml"
    edit(tables, '      - {players: 6, expected_big_rounds: "41/8"}\n', "")
    edit(tables, "      - {players: 6, big_die: 6, small_rounds: 4, question_markers: 5}\n",
         "      - {players: 6, big_die: 6, small_rounds: 4, question_markers: 5}\n"
         "      - {players: 7, big_die: 6, small_rounds: 4, question_markers: 5}\n")
    tables.write_text(tables.read_text(encoding="utf-8") + (
        "\n  bonus:\n    title: 奖励\n    columns:\n      - {key: n, label: 次数}\n"
        "    rows:\n      - {n: 1}\n"), encoding="utf-8")
    code, report = check_json(tisigui_ws, "tisigui")
    assert code == 1
    got = {(f["code"], f.get("table"), f.get("row")) for f in findings(report, "tisigui")}
    assert got == {("row-missing", "game_length", 3), ("row-extra", "setup", 4),
                   ("table-not-computed", "bonus", None)}


# --------------------------------------------------------------------------------------------
# (b) tables named by the rulebook and the layouts


def test_a_layout_printing_a_table_the_engine_does_not_compute(tisigui_ws: Path) -> None:
    tables = tisigui_ws / "card_data/tisigui/tables.yaml"
    tables.write_text(tables.read_text(encoding="utf-8") + (
        "\n  bonus:\n    title: 奖励\n    columns:\n      - {key: n, label: 次数}\n"
        "    rows:\n      - {n: 1}\n"), encoding="utf-8")
    components = tisigui_ws / "card_data/tisigui/components.yaml"
    edit(components, "table: setup,", "table: bonus,")
    line = line_of(components, "table: bonus,")
    code, report = check_json(tisigui_ws, "tisigui")
    assert code == 1
    [ref] = findings(report, "tisigui", "reference")
    assert ref["code"] == "unknown-table" and ref["table"] == "bonus"
    assert ref["where"].startswith(f"card_data/tisigui/components.yaml:{line}: layouts.reference_front")
    assert ref["where"].endswith(".table")


def test_a_rulebook_that_no_longer_renders_is_reported(tisigui_ws: Path) -> None:
    edit(tisigui_ws / "templates/tisigui/rulebook.md.j2", '{{ table("setup") }}',
         '{{ table("setup") }}{{ table("nope") }}')
    line = line_of(tisigui_ws / "templates/tisigui/rulebook.md.j2", 'table("nope")')
    code, report = check_json(tisigui_ws, "tisigui")
    assert code == 1
    refs = findings(report, "tisigui", "reference")
    assert {f["code"] for f in refs} == {"unknown-table", "rulebook-render"}
    unknown = next(f for f in refs if f["code"] == "unknown-table")
    assert unknown["where"] == f"templates/tisigui/rulebook.md.j2:{line}"
    assert unknown["table"] == "nope"


# --------------------------------------------------------------------------------------------
# (c) rules lint on the seeds read literally; (d) the player range


def test_lint_fixture_rules_are_the_engine_fixtures() -> None:
    tisigui = yaml.safe_load((LINT_FIXTURE / "card_data/tisigui/game.yaml").read_text("utf-8"))
    wuren = yaml.safe_load((LINT_FIXTURE / "card_data/wurenshenghuan/game.yaml").read_text("utf-8"))
    assert tisigui["rules"] == yaml.safe_load(
        (ENGINE_FIXTURES / "tisigui_seed_rules.yaml").read_text("utf-8"))
    assert wuren["rules"] == yaml.safe_load(
        (ENGINE_FIXTURES / "wurenshenghuan_seed_rules.yaml").read_text("utf-8"))["rules"]


def test_check_finds_every_contradiction_rulings_lists_for_the_seeds(lint_ws: Path) -> None:
    code, report = check_json(lint_ws, "all")
    assert code == 1
    game = lint_ws / "card_data/tisigui/game.yaml"

    def at(needle: str, path: str) -> str:
        return f"card_data/tisigui/game.yaml:{line_of(game, needle)}: {path}"

    got = {(f["code"], f["where"]) for f in findings(report, "tisigui")}
    expected = {
        # "人数：4～6人" while the setup table has a 3-player column
        ("stated-players-vs-setup", at("stated_players:", "rules.stated_players")),
        ("player-range", at("players: {min: 4", "players")),
        # "2~3 small rounds per big round" vs the table's 4 for six players
        ("stated-small-rounds-range",
         at("stated_small_rounds_range:", "rules.stated_small_rounds_range")),
        # "after 3 small rounds" vs the table's 2 (3-4 players) and 4 (6 players)
        ("stated-small-rounds-before-ghost-scores",
         at("stated_small_rounds_before_ghost_scores:",
            "rules.stated_small_rounds_before_ghost_scores")),
        # "-1 at the start of each small round / big round", contradicted by the worked example
        ("example-vs-rules", at("=big_die: 5", "rules.stated_example.big_die")),
        ("example-vs-rules", at("round_values:", "rules.stated_example.round_values")),
    }
    assert expected <= got, expected - got
    messages = {f["code"]: f["message"] for f in findings(report, "tisigui")}
    assert "4 for 6 players" in messages["stated-small-rounds-range"]
    assert "2 for 3 players; 2 for 4 players; 4 for 6 players" in \
        messages["stated-small-rounds-before-ghost-scores"]
    assert "has a column for 3 players" in messages["stated-players-vs-setup"]

    wuren = lint_ws / "card_data/wurenshenghuan/game.yaml"
    [band] = findings(report, "wurenshenghuan")
    assert band["code"] == "unreachable-band" and band["kind"] == "lint"
    assert band["where"] == (f"card_data/wurenshenghuan/game.yaml:"
                             f"{line_of(wuren, 'kills_min: 9, kills_max: 10')}: rules.murderer_bands[4]")
    assert "kills 10 can never happen" in band["message"]


def test_acknowledged_findings_are_hidden_and_stale_ones_reported(lint_ws: Path) -> None:
    game = lint_ws / "card_data/wurenshenghuan/game.yaml"
    game.write_text(game.read_text(encoding="utf-8") + (
        "acknowledged:\n"
        "  - {code: unreachable-band, reason: 照原文印 9～10，提醒玩家 10 不可能}\n"
        "  - {code: band-gap, reason: 舊的例外}\n"), encoding="utf-8")
    code, report = check_json(lint_ws, "wurenshenghuan")
    assert code == 1
    [stale] = findings(report, "wurenshenghuan")
    assert stale["code"] == "stale-acknowledgement" and stale["acknowledged"] == "band-gap"
    assert stale["where"].startswith(f"card_data/wurenshenghuan/game.yaml:{line_of(game, 'band-gap')}")
    acks = report["games"]["wurenshenghuan"]["acknowledged"]
    assert [{k: v for k, v in a.items() if k != "findings"} for a in acks] == [
        {"code": "unreachable-band", "reason": "照原文印 9～10，提醒玩家 10 不可能",
         "where": f"card_data/wurenshenghuan/game.yaml:{line_of(game, 'unreachable-band')}: "
                  "acknowledged[0]", "covered": 1},
        {"code": "band-gap", "reason": "舊的例外",
         "where": f"card_data/wurenshenghuan/game.yaml:{line_of(game, 'band-gap')}: acknowledged[1]",
         "covered": 0},
    ]
    assert [f["code"] for f in acks[0]["findings"]] == ["unreachable-band"]
    assert acks[1]["findings"] == []
    text = run(lint_ws, "check", "wurenshenghuan").stdout
    assert "  acknowledged unreachable-band: card_data/wurenshenghuan/game.yaml:" in text
    assert "      because: 照原文印 9～10，提醒玩家 10 不可能" in text
    edit(game, "  - {code: band-gap, reason: 舊的例外}\n", "")
    assert run(lint_ws, "check", "wurenshenghuan").exit_code == 0


def test_marker_supply_short_only_by_chance_is_simulated() -> None:
    rules = aizhewudi_rules({"markers": {"loved": 9, "fickle": 14}})
    lint = [CheckFinding("lint", f.code, f.message, f.where) for f in aizhewudi_lint(rules)]
    assert {f.code for f in lint} >= {"loved-markers-worst-case"}

    class Places:
        def rules(self, path: str) -> str:
            return f"game.yaml: rules.{path}"

    out = supply_simulation(AIZHEWUDI, rules, lint, Places(), games_per_count=10)  # type: ignore[arg-type]
    # Recount by hand: seeds 1-10 for 4, 5 and 6 players, with each bot mix.
    mixes = {"greedy": lambda n: ["greedy"] * n, "random": lambda n: ["random"] * n,
             "greedy/random": lambda n: ["greedy", "random"] * 3}
    expected = {
        label: sum(1 for n in (4, 5, 6) for seed in range(1, 11)
                   if max(r["peak_loved"] for r in aizhewudi_play(
                       rules, n, random.Random(seed), seed=seed, variant=None,
                       bots=bots(n)[:n])["rounds"]) > 9)
        for label, bots in mixes.items()}
    total = sum(expected.values())
    assert total > 0
    worst = next(f for f in out if f.code == "loved-markers-worst-case")
    assert worst.extra["simulated_games"] == 90 and worst.extra["ran_short"] == total
    assert worst.extra["by_bots"] == {label: {"games": 30, "ran_short": count}
                                      for label, count in expected.items()}
    assert f"9 markers ran short in {total} of 90 simulated games" in worst.message
    assert "greedy bots" in worst.message and "random bots" in worst.message
    short = next(f for f in out if f.code == "loved-markers-short-in-simulation")
    assert short.where == worst.where and short.extra["ran_short"] == total


# --------------------------------------------------------------------------------------------
# (e) script purity and (f) glyph coverage


def test_a_simplified_character_in_a_zh_hant_game_is_a_data_error(lint_ws: Path) -> None:
    """The source text itself is checked when the game loads (pnp/data/purity.py), so every
    command refuses it at its line, not only check."""
    components = lint_ws / "card_data/wurenshenghuan/components.yaml"
    edit(components, "note: 十張，每張一個字母", "note: 十張，每张一個字母")
    code, report = check_json(lint_ws, "wurenshenghuan")
    assert code == 1
    [data] = findings(report, "wurenshenghuan", "data")
    assert "'张' (U+5F20) is Simplified-only" in data["message"]
    assert data["where"] == f"card_data/wurenshenghuan/components.yaml:{line_of(components, 'note:')}: " \
                            "components[0].note"


def test_a_traditional_character_in_a_zh_hans_rulebook_is_a_purity_finding(tisigui_ws: Path) -> None:
    template = tisigui_ws / "templates/tisigui/rulebook.md.j2"
    edit(template, "## 故事背景", "## 故事背景說明")
    code, report = check_json(tisigui_ws, "tisigui")
    assert code == 1
    [purity] = findings(report, "tisigui", "purity")
    assert (purity["lang"], purity["char"]) == ("zh-Hans", "說")
    assert purity["where"] == f"templates/tisigui/rulebook.md.j2:{line_of(template, '故事背景說明')}"


def test_a_character_missing_from_the_font_names_char_code_point_file_and_field(
        tisigui_ws: Path) -> None:
    components = tisigui_ws / "card_data/tisigui/components.yaml"
    edit(components, "note: 按人数查大局骰、小局数和问题标记", "note: 按人数查大局骰、小局数和问题标记\U0002A6D6")
    code, report = check_json(tisigui_ws, "tisigui")
    assert code == 1
    glyphs = findings(report, "tisigui", "glyph")
    where = f"card_data/tisigui/components.yaml:{line_of(components, '按人数查')}: components[1].note"
    in_data = [g for g in glyphs if g["where"] == where]
    assert [(g["lang"], g["char"], g["codepoint"]) for g in in_data] == [
        ("zh-Hant", "\U0002A6D6", "U+2A6D6"), ("zh-Hans", "\U0002A6D6", "U+2A6D6")]
    assert in_data[0]["faces"] == ["PnpSansTC-Regular"]
    # The note is also printed in the rulebook's component list: found at the template's loop.
    template = tisigui_ws / "templates/tisigui/rulebook.md.j2"
    in_rulebook = [g for g in glyphs if g["where"] != where]
    assert {g["where"] for g in in_rulebook} == {
        f"templates/tisigui/rulebook.md.j2:{line_of(template, 'c.note if c.note')}"}
    text = run(tisigui_ws, "check", "tisigui").stdout
    assert f"{where}: character '\U0002A6D6' (U+2A6D6) is not in the font PnpSansTC-Regular" in text


# --------------------------------------------------------------------------------------------
# Data problems, unknown games, games without an engine


def test_a_broken_game_is_reported_and_the_others_still_checked(lint_ws: Path) -> None:
    (lint_ws / "card_data/wurenshenghuan/components.yaml").write_text("components: [\n", "utf-8")
    code, report = check_json(lint_ws, "all")
    assert code == 1
    [data] = findings(report, "wurenshenghuan")
    assert data["kind"] == "data" and "malformed YAML" in data["message"]
    assert data["where"].startswith("card_data/wurenshenghuan/components.yaml:")
    assert findings(report, "tisigui", "lint")


def test_a_game_without_an_engine_and_bad_rules(lint_ws: Path) -> None:
    shutil.copytree(lint_ws / "card_data/wurenshenghuan", lint_ws / "card_data/mygame")
    edit(lint_ws / "card_data/mygame/game.yaml", "slug: wurenshenghuan", "slug: mygame")
    edit(lint_ws / "card_data/wurenshenghuan/game.yaml", "  days: 5", "  days: five")
    code, report = check_json(lint_ws, "all")
    assert code == 1
    assert [f["code"] for f in findings(report, "mygame")] == ["no-engine"]
    [bad] = findings(report, "wurenshenghuan")
    game = lint_ws / "card_data/wurenshenghuan/game.yaml"
    assert bad["code"] == "invalid-rules"
    assert bad["where"] == f"card_data/wurenshenghuan/game.yaml:{line_of(game, 'days: five')}: rules.days"


def test_unknown_game_is_an_error_not_a_traceback(tisigui_ws: Path) -> None:
    for command in (["check", "nope"], ["tables", "nope"]):
        result = run(tisigui_ws, *command)
        assert result.exit_code == 1
        assert result.stderr.startswith("Error: unknown game 'nope'")
    result = run(tisigui_ws, "check", "tisigui", "--format", "yaml")
    assert result.exit_code == 2


def test_parse_path() -> None:
    assert parse_path("rules.murderer_bands[4]".removeprefix("rules.")) == ("murderer_bands", 4)
    assert parse_path("variants.classic.setup[0].big_die") == (
        "variants", "classic", "setup", 0, "big_die")
    assert parse_path("") == ()


# --------------------------------------------------------------------------------------------
# pnp tables


def test_tables_json_is_exactly_what_the_engine_computes() -> None:
    result = run(ROOT, "tables", "tisigui", "--format", "json")
    assert result.exit_code == 0
    data = json.loads(result.stdout)
    assert list(data) == ["game", "tables"] and data["game"] == "tisigui"
    assert list(data["tables"]) == ["setup", "naming_score", "ghost_score", "game_length", "classic_setup"]
    assert data["tables"]["setup"] == [
        {"players": 3, "big_die": 3, "small_rounds": 2, "question_markers": 2},
        {"players": 4, "big_die": 4, "small_rounds": 2, "question_markers": 2},
        {"players": 5, "big_die": 5, "small_rounds": 3, "question_markers": 3},
        {"players": 6, "big_die": 6, "small_rounds": 4, "question_markers": 5},
    ]
    assert [r["expected_big_rounds"] for r in data["tables"]["game_length"]] == [
        "17/8", "25/8", "33/8", "41/8"]
    assert {"round_value": 3, "named": 2, "points": 6} in data["tables"]["naming_score"]
    assert len(data["tables"]["ghost_score"]) == 4 + 5 + 6 + 7
    # The classic variant's set-up, printed as classic_setup: computed from the classic rules
    # (a d6 turned to 3, no markers, no end roll, so a game lasts as many big rounds as players).
    assert data["tables"]["classic_setup"] == [
        {"players": n, "big_die": n, "big_rounds": n, "small_rounds": 3} for n in range(3, 7)]


def test_tables_text_and_markdown() -> None:
    text = run(ROOT, "tables", "tisigui").stdout
    assert "setup — 开局设定" in text
    assert "players  big_die  small_rounds  question_markers" in text
    md = run(ROOT, "tables", "tisigui", "--format", "md").stdout
    assert "## game_length — 平均大局数" in md
    assert "| players | big_die | small_rounds | question_markers |\n|---:|---:|---:|---:|\n" \
           "| 3 | 3 | 2 | 2 |" in md
    assert "|---:|---|\n| 3 | 17/8 |" in md


def test_supply_simulation_plays_every_bot_mix_of_every_engine():
    from pnp.check.proof import bot_mixes
    from pnp.games.registry import game_slugs, get_game

    for slug in game_slugs():
        labels = {label for label, _ in bot_mixes(get_game(slug))}
        # Each bot alone, then both seated alternately.
        assert {"greedy", "random"} < labels and len(labels) == 3, slug


def test_a_data_only_game_without_tables_or_rules_passes_check(tmp_path: Path) -> None:
    """Nothing printed depends on rules, so there is nothing an engine could prove; texts are
    still checked for script purity and glyphs."""
    root = tmp_path / "ws"
    shutil.copytree(ROOT / "card_data" / "tisigui", root / "card_data" / "mygame")
    game = root / "card_data/mygame"
    text = (game / "game.yaml").read_text(encoding="utf-8")
    marks = text[text.index("literal_numbers:"):]  # its typed numbers stay deliberate
    marks = "".join(line for line in marks.splitlines(keepends=True)
                    if "reference_front" not in line)  # that face is cut below
    text = text.replace("slug: tisigui", "slug: mygame").split("\nrules:")[0] + "\n" + marks
    text = "\n".join(line for line in text.splitlines() if not line.startswith("example:")) + "\n"
    (game / "game.yaml").write_text(text, encoding="utf-8")
    (game / "tables.yaml").unlink()
    components = (game / "components.yaml").read_text(encoding="utf-8")
    start = components.index("  reference_front:")
    end = components.index("  reference_back:")
    components = components[:start] + components[end:]
    components = components.replace("    front: reference_front\n", "    front: reference_back\n")
    # No rules to give the seats: the identity card's number boxes count the shields instead.
    assert '{count: "{rules.players.max}", label: "{n}"}' in components
    components = components.replace('{count: "{rules.players.max}"', '{count: "{count.shield}"')
    (game / "components.yaml").write_text(components, encoding="utf-8")
    code, report = check_json(root, "mygame")
    assert (code, findings(report, "mygame")) == (0, [])


# --------------------------------------------------------------------------------------------
# Data findings carry the problem's own fields (file, line, field path), read from the record


def test_a_data_finding_gives_file_line_and_field_path_as_fields(lint_ws: Path) -> None:
    components = lint_ws / "card_data/wurenshenghuan/components.yaml"
    edit(components, "note: 十張，每張一個字母", "note: 十張，每张一個字母")
    code, report = check_json(lint_ws, "wurenshenghuan")
    assert code == 1
    [data] = findings(report, "wurenshenghuan", "data")
    line = line_of(components, "note:")
    assert (data["file"], data["line"], data["column"], data["path"]) == \
        ("card_data/wurenshenghuan/components.yaml", line, None, ["components", 0, "note"])
    # The text fields are the same record's rendering.
    assert data["where"] == f"{data['file']}:{line}: components[0].note"


def test_a_rules_finding_places_the_engines_field_path_in_game_yaml(tisigui_ws: Path) -> None:
    game_yaml = tisigui_ws / "card_data/tisigui/game.yaml"
    edit(game_yaml, "rules:\n", "rules:\n  no_such_rule: 1\n")
    code, report = check_json(tisigui_ws, "tisigui")
    assert code == 1
    [data] = [f for f in findings(report, "tisigui", "data") if f["code"] == "invalid-rules"]
    assert data["path"] == ["rules", "no_such_rule"]
    assert data["line"] == line_of(game_yaml, "no_such_rule:")
    assert data["where"] == f"card_data/tisigui/game.yaml:{data['line']}: rules.no_such_rule"
    assert data["message"].startswith("unknown key (known keys: ")


def test_malformed_yaml_is_a_finding_with_its_line_and_code(tisigui_ws: Path) -> None:
    components = tisigui_ws / "card_data/tisigui/components.yaml"
    components.write_text(components.read_text(encoding="utf-8") + "broken: [1, 2\n", encoding="utf-8")
    code, report = check_json(tisigui_ws, "tisigui")
    assert code == 1
    [data] = findings(report, "tisigui", "data")
    assert (data["file"], data["problem_code"]) == ("card_data/tisigui/components.yaml", "malformed-yaml")
    assert data["line"] is not None and data["message"].startswith("malformed YAML: ")
