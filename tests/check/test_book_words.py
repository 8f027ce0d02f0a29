"""No word about the tool in a player's book (pnp/check/bookwords.py): pnp check reports it, pnp build
refuses to print it, and game.yaml's ``tool_words`` extends the list and allows a passage."""

from __future__ import annotations

from pathlib import Path

import pytest

from pnp.check.bookwords import find_tool_words
from pnp.data.model import AllowedText, ToolWords
from tests.check.test_check import check_json, findings, line_of, run
from tests.conftest import edit, game_workspace

NONE = ToolWords()


def _hits(text: str, words: ToolWords = NONE, variants: tuple[str, ...] = ()) -> list[str]:
    return [hit.word for hit in find_tool_words([(text, "x:1")], words, variants).hits]


def test_words_are_found_in_either_script_and_across_spaces() -> None:
    assert _hits("本工具的经典变体") == ["本工具"]
    # 重新制作 is what OpenCC made of 重新製作 in one book: folded, 制 and 製 are one.
    assert _hits("每次重新制作规则书时") == ["製作規則書"]
    assert _hits("每次重新製作規則書時") == ["製作規則書"]
    assert _hits("全部文字由 pnp 项目重新撰写") == ["pnp項目"]
    assert _hits("規則書版本 rev2-pnp.1；原始的 PnP 版本") == []


def test_a_variant_name_counts_as_a_whole_word_in_any_case() -> None:
    assert _hits("本书的 Classic 变体", variants=("classic",)) == ["classic"]
    assert _hits("classical music; classic_setup", variants=("classic",)) == []


def test_a_game_forbids_more_words_and_allows_a_passage() -> None:
    words = ToolWords(("模擬器",), (AllowedText("電腦遊戲的說明", "the game is about computers", "g:2"),))
    report = find_tool_words([("用模擬器看看", "a:1"), ("這是電腦遊戲的說明", "b:1"), ("電腦壞了", "c:1")], words)
    assert [(hit.word, hit.where) for hit in report.hits] == [("模擬器", "a:1"), ("電腦", "c:1")]
    assert report.unused == ()
    unused = find_tool_words([("沒有", "a:1")], words).unused
    assert [a.text for a in unused] == ["電腦遊戲的說明"]


@pytest.fixture
def niutouwang_ws(tmp_path: Path) -> Path:
    return game_workspace(tmp_path, "niutouwang", templates=True)


def test_check_reports_a_tool_word_on_its_template_line(niutouwang_ws: Path) -> None:
    template = niutouwang_ws / "templates/niutouwang/rulebook.md.j2"
    edit(template, "## 遊戲簡介\n", "## 遊戲簡介\n\n本工具會自動排版。\n")
    line = line_of(template, "本工具會自動排版")
    code, report = check_json(niutouwang_ws, "niutouwang")
    assert code == 1
    assert [(f["code"], f["where"], f["word"]) for f in findings(report, "niutouwang", "book")] == [
        ("tool-word", f"templates/niutouwang/rulebook.md.j2:{line}", "本工具")]


def test_check_reports_the_engines_variant_name(niutouwang_ws: Path) -> None:
    template = niutouwang_ws / "templates/niutouwang/rulebook.md.j2"
    edit(template, "## 官方變體：", "## official 變體：")
    code, report = check_json(niutouwang_ws, "niutouwang")
    assert code == 1
    assert [f["word"] for f in findings(report, "niutouwang", "book")] == ["official"]


def test_game_yaml_adds_words_and_an_unused_allow_is_reported(niutouwang_ws: Path) -> None:
    game = niutouwang_ws / "card_data/niutouwang/game.yaml"
    edit(game, "\nliteral_numbers:\n", "\ntool_words:\n  forbid: [計分表]\n  allow:\n"
         "    - {text: 從來沒有這句話, reason: a passage that is gone}\nliteral_numbers:\n")
    code, report = check_json(niutouwang_ws, "niutouwang")
    assert code == 1
    book = findings(report, "niutouwang", "book")
    assert {f["word"] for f in book if f["code"] == "tool-word"} == {"計分表"}
    line = line_of(game, "從來沒有這句話")
    assert [(f["where"], f["text"]) for f in book if f["code"] == "unused-tool-word-allow"] == [
        (f"card_data/niutouwang/game.yaml:{line}: tool_words.allow[0]", "從來沒有這句話")]


@pytest.mark.parametrize(("yaml", "message"), [
    ("tool_words: {forbid: ['']}\n", "tool_words.forbid[0]: a word to forbid, not an empty text"),
    ("tool_words: {allow: [{text: 本工具}]}\n", "tool_words.allow[0]: missing required field 'reason'"),
    ("tool_words: {deny: [x]}\n", "tool_words.deny: unknown key 'deny' (expected one of: forbid, allow)"),
])
def test_bad_tool_words_are_located(tmp_path: Path, yaml: str, message: str) -> None:
    root = game_workspace(tmp_path, "tisigui")
    game = root / "card_data/tisigui/game.yaml"
    edit(game, "\nliteral_numbers:\n", "\n" + yaml + "literal_numbers:\n")
    result = run(root, "check", "tisigui")
    assert result.exit_code == 1
    assert f"card_data/tisigui/game.yaml:{line_of(game, 'tool_words')}: {message}" in result.stdout


def test_build_refuses_a_book_that_talks_about_the_tool(niutouwang_ws: Path) -> None:
    template = niutouwang_ws / "templates/niutouwang/rulebook.md.j2"
    edit(template, "## 遊戲簡介\n", "## 遊戲簡介\n\n這本書由程式排版。\n")
    line = line_of(template, "這本書由程式排版")
    result = run(niutouwang_ws, "build", "niutouwang", "--lang", "zh-Hant")
    assert result.exit_code == 1
    assert "Error: 1 problem found:" in result.output
    assert f"  - templates/niutouwang/rulebook.md.j2:{line}: '程式' in " in result.output
    assert not (niutouwang_ws / "output").exists() or not any((niutouwang_ws / "output").rglob("*.pdf"))
