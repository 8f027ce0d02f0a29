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
from pnp.layout.sheetplan import MARK_SHORT, MIN_MARK, Piece, Rect


def cards(n: int, w: float = 63, h: float = 88, name: str = "c") -> list[Piece]:
    """Pieces that keep their own bleed (they never butt, as a round token)."""
    return [Piece(name, name, i, w, h, 3.0, True) for i in range(n)]


# Bleed boxes keep 1 mm inside the printable area (6.5 mm from the paper's edges; at the foot
# also the sheet label's 2.5 mm band and a 1 mm gap): on A4 from 7.5 to 202.5 mm across and
# 7.5 to 286 mm down (195 x 278.5 mm), on Letter 200.9 x 260.9 mm.


def test_poker_cards_with_their_own_bleed_go_eight_to_an_a4_sheet_turned():
    plans = impose(cards(16), SHEETS["a4"])
    assert len(plans) == 2
    block = plans[0].blocks[0]
    assert (block.columns, block.rows, block.slots[0].rotated) == (2, 4, True)
    # 2 × 94 mm wide, centred across the 195 mm; 4 × 69 mm tall, as far below the top as the
    # 2.5 mm left over allows (its crop marks need 4 mm outside the bleed: they go across it).
    assert block.box == Rect(11.0, 8.75, 188.0, 276.0)


def test_letter_takes_six_poker_cards_with_their_own_bleed():
    plans = impose(cards(6), SHEETS["letter"])
    assert len(plans) == 1 and len(plans[0].slots) == 6
    # And no more, in any arrangement: with its own 3 mm bleed a card needs 69 x 94 mm. Bleed
    # boxes stay in 200.9 x 260.9 mm, where no three fit side by side (3 x 69 = 207 mm).
    # Every card is at least 69 mm tall, so each one crosses one of three lines across the
    # area 68.9 mm apart, and each line crosses at most two cards: six.
    assert [len(p.slots) for p in impose(cards(7), SHEETS["letter"])] == [6, 1]


def butted(paper: str) -> SheetSpec:
    return replace(SHEETS[paper], card_gutter=0.0)


def butting_cards(n: int) -> list[Piece]:
    return [replace(p, butt=True) for p in cards(n)]


def test_the_default_butts_nine_poker_cards_on_shared_cut_lines_on_a4():
    plans = impose(butting_cards(18), SHEETS["a4"])
    assert [len(p.slots) for p in plans] == [9, 9]
    block = plans[0].blocks[0]
    assert (block.columns, block.rows, block.slots[0].rotated) == (3, 3, False)
    # 3 × 63 by 3 × 88 mm of trim, with 3 mm of bleed around the block only: the whole 195 mm
    # across, and 3 mm below the top of the area, where its top crop marks print outside it.
    assert block.box == Rect(7.5, 10.5, 195.0, 270.0)
    trims = [slot.trim_box for slot in block.slots]
    assert trims[1].x == trims[0].right and trims[3].y == trims[0].bottom
    # Each face shows only its cell: neighbours' cells meet on the cut line.
    assert block.slots[0].visible.right == block.slots[1].visible.x == trims[0].right
    # The second sheet's block starts exactly where the first one's does.
    assert plans[1].blocks[0].box == block.box


def test_letter_takes_eight_butted_poker_cards_turned():
    # Nine do not fit: three rows of 88 mm and the bleed are 270 mm, taller than 260.9 mm,
    # and turned, wider than 200.9 mm. Turned, two across and four down (182 x 258 mm) fit;
    # by the argument for six above (lines 63 mm apart now), no mix of the two does better.
    plans = impose(butting_cards(16), butted("letter"))
    assert [len(p.slots) for p in plans] == [8, 8]
    block = plans[0].blocks[0]
    assert (block.columns, block.rows, block.slots[0].rotated) == (2, 4, True)
    assert (block.box.width, block.box.height) == (182.0, 258.0)


def test_niutouwang_deck_fits_twelve_butted_a4_sheets():
    assert len(impose(butting_cards(104), butted("a4"))) == 12


def test_a_partial_last_sheet_starts_at_the_full_sheets_origin():
    plans = impose(cards(11), SHEETS["a4"])
    assert len(plans) == 2
    first, last = plans[0].blocks[0], plans[1].blocks[0]
    assert (last.box.x, last.box.y) == (first.box.x, first.box.y)
    assert [s.trim_box for s in last.slots] == [s.trim_box for s in first.slots[:3]]


def test_a_run_that_fits_one_sheet_in_two_orientations_stays_together():
    # Six 60 x 110 mm pieces with their own bleed: a grid of either orientation takes four on
    # A4 (2 x 2 upright, 1 x 4 turned), but four turned (116 mm wide) and two upright beside
    # them (66 mm, 9 mm further) take all six, where the last two would have gone to a second
    # sheet.
    pieces = cards(6, 60, 110, "strip")
    (plan,) = impose(pieces, SHEETS["a4"])
    assert len(plan.slots) == 6
    assert sorted((b.columns * b.rows, b.slots[0].rotated) for b in plan.blocks) == [
        (2, False), (4, True)]


def test_small_pieces_backfill_an_earlier_sheet():
    # Six Letter cards leave a band below them (41.9 mm deep): a row of eight 17 mm tokens
    # with their bleed fits there.
    plans = impose(cards(6) + cards(8, 17, 17, "t"), SHEETS["letter"])
    assert len(plans) == 1
    assert {s.piece.component for s in plans[0].slots} == {"c", "t"}


def test_a_nearly_empty_sheet_is_emptied_into_free_space():
    # 9 cards: one sheet of 8 and one card alone; a board that takes most of a sheet
    # leaves room for that card beside or below it.
    pieces = cards(1, 150, 100, "board") + cards(9)
    plans = impose(pieces, SHEETS["a4"])
    assert sorted(len(p.slots) for p in plans) == [2, 8]
    assert {s.piece.component for p in plans if len(p.slots) == 2 for s in p.slots} == {"board", "c"}


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
    # Letter: the last sheet holds three cards, more than the strip below a 140 x 200 pad
    # takes, upright (53.9 mm deep) or turned (113.9 mm: two cards with their bleed).
    plans = impose(cards(105) + [score_pad()], SHEETS["letter"])
    assert len(plans) == 19
    assert [s.piece.component for s in plans[-1].slots] == ["pad"]
    assert plans[-1].cut is None and plans[-1].slots[0].scale > 1.0


def test_a_portrait_form_turns_to_leave_a_strip_deep_enough_for_a_card():
    # niutouwang on Letter: 13 sheets of eight and the 105th card. Below the pad as designed
    # (140 x 200 mm) a 53.9 mm strip is left, too shallow for a card; the pad turned (200 x
    # 140 mm) leaves 113.9 mm, and the card goes there.
    deck = [replace(p, butt=True) for p in cards(105)]
    plans = impose(deck + [score_pad()], SHEETS["letter"])
    assert [len(p.slots) for p in plans] == [8] * 13 + [2]
    last = plans[-1]
    (form,) = [s for s in last.slots if s.piece.write_on]
    assert form.rotated and form.scale >= 1.0 and form.cell.bottom < last.cut


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


def _printable(spec: SheetSpec) -> Rect:
    """Inside the hardware margin, above the sheet label's band at the foot."""
    bottom = spec.height - spec.hardware - spec.label_band - spec.label_gap
    return Rect(spec.hardware, spec.hardware, spec.width - 2 * spec.hardware, bottom - spec.hardware)


def _inside(rect: Rect, area: Rect) -> bool:
    return (rect.x >= area.x - 1e-6 and rect.y >= area.y - 1e-6
            and rect.right <= area.right + 1e-6 and rect.bottom <= area.bottom + 1e-6)


def _all_inside(plan) -> None:
    """Every piece's bleed (all of it that shows) is printable; a piece with crop marks keeps
    1 mm more, room for a mark across its bleed (a net or a form, the printable area)."""
    spec = plan.spec
    printable = _printable(spec)
    for slot in plan.slots:
        room = 1.0 if slot.piece.marks and not slot.piece.write_on else 0.0
        assert _inside(slot.visible, _grown(printable, -room)), (slot.visible, slot.piece)


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
        # At least 3 mm long, and printable: inside the hardware margin, above the label.
        assert max(mark.width, mark.height) >= MIN_MARK - 1e-6, s
        assert _inside(mark, _grown(_printable(spec), spec.label_gap / 2)), s
        for slot in plan.slots:
            # No mark comes nearer a piece's trim than MARK_SHORT.
            assert not mark.overlaps(_grown(slot.trim_box, MARK_SHORT)), (s, slot)
            if not s.on_bleed:
                assert not mark.overlaps(slot.visible), (s, slot)
        if s.on_bleed:
            # Across the outer bleed of its own block, which is cut away, and out from it.
            own = [b for b in plan.blocks if _inside(mark, _grown(b.box, spec.mark_offset + spec.mark_length))]
            assert own, s
            for slot in plan.slots:
                if not any(slot in b.slots for b in own):
                    assert not mark.overlaps(slot.visible), (s, slot)


def _every_trim_line_marked(plan) -> None:
    """Each trim line of a block with marks has a mark at both ends, beyond the block."""
    marks = crop_marks(plan)
    for block in plan.blocks:
        piece = block.slots[0].piece
        if not piece.marks or piece.write_on:
            continue
        box = block.box
        near = _grown(box, 4.5)
        own = [s for s in marks if near.x <= min(s.x1, s.x2) and max(s.x1, s.x2) <= near.right
               and near.y <= min(s.y1, s.y2) and max(s.y1, s.y2) <= near.bottom]
        trims = [s.trim_box for s in block.slots]
        for x in {round(v, 3) for t in trims for v in (t.x, t.right)}:
            down = [s for s in own if s.x1 == s.x2 and round(s.x1, 3) == x]
            assert any(max(s.y1, s.y2) <= min(t.y for t in trims) for s in down), (plan.number, box, x)
            assert any(min(s.y1, s.y2) >= max(t.bottom for t in trims) for s in down), (plan.number, box, x)
        for y in {round(v, 3) for t in trims for v in (t.y, t.bottom)}:
            across = [s for s in own if s.y1 == s.y2 and round(s.y1, 3) == y]
            assert any(max(s.x1, s.x2) <= min(t.x for t in trims) for s in across), (plan.number, box, y)
            assert any(min(s.x1, s.x2) >= max(t.right for t in trims) for s in across), (plan.number, box, y)


sizes = st.sampled_from([(63, 88), (88, 116), (17, 17), (11, 11), (26, 26), (150, 100), (44, 63)])


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(sizes, st.integers(1, 20)), min_size=1, max_size=6),
       st.sampled_from(["a4", "letter"]), st.sampled_from([0.0, 2.0, 6.0, 8.0]),
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
