"""pnp build all --lang all: every game, both scripts, read back from the PDFs."""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

import pytest
from pypdf import PdfReader

from pnp.build.pipeline import build
from pnp.core.workspace import Workspace
from pnp.data.scripts import foreign_characters
from tests.conftest import ROOT, book_markdown
from tests.pdfprobe import component_counts, fonts, page_sizes, styled_chars, text

GAMES = ("tisigui", "wurenshenghuan", "niutouwang", "aizhewudi")
FACES = {"zh-Hant": "PnpSansTC", "zh-Hans": "PnpSansSC"}
TWO_UP_A4 = (841.9, 595.3)  # points: A4 turned landscape, two A5 player aids of a short game
MM = 72 / 25.4


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("all")
    build(Workspace(ROOT), "all", "all", "a4", out)
    return out


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("lang", ["zh-Hant", "zh-Hans"])
def test_every_game_builds_pure_embedded_a4_pdfs(built, game, lang):
    for name in ("components.pdf", "rulebook.pdf", "aid.pdf"):
        path = built / game / lang / name
        # A short player aid is a card of half the sheet (A5), two to a sheet turned landscape.
        assert page_sizes(path) == {(595.3, 841.9)} or (name == "aid.pdf" and page_sizes(path) == {TWO_UP_A4})
        used = fonts(path)
        assert used and all(embedded for embedded in used.values()), used
        assert all(base.lstrip("/").split("+")[1].startswith(FACES[lang]) for base in used), used
        assert foreign_characters(text(path), lang) == [], (game, lang, name)


# Chinese characters, for telling a half-width mark inside Chinese text from one in Latin text.
HAN = r"[\u3400-\u9fff\uf900-\ufaff]"


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("lang", ["zh-Hant", "zh-Hans"])
def test_books_are_for_players_not_tool_output(built, game, lang):
    for name in ("rulebook.pdf", "aid.pdf"):
        words = text(built / game / lang / name)
        flat = re.sub(r"\s+", "", words)  # a command broken across lines is still a command
        assert not re.search(r"pnp(sample|build|check|tables|calc|simulate)", flat), (game, name)
        # A seed line ("隨機種子 53"); the word seed alone may be part of a version name.
        assert not re.search(r"[种種]子\d|seed\d+(?![\d-])|--seed", flat, re.IGNORECASE), (game, name)
        assert not re.search(rf"{HAN}[!?]|[!?]{HAN}", words), (game, name)
        # Words about how the book was made (issue 18): the tool, its project, the engine's
        # names for variants.
        for phrase in ("本工具", "pnp專案", "pnp项目", "pnp製作", "pnp制作", "本專案",
                       "本专案", "本项目", "规则裁定", "規則裁定"):
            assert phrase not in flat, (game, name, phrase)
        assert not re.search(r"(?<![A-Za-z])(classic|official)(?![A-Za-z_])", words), (game, name)


LABEL = {"zh-Hant": "〔本版補充〕", "zh-Hans": "〔本版补充〕"}


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("lang", ["zh-Hant", "zh-Hans"])
def test_ruling_marks_print_in_one_style_of_their_own(built, game, lang):
    # Each ruling link of the rendered book (the legend's sample included) prints as the label,
    # bold, in a colour no other text of the book uses; never split over two lines.
    links = book_markdown(ROOT, game).count("](ruling:")
    chars = styled_chars(built / game / lang / "rulebook.pdf")
    flat = "".join(ch for ch, _, _ in chars if not ch.isspace())
    assert links and flat.count(LABEL[lang]) == links, (game, lang)
    first = flat.index(LABEL[lang]) + 1
    printed = [c for c in chars if not c[0].isspace()]
    colour = printed[first][1]
    in_colour = "".join(ch for ch, rgb, _ in printed if rgb == colour)
    assert in_colour == LABEL[lang] * links, (game, lang)
    assert all(face.endswith("-Bold") for ch, rgb, face in printed if rgb == colour)
    body = Counter(rgb for _, rgb, _ in printed).most_common(1)[0][0]
    assert colour != body


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("lang", ["zh-Hant", "zh-Hans"])
def test_player_aid_is_one_sheet_led_by_the_game_name(built, game, lang):
    aid = built / game / lang / "aid.pdf"
    reader = PdfReader(aid)
    assert 1 <= len(reader.pages) <= 2
    first = reader.pages[0].extract_text()
    title = str(reader.metadata.title)
    assert title.endswith("玩家速查卡")
    name = title.removesuffix("玩家速查卡").strip()
    assert f"{name}：玩家速查" in first.splitlines(), first[:80]
    # The aid carries the printed tables players look things up in.
    assert re.search(r"表 1", first)


# How each player aid is set on A4 (pnp.rulebook.aid.aid_layout): the two short ones
# on half the sheet, the two long ones in two columns on it.
# aizhewudi's aid took half a sheet in 8.5 pt; with going out and the ability cards, in 9 pt or
# more, it takes the sheet.
AID_PAPER = {"tisigui": "sheet", "wurenshenghuan": "sheet", "niutouwang": "half", "aizhewudi": "sheet"}


def _text_ends(page) -> tuple[float, float | None]:  # noqa: ANN001 - a pypdf page
    """Millimetres from the top of the page to the lowest line of text in its left half and
    in its right half (None if empty), the foot line (below the 12 mm margin) left out."""
    width, height = float(page.mediabox.width), float(page.mediabox.height)
    spans: list[tuple[float, float]] = []

    def visit(text, cm, tm, font, size):  # noqa: ANN001 - pypdf's visitor
        if text.strip():
            spans.append((tm[4] * cm[0] + cm[4], tm[5] * cm[3] + cm[5]))

    page.extract_text(visitor_text=visit)
    body = [(x, y) for x, y in spans if y > 12 * MM]
    left = [y for x, y in body if x < width / 2]
    right = [y for x, y in body if x >= width / 2]
    return (height - min(left)) / MM, (height - min(right)) / MM if right else None


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("lang", ["zh-Hant", "zh-Hans"])
def test_each_player_aid_uses_its_paper(built, game, lang):
    """tisigui's, niutouwang's and aizhewudi's aids sat in the left column of an A4 sheet,
    its right half blank. A short aid now fills a card of half the sheet; a longer one runs
    in two columns that end at about the same height (a table moves on whole with its
    introduction, so the last column may end a little lower, or well higher)."""
    page = PdfReader(built / game / lang / "aid.pdf").pages[0]
    size = (round(float(page.mediabox.width), 1), round(float(page.mediabox.height), 1))
    left, right = _text_ends(page)
    if AID_PAPER[game] == "half":
        # Two A5 cards side by side on A4 turned landscape, the same card twice.
        assert size == TWO_UP_A4
        assert left > 0.75 * 210, left  # the text runs down the card, not a third of it
        assert right == left
        first, second = _halves(page)
        assert first and first == second
    else:
        assert size == (595.3, 841.9)
        assert right is not None, "the right column is blank"
        assert right - left <= 0.2 * right, (left, right)
        assert max(left, right) < 297 - 12, (left, right)


def _halves(page) -> tuple[list[str], list[str]]:  # noqa: ANN001 - a pypdf page
    """The text of the page's left and right halves, line by line from the top, each line's
    spans in reading order (x measured from the half's own left edge)."""
    middle = float(page.mediabox.width) / 2
    spans: list[tuple[int, int, float, str]] = []

    def visit(text, cm, tm, font, size):  # noqa: ANN001 - pypdf's visitor
        if text.strip():
            x, y = tm[4] * cm[0] + cm[4], tm[5] * cm[3] + cm[5]
            spans.append((int(x > middle), -round(y), round(x - middle * (x > middle), 1), text))

    page.extract_text(visitor_text=visit)
    halves: tuple[list[str], list[str]] = ([], [])
    for half, _, x, piece in sorted(spans):
        halves[half].append(f"{x}:{piece}")
    return halves


def _lines(page, columns: int) -> dict[tuple[int, int], str]:  # noqa: ANN001 - a pypdf page
    """(column, baseline) -> the text on it. A run may be split where the font subset
    changes, so spans on one baseline (in one column) are joined in reading order."""
    spans: list[tuple[int, int, float, str]] = []
    middle = float(page.mediabox.width) / 2

    def visit(text, cm, tm, font, size):  # noqa: ANN001 - pypdf's visitor
        if text.strip():
            x, y = tm[4] * cm[0] + cm[4], tm[5] * cm[3] + cm[5]
            spans.append((int(columns > 1 and x > middle), round(y), x, text.strip()))

    page.extract_text(visitor_text=visit)
    lines: dict[tuple[int, int], str] = {}
    for column, y, _, piece in sorted(spans, key=lambda s: (s[0], -s[1], s[2])):
        lines[(column, y)] = lines.get((column, y), "") + piece
    return lines


def _heading_room(path: Path, columns: int = 1) -> list[tuple[int, str, int]]:
    """(page, heading, text lines below it on its page) for every outline heading."""
    reader = PdfReader(path)
    headings: list[tuple[int, str]] = []

    def walk(items: list) -> None:
        for item in items:
            if isinstance(item, list):
                walk(item)
            else:
                headings.append((reader.get_destination_page_number(item), item.title))

    walk(reader.outline)
    out = []
    for number, title in headings:
        lines = _lines(reader.pages[number], columns)
        # A long heading wraps: its first line starts it.
        found = [(c, y) for (c, y), text in lines.items()
                 if text == title or (len(text) >= 4 and title.startswith(text))]
        assert found, (path, number, title)
        column, top = found[0]
        # Lines below the heading in its column, above the page number at the foot.
        below = {y for (c, y) in lines if c == column and 40 < y < top - 4}
        out.append((number, title, len(below)))
    return out


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("lang", ["zh-Hant", "zh-Hans"])
def test_no_heading_ends_a_page(built, game, lang):
    for name in ("rulebook.pdf", "aid.pdf"):
        path = built / game / lang / name
        columns = 2 if name == "aid.pdf" else 1  # two columns, or two cards side by side
        for page, title, lines in _heading_room(path, columns):
            # A heading followed by a table or figure has that under it; by text, two lines.
            assert lines >= 2, (game, lang, name, page + 1, title, lines)


def _heads_by_the_rule(card: int) -> int:
    """The printed rule of 誰是牛頭王, written out here independently of the engine."""
    if card == 55:
        return 7
    if card % 11 == 0:
        return 5
    if card % 10 == 0:
        return 3
    if card % 5 == 0:
        return 2
    return 1


@pytest.mark.parametrize("lang", ["zh-Hant", "zh-Hans"])
def test_niutouwang_fronts_each_show_their_number_three_times(built, lang):
    reader = PdfReader(built / "niutouwang" / lang / "components.pdf")
    seen: Counter[int] = Counter()
    for page in reader.pages:
        placed = [int(n) for n in re.findall(rb"/FormXob\.face-cards-card-(\d+)-front Do",
                                             page.get_contents().get_data())]
        if not placed:
            continue
        numbers = [int(line) for line in page.extract_text().splitlines() if line.strip().isdigit()]
        # The only bare numbers on a sheet of card fronts are the cards' own numbers: each in
        # the centre and in two corner indices, so a fanned hand shows them.
        assert Counter(numbers) == Counter({n: 3 for n in placed})
        seen.update(numbers)
    assert seen == Counter({n: 3 for n in range(1, 105)})


def test_niutouwang_heads_drawn_on_each_card_follow_the_rule(built):
    reader = PdfReader(built / "niutouwang" / "zh-Hant" / "components.pdf")
    drawn: dict[int, int] = {}
    for page in reader.pages:
        xobjects = page["/Resources"].get("/XObject", {})
        for name, ref in xobjects.items():
            match = re.fullmatch(r"/FormXob\.face-cards-card-(\d+)-front", name)
            if match:
                content = ref.get_object().get_data()
                drawn[int(match.group(1))] = len(re.findall(rb"/FormXob\.sym-[a-z_]+ Do", content))
    # The heads in the centre and again in each corner index.
    assert drawn == {card: 3 * _heads_by_the_rule(card) for card in range(1, 105)}
    assert sum(drawn.values()) == 3 * 171


def test_wurenshenghuan_card_fronts(built):
    pdf = built / "wurenshenghuan" / "zh-Hant" / "components.pdf"
    assert [component_counts(pdf, c) for c in ("identity", "character", "item")] == [10, 10, 41]
    assert component_counts(pdf, "item", "back") == 41


def test_aizhewudi_card_fronts_and_markers(built):
    pdf = built / "aizhewudi" / "zh-Hant" / "components.pdf"
    cards = [component_counts(pdf, c) for c in ("character", "action", "bill", "ability")]
    assert cards == [6, 48, 40, 12]
    assert component_counts(pdf, "loved") + component_counts(pdf, "fickle") == 28
    # Each colour set of action cards carries its own back design.
    backs = {name for (name, side) in _faces(pdf) if side == "back" and name.startswith("face-action-")}
    assert len(backs) >= 6


def _faces(pdf: Path) -> set[tuple[str, str]]:
    from tests.pdfprobe import face_counts

    return set(face_counts(pdf))


def test_list_shows_every_game():
    from click.testing import CliRunner

    from pnp.cli import cli

    result = CliRunner().invoke(cli, ["--root", str(ROOT), "list", "--format", "json"])
    assert result.exit_code == 0, result.output
    import json

    games = {g["slug"]: {c["id"]: c["count"] for c in g["components"]} for g in json.loads(result.output)["games"]}
    assert set(GAMES) <= set(games)  # a designer's own new game may sit beside them
    assert games["niutouwang"]["cards"] == 104
    assert games["aizhewudi"]["bill"] == 40 and games["aizhewudi"]["action"] == 48
    assert games["wurenshenghuan"]["item"] == 41


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("lang", ["zh-Hant", "zh-Hans"])
def test_nothing_on_an_a4_sheet_is_drawn_within_the_hardware_margin(built, game, lang):
    """What `pnp build all` writes, in both scripts (test_sheet_promises walks every paper and
    gutter): no path, glyph or image comes within 6.5 mm of the paper edge."""
    from tests.sheetprobe import drawn_too_near_the_edge

    near = drawn_too_near_the_edge(PdfReader(built / game / lang / "components.pdf"), 6.5)
    assert not near, near[:10]
