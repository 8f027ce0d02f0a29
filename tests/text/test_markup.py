"""Card text markup (pnp.data.markup) and how the line breaker, fit and placement treat it:
an icon is a unit one em wide kept with the characters written against it; colour is a run
attribute like bold; text without markup is the one plain run it always was."""

from __future__ import annotations

import pytest

from pnp.data.markup import MarkupError, Span, parse_markup, plain_text
from pnp.text.linetypes import ICON, Run
from pnp.text.place import place
from pnp.text.setting import set_lines
from pnp.text.shrink import fit_text

ICONS = {"die", "point"}


def em_measure(text: str, bold: bool, size: float) -> float:
    return len(text) * size  # every character (and the icon) one em


def test_plain_text_is_one_span_as_before():
    assert parse_markup("碟仙回答別人時必須如實。", ICONS) == (Span("碟仙回答別人時必須如實。"),)
    assert parse_markup("{rules} a*b 10:30 x|y", ICONS) == (Span("{rules} a*b 10:30 x|y"),)


def test_bold_colour_icon_and_break():
    assert parse_markup("擲**兩個**{red|骰子:die:}<br>得分", ICONS) == (
        Span("擲"), Span("兩個", bold=True), Span("骰子", colour="#c0392b"),
        Span("", colour="#c0392b", icon="die"), Span("\n"), Span("得分"))
    assert parse_markup("{#C00|紅}{#1f5fa8|藍}", ICONS) == (Span("紅", colour="#cc0000"), Span("藍", colour="#1f5fa8"))
    assert parse_markup("**{gold|金}**", ICONS, bold=False) == (Span("金", True, "#b7950b"),)


@pytest.mark.parametrize(("text", "message"), [
    ("**兩個", "unclosed bold '**' opened at character 1"),
    ("{red|兩個", "unclosed colour span"),
    ("擲:dice:", "unknown icon ':dice:' at character 2 (icons: die, point)"),
    ("{crimson|兩個}", "unknown colour 'crimson'"),
    ("{red|a{blue|b}}", "colour spans do not nest"),
    ("**a{red|b**c}", "closes bold across a colour span"),
    ("{red|a**b}**", "closes a colour span across bold"),
])
def test_bad_markup_is_refused_with_what_and_where(text, message):
    with pytest.raises(MarkupError) as caught:
        parse_markup(text, ICONS)
    assert message in str(caught.value)


def test_plain_text_takes_the_markup_out():
    assert plain_text("擲**兩個**{red|骰子:die:}<br>得分") == "擲兩個骰子\n得分"
    assert plain_text("**unclosed") == "**unclosed"  # the loader reports it; a check sees it as written


def icon(name: str = "die") -> Run:
    return Run(ICON, icon=name)


def test_an_icon_is_one_em_and_never_starts_a_line_alone():
    # In a 6-em measure, 一二三四五字 would fill the first line and leave the icon to start the
    # second; 字, the icon and 。 are one unit, so they move down together.
    runs = [Run("一二三四五字"), icon(), Run("。甲乙丙")]
    lines = set_lines(runs, 6.0, 1.0, em_measure)
    texts = ["".join(r.text for r in line.runs) for line in lines]
    assert texts == ["一二三四五", f"字{ICON}。甲乙丙"], texts
    assert lines[1].runs[1].icon == "die"
    # Written after a space, an icon may begin a line.
    lines = set_lines([Run("一二三四五 "), icon(), Run("六七")], 5.0, 1.0, em_measure)
    assert ["".join(r.text for r in line.runs) for line in lines] == ["一二三四五", f"{ICON}六七"]


def test_colour_and_icon_survive_breaking_fitting_and_placing():
    runs = [Run("甲乙"), Run("丙丁", colour="#c0392b"), icon("point"), Run("戊", bold=True)]
    fit = fit_text(runs, 3.0, 10.0, 1.0, 1.0, em_measure)
    assert fit is not None
    placed = [p for line in fit.setting for p in place(line, 3.0, 1.0, em_measure)]
    icons = [p for p in placed if p.icon]
    assert [(p.text, p.icon) for p in icons] == [(ICON, "point")]
    assert "".join(p.text for p in placed if p.colour == "#c0392b") == "丙丁"
    assert "".join(p.text for p in placed if p.bold) == "戊"
    # The icon sits on the line of 丁, the character written before it, one em after it.
    for line in fit.setting:
        stretches = place(line, 3.0, 1.0, em_measure)
        texts = "".join(p.text for p in stretches)
        if ICON in texts:
            assert texts.index(ICON) > 0 and texts[texts.index(ICON) - 1] == "丁", texts
