"""Card faces read back from the built components PDFs of the four games, in both scripts.

Every card held in hand shows its index in the corner a fan shows, and again turned in the
opposite corner: aizhewudi's action cards their kind (搶 / 嫁 / 逃, in the set's colour),
niutouwang's number cards their number. Before, an action card's top-left corner was blank.

Card and score-pad text is set like the rulebook's paragraphs: a wrapped line fills its box
from edge to edge, the last line of a paragraph (and a text of one line) keeps the layout's
alignment, and adjacent punctuation closes up (「（扣分）。」 on niutouwang's score pad showed
half an em of blank between ） and 。; centred card text was centred line by line, so a fanned
hand showed ragged left edges).

Each character is found on its sheet by pdfium and taken back onto its face through the
placement the sheet's content stream gives (tests/pdfprobe.py), so what is asserted is where
the glyphs really are, measured against the boxes the layouts declare.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Iterator
from dataclasses import dataclass

import pytest
from reportlab.pdfbase.pdfmetrics import stringWidth

from pnp.build.pipeline import build
from pnp.core.workspace import BUNDLED_FONTS, Workspace
from pnp.data.load import load_game
from pnp.data.markup import plain_text
from pnp.data.model import Card, Component, Element, Game
from pnp.data.schema import FIELD_REF, resolve_coord
from pnp.games.registry import tables_from_engine
from pnp.text.fonts import load_family
from tests.conftest import ROOT
from tests.pdfprobe import FaceChar, face_chars

GAMES = ("aizhewudi", "niutouwang", "tisigui", "wurenshenghuan")
LANGS = ("zh-Hant", "zh-Hans")
MM = 72 / 25.4
BRACKETS = "）」』》〉】〕”"  # closing brackets and quotes: a half em of blank on the right
CLOSING = "，。、；：" + BRACKETS
OPENING = "「『（《〈【〔“"
TOLERANCE = 0.05  # mm


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> dict[tuple[str, str], list[FaceChar]]:
    out = tmp_path_factory.mktemp("faces")
    build(Workspace(ROOT), "all", "all", "a4", out)
    return {(game, lang): face_chars(out / game / lang / "components.pdf") for game in GAMES for lang in LANGS}


@pytest.fixture(scope="module")
def games() -> dict[str, Game]:
    return {slug: load_game(ROOT / "card_data" / slug, tables_from_engine) for slug in GAMES}


def face_of(game: Game, face: str) -> tuple[Component, Card] | None:
    """The component and card a face form shows (the first card when the deck shares it)."""
    for component in game.components:
        prefix = f"face-{component.id}-"
        if face.startswith(prefix) and "~" not in face:
            key = face.removeprefix(prefix)
            cards = [card for card in component.cards if card.id == key] or list(component.cards)
            return component, cards[0]
    return None


def placed_faces(chars: list[FaceChar]) -> dict[tuple[str, str], list[FaceChar]]:
    """The upright characters of one placed copy of each face and side."""
    copies: dict[tuple[int, int], list[FaceChar]] = defaultdict(list)
    for char in chars:
        copies[(char.page, char.placement)].append(char)
    faces: dict[tuple[str, str], list[FaceChar]] = {}
    for found in copies.values():
        faces.setdefault((found[0].face, found[0].side), found)
    return faces


@dataclass(frozen=True)
class SetText:
    """One text element of one face as printed: its box (mm) and its lines of characters."""

    where: str
    box: tuple[float, float, float, float]
    align: str
    lines: tuple[tuple[FaceChar, ...], ...]
    ends: tuple[bool, ...]  # whether each line ends its paragraph
    bold: bool
    icons: bool = False  # holds inline icons, which take room on a line but are no character


ICON_REF = re.compile(r":[a-z][a-z0-9_-]*:")


def _text(card: Card, element: Element) -> str:
    """The element's text as its characters print: fields filled in, markup taken out."""
    return plain_text(FIELD_REF.sub(lambda m: card.fields[m.group(1)].value, str(element.get("text"))))


def set_texts(game: Game, chars: list[FaceChar]) -> Iterator[SetText]:
    """Every upright horizontal text element of every face, its printed characters grouped into
    lines."""
    for (face, side), found in placed_faces(chars).items():
        owner = face_of(game, face)
        if owner is None:
            continue
        component, card = owner
        if component.shape == "fold" or component.shape.endswith("_net"):
            continue  # two panels in one form / no layout
        layout = game.layouts[component.front if side == "front" else component.back]
        width, height = card.size
        texts = []
        for element in layout.elements:
            if element.kind != "text" or element.get("turn") or not _text(card, element).strip():
                continue
            if element.get("direction") == "vertical":
                continue  # set in columns (tests/render/test_vertical_text.py)
            x, y, w, h = element.get("box")
            box = (resolve_coord(x, width), resolve_coord(y, height),
                   resolve_coord(w, width), resolve_coord(h, height))
            texts.append((element, box))
        members: dict[int, list[FaceChar]] = defaultdict(list)
        for char in found:
            if not char.upright:
                continue
            holding = [(box[2] * box[3], index) for index, (_, box) in enumerate(texts)
                       if box[0] - 1 <= char.x <= box[0] + box[2] + 1
                       and box[1] - TOLERANCE <= char.y <= box[1] + box[3] + TOLERANCE]
            if holding:
                members[min(holding)[1]].append(char)
        for index, (element, box) in enumerate(texts):
            rows: dict[float, list[FaceChar]] = defaultdict(list)
            for char in members[index]:
                rows[round(char.y, 1)].append(char)
            lines = tuple(tuple(sorted(row, key=lambda c: c.x)) for _, row in sorted(rows.items()))
            paragraphs = [len(re.sub(r"\s", "", part)) for part in _text(card, element).split("\n")]
            paragraphs = [n for n in paragraphs if n]
            where = f"{face}-{side}: {element.where}"
            assert sum(len(line) for line in lines) == sum(paragraphs), (where, lines)
            ends = []
            left = paragraphs[0]
            for line in lines:
                left -= len(line)
                assert left >= 0, (where, "".join(c.ch for c in line))
                ends.append(left == 0)
                if left == 0 and len(ends) < len(lines):
                    paragraphs.pop(0)
                    left = paragraphs[0]
            raw = FIELD_REF.sub(lambda m, fields=card.fields: fields[m.group(1)].value, str(element.get("text")))
            yield SetText(where, box, str(element.get("align", "left")), lines, tuple(ends),
                          bool(element.get("bold", False)), ICON_REF.search(raw) is not None)


def extent(line: tuple[FaceChar, ...], font: str) -> tuple[float, float]:
    """Where a line's first glyph starts and its last glyph's advance ends (mm)."""
    last = line[-1]
    return line[0].x, last.x + stringWidth(last.ch, font, last.size) / MM


@pytest.mark.parametrize("lang", LANGS)
def test_wrapped_card_text_is_justified_and_last_lines_keep_their_alignment(built, games, lang):
    family = load_family(BUNDLED_FONTS, lang)
    wrapped = last = 0
    for game in GAMES:
        for text in set_texts(games[game], built[(game, lang)]):
            font = (family.bold if text.bold else family.regular).name
            x, _, w, _ = text.box
            if text.icons:
                continue  # a line's characters are not its extent (tests/render/test_richtext.py)
            for line, ends in zip(text.lines, text.ends, strict=True):
                start, end = extent(line, font)
                em = line[0].size / MM
                shown = (text.where, "".join(c.ch for c in line), round(start - x, 2), round(x + w - end, 2))
                if not ends:
                    wrapped += 1
                    # A line starting with an opening bracket, or ending with a closing mark,
                    # may have given up that mark's blank half to hold one more character.
                    assert x - (em / 2 if line[0].ch in OPENING else 0) - TOLERANCE <= start <= x + TOLERANCE, shown
                    assert x + w - TOLERANCE <= end <= x + w + (em / 2 if line[-1].ch in CLOSING else 0) + TOLERANCE, \
                        shown
                    continue
                last += 1
                if end - start > w + TOLERANCE:
                    continue  # squeezed to fit: it spans the box whatever the alignment
                middle = {"left": start - x, "right": end - (x + w),
                          "center": (start + end) / 2 - (x + w / 2)}[text.align]
                assert abs(middle) <= TOLERANCE, (*shown, text.align)
    # Every game wraps text on its cards, aids and pads.
    assert wrapped > 100 and last > 500, (wrapped, last)


@pytest.mark.parametrize("lang", LANGS)
def test_adjacent_punctuation_on_cards_closes_up(built, games, lang):
    steps: dict[str, list[float]] = defaultdict(list)
    for game in GAMES:
        for text in set_texts(games[game], built[(game, lang)]):
            for line in text.lines:
                for a, b in zip(line, line[1:], strict=False):
                    if a.ch in BRACKETS and (b.ch in CLOSING or b.ch in OPENING):
                        steps[a.ch + b.ch].append((b.x - a.x) * MM / a.size)
    # The score pad's 「（扣分）。」: a whole em from ） to 。 before, now half.
    assert steps["）。"] and all(step == pytest.approx(0.5, abs=0.01) for step in steps["）。"]), steps["）。"]
    for pair, found in steps.items():
        assert all(0.3 <= step <= 0.55 for step in found), (pair, found)
    assert sum(len(found) for found in steps.values()) >= 5, steps


MARKS = {"zh-Hant": {"rush": "搶", "propose": "嫁", "flee": "逃"},
         "zh-Hans": {"rush": "抢", "propose": "嫁", "flee": "逃"}}


def corners(chars: list[FaceChar], game: Game, layout: str, width: float, height: float) -> tuple[str, str]:
    """The upright text inside the index region the layout declares, and the turned text in
    that region turned half round (the opposite corner), of one placed face; the region must
    lie in the corner a fan shows, a quarter of the width by a third of the height."""
    index = game.layouts[layout].index
    assert index is not None, layout
    x, y, w, h = (float(v) for v in index)
    assert x + w <= width / 4 and y + h <= height / 3, index
    top_left = [c for c in chars if c.upright and x <= c.x <= x + w and y <= c.y <= y + h]
    bottom_right = [c for c in chars if not c.upright
                    and width - x - w <= c.x <= width - x and height - y - h <= c.y <= height - y]
    return "".join(c.ch for c in top_left), "".join(c.ch for c in bottom_right)


def placed_copies(chars: list[FaceChar], prefix: str) -> dict[tuple[int, int], list[FaceChar]]:
    copies: dict[tuple[int, int], list[FaceChar]] = defaultdict(list)
    for char in chars:
        if char.face.startswith(prefix) and char.side == "front":
            copies[(char.page, char.placement)].append(char)
    return copies


@pytest.mark.parametrize("lang", LANGS)
def test_every_action_card_shows_its_kind_in_both_corners(built, games, lang):
    game = games["aizhewudi"]
    copies = placed_copies(built[("aizhewudi", lang)], "face-action-")
    assert len(copies) == 48  # every printed copy, not one per design
    for found in copies.values():
        card = game.card("action", found[0].face.removeprefix("face-action-"))
        mark = MARKS[lang][card.id.split("-")[-1]]
        assert corners(found, game, "action_front", *card.size) == (mark, mark), (found[0].face, found[0].page)
        dark = card.fields["dark"].value
        colour = tuple(int(dark[i:i + 2], 16) for i in (1, 3, 5))
        assert {c.color for c in found if c.ch == mark and c.x < card.size[0] / 4} == {colour}


def test_every_number_card_shows_its_number_in_both_corners(built, games):
    for lang in LANGS:
        copies = placed_copies(built[("niutouwang", lang)], "face-cards-card-")
        assert len(copies) == 104
        for found in copies.values():
            number = found[0].face.removeprefix("face-cards-card-")
            assert corners(found, games["niutouwang"], "number_front", 63, 88) == (number, number), found[0].face
