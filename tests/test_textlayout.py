"""Chinese line breaking (UAX #14) and shrink-to-fit, with a fixed-width measure."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from pnp.textlayout import Run, break_lines, fit_text

CLOSING = set("，。、；：？！）」』》〉…”’")  # a dash pair may start a line
OPENING = set("（「『《〈“‘")


def mono(text: str, bold: bool, size: float) -> float:
    return len(text) * size


def plain(lines) -> list[str]:
    return ["".join(run.text for run in line) for line in lines]


SAMPLE = "本盒內含：遮蔽板8塊、「你要抓BC嗎？」他說……然後——結束。reportlab，價格NT$300元。"


def test_breaks_follow_chinese_rules():
    lines = plain(break_lines([Run(SAMPLE)], 5 * 10, 10, mono))
    assert "".join(lines) == SAMPLE
    for line in lines:
        assert line[0] not in CLOSING, line
        assert line[-1] not in OPENING, line
    joined = "|".join(lines)
    assert "…|…" not in joined and "—|—" not in joined
    assert "BC" in lines[3] and lines[3].endswith("BC")


def test_latin_words_and_numbers_stay_whole_when_they_fit():
    lines = plain(break_lines([Run("價格NT$300元，reportlab很好用")], 10 * 10, 10, mono))
    assert any("NT$300" in line for line in lines)
    assert any("reportlab" in line for line in lines)


def test_explicit_newline_forces_a_break():
    assert plain(break_lines([Run("第一行\n第二行")], 100, 10, mono)) == ["第一行", "第二行"]


def test_bold_runs_survive_breaking():
    lines = break_lines([Run("一般"), Run("粗體字", True), Run("一般")], 40, 10, mono)
    assert [r.bold for line in lines for r in line] == [False, True, True, False]


def test_fit_shrinks_then_gives_up_below_the_floor():
    text = [Run("一二三四五六七八")]
    fit = fit_text(text, 40, 10, 10, 4, mono)
    assert fit is not None and fit.size == 5 and len(fit.lines) == 1
    assert fit_text(text, 40, 10, 10, 6, mono) is None


@settings(max_examples=80, deadline=None)
@given(st.text(alphabet="遮蔽板替死鬼碟仙，。「」！？……——ABC 123", min_size=1, max_size=60),
       st.integers(3, 12))
def test_breaking_keeps_every_character_and_respects_width(text, chars):
    width = chars * 10
    lines = break_lines([Run(text)], width, 10, mono)
    rebuilt = "".join(plain(lines))
    assert rebuilt.replace(" ", "") == text.replace(" ", "").rstrip("\n")
    for line in plain(lines):
        assert mono(line, False, 10) <= width or len(line) == 1


def test_a_last_line_of_one_character_takes_a_unit_from_the_line_above():
    lines = plain(break_lines([Run("一二三四五六七八九十分。")], 100, 10, mono))
    assert lines == ["一二三四五六七八九", "十分。"]
    assert all(mono(line, False, 10) <= 100 for line in lines)


def test_fitting_shrinks_rather_than_split_a_number():
    fit = fit_text([Run("10")], 15, 30, 10, 5, mono)
    assert fit is not None and fit.size == 7.5 and plain(fit.lines) == ["10"]
    assert fit_text([Run("10")], 15, 30, 10, 8, mono) is None


def test_nested_lists_keep_their_level_and_numbering():
    from pnp.rulebook import parse_markdown

    (bullets, numbers) = parse_markdown("- 甲\n  - 甲一\n- 乙\n\n  乙續\n\n1. 一\n2. 二\n   1. 二之一\n")
    assert list(zip(bullets.markers, bullets.levels, strict=True)) == [("•", 0), ("◦", 1), ("•", 0), ("", 0)]
    assert list(zip(numbers.markers, numbers.levels, strict=True)) == [("1.", 0), ("2.", 0), ("1.", 1)]
