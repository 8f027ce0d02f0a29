"""Rulebook tables and callout boxes as printed, read back from the built PDFs of every game,
in both scripts, on A4 and Letter: a table that fits on a page is on one page with its
caption; a table longer than a page repeats its header row on every page it runs to; a
callout box leaves as much room right of its text as left of it."""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from pathlib import Path

import pytest
import yaml
from pypdf import PdfReader

from pnp.build.pipeline import build
from pnp.core.workspace import Workspace
from pnp.scaffold import scaffold
from tests.pdfprobe import Mark, TextLine, hex_color, painted, text_lines

GAMES = ("tisigui", "wurenshenghuan", "niutouwang", "aizhewudi")
LANGS = ("zh-Hant", "zh-Hans")
PAPERS = ("a4", "letter")
# How the books draw a table: a header row on a dark red band, a thin rule under each body
# row and a heavier dark red one under the last; a callout is a beige box.
ACCENT = hex_color("#6b2d3a")
ROW_RULE = hex_color("#b9ad98")
CALLOUT = hex_color("#f3eee4")
END_RULE_WIDTH = 0.8
CAPTION = re.compile(r"^[表] ?\d+　")
MIN_ROWS = 3  # rows a table longer than a page keeps on each side of a page break


@pytest.fixture(scope="module")
def books(built_books: Path) -> Path:
    return built_books


@dataclass
class Segment:
    """The part of a table on one page: its header band and the rules under its rows."""
    page: int
    header: Mark
    rows: int
    ends: bool  # the table's last row is on this page


@dataclass
class TableSeen:
    caption: str
    page: int
    segments: list[Segment]


def _is_header(mark: Mark) -> bool:
    return mark.filled and mark.color == ACCENT and mark.right - mark.left > 10 and mark.top - mark.bottom > 5


def _is_rule(mark: Mark, color: tuple[float, ...]) -> bool:
    return not mark.filled and mark.color == color and mark.top - mark.bottom < 0.01 and mark.right > mark.left


def tables_in(path: Path) -> list[TableSeen]:
    """Every captioned table of a book, in reading order, with the pages it is drawn on."""
    lines = text_lines(path)
    events: list[tuple[int, float, str, object]] = []
    for number, page in enumerate(PdfReader(path).pages):
        for mark in painted(page):
            if _is_header(mark):
                events.append((number, -mark.top, "header", mark))
            elif _is_rule(mark, ACCENT) and abs(mark.width - END_RULE_WIDTH) < 0.01:
                events.append((number, -mark.top + 0.001, "end", mark))  # after its row's own rule
            elif _is_rule(mark, ROW_RULE):
                events.append((number, -mark.top, "row", mark))
        for line in lines[number]:
            if CAPTION.match(line.text):
                events.append((number, -line.top, "caption", line))
    events.sort(key=lambda e: (e[0], e[1]))
    found: list[TableSeen] = []
    current: Segment | None = None
    for number, _, kind, item in events:
        if kind == "caption":
            assert isinstance(item, TextLine)
            found.append(TableSeen(item.text, number, []))
            current = None
        elif kind == "header" and found:
            assert isinstance(item, Mark)
            if found[-1].segments and found[-1].segments[-1].ends:
                continue  # a band after the table's end: not this table's
            current = Segment(number, item, 0, False)
            found[-1].segments.append(current)
        elif current is not None and current.page == number and not current.ends:
            assert isinstance(item, Mark)
            inside = item.left >= current.header.left - 0.5 and item.right <= current.header.right + 0.5
            if kind == "row" and inside and item.top < current.header.bottom - 1:
                current.rows += 1
            elif kind == "end" and inside:
                current.ends = True
    return found


@pytest.mark.parametrize("paper", PAPERS)
@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("game", GAMES)
def test_every_table_sits_on_one_page_with_its_caption(books, game, lang, paper):
    """wurenshenghuan's 表 1 and 表 5 split over two A4 pages, and on Letter its 表 4 left its
    caption and three rows at the foot of a page: every table of the books fits on a page,
    so each is drawn whole on the page that holds its caption."""
    tables = tables_in(books / paper / game / lang / "rulebook.pdf")
    assert tables, "no captioned table found"
    for table in tables:
        pages = [s.page + 1 for s in table.segments]
        assert len(table.segments) == 1, f"{table.caption} runs over pages {pages}"
        (segment,) = table.segments
        assert segment.page == table.page and segment.ends, (table.caption, table.page + 1, pages)
        assert segment.rows >= 1, table.caption


def _long_table_workspace(tmp_path: Path, rows: int) -> Path:
    """A new game (pnp new) whose printed set-up table has ``rows`` rows, numbered from 1001
    in its first column."""
    root = tmp_path / "ws"
    (root / "card_data").mkdir(parents=True)
    scaffold(Workspace(root), "demo")
    tables = root / "card_data" / "demo" / "tables.yaml"
    data = yaml.safe_load(tables.read_text(encoding="utf-8"))
    data["tables"]["setup"]["rows"] = [{"players": 1001 + n, "hand": n % 7 + 1, "markers": 2 * n}
                                       for n in range(rows)]
    tables.write_text(yaml.safe_dump(data, allow_unicode=True, sort_keys=False), encoding="utf-8")
    return root


@pytest.mark.parametrize("paper", PAPERS)
def test_a_table_longer_than_a_page_repeats_its_header_row_on_every_page(tmp_path, paper):
    rows = 110
    root = _long_table_workspace(tmp_path, rows)
    build(Workspace(root), "demo", "zh-Hant", paper)
    path = root / "output" / "demo" / "zh-Hant" / "rulebook.pdf"
    (table,) = tables_in(path)
    segments = table.segments
    assert len(segments) >= 3, "110 rows run over more than two pages"
    assert segments[0].page == table.page  # the caption is over its first rows
    assert [s.page for s in segments] == list(range(table.page, table.page + len(segments)))
    assert segments[-1].ends and not any(s.ends for s in segments[:-1])
    assert all(s.rows >= MIN_ROWS for s in segments), [s.rows for s in segments]
    assert sum(s.rows for s in segments) == rows
    lines = text_lines(path)
    seen: list[int] = []
    for segment in segments:
        words = [line.text for line in lines[segment.page]]
        # The header's words, on this page's band.
        header = [line.text for line in lines[segment.page]
                  if segment.header.bottom <= (line.bottom + line.top) / 2 <= segment.header.top]
        assert any("人數" in t for t in header) and any("每人手牌" in t for t in header), (segment.page, header)
        seen += [int(m.group(1)) for t in words if (m := re.match(r"^(1\d{3})\b", t))]
    assert seen == list(range(1001, 1001 + rows))  # every row once, in order


def _han(char: str) -> bool:
    return unicodedata.name(char, "").startswith("CJK UNIFIED IDEOGRAPH")


def callout_padding(path: Path) -> list[tuple[int, float, float]]:
    """(page, left, right) for each callout box whose right padding can be read: the room
    between the box's sides and its text, on the left from the lines' starts, on the right
    from the lines set full width (justified, ending in a character, not a squeezed mark)."""
    found = []
    lines = text_lines(path)
    for number, page in enumerate(PdfReader(path).pages):
        for box in (m for m in painted(page) if m.filled and m.color == CALLOUT):
            inside = [line for line in lines[number] if box.bottom <= (line.bottom + line.top) / 2 <= box.top
                      and box.left - 1 <= line.left and line.right <= box.right + 1]
            full = [line for line in inside if _han(line.text.rstrip()[-1:] or " ")]
            starts = [line.left for line in inside if not re.match(r"^(•|\d+\.)", line.text)]
            if len(inside) >= 2 and full and starts:
                found.append((number + 1, min(starts) - box.left, box.right - max(line.right for line in full)))
    return found


@pytest.mark.parametrize("paper", PAPERS)
@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("game", GAMES)
def test_callout_boxes_pad_their_text_alike_left_and_right(books, game, lang, paper):
    """The callouts' text began 12 pt inside the box and ran to its right edge."""
    measured = 0
    for name in ("rulebook.pdf", "aid.pdf"):
        path = books / paper / game / lang / name
        for page, left, right in callout_padding(path):
            measured += 1
            assert left >= 6, (name, page, left)
            assert abs(left - right) < 0.5, (name, page, round(left, 2), round(right, 2))
    assert measured, "no callout box with a full line"
