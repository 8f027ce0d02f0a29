"""Table set-up figures: the pieces a rulebook's set-up figure places, read back from the PDF;
where the plan puts the seats; and the errors a figures.yaml mistake gets."""

from __future__ import annotations

import io
import math
import re
from collections import Counter
from pathlib import Path

import pytest
from pypdf import PdfReader

from pnp.build.pipeline import converter_for
from pnp.core.errors import DataError
from pnp.core.units import MM
from pnp.core.workspace import BUNDLED_FONTS
from pnp.data.load import load_game
from pnp.games.registry import tables_from_engine
from pnp.layout.table_plan import Item, layout_group, plan_table
from pnp.render.glyphs import GlyphCheck
from pnp.rulebook.pdf import render_rulebook
from pnp.rulebook.source import parse_markdown
from pnp.text.fonts import load_family
from tests.conftest import ROOT, edit

A4 = (210 * MM, 297 * MM)
PLACED = re.compile(rb"/FormXob\.((?:face|panel)-[\w-]+) Do")


def figure_page(slug: str, lang: str, name: str) -> tuple[bytes, str]:
    """The content stream and text of a one-figure rulebook."""
    game = load_game(ROOT / "card_data" / slug, tables_from_engine)
    fonts = load_family(BUNDLED_FONTS, lang)
    glyphs = GlyphCheck(fonts)
    blocks = parse_markdown(f"## 准备\n\n桌面是这样的：\n\n@@figure:{name}@@\n")
    data = render_rulebook(game, lang, blocks, fonts, converter_for(game, lang), glyphs, "test", A4)
    assert not glyphs.missing
    (page,) = PdfReader(io.BytesIO(data)).pages
    return page.get_contents().get_data(), page.extract_text()


def test_tisigui_set_up_places_every_seats_own_screen_and_the_shared_pieces():
    content, text = figure_page("tisigui", "zh-Hans", "setup")
    placed = Counter(name.decode() for name in PLACED.findall(content))
    assert placed == {
        # Each seat's own screen, its outer panel only (the strip's form carries the inner
        # panel's words too).
        **{f"panel-shield-shield-{n}": 1 for n in range(1, 6)},
        "face-identity-ghost-front": 1, "face-identity-human-front": 4,  # seat 1 is the ghost
        "face-question-question-front": 5 * 3, "face-cube-cube-front": 5 * 5,
        "face-board-board-front": 1, "face-plate-plate-front": 1,
        "face-score-score-50-front": 2, "face-score-score-10-front": 3,
        "face-score-score-5-front": 3, "face-score-score-1-front": 3,
    }
    assert "图 1" in text and "五人局的桌面" in text
    # Seats are turned to face their players: five different turns, seat 1's upright.
    turns = {round(math.degrees(math.atan2(float(b), float(a))))
             for a, b in re.findall(rb"(?m)^([-\d.]+) ([-\d.]+) [-\d.]+ [-\d.]+ [-\d.]+ [-\d.]+ cm$", content)}
    assert len(turns - {0}) >= 4


def test_wurenshenghuan_set_up_shows_face_down_items_and_names_the_seats():
    content, text = figure_page("wurenshenghuan", "zh-Hant", "setup")
    placed = Counter(name.decode() for name in PLACED.findall(content))
    # A back shared by every card of a component is one form ("_all").
    assert placed["face-item-_all-back"] == 10 * 3 + 5  # three under each character, the pile
    assert placed["face-identity-_all-back"] == 5
    assert placed["face-slip-slip-front"] == 4  # everyone but the murderer
    assert all(placed[f"face-character-character-{c}-front"] == 1 for c in "abcdefghij")
    for name in ("阿凱（兇手）", "小晴", "大寶", "美美", "志明"):
        assert name in text


def _corners(seat) -> list[tuple[float, float]]:  # noqa: ANN001 - a plan's seat
    c, s = math.cos(math.radians(seat.angle)), math.sin(math.radians(seat.angle))
    g = seat.group
    return [(seat.x + dx * c - dy * s, seat.y + dx * s + dy * c)
            for dx in (-g.width / 2, g.width / 2) for dy in (-g.height / 2, g.height / 2)]


@pytest.mark.parametrize("seats", [3, 5, 8])
def test_plan_seats_run_clockwise_from_the_reader_and_stay_on_the_table(seats):
    centre = layout_group([[Item("board", 150, 100)], [Item("coin", 20, 20, 3)] * 4])
    plan = plan_table(centre, lambda n: layout_group([[Item("card", 63, 88), Item("chip", 17, 17, 3, 9)]]),
                      seats)
    first, second = plan.seats[0], plan.seats[1]
    assert first.y == min(seat.y for seat in plan.seats) and abs(first.x) < 1e-6 and first.angle == 0
    assert second.x < 0  # clockwise seen from above: the next seat is to seat 1's left
    rx, ry = plan.radii
    assert rx > ry  # a page is wider than the room it leaves a figure
    for seat in plan.seats:
        for x, y in _corners(seat):
            assert (x / rx) ** 2 + (y / ry) ** 2 < 1  # on the table
            assert not (abs(x) < centre.width / 2 and abs(y) < centre.height / 2)  # not on the middle


def test_rows_of_the_same_length_line_up_column_by_column():
    group = layout_group([[Item("card", 63, 88)] * 3, [Item("fan", 63, 88, 3, 10)] * 3])
    cards = sorted(p.x + p.width / 2 for p in group.placed if p.key == "card")
    fans = [p for p in group.placed if p.key == "fan"]
    middles = sorted((min(p.x for p in fans[i:i + 3]) + max(p.x + p.width for p in fans[i:i + 3])) / 2
                     for i in range(0, 9, 3))
    assert cards == pytest.approx(middles)


def test_table_figure_mistakes_are_located(workspace_copy: Path):
    game_dir = workspace_copy / "card_data" / "tisigui"
    path = game_dir / "figures.yaml"
    edit(path, "seats: 5", "seats: 7\n    labels: [一, 二]")  # there are six screens
    edit(path, "{component: board, card: board}", '{component: board, card: "board-{seat}"}')
    edit(path, "{component: plate, card: plate, over: true}", "{component: plate, card: plate, over: yes-ish}")
    with pytest.raises(DataError) as caught:
        load_game(game_dir, tables_from_engine)
    text = "\n".join(caught.value.problems)
    assert "figures.setup.seat[0][0].card: component 'shield' has no card 'shield-7'" in text
    assert "figures.setup.labels: 2 labels for 7 seats (one per seat)" in text
    assert "figures.setup.centre[0][0].card: {seat} names each seat's own card: only in `seat`" in text
    assert "figures.setup.centre[0][1].over: expected true or false" in text
    assert f"{path}:" in text


@pytest.mark.parametrize(("old", "new", "message"), [
    ("seats: 5", "seats: five", "figures.setup.seats: expected a whole number"),
    ("seats: 5", "seats: 13", "figures.setup.seats: must be at most 12"),
    ('[{component: shield, card: "shield-{seat}"}]', "5", "figures.setup.seat[0]: expected a list"),
    ('[{component: shield, card: "shield-{seat}"}]', "[]", "figures.setup.seat[0]: a row needs at least one piece"),
    ("{component: question, card: question, count: 3, spread: 9}",
     "{component: question, card: question, count: 0, spread: x}",
     "figures.setup.seat[1][1].count: must be at least 1"),
    ("{component: board, card: board}", "{component: boards, card: board}",
     "figures.setup.centre[0][0].component: unknown component 'boards'"),
    ("{component: board, card: board}", "{component: board, card: Board!}",
     "figures.setup.centre[0][0].card: component 'board' has no card 'Board!'"),
    ("{component: board, card: board}", "{component: board, card: board, side: back}",
     "figures.setup.centre[0][0].side: component 'board' has no back"),
    ("{component: board, card: board}", "{component: board, card: board, over: true}",
     "figures.setup.centre[0][0].over: the first piece of a row has nothing to lie on"),
    ("{component: board, card: board}", "{card: board}",
     "figures.setup.centre[0][0].component: unknown component ''"),
])
def test_a_bad_table_figure_value_is_a_located_error(workspace_copy: Path, old, new, message):
    game_dir = workspace_copy / "card_data" / "tisigui"
    edit(game_dir / "figures.yaml", old, new)
    with pytest.raises(DataError) as caught:
        load_game(game_dir, tables_from_engine)
    assert any(message in problem for problem in caught.value.problems), caught.value.problems
