"""Chinese line breaking (ICU, UAX #14), justification and shrink-to-fit, with a fixed-width measure."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pnp.text.linebreaks import break_offsets, break_units
from pnp.text.linetypes import Run
from pnp.text.place import place
from pnp.text.setting import break_lines, set_lines
from pnp.text.shrink import fit_text

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
    from pnp.rulebook.source import parse_markdown

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


# --- punctuation compression -----------------------------------------------------------

PAIR_CLOSING, PAIR_OPENING = "，。、」）", "「（"


def kern(a: str, a_bold: bool, b: str, b_bold: bool) -> tuple[float, float]:
    """A closing mark before a closing or opening mark, or two opening marks, close up by
    half an em, taken from the blank sides facing each other (as pnp.text.fonts.kern_for does)."""
    if not ((a in PAIR_CLOSING and b in PAIR_CLOSING + PAIR_OPENING)
            or (a in PAIR_OPENING and b in PAIR_OPENING)):
        return (0.0, 0.0)
    a_right = min(0.5, squeeze(a, a_bold)[1])
    return (a_right, min(0.5 - a_right, squeeze(b, b_bold)[0]))


kern.marks = frozenset(PAIR_CLOSING + PAIR_OPENING)  # type: ignore[attr-defined]


def glyph_xs(placed) -> list[tuple[str, float]]:
    """(character, where its glyph is drawn) for every character of a placed line."""
    return [(ch, p.x + i * (10 + p.char_space)) for p in placed for i, ch in enumerate(p.text)]


def extent(placed) -> float:
    last = placed[-1]
    return last.x + len(last.text) * 10 + (len(last.text) - 1) * last.char_space


def test_adjacent_punctuation_closes_up_by_half_an_em():
    text = "他說（好）。「走」，然後「（笑）」。"
    lines = set_lines([Run(text)], 500, 10, mono, kern=kern)
    assert len(lines) == 1
    # Six pairs close up: ）。 。「 」， 「（ ）」 」。; nothing else moves.
    closed = ["）。", "。「", "」，", "「（", "）」", "」。"]
    assert lines[0].width == pytest.approx(len(text) * 10 - len(closed) * 5)
    xs = glyph_xs(place(lines[0], 500, 10, mono, kern=kern))
    steps = [(a + b, x2 - x1) for (a, x1), (b, x2) in zip(xs, xs[1:], strict=False)]
    assert [pair for pair, step in steps if step == pytest.approx(5)] == closed
    assert all(step == pytest.approx(10) for pair, step in steps if pair not in closed)
    # The width set_lines gave the line is where place() ends it.
    assert extent(place(lines[0], 500, 10, mono, kern=kern, justify=False)) == pytest.approx(lines[0].width)


def test_without_kern_nothing_closes_up():
    text = "好）。「走」，"
    line = set_lines([Run(text)], 500, 10, mono)[0]
    assert line.width == len(text) * 10
    xs = glyph_xs(place(line, 500, 10, mono))
    assert all(x2 - x1 == pytest.approx(10) for (_, x1), (_, x2) in zip(xs, xs[1:], strict=False))


def test_a_pair_across_a_line_break_does_not_close_up():
    text = "一二三四五六七八，「九十」"  # a line may break between ， and 「
    together = set_lines([Run(text)], 200, 10, mono, kern=kern)
    assert len(together) == 1 and together[0].width == pytest.approx(125)
    apart = set_lines([Run(text)], 95, 10, mono, kern=kern)
    assert plain(line.runs for line in apart) == ["一二三四五六七八，", "「九十」"]
    assert [line.width for line in apart] == [pytest.approx(90), pytest.approx(40)]
    # The width the pair closes up by counts when deciding whether a unit fits: 12 ems of
    # characters in 11.5 ems fit only because ，「 shares a line.
    squeezed = set_lines([Run("一二三四五六七八，「九」")], 115, 10, mono, kern=kern)
    assert len(squeezed) == 1 and squeezed[0].width == pytest.approx(115)


def test_a_closed_up_pair_is_not_spaced_apart_by_justification():
    text = "甲乙丙（丁）」，戊己庚辛壬癸子丑寅卯辰巳午未申酉"
    width = 12 * 10 + 3
    lines = set_lines([Run(text)], width, 10, mono, squeeze, kern=kern)
    first = lines[0]
    assert not first.last
    placed = place(first, width, 10, mono, squeeze, kern=kern)
    xs = dict((a + b, x2 - x1) for (a, x1), (b, x2) in zip(glyph_xs(placed), glyph_xs(placed)[1:], strict=False))
    assert xs["）」"] == pytest.approx(5) and xs["」，"] == pytest.approx(5)
    assert xs["甲乙"] > 10
    assert first.width == pytest.approx(120) and extent(placed) == pytest.approx(width)


def test_squeeze_a_pair_used_up_is_not_given_again():
    # 」 gives its right half to the comma after it: the line can squeeze only the comma's.
    line = set_lines([Run("一」，二")], 500, 10, mono, squeeze, kern=kern)[0]
    assert line.width == pytest.approx(35) and line.squeeze == pytest.approx(5)


MARKED = st.text(alphabet="一二三四五六七八九十，。、「」（）ab 1", min_size=1, max_size=80)


@given(text=MARKED, ems=st.integers(min_value=6, max_value=30), extra=st.sampled_from([0, 3, 5, 7]),
       bold=st.integers(min_value=0, max_value=80))
@settings(max_examples=200, deadline=None)
def test_kerned_lines_measure_the_same_everywhere(text, ems, extra, bold):
    width = ems * 10 + extra
    # A bold stretch from ``bold`` on: a pair may straddle two styles.
    runs = [Run(text[:bold]), Run(text[bold:], True)]
    lines = set_lines(runs, width, 10, mono, squeeze, kern=kern)
    for line in lines:
        if not line.runs:
            continue
        alone = set_lines(list(line.runs), 10_000, 10, mono, squeeze, kern=kern)
        # A line's width is the same measured in its paragraph and measured on its own...
        assert alone[0].width == pytest.approx(line.width) and alone[0].squeeze == pytest.approx(line.squeeze)
        if line.width <= width:
            # ... and place() draws it that wide, or justified, exactly as wide as the measure.
            assert extent(place(line, width, 10, mono, squeeze, justify=False, kern=kern)) == \
                pytest.approx(line.width)
        else:
            assert line.width - line.squeeze <= width + 1e-6


@settings(max_examples=200, deadline=None)
@given(st.integers(0, 30), st.integers(7, 16))
def test_a_mark_is_never_broken(before: int, width: int):
    # A ruling label (Run.mark, 〔本版補充〕) set anywhere in a paragraph, at any measure that
    # holds it: it is whole on one line.
    text = "碟仙可以选任何一位玩家包括自己，也可以一个都不选。" * 2
    runs = [Run(text[:before]), Run("〔本版補充〕", True, True), Run(text[before:])]
    lines = set_lines(runs, width * 10, 10, mono)
    assert "".join(run.text for line in lines for run in line.runs) == "".join(r.text for r in runs)
    holding = [line for line in lines if any(run.mark for run in line.runs)]
    assert len(holding) == 1
    marked = "".join(run.text for run in holding[0].runs if run.mark)
    assert marked == "〔本版補充〕"
    placed = place(holding[0], width * 10, 10, mono)
    assert "".join(p.text for p in placed if p.mark) == "〔本版補充〕"
    assert all(p.bold for p in placed if p.mark)
