"""Imposition, crop marks and nets: pure geometry checked against invariants and hand values."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pnp.layout.impose import ImposeError, Piece, Rect, crop_marks, impose, mirror_segments
from pnp.layout.nets import d4_net, d6_net
from pnp.layout.presets import SHEETS


def cards(n: int, w: float = 63, h: float = 88, name: str = "c") -> list[Piece]:
    return [Piece(name, name, i, w, h, 3.0, True) for i in range(n)]


def test_poker_cards_go_eight_to_an_a4_sheet_turned():
    plans = impose(cards(16), SHEETS["a4"])
    assert len(plans) == 2
    block = plans[0].blocks[0]
    assert (block.columns, block.rows, block.slots[0].rotated) == (2, 4, True)
    # 2 × 94 mm wide and 4 × 69 mm tall: the margins that are left are 11 and 10.5 mm.
    assert block.box == Rect(11.0, 10.5, 188.0, 276.0)


def test_letter_takes_six_poker_cards():
    plans = impose(cards(6), SHEETS["letter"])
    assert len(plans) == 1 and len(plans[0].slots) == 6


def test_too_big_a_piece_is_an_error():
    with pytest.raises(ImposeError, match="does not fit"):
        impose([Piece("board", "b", 0, 300, 300, 3.0, False)], SHEETS["a4"])


def _all_inside(plan) -> None:
    spec = plan.spec
    for slot in plan.slots:
        box = slot.bleed_box
        assert box.x >= 0 and box.y >= 0 and box.right <= spec.width and box.bottom <= spec.height


def _no_overlaps(plan) -> None:
    slots = plan.slots
    for i, a in enumerate(slots):
        for b in slots[i + 1:]:
            assert not a.bleed_box.overlaps(b.bleed_box)


def _marks_outside_every_piece(plan) -> None:
    for s in crop_marks(plan):
        mark = Rect(min(s.x1, s.x2), min(s.y1, s.y2), abs(s.x2 - s.x1), abs(s.y2 - s.y1))
        assert mark.x >= 0 and mark.right <= plan.spec.width
        assert mark.y >= 0 and mark.bottom <= plan.spec.height
        for slot in plan.slots:
            assert not mark.overlaps(slot.bleed_box), (s, slot)


sizes = st.sampled_from([(63, 88), (88, 116), (17, 17), (11, 11), (26, 26), (150, 100), (44, 63)])


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(sizes, st.integers(1, 20)), min_size=1, max_size=6),
       st.sampled_from(["a4", "letter"]))
def test_imposition_invariants(groups, paper):
    pieces = []
    for index, ((w, h), count) in enumerate(groups):
        pieces += cards(count, w, h, f"g{index}")
    plans = impose(pieces, SHEETS[paper])
    placed = [slot.piece for plan in plans for slot in plan.slots]
    assert sorted(placed, key=lambda p: (p.component, p.copy)) == sorted(
        pieces, key=lambda p: (p.component, p.copy))
    for plan in plans:
        _all_inside(plan)
        _no_overlaps(plan)
        _marks_outside_every_piece(plan)


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
