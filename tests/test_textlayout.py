"""Chinese line breaking (ICU, UAX #14), justification and shrink-to-fit, with a fixed-width measure."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pnp.textlayout import Run, break_lines, break_offsets, break_units, fit_text, place, set_lines

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


# --- ICU break units -------------------------------------------------------------------

def test_characters_outside_the_bmp_are_counted_as_one_index_each():
    # ICU reports UTF-16 offsets; 𠀀 and 𩸽 are two code units there, one character here.
    text = "𠀀𠀁好「𩸽」魚。abc 123"
    units = break_units(text)
    assert "".join(units) == text
    assert units == ["𠀀", "𠀁", "好", "「𩸽」", "魚。", "abc ", "123"]
    lines = plain(break_lines([Run("𠀀𠀁好「𩸽」魚。")], 3 * 10, 10, mono))
    assert lines == ["𠀀𠀁好", "「𩸽」", "魚。"]


def test_a_lone_surrogate_does_not_stop_breaking():
    text = "好\ud800好。"
    assert "".join(break_units(text)) == text


def test_break_units_are_cached_by_text():
    text = "快取測試：同一段文字只切一次。"
    first = break_offsets(text)
    assert break_offsets(text) is first


def test_a_huge_text_is_refused_without_breaking_it_at_every_size():
    text = [Run("字" * 20_000)]
    calls = 0

    def counting(t: str, bold: bool, size: float) -> float:
        nonlocal calls
        calls += 1
        return len(t) * size

    assert fit_text(text, 100, 100, 12, 4, counting, step=0.25) is None
    # Each unit is measured once (at size 1) and every size step stops at the first line that
    # does not fit the box, instead of breaking all 20,000 characters 33 times.
    assert calls < 25_000


# --- justification ---------------------------------------------------------------------

# Full-width stops give up their right half, brackets their outer half (as in a zh-Hans face).
def squeeze(ch: str, bold: bool) -> tuple[float, float]:
    if ch in "，。、":
        return (0.0, 0.5)
    if ch in "「（":
        return (0.5, 0.0)
    if ch in "」）":
        return (0.0, 0.5)
    return (0.0, 0.0)


def line_end(line, width):
    """Where the pen stops after the line's last glyph, minus the blank that glyph gave up."""
    placed = place(line, width, 10, mono, squeeze)
    last = placed[-1]
    end = last.x + len(last.text) * 10 + (len(last.text) - 1) * last.char_space
    if line.width > width:  # squeezed: every mark gave up the same share of its blank
        end -= squeeze(last.text[-1], False)[1] * 10 * (line.width - width) / line.squeeze
    return end


PARAGRAPH = "遊戲由幾個大局組成，每個大局開始時大家秘密抽取身份牌。抽到碟仙的人選替身，其他人都是活人，" \
            "輪流提問或指認。最後總分最高的玩家獲勝，平手時共享勝利。"


def test_wrapped_lines_fill_the_measure_and_the_last_line_does_not():
    width = 10 * 10 + 5  # not a whole number of ems, as on a real page
    lines = set_lines([Run(PARAGRAPH)], width, 10, mono, squeeze)
    assert "".join(plain(line.runs for line in lines)) == PARAGRAPH
    assert [line.last for line in lines] == [False] * (len(lines) - 1) + [True]
    for line in lines[:-1]:
        assert line_end(line, width) == pytest.approx(width)
    last = lines[-1]
    assert place(last, width, 10, mono, squeeze)[0].char_space == 0
    for line in plain(line.runs for line in lines):
        assert line[0] not in CLOSING and line[-1] not in OPENING


def test_squeezing_punctuation_lets_a_line_take_one_more_character():
    # Eleven characters in 10.5 ems fit only by giving up half of the comma.
    text = "一二三四五，六七八九十甲乙丙丁戊"
    width = 105
    assert plain(break_lines([Run(text)], width, 10, mono))[0] == "一二三四五，六七八九"
    squeezed = set_lines([Run(text)], width, 10, mono, squeeze)
    assert plain(line.runs for line in squeezed)[0] == "一二三四五，六七八九十"
    first = squeezed[0]
    assert first.width == 110 and first.squeeze == 5
    placed = place(first, width, 10, mono, squeeze)
    # The comma gives up the half em it has to; what follows moves left to close up.
    assert [p.text for p in placed] == ["一二三四五，", "六七八九十"]
    assert placed[1].x == pytest.approx(55)
    assert line_end(first, width) == pytest.approx(width)


def test_latin_words_are_not_letter_spaced():
    width = 20 * 10 + 5
    lines = set_lines([Run("請打開reportlab看看這一段文字的排版效果如何呢")], width, 10, mono, squeeze)
    placed = place(lines[0], width, 10, mono, squeeze)
    xs = [(ch, p.x + i * (10 + p.char_space)) for p in placed for i, ch in enumerate(p.text)]
    steps = {a + b: x2 - x1 for (a, x1), (b, x2) in zip(xs, xs[1:], strict=False)}
    assert all(steps[pair] == pytest.approx(10) for pair in ("re", "ep", "po", "rt", "tl", "la", "ab"))
    assert steps["開r"] > 10 and steps["看看"] > 10
    assert line_end(lines[0], width) == pytest.approx(width)


def test_without_justify_a_line_keeps_its_natural_spacing():
    lines = set_lines([Run(PARAGRAPH)], 105, 10, mono)
    assert all(p.char_space == 0 for p in place(lines[0], 105, 10, mono, justify=False))
