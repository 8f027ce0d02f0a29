"""``pnp check``'s conversion finding: a word the printed conversion reads otherwise in its
sentence than alone (OpenCC matched a phrase across two words, as 重新制 in 重新制作).

A hand-written corpus of pitfalls (tests/fixtures/conversion_pitfalls.yaml) proves what the
check flags and where it stays quiet, in both directions the games ship; plain OpenCC is the
independent witness that each pitfall is real. The workspace tests run the whole command.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any

import opencc
import pytest
import yaml

from pnp.check.conversion import PrintedText, conversion_findings
from pnp.check.printed import printed_texts
from pnp.core.workspace import Workspace
from pnp.data.load import load_game
from pnp.games.registry import tables_from_engine
from pnp.play.examples import book_engine
from pnp.rulebook.source import aid_markdown, rulebook_markdown
from pnp.text.convert import converter_for
from tests.check.test_check import check_json, findings, line_of, run
from tests.conftest import ROOT, edit, game_workspace

CORPUS = yaml.safe_load((ROOT / "tests/fixtures/conversion_pitfalls.yaml").read_text(encoding="utf-8"))
# config -> (a shipped game converted that way, the script its source is in)
DIRECTIONS = {"s2tw": ("tisigui", "zh-Hans"), "tw2s": ("wurenshenghuan", "zh-Hant")}
# The characters issue 18 names as converting by context, Simplified form first.
PAIRS = ["制製", "干幹乾", "后後", "发髮發", "面麵", "里裡裏", "台臺檯", "余餘", "系係繫", "范範", "复復複",
         "松鬆", "斗鬥", "历歷曆", "钟鐘鍾", "只隻", "征徵", "冲衝", "准準", "卷捲", "才纔", "板闆", "表錶",
         "游遊", "云雲"]


def _entries(category: str) -> list[tuple[str, dict[str, str]]]:
    return [(config, entry) for config in DIRECTIONS for entry in CORPUS[config].get(category, [])]


def _ids(entries: list[tuple[str, dict[str, str]]]) -> list[str]:
    return [f"{config}-{entry['text']}" for config, entry in entries]


@pytest.fixture(scope="module")
def bare_games() -> dict[str, Any]:
    """Each direction's shipped game without its glossary: the corpus meets plain OpenCC."""
    games = {}
    for config, (slug, source) in DIRECTIONS.items():
        game = load_game(ROOT / "card_data" / slug, tables_from_engine)
        assert game.info.source_lang == source
        games[config] = dataclasses.replace(game, glossary=(), reviewed_readings=())
    return games


def _check(game: Any, text: str) -> list[Any]:
    return conversion_findings(game, [PrintedText(text, "corpus")], "glossary.yaml", str)


@pytest.mark.parametrize(("config", "entry"), _entries("wrong"), ids=_ids(_entries("wrong")))
def test_a_sentence_opencc_converts_wrongly_across_words_is_flagged(bare_games, config, entry):
    text, right = entry["text"], entry["right"]
    assert opencc.OpenCC(config).convert(text) != right, "not a pitfall (any more): OpenCC gets it right"
    found = _check(bare_games[config], text)
    assert found, f"{text} → {opencc.OpenCC(config).convert(text)} not flagged"
    at = text.index(entry["word"])
    covering = [f for f in found if f.code == "reading-differs"
                and text.find(f.extra["phrase"]) <= at < text.find(f.extra["phrase"]) + len(f.extra["phrase"])]
    assert covering, [f.message for f in found]
    finding = covering[0]
    assert finding.extra["sentence"] == text
    assert finding.extra["sentence_whole"] == opencc.OpenCC(config).convert(text)
    assert finding.extra["sentence_whole"] != finding.extra["sentence_words"]


@pytest.mark.parametrize(("config", "entry"), _entries("right"), ids=_ids(_entries("right")))
def test_a_sentence_opencc_converts_right_is_not_flagged(bare_games, config, entry):
    assert opencc.OpenCC(config).convert(entry["text"]) == entry["right"]
    assert _check(bare_games[config], entry["text"]) == []


@pytest.mark.parametrize(("config", "entry"), _entries("asks"), ids=_ids(_entries("asks")))
def test_a_right_reading_that_rests_on_a_phrase_across_words_is_asked_about(bare_games, config, entry):
    text = entry["text"]
    assert opencc.OpenCC(config).convert(text) == entry["right"]
    [finding] = _check(bare_games[config], text)
    assert entry["word"] in finding.extra["phrase"]
    assert finding.extra["sentence_whole"] == entry["right"]
    assert finding.extra["sentence_words"] != entry["right"]


@pytest.mark.parametrize(("config", "entry"), _entries("missed"), ids=_ids(_entries("missed")))
def test_what_the_check_cannot_see_is_written_down(bare_games, config, entry):
    """Both readings wrong alike: no finding. If this starts failing, the check learnt to see
    it, and the entry moves to `wrong`."""
    assert opencc.OpenCC(config).convert(entry["text"]) != entry["right"]
    assert _check(bare_games[config], entry["text"]) == []


def test_the_corpus_holds_every_pair_the_issue_names_in_the_direction_that_splits_it():
    s2tw = "".join(entry["text"] for _, entry in _entries("wrong") + _entries("right") + _entries("asks")
                   if _ == "s2tw")
    for pair in PAIRS:
        assert pair[0] in s2tw, f"no zh-Hans sentence with {pair[0]} ({pair})"
    tw2s = "".join(entry["text"] for config, entry in _entries("wrong") + _entries("right") if config == "tw2s")
    for pair in PAIRS:
        assert any(ch in tw2s for ch in pair[1:]), f"no zh-Hant sentence with {pair[1:]}"


def test_the_whole_reading_is_what_a_build_prints():
    """readings().whole is the converter's own output for every printed text of every game,
    so a finding's first reading is the printed one."""
    workspace = Workspace(ROOT)
    for slug in workspace.game_slugs():
        game = load_game(workspace.game_dir(slug), tables_from_engine)
        engine = book_engine(workspace, game)
        texts = [item.text for item in printed_texts(game)]
        texts += (rulebook_markdown(workspace, game, engine).splitlines()
                  + (aid_markdown(workspace, game, engine) or "").splitlines())
        for lang in ("zh-Hant", "zh-Hans"):
            convert = converter_for(game, lang)
            for text in texts:
                assert convert.readings(text).whole == convert(text), (slug, lang, text)


# --------------------------------------------------------------------------------------------
# The whole command on a workspace


@pytest.fixture
def tisigui_ws(tmp_path: Path) -> Path:
    return game_workspace(tmp_path, "tisigui", templates=True)


def _drop_term(glossary: Path, hans: str) -> None:
    data = yaml.safe_load(glossary.read_text(encoding="utf-8"))
    data["terms"] = [term for term in data["terms"] if term["zh-Hans"] != hans]
    glossary.write_text(yaml.safe_dump(data, allow_unicode=True, sort_keys=False), encoding="utf-8")


SENTENCE = "每次重新制作名牌，都从这一页开始。"


def test_check_reports_the_shipped_mistake_at_its_template_line(tisigui_ws: Path) -> None:
    """替死鬼's zh-Hant book printed 重新制作 (issue 18): without a glossary term for it, check
    reports the sentence at its line with both readings and the phrase to pin."""
    template = tisigui_ws / "templates/tisigui/rulebook.md.j2"
    glossary = tisigui_ws / "card_data/tisigui/glossary.yaml"
    _drop_term(glossary, "重新制作")
    template.write_text(template.read_text(encoding="utf-8") + f"\n{SENTENCE}\n", encoding="utf-8")
    code, report = check_json(tisigui_ws, "tisigui")
    assert code == 1
    line = f"templates/tisigui/rulebook.md.j2:{line_of(template, SENTENCE)}"
    [finding] = [f for f in findings(report, "tisigui", "conversion") if f["where"] == line]
    assert finding["code"] == "reading-differs"
    assert (finding["lang"], finding["phrase"], finding["whole"], finding["words"]) == \
           ("zh-Hant", "重新制作", "重新制作", "重新製作")
    assert finding["sentence"] == SENTENCE
    assert finding["sentence_whole"] == "每次重新制作名牌，都從這一頁開始。"
    assert finding["sentence_words"] == "每次重新製作名牌，都從這一頁開始。"
    assert "card_data/tisigui/glossary.yaml" in finding["message"] and "reviewed:" in finding["message"]
    text = run(tisigui_ws, "check", "tisigui").stdout
    assert f"[conversion] reading-differs: {line}: zh-Hant prints 重新制作 as 重新制作" in text


def test_the_shipped_glossary_term_settles_it(tisigui_ws: Path) -> None:
    template = tisigui_ws / "templates/tisigui/rulebook.md.j2"
    template.write_text(template.read_text(encoding="utf-8") + f"\n{SENTENCE}\n", encoding="utf-8")
    code, report = check_json(tisigui_ws, "tisigui")
    assert findings(report, "tisigui", "conversion") == [] and code == 0


def test_a_reviewed_phrase_is_accepted_and_a_stale_one_reported(tisigui_ws: Path) -> None:
    glossary = tisigui_ws / "card_data/tisigui/glossary.yaml"
    _drop_term(glossary, "纸制")
    code, report = check_json(tisigui_ws, "tisigui")
    [finding] = findings(report, "tisigui", "conversion")
    assert (finding["phrase"], finding["whole"], finding["words"]) == ("纸制", "紙製", "紙制")
    with glossary.open("a", encoding="utf-8") as out:
        out.write("reviewed:\n"
                  "  - text: 纸制\n    reason: 紙製 (made of paper) is right; ICU cuts 纸|制\n"
                  "  - text: 木制\n    reason: no longer printed\n")
    code, report = check_json(tisigui_ws, "tisigui")
    assert code == 1
    [stale] = findings(report, "tisigui", "conversion")
    assert stale["code"] == "stale-reviewed-reading" and stale["text"] == "木制"
    assert stale["where"] == f"card_data/tisigui/glossary.yaml:{line_of(glossary, 'text: 木制')}: reviewed[1]"


def test_a_reviewed_entry_without_a_reason_is_a_data_error(tisigui_ws: Path) -> None:
    glossary = tisigui_ws / "card_data/tisigui/glossary.yaml"
    with glossary.open("a", encoding="utf-8") as out:
        out.write("reviewed:\n  - text: 纸制\n    reason: ' '\n")
    result = run(tisigui_ws, "check", "tisigui")
    assert result.exit_code == 1
    assert f"card_data/tisigui/glossary.yaml:{line_of(glossary, 'text: 纸制') + 1}: reviewed[0].reason: say why" \
        in result.output


def test_card_text_and_the_player_aid_are_checked_too(tisigui_ws: Path) -> None:
    components = tisigui_ws / "card_data/tisigui/components.yaml"
    edit(components, "note: 按人数查大局骰、小局数和问题标记", "note: 按人数查大局骰；不要排得太后面")
    aid = tisigui_ws / "templates/tisigui/aid.md.j2"
    aid.write_text(aid.read_text(encoding="utf-8") + "\n这只要两步就能学会。\n", encoding="utf-8")
    code, report = check_json(tisigui_ws, "tisigui")
    assert code == 1
    found = {(f["where"], f["phrase"], f["words"]) for f in findings(report, "tisigui", "conversion")}
    note = line_of(components, "不要排得太后面")
    assert (f"card_data/tisigui/components.yaml:{note}: components[1].note", "太后面", "太後面") in found
    assert (f"templates/tisigui/aid.md.j2:{line_of(aid, '这只要两步')}", "这只要", "這只要") in found


def test_a_zh_hant_game_is_checked_in_the_direction_it_ships(tmp_path: Path) -> None:
    root = game_workspace(tmp_path, "wurenshenghuan", templates=True)
    template = root / "templates/wurenshenghuan/rulebook.md.j2"
    template.write_text(template.read_text(encoding="utf-8") + "\n總數大於單面骰的點數時，凶手獲勝。\n",
                        encoding="utf-8")
    code, report = check_json(root, "wurenshenghuan")
    assert code == 1
    [finding] = findings(report, "wurenshenghuan", "conversion")
    assert (finding["lang"], finding["whole"], finding["words"]) == ("zh-Hans", "大於单面", "大于单面")
    assert finding["where"] == f"templates/wurenshenghuan/rulebook.md.j2:{line_of(template, '單面骰')}"
