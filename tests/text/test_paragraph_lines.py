"""A rulebook paragraph's lines are remembered by what they depend on: the same as setting
them afresh, whichever paragraph asks first."""

from __future__ import annotations

import pytest

from pnp.core.workspace import BUNDLED_FONTS
from pnp.render.glyphs import GlyphCheck
from pnp.rulebook.paragraph import CJKParagraph
from pnp.rulebook.style import TextStyle
from pnp.text.fonts import kern_for, load_family, measure_for, squeeze_for
from pnp.text.linetypes import Run
from pnp.text.setting import set_lines

FONTS = BUNDLED_FONTS
TEXT = "每位玩家輪流出一張牌，「出牌」之後，按數字大小排進桌上的四列；第六張牌放進一列時，拿走那一列的前五張。"


@pytest.mark.parametrize("justify", [False, True])
def test_remembered_lines_are_the_lines_set_afresh(justify: bool) -> None:
    fonts = load_family(FONTS, "zh-Hant")
    style = TextStyle(10.5, 17.5)
    runs = [Run(TEXT[:10]), Run(TEXT[10:20], True), Run(TEXT[20:])]
    for width in (120.0, 200.0, 120.0):
        first = CJKParagraph(runs, style, fonts, GlyphCheck(fonts), "test", justify=justify)
        second = CJKParagraph(runs, style, fonts, GlyphCheck(fonts), "test", justify=justify)
        first.wrap(width, 1000.0)
        second.wrap(width, 1000.0)
        fresh = set_lines(first.runs, width, style.size, measure_for(fonts),
                          squeeze_for(fonts) if justify else None, kern=kern_for(fonts))
        assert first.lines == second.lines == tuple(fresh)
