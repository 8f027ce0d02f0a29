"""Rulebook page flow, tables and the player aid, read back from rendered PDFs with pypdf."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from click.testing import CliRunner
from pypdf import PdfReader

from pnp.build.pipeline import converter_for
from pnp.cli import cli
from pnp.core.units import MM
from pnp.core.workspace import BUNDLED_FONTS
from pnp.data.load import load_game
from pnp.games.registry import tables_from_engine
from pnp.play.examples import book_engine
from pnp.render.glyphs import GlyphCheck
from pnp.rulebook.aid import render_aid
from pnp.rulebook.pdf import render_rulebook
from pnp.rulebook.source import parse_markdown
from pnp.text.fonts import load_family
from tests.conftest import ROOT

A4 = (210 * MM, 297 * MM)
LETTER = (215.9 * MM, 279.4 * MM)


@pytest.fixture(scope="module")
def tisigui():
    game = load_game(ROOT / "card_data" / "tisigui", tables_from_engine)
    fonts = load_family(BUNDLED_FONTS, "zh-Hans")
    return game, fonts, converter_for(game, "zh-Hans")


def _render(tisigui, markdown: str, aid: bool = False, paper: tuple[float, float] = A4) -> PdfReader:
    game, fonts, convert = tisigui
    glyphs = GlyphCheck(fonts)
    blocks = parse_markdown(markdown)
    if aid:
        data, pages = render_aid(game, "zh-Hans", blocks, fonts, convert, glyphs, "test", paper)
        assert pages == len(PdfReader(io.BytesIO(data)).pages)
    else:
        data = render_rulebook(game, "zh-Hans", blocks, fonts, convert, glyphs, "test", A4)
    assert not glyphs.missing
    return PdfReader(io.BytesIO(data))


def _spans(page) -> list[tuple[float, float, str]]:  # noqa: ANN001 - a pypdf page
    spans: list[tuple[float, float, str]] = []

    def visit(text, cm, tm, font, size):  # noqa: ANN001 - pypdf's visitor
        if text.strip():
            spans.append((tm[4] * cm[0] + cm[4], tm[5] * cm[3] + cm[5], text.strip()))

    page.extract_text(visitor_text=visit)
    return spans


FILLER = "碟子在是非板上慢慢滑动，大家屏住呼吸，看它最后停在哪一边。"


@pytest.mark.parametrize("filler", range(22, 36))
def test_a_heading_never_ends_a_page_with_less_than_two_lines_under_it(tisigui, filler):
    """Slide a heading down the first page line by line: wherever the page breaks, the
    heading goes with at least two lines of what follows (here one-line list items)."""
    body = "\n\n".join(f"{FILLER}" for _ in range(filler))
    markdown = f"# 标题\n\n{body}\n\n## 小节标题\n\n- 第一条。\n- 第二条。\n- 第三条。\n\n{FILLER}\n"
    reader = _render(tisigui, markdown)
    for page in reader.pages:
        spans = _spans(page)
        heads = [y for _, y, t in spans if t == "小节标题"]
        if heads:
            below = {round(y) for _, y, t in spans if 40 < y < heads[0] - 4}
            assert len(below) >= 2, (filler, sorted(below))


@pytest.mark.parametrize("filler", range(22, 36))
def test_a_run_in_heading_keeps_its_lines_like_a_heading(tisigui, filler):
    """A bold one-line paragraph that heads what follows (wurenshenghuan's 「計分範例」)
    never ends a page with one line under it either."""
    body = "\n\n".join(FILLER for _ in range(filler))
    long_item = FILLER * 2
    markdown = f"{body}\n\n**计分范例**\n\n- 第一条。\n- {long_item}\n- 第三条。\n\n{FILLER}\n"
    reader = _render(tisigui, markdown)
    for page in reader.pages:
        spans = _spans(page)
        heads = [y for _, y, t in spans if t == "计分范例"]
        if heads:
            below = {round(y) for _, y, t in spans if 40 < y < heads[0] - 4}
            assert len(below) >= 3, (filler, sorted(below))


def _page_of(reader: PdfReader, text: str) -> int:
    return next(i for i, page in enumerate(reader.pages) if text in (page.extract_text() or ""))


def test_a_short_section_is_not_pushed_over_by_the_section_after_it(tisigui):
    """A section of two lines goes on the page where it fits, whatever follows it: the
    heading after it (same rank or higher) starts a chain of its own instead of dragging the
    short section over and leaving the foot of the page blank (niutouwang's 「收進來的牌」
    before 「範例」; 「規則速查」's first subsection before the second)."""
    short = f"### 短节\n\n{FILLER * 2}\n\n"
    moved = 0
    for filler in range(24, 36):
        body = "\n\n".join(FILLER for _ in range(filler))
        alone = _render(tisigui, f"{body}\n\n{short}")
        for marks, title in (("##", "下一节"), ("###", "另一节")):
            followed = _render(tisigui, f"{body}\n\n{short}{marks} {title}\n\n{FILLER * 5}\n")
            assert _page_of(followed, "短节") == _page_of(alone, "短节"), (filler, title)
            moved += _page_of(followed, title) > _page_of(followed, "短节")
    assert moved  # the slide does reach the page foot
    # A subheading straight under a heading still chains on: the parent moves with it.
    for filler in range(24, 36):
        body = "\n\n".join(FILLER for _ in range(filler))
        reader = _render(tisigui, f"{body}\n\n## 上层\n\n### 下层\n\n{FILLER * 5}\n")
        assert _page_of(reader, "上层") == _page_of(reader, "下层"), filler


def test_a_table_goes_with_the_sentence_that_introduces_it(tisigui):
    for filler in range(22, 36):
        body = "\n\n".join(FILLER for _ in range(filler))
        reader = _render(tisigui, f"{body}\n\n根据人数查下表：\n\n@@table:setup@@\n")
        pages = [i for i, p in enumerate(reader.pages) if "根据人数查下表" in (p.extract_text() or "")]
        tables = [i for i, p in enumerate(reader.pages) if "开局设定" in (p.extract_text() or "")]
        assert pages == tables, filler


def test_a_sentence_ending_in_a_colon_goes_with_the_list_it_introduces(tisigui):
    """aizhewudi's 「兩個小訣竅可以省下很多時間：」 ended a Letter page with its two tips on
    the next one."""
    moved = 0
    for filler in range(22, 36):
        body = "\n\n".join(FILLER for _ in range(filler))
        reader = _render(tisigui, f"{body}\n\n两个小诀窍：\n\n- 第一个诀窍。\n- 第二个诀窍。\n")
        assert _page_of(reader, "两个小诀窍") == _page_of(reader, "第一个诀窍"), filler
        moved += _page_of(reader, "两个小诀窍") > 0
    assert moved  # the slide does reach the page foot


def test_two_way_table_has_a_ruled_corner_numbered_caption_and_right_aligned_numbers(tisigui):
    reader = _render(tisigui, "见下表：\n\n@@table:naming_score@@\n\n@@table:setup@@\n")
    spans = _spans(reader.pages[0])
    words = [t for _, _, t in spans]
    assert "表 1　指认得分" in words and "表 2　开局设定" in words
    # Both headings of the corner are whole, on their own, without a drawn-in slash.
    assert "指认人数" in words and "小局分值" in words
    assert not any(mark in "".join(words) for mark in "＼╲\\")
    # A number column: "6" above "12" in the last column end at the same x (right-aligned).
    game, fonts, _ = tisigui
    from reportlab.pdfbase.pdfmetrics import stringWidth

    ends = {}
    for x, _y, t in spans:
        if t in ("6", "12"):
            ends.setdefault(t, []).append(x + stringWidth(t, fonts.regular.name, 9.5))
    assert any(abs(a - b) < 0.5 for a in ends["6"] for b in ends["12"])
    # Compact: the table is nowhere near the full 170 mm measure.
    xs = [x for x, _, t in spans if t in ("1", "2", "3", "4", "5", "6", "24")]
    assert max(xs) - min(xs) < 110 * MM


def test_aid_is_two_columns_on_one_page(tisigui):
    items = "\n".join(f"- 第 {n} 条：{FILLER}" for n in range(1, 40))
    reader = _render(tisigui, f"# 替死鬼：玩家速查\n\n## 准备\n\n{items}\n", aid=True)
    assert len(reader.pages) == 1
    assert _size_mm(reader.pages[0]) == (210, 297)
    xs = {round(x) for x, _, t in _spans(reader.pages[0]) if t.startswith("第 ")}
    assert min(xs) < 100 and max(xs) > 300  # text in the left and in the right column


def _size_mm(page) -> tuple[float, float]:  # noqa: ANN001 - a pypdf page
    return round(float(page.mediabox.width) / MM, 1), round(float(page.mediabox.height) / MM, 1)


def _column_ends(page) -> tuple[float, float]:  # noqa: ANN001 - a pypdf page
    """Millimetres from the top of the page to the lowest baseline of the left and of the
    right column, the foot line (below the 12 mm margin) left out."""
    width, height = float(page.mediabox.width), float(page.mediabox.height)
    body = [(x, y) for x, y, _ in _spans(page) if y > 12 * MM]
    left = [y for x, y in body if x < width / 2]
    right = [y for x, y in body if x >= width / 2]
    assert left and right
    return (height - min(left)) / MM, (height - min(right)) / MM


@pytest.mark.parametrize("items", [36, 39, 42, 45])
def test_two_columns_of_an_aid_end_level(tisigui, items):
    """An aid too long for half the sheet but shorter than two columns: it was set down the
    left column to the foot, the right one carrying the rest, or nothing; now the columns
    are balanced, and end within a line or two of each other."""
    body = "\n".join(f"- 第 {n} 条：{FILLER}" for n in range(1, items + 1))
    reader = _render(tisigui, f"# 替死鬼：玩家速查\n\n## 准备\n\n{body}\n", aid=True)
    assert len(reader.pages) == 1 and _size_mm(reader.pages[0]) == (210, 297)
    left, right = _column_ends(reader.pages[0])
    assert abs(left - right) < 10, (left, right)
    assert left < 297 - 12 - 20  # well above the bottom margin: the columns really are short


@pytest.mark.parametrize(("paper", "sheet"), [(A4, (297, 210)), (LETTER, (279.4, 215.9))])
def test_a_short_aid_is_set_on_half_the_sheet_in_the_rulebook_s_type(tisigui, paper, sheet):
    """An aid that fits one column of half the sheet is set there (A5, half-letter), as a
    card for each seat, in the largest type that fits rather than one column of a sheet
    whose right half is blank; two cards are printed side by side on the sheet turned
    landscape, so the file prints at actual size on the paper chosen."""
    body = "\n".join(f"- 第 {n} 条：{FILLER}" for n in range(1, 9))
    reader = _render(tisigui, f"# 替死鬼：玩家速查\n\n## 准备\n\n{body}\n", aid=True, paper=paper)
    assert len(reader.pages) == 1
    assert _size_mm(reader.pages[0]) == sheet
    middle = float(reader.pages[0].mediabox.width) / 2
    sizes = set()
    items: tuple[list[str], list[str]] = ([], [])

    def visit(text, cm, tm, font, size):  # noqa: ANN001 - pypdf's visitor
        if text.startswith("第 "):
            sizes.add(round(size * tm[0], 2))
            items[int(tm[4] * cm[0] + cm[4] > middle)].append(text.split("：")[0])

    reader.pages[0].extract_text(visitor_text=visit)
    assert sizes == {10.5}  # the rulebook's body size, not the two-column aid's 8.5
    expected = [f"第 {n} 条" for n in range(1, 9)]
    assert items == (expected, expected)  # the whole aid on each card


def test_the_aid_s_layout_is_the_same_every_time(tisigui):
    body = "\n".join(f"- 第 {n} 条：{FILLER}" for n in range(1, 43))
    markdown = f"# 替死鬼：玩家速查\n\n## 准备\n\n{body}\n"
    game, fonts, convert = tisigui
    once, again = (render_aid(game, "zh-Hans", parse_markdown(markdown), fonts, convert, GlyphCheck(fonts),
                              "test", A4)[0] for _ in range(2))
    assert once == again


def test_an_aid_longer_than_one_sheet_stops_the_build(workspace_copy: Path):
    aid = workspace_copy / "templates" / "tisigui" / "aid.md.j2"
    aid.write_text(aid.read_text(encoding="utf-8") + "\n" + "\n\n".join([FILLER * 3] * 120) + "\n",
                   encoding="utf-8")
    result = CliRunner().invoke(cli, ["--root", str(workspace_copy), "build", "tisigui",
                                      "--lang", "zh-Hans"])
    assert result.exit_code == 1
    assert "aid.md.j2: the player aid runs to" in result.output
    assert not (workspace_copy / "output" / "tisigui" / "zh-Hans" / "aid.pdf").exists()


FILLER_HANT = "碟子在是非板上慢慢滑動，大家屏住呼吸，看它最後停在哪一邊。"


def test_a_table_that_fits_on_a_page_moves_on_whole_with_its_introduction_rather_than_split():
    """Slide a ten-row table down the page: its introduction and caption always go with it,
    and where it meets the foot it goes on to the next page whole. It used to split there
    under a repeated header, which left wurenshenghuan's 表 1 and 表 5 over two pages."""
    game = load_game(ROOT / "card_data" / "wurenshenghuan", tables_from_engine)
    fonts = load_family(BUNDLED_FONTS, "zh-Hant")
    convert = converter_for(game, "zh-Hant")
    moved = 0
    for filler in range(18, 32):
        glyphs = GlyphCheck(fonts)
        body = "\n\n".join(FILLER_HANT for _ in range(filler))
        blocks = parse_markdown(f"{body}\n\n白天能做幾次，請查下表：\n\n@@table:allowances@@\n\n{FILLER_HANT}\n")
        reader = PdfReader(io.BytesIO(render_rulebook(game, "zh-Hant", blocks, fonts, convert, glyphs,
                                                      "test", A4)))
        assert not glyphs.missing
        texts = [[t for _, _, t in _spans(page)] for page in reader.pages]
        intro = [i for i, words in enumerate(texts) if any("請查下表" in t for t in words)]
        caption = [i for i, words in enumerate(texts) if "表 1　白天行動上限" in words]
        assert intro == caption, filler
        with_header = [i for i, words in enumerate(texts) if "盤查次數" in words]
        assert with_header == caption, filler  # one header, on the caption's page
        # Every row with it: the first column's last value (10 known alive) is on that page.
        assert "10" in texts[caption[0]], filler
        moved += caption[0] > 0
    assert moved  # the slide does bring the table to the page foot


def test_a_heading_does_not_drag_a_table_to_the_next_page():
    """A heading with two lines, then a ten-row table and its introduction: the heading and
    its lines stay where they fit; the table's block (introduction, caption, rows) moves on
    whole by itself instead of taking the heading along, which left a third of
    wurenshenghuan's page 9 blank."""
    game = load_game(ROOT / "card_data" / "wurenshenghuan", tables_from_engine)
    fonts = load_family(BUNDLED_FONTS, "zh-Hant")
    convert = converter_for(game, "zh-Hant")

    def render(markdown: str) -> PdfReader:
        glyphs = GlyphCheck(fonts)
        data = render_rulebook(game, "zh-Hant", parse_markdown(markdown), fonts, convert, glyphs, "test", A4)
        assert not glyphs.missing
        return PdfReader(io.BytesIO(data))

    moved = 0
    for filler in range(20, 34):
        body = "\n\n".join(FILLER_HANT for _ in range(filler))
        section = "### 結束與計分\n\n- 第一條。\n- 第二條。\n\n"
        alone = render(f"{body}\n\n{section}")
        reader = render(f"{body}\n\n{section}白天能做幾次，請查下表：\n\n@@table:allowances@@\n")
        assert _page_of(reader, "結束與計分") == _page_of(alone, "結束與計分"), filler
        headers = [i for i, page in enumerate(reader.pages) if "盤查次數" in (page.extract_text() or "")]
        assert len(headers) == 1, filler
        moved += headers[0] > _page_of(reader, "結束與計分")
    assert moved  # the slide does bring the table to the page foot


@pytest.mark.parametrize("lang", ["zh-Hant", "zh-Hans"])
def test_wurenshenghuan_aid_introduces_each_score_table_right_above_it(lang):
    """The aid said 「猜中兇手：依交出的天數得分，見下表」 above the murderer's table: each
    score table now has its own sentence right above its caption."""
    from pnp.core.workspace import Workspace
    from pnp.rulebook.source import aid_markdown

    game = load_game(ROOT / "card_data" / "wurenshenghuan", tables_from_engine)
    fonts = load_family(BUNDLED_FONTS, lang)
    convert = converter_for(game, lang)
    glyphs = GlyphCheck(fonts)
    blocks = parse_markdown(convert(aid_markdown(Workspace(ROOT), game, book_engine(Workspace(ROOT), game))))
    data, pages = render_aid(game, lang, blocks, fonts, convert, glyphs, "test", A4)
    assert pages == 1 and not glyphs.missing
    text = PdfReader(io.BytesIO(data)).pages[0].extract_text()
    assert convert("見下表") not in text
    for intro, caption in (("兇手依實際殺死的數量得分（詐死不算）：", "兇手得分"),
                           ("猜中兇手的人依交出紙條的天數得分：", "猜中兇手得分")):
        assert f"{convert(intro)}\n表 " in text
        assert text.index(convert(intro)) < text.index(convert(caption)), caption
        after = text[text.index(convert(intro)):].split("\n")[1]
        assert after.endswith(convert(caption)), after


@pytest.mark.parametrize("paper", [A4, LETTER])
@pytest.mark.parametrize("slug", ["tisigui", "niutouwang"])  # two columns on the sheet; half a sheet
def test_nothing_on_the_aid_comes_within_6_5_mm_of_the_paper_edge(slug, paper):
    """Rendered, the player aid leaves a 6.5 mm band along every edge blank: its foot line
    (game, version, date in brackets) sat with its descenders at 6.4 mm from the bottom."""
    import pypdfium2 as pdfium

    from pnp.core.workspace import Workspace
    from pnp.rulebook.source import aid_markdown

    game = load_game(ROOT / "card_data" / slug, tables_from_engine)
    fonts = load_family(BUNDLED_FONTS, "zh-Hans")
    convert = converter_for(game, "zh-Hans")
    glyphs = GlyphCheck(fonts)
    blocks = parse_markdown(convert(aid_markdown(Workspace(ROOT), game, book_engine(Workspace(ROOT), game))))
    data, _ = render_aid(game, "zh-Hans", blocks, fonts, convert, glyphs, "test", paper)
    document = pdfium.PdfDocument(data)
    try:
        dpi = 300
        image = document[0].render(scale=dpi / 72, fill_color=(255, 255, 255, 255)).to_pil().convert("L")
    finally:
        document.close()
    band = round(6.5 / 25.4 * dpi)
    width, height = image.size
    for box in ((0, 0, width, band), (0, height - band, width, height),
                (0, 0, band, height), (width - band, 0, width, height)):
        assert image.crop(box).getextrema()[0] > 230, box  # nothing darker than paper
    # The foot line is there, just above the band.
    foot = image.crop((0, height - band - round(4 / 25.4 * dpi), width, height - band))
    assert foot.getextrema()[0] < 128


@pytest.mark.parametrize("slug", ["tisigui", "wurenshenghuan", "niutouwang", "aizhewudi"])
def test_every_rulebook_ends_with_its_credits_after_the_quick_reference(slug):
    """DESIGN: each rulebook ends with credits. tisigui's put them before the quick
    reference, unlike the other three, so its book ended on the reference tables."""
    from pnp.core.workspace import Workspace
    from pnp.rulebook.source import rulebook_markdown

    game = load_game(ROOT / "card_data" / slug, tables_from_engine)
    fonts = load_family(BUNDLED_FONTS, "zh-Hant")
    convert = converter_for(game, "zh-Hant")
    glyphs = GlyphCheck(fonts)
    blocks = parse_markdown(convert(rulebook_markdown(Workspace(ROOT), game, book_engine(Workspace(ROOT), game))))
    reader = PdfReader(io.BytesIO(render_rulebook(game, "zh-Hant", blocks, fonts, convert, glyphs,
                                                  "test", A4)))
    outline = reader.outline
    if len([entry for entry in outline if not isinstance(entry, list)]) == 1:  # under the title
        outline = next(entry for entry in outline if isinstance(entry, list))
    chapters = [entry.title for entry in outline if not isinstance(entry, list)]
    assert chapters[-2:] == ["規則速查", "製作說明"], chapters
    last = reader.pages[-1].extract_text() or ""
    assert f"規則書版本 {game.info.version}" in last


def test_the_last_item_of_a_list_never_opens_a_page_alone(tisigui):
    """aizhewudi's quick-reference round list left its 「7. 分钱」 alone at the top of a Letter
    page: the item before the last keeps with it. A few tips before the filler slide the list
    down in steps finer than a paragraph."""
    steps = "\n".join(f"{n}. 第{n}步，照做。" for n in range(1, 8))
    broke = 0
    for filler in range(24, 30):
        for extra in range(1, 5):
            tips = "\n".join(f"- 提示{n}。" for n in range(extra))
            body = "\n\n".join(FILLER for _ in range(filler))
            reader = _render(tisigui, f"{tips}\n\n{body}\n\n{steps}\n")
            last = _page_of(reader, "第7步")
            assert last == _page_of(reader, "第6步"), (filler, extra)
            broke += _page_of(reader, "第1步") < last
    assert broke  # the list does break across a page somewhere in the slide


@pytest.mark.parametrize("paper", [A4, LETTER])
def test_a_shrunk_figure_keeps_its_labels_inside_the_text_block(paper):
    """aizhewudi's figure 3 is wider than the measure: its miniatures shrank and its label
    「全部留到下一轮」 with them in position but not in size, so it ran 1.6 mm (Letter) past
    the right edge of the text block. Nothing below the running header goes right of it."""
    import pypdfium2 as pdfium

    from pnp.core.workspace import Workspace
    from pnp.rulebook.source import rulebook_markdown

    game = load_game(ROOT / "card_data" / "aizhewudi", tables_from_engine)
    fonts = load_family(BUNDLED_FONTS, "zh-Hans")
    convert = converter_for(game, "zh-Hans")
    glyphs = GlyphCheck(fonts)
    blocks = parse_markdown(convert(rulebook_markdown(Workspace(ROOT), game, book_engine(Workspace(ROOT), game))))
    data = render_rulebook(game, "zh-Hans", blocks, fonts, convert, glyphs, "test", paper)
    dpi = 150
    px = dpi / 25.4  # pixels per mm
    # The frame: 20 mm margins, less reportlab's 6 pt padding; a little for antialiasing.
    edge = round((paper[0] / MM - 20 - 6 / MM + 0.3) * px)
    document = pdfium.PdfDocument(data)
    try:
        for number in range(len(document)):
            image = document[number].render(scale=dpi / 72, fill_color=(255, 255, 255, 255)).to_pil().convert("L")
            band = image.crop((edge, round(15 * px), image.size[0], image.size[1] - round(15 * px)))
            assert band.getextrema()[0] > 230, number + 1  # nothing darker than paper
    finally:
        document.close()
