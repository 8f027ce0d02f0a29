"""Imposition, crop marks and nets: pure geometry checked against invariants and hand values."""

from __future__ import annotations

from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pnp.layout.impose import ImposeError, impose
from pnp.layout.marks import crop_marks, mirror_segments
from pnp.layout.nets import d4_net, d6_net
from pnp.layout.presets import SHEETS, SheetSpec
from pnp.layout.sheetplan import Piece, Rect


def cards(n: int, w: float = 63, h: float = 88, name: str = "c") -> list[Piece]:
    return [Piece(name, name, i, w, h, 3.0, True) for i in range(n)]


def test_poker_cards_go_eight_to_an_a4_sheet_turned():
    plans = impose(cards(16), SHEETS["a4"])
    assert len(plans) == 2
    block = plans[0].blocks[0]
    assert (block.columns, block.rows, block.slots[0].rotated) == (2, 4, True)
    # 2 × 94 mm wide, centred between the 10 mm label side and the 4.5 mm right margin
    # (195.5 mm between them); 4 × 69 mm tall, 4 mm below the 4.5 mm top margin, so that the
    # crop marks above reach 1.5 mm into the printable area and the rest is one band below.
    assert block.box == Rect(13.75, 8.5, 188.0, 276.0)


def test_letter_takes_six_poker_cards():
    plans = impose(cards(6), SHEETS["letter"])
    assert len(plans) == 1 and len(plans[0].slots) == 6
    # And no more, in any arrangement: with its own 3 mm bleed a card needs 69 x 94 mm. Bleed
    # boxes stay in 201.4 x 270.4 mm (the label side's 10 mm and 4.5 mm elsewhere), where no
    # three fit side by side (3 x 69 = 207 mm; without the label band still 206.9 mm of room).
    # Every card is at least 69 mm tall, so each one crosses one of three lines across the
    # sheet 68.9 mm apart, and each line crosses at most two cards: six.
    assert [len(p.slots) for p in impose(cards(7), SHEETS["letter"])] == [6, 1]


def butted(paper: str) -> SheetSpec:
    return replace(SHEETS[paper], card_gutter=0.0)


def butting_cards(n: int) -> list[Piece]:
    return [replace(p, butt=True) for p in cards(n)]


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_gutter_zero_butts_nine_poker_cards_on_shared_cut_lines(paper):
    plans = impose(butting_cards(18), butted(paper))
    assert [len(p.slots) for p in plans] == [9, 9]
    block = plans[0].blocks[0]
    assert (block.columns, block.rows, block.slots[0].rotated) == (3, 3, False)
    # 3 × 63 by 3 × 88 mm of trim, with 3 mm of bleed around the block only.
    assert (block.box.width, block.box.height) == (195.0, 270.0)
    trims = [slot.trim_box for slot in block.slots]
    assert trims[1].x == trims[0].right and trims[3].y == trims[0].bottom
    # Each face shows only its cell: neighbours' cells meet on the cut line.
    assert block.slots[0].visible.right == block.slots[1].visible.x == trims[0].right
    # The second sheet's block starts exactly where the first one's does.
    assert plans[1].blocks[0].box == block.box


def test_niutouwang_deck_fits_twelve_butted_a4_sheets():
    assert len(impose(butting_cards(104), butted("a4"))) == 12


def test_a_partial_last_sheet_starts_at_the_full_sheets_origin():
    plans = impose(cards(11), SHEETS["a4"])
    assert len(plans) == 2
    first, last = plans[0].blocks[0], plans[1].blocks[0]
    assert (last.box.x, last.box.y) == (first.box.x, first.box.y)
    assert [s.trim_box for s in last.slots] == [s.trim_box for s in first.slots[:3]]


def test_a_run_that_fits_one_sheet_in_two_orientations_stays_together():
    # Six tent strips (63 x 111.4 mm): a grid of either orientation takes four on A4, but
    # four turned and two upright beside them take all six, where the last two would have
    # gone to a second sheet.
    tents = cards(6, 63, 111.4, "tent")
    (plan,) = impose(tents, SHEETS["a4"])
    assert len(plan.slots) == 6
    assert sorted((b.columns * b.rows, b.slots[0].rotated) for b in plan.blocks) == [
        (2, False), (4, True)]
    # On Letter no sheet takes six (three upright tents are 207 mm wide with their bleed,
    # the label side leaves 201.4 mm): a full sheet of four, as before.
    assert [len(p.slots) for p in impose(tents, SHEETS["letter"])] == [4, 2]


def test_small_pieces_backfill_an_earlier_sheet():
    # Six Letter cards leave a band below them: ten 17 mm tokens fit there.
    plans = impose(cards(6) + cards(10, 17, 17, "t"), SHEETS["letter"])
    assert len(plans) == 1
    assert {s.piece.component for s in plans[0].slots} == {"c", "t"}


def test_a_nearly_empty_sheet_is_emptied_into_free_space():
    # 9 cards: one sheet of 8 and one card alone; a board that takes most of a sheet
    # leaves room for that card beside or below it.
    pieces = cards(1, 150, 100, "board") + cards(9)
    plans = impose(pieces, SHEETS["a4"])
    assert len(plans) == 2
    page = 210 * 297
    assert all(p.used_area() / page > 0.3 for p in plans)


def score_pad(w: float = 140, h: float = 200) -> Piece:
    return Piece("pad", "pad", 0, w, h, 3.0, False, butt=True, write_on=True)


def test_a_lone_card_goes_below_a_form_that_keeps_its_designed_size():
    # niutouwang on A4: 104 numbers and the reference card, 8 to a sheet, and a score pad.
    # The 105th card would take a sheet alone; it goes to the foot of the pad's page instead.
    plans = impose(cards(105) + [score_pad()], SHEETS["a4"])
    assert len(plans) == 14
    last = plans[-1]
    (form,) = [s for s in last.slots if s.piece.write_on]
    (card,) = [s for s in last.slots if not s.piece.write_on]
    assert form.scale >= 1.0 and form.cell.bottom < last.cut < card.bleed_box.y
    assert last.cut - form.cell.bottom >= 2.0  # the cut line touches neither
    assert [c.piece.copy for c in plans[-1].slots if not c.piece.write_on] == [104]
    assert not any(s.piece.write_on for plan in plans[:-1] for s in plan.slots)


def test_a_form_never_shrinks_below_its_designed_size_to_share_its_page():
    # Letter: the last sheet holds three cards, too tall a strip below a 140 x 200 pad.
    plans = impose(cards(105) + [score_pad()], SHEETS["letter"])
    assert len(plans) == 19
    assert [s.piece.component for s in plans[-1].slots] == ["pad"]
    assert plans[-1].cut is None and plans[-1].slots[0].scale > 1.0


def test_tiny_tokens_butt_only_with_copies_of_their_own_face():
    red = [replace(p, butt=True, group="t/red") for p in cards(4, 17, 17, "t")]
    blue = [replace(p, card="blue", butt=True, group="t/blue") for p in cards(4, 17, 17, "t")]
    plan = impose(red + blue, butted("a4"))[0]
    assert len(plan.blocks) == 2
    for block in plan.blocks:
        assert len({s.piece.card for s in block.slots}) == 1


def test_too_big_a_piece_is_an_error():
    with pytest.raises(ImposeError, match="does not fit"):
        impose([Piece("board", "b", 0, 300, 300, 3.0, False)], SHEETS["a4"])


def _all_inside(plan) -> None:
    spec = plan.spec
    for slot in plan.slots:
        box = slot.visible
        assert box.x >= 0 and box.y >= 0 and box.right <= spec.width and box.bottom <= spec.height
        # What is kept after cutting is all printable.
        trim = slot.trim_box
        assert trim.x >= spec.hardware - 1e-6 and trim.right <= spec.width - spec.hardware + 1e-6
        assert trim.y >= spec.hardware - 1e-6 and trim.bottom <= spec.height - spec.hardware + 1e-6


def _no_overlaps(plan) -> None:
    slots = plan.slots
    for i, a in enumerate(slots):
        for b in slots[i + 1:]:
            assert not a.visible.overlaps(b.visible)


def _grown(rect: Rect, by: float) -> Rect:
    return Rect(rect.x - by, rect.y - by, rect.width + 2 * by, rect.height + 2 * by)


def _marks_outside_every_piece(plan) -> None:
    spec = plan.spec
    for s in crop_marks(plan):
        mark = Rect(min(s.x1, s.x2), min(s.y1, s.y2), abs(s.x2 - s.x1), abs(s.y2 - s.y1))
        assert mark.x >= 0 and mark.right <= spec.width
        assert mark.y >= 0 and mark.bottom <= spec.height
        for slot in plan.slots:
            # No mark comes within half a millimetre of a trim line's piece.
            assert not mark.overlaps(_grown(slot.trim_box, 0.5)), (s, slot)
            if not s.on_bleed:
                assert not mark.overlaps(slot.visible), (s, slot)
        # Every mark prints: none nearer the paper edge than the hardware margin.
        assert mark.x >= spec.hardware - 1e-6 and mark.right <= spec.width - spec.hardware + 1e-6
        assert mark.y >= spec.hardware - 1e-6 and mark.bottom <= spec.height - spec.hardware + 1e-6
        if s.on_bleed:
            # On the outer bleed of its own block, which is cut away.
            assert any(block.box.x - 1e-6 <= mark.x and mark.right <= block.box.right + 1e-6
                       and block.box.y - 1e-6 <= mark.y and mark.bottom <= block.box.bottom + 1e-6
                       for block in plan.blocks)
        else:
            # Printable: inside the hardware margin, and clear of the label band on the left.
            assert mark.x >= spec.hardware + spec.label_band - 1e-6
            assert mark.right <= spec.width - spec.hardware + 1e-6
            assert mark.y >= spec.hardware - 1e-6
            assert mark.bottom <= spec.height - spec.hardware + 1e-6


def _every_trim_line_marked(plan) -> None:
    """Each trim line of a block with marks has a printed mark at one end at least."""
    marks = crop_marks(plan)
    for block in plan.blocks:
        piece = block.slots[0].piece
        if not piece.marks or piece.write_on or piece.bleed <= 0:
            continue
        near = _grown(block.box, 4.5)
        own = [s for s in marks if near.x <= min(s.x1, s.x2) and max(s.x1, s.x2) <= near.right
               and near.y <= min(s.y1, s.y2) and max(s.y1, s.y2) <= near.bottom]
        xs = {round(v, 3) for s in block.slots for v in (s.trim_box.x, s.trim_box.right)}
        ys = {round(v, 3) for s in block.slots for v in (s.trim_box.y, s.trim_box.bottom)}
        assert xs <= {round(s.x1, 3) for s in own if s.x1 == s.x2}, (plan.number, block.box)
        assert ys <= {round(s.y1, 3) for s in own if s.y1 == s.y2}, (plan.number, block.box)


sizes = st.sampled_from([(63, 88), (88, 116), (17, 17), (11, 11), (26, 26), (150, 100), (44, 63)])


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(sizes, st.integers(1, 20)), min_size=1, max_size=6),
       st.sampled_from(["a4", "letter"]), st.sampled_from([None, 0.0, 2.0, 8.0]),
       st.sampled_from([None, (140, 200), (148, 210), (180, 120)]))
def test_imposition_invariants(groups, paper, gutter, form):
    pieces = []
    for index, ((w, h), count) in enumerate(groups):
        # Every third group has no bleed, as a dice net has.
        pieces += [replace(p, butt=index % 2 == 0, bleed=0.0 if index % 3 == 2 else p.bleed)
                   for p in cards(count, w, h, f"g{index}")]
    if form is not None:
        pieces.append(score_pad(*form))
    plans = impose(pieces, replace(SHEETS[paper], card_gutter=gutter))
    placed = [slot.piece for plan in plans for slot in plan.slots]
    assert sorted(placed, key=lambda p: (p.component, p.copy)) == sorted(
        pieces, key=lambda p: (p.component, p.copy))
    for plan in plans:
        _all_inside(plan)
        _no_overlaps(plan)
        _marks_outside_every_piece(plan)
        _every_trim_line_marked(plan)
        _forms_scaled_up_and_cut_clear(plan)


def _forms_scaled_up_and_cut_clear(plan) -> None:
    for slot in plan.slots:
        if slot.piece.write_on:
            assert slot.scale >= 1.0 - 1e-6
    if plan.cut is not None:
        # A dashed line across the page: every piece (and its marks) wholly above or below.
        assert any(s.piece.write_on for s in plan.slots)
        for slot in plan.slots:
            assert slot.visible.bottom < plan.cut - 1.0 or slot.visible.y > plan.cut + 1.0
        for s in crop_marks(plan):
            assert max(s.y1, s.y2) < plan.cut - 1.0 or min(s.y1, s.y2) > plan.cut + 1.0


def test_back_slots_mirror_the_fronts_for_long_edge_duplex():
    plan = impose(cards(3) + [Piece("s", "s", 0, 88, 116, 3.0, False)], SHEETS["a4"])[0]
    fronts = {(s.piece.component, s.piece.copy): s.bleed_box for s in plan.slots}
    backs = plan.back_slots()
    assert len(backs) == 3  # the single-sided piece has no back
    for slot in backs:
        front = fronts[(slot.piece.component, slot.piece.copy)]
        assert slot.bleed_box.x == pytest.approx(210 - front.right)
        assert slot.bleed_box.y == front.y
    assert len(mirror_segments(plan, crop_marks(plan))) == len(crop_marks(plan))


def test_crop_marks_extend_every_trim_line():
    plan = impose(cards(2, 63, 88), SHEETS["a4"])[0]
    xs = {round(s.x1, 3) for s in crop_marks(plan) if s.x1 == s.x2}
    trims = {round(v, 3) for slot in plan.slots for v in (slot.trim_box.x, slot.trim_box.right)}
    assert xs == trims


def test_d6_net_has_six_faces_seven_tabs_and_opposites_adding_to_seven():
    net = d6_net(17, tuple("123456"))
    assert len(net.faces) == 6 and len(net.tabs) == 7
    # 5 fold lines between faces and 7 at the tabs' roots.
    assert len(net.folds) == 12
    centres = {label.text: (label.x, label.y) for label in net.labels}
    # In a cross net, faces two apart in the column are opposite, and so are the two arms.
    assert centres["1"][0] == centres["6"][0] and abs(centres["1"][1] - centres["6"][1]) == 34
    assert centres["3"][1] == centres["4"][1] and abs(centres["3"][0] - centres["4"][0]) == 34


def test_d4_net_labels_each_vertex_on_three_faces():
    net = d4_net(28, tuple("1234"))
    assert len(net.faces) == 4 and len(net.tabs) == 3
    counts = {}
    for label in net.labels:
        counts[label.text] = counts.get(label.text, 0) + 1
    assert counts == {"1": 3, "2": 3, "3": 3, "4": 3}


def test_a_tent_strip_carries_a_base_and_a_glue_flap_below_its_panels():
    from pnp.data.load import load_game
    from pnp.games.registry import tables_from_engine
    from pnp.layout.tent import base_tab
    from pnp.render.sheets import face_geometry
    from tests.conftest import ROOT

    assert (base_tab(44).base, base_tab(44).glue) == (15.4, 8.0)
    game = load_game(ROOT / "card_data" / "aizhewudi", tables_from_engine)
    tent = game.component("character")
    # Two 44 mm panels, a 15.4 mm base and an 8 mm flap: 111.4 mm, with the usual bleed.
    assert face_geometry(tent, tent.cards[0])[:3] == (63, 111.4, 3.0)
