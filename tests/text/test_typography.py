"""The typography lint: half-width punctuation inside Chinese text and mixed range notation,
as functions and as ``pnp check`` findings with the file and line they came from."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from pnp.cli import cli
from pnp.text.typography import half_width_punctuation, lint, mixed_ranges
from tests.conftest import edit


def test_half_width_marks_touching_chinese_are_reported_with_their_full_width_form() -> None:
    problems = half_width_punctuation("搶婚喔!!!先搶先贏!", "x.yaml:3")
    assert [(p.extra["text"], p.extra["replacement"]) for p in problems] == [("!!!", "！！！"), ("!", "！")]
    assert half_width_punctuation("你要抓的人超过两个吗?", "t")[0].extra["replacement"] == "？"


def test_latin_numbers_and_full_width_text_are_left_alone() -> None:
    for text in ("《6 nimmt!》", "$20,000", "10:30", "Hello, world!", "嫁給我吧！！！", "O（是）"):
        assert half_width_punctuation(text, "t") == [], text


def test_one_range_notation_is_quiet_and_a_second_one_is_named() -> None:
    assert mixed_ranges([("3～6 人", "a"), ("A～J", "b"), ("2026-11-29", "c")]) == []
    problems = mixed_ranges([("3～6 人", "a:1"), ("1～3 张", "a:2"), ("2–10 人", "b:7")])
    assert [(p.code, p.where, p.extra["range"], p.extra["usual"]) for p in problems] == \
        [("mixed-range-notation", "b:7", "2–10", "～")]


def test_lint_joins_both() -> None:
    codes = {p.code for p in lint([("好!", "a"), ("1～2", "b"), ("3~4", "c"), ("5～6", "d")])}
    assert codes == {"half-width-punctuation", "mixed-range-notation"}


def test_shipped_games_are_clean_and_a_slip_is_a_check_finding(workspace_copy: Path) -> None:
    def typography(root: Path, game: str) -> tuple[int, list[dict]]:
        result = CliRunner().invoke(cli, ["--root", str(root), "check", game, "--format", "json"])
        report = json.loads(result.stdout)
        return result.exit_code, [f for f in report["games"][game]["findings"]
                                  if f["kind"] == "typography"]

    assert typography(workspace_copy, "tisigui") == (0, [])
    template = workspace_copy / "templates" / "tisigui" / "rulebook.md.j2"
    edit(template, "## 故事背景", "## 故事背景\n\n真的吗?每回合打出 1–2 个。")
    code, found = typography(workspace_copy, "tisigui")
    assert code == 1
    by_code = {f["code"]: f for f in found}
    assert by_code["half-width-punctuation"]["text"] == "?"
    assert by_code["mixed-range-notation"]["range"] == "1–2"
    line = template.read_text(encoding="utf-8").splitlines().index("真的吗?每回合打出 1–2 个。") + 1
    assert by_code["half-width-punctuation"]["where"].endswith(f"rulebook.md.j2:{line}")
