"""Where an image element puts its picture (pnp.data.imagefit): the numbers worked by hand."""

from __future__ import annotations

import pytest

from pnp.data.imagefit import Rect, bleed_box, place_image

CLIP = Rect(0, 0, 50, 40)  # mm


@pytest.mark.parametrize(("focus", "left"), [((0.5, 0.5), -25.0), ((0.0, 0.5), 0.0), ((1.0, 0.5), -50.0)])
def test_cover_fills_the_box_and_keeps_the_focus_nearest_its_centre(focus, left) -> None:
    # 1000 × 400 px into 50 × 40 mm: scaled by 0.1 mm/px to 100 × 40 mm, 50 mm cut.
    place = place_image(CLIP, (1000, 400), "cover", focus=focus)
    assert (place.drawn.left, place.drawn.top, place.drawn.width, place.drawn.height) == \
        pytest.approx((left, 0, 100, 40))
    assert place.dpi == pytest.approx(1000 / (100 / 25.4))  # 254 dpi


def test_a_quarter_turn_turns_the_focus_with_the_picture() -> None:
    # 400 × 1000 px turned clockwise is 1000 × 400; its top edge is now the right edge.
    place = place_image(CLIP, (400, 1000), "cover", focus=(0.5, 0.0), rotate=90)
    assert (place.drawn.left, place.drawn.width) == pytest.approx((-50, 100))


def test_contain_shows_all_of_it_centred() -> None:
    place = place_image(CLIP, (100, 100), "contain")
    assert (place.drawn.left, place.drawn.top, place.drawn.width) == pytest.approx((5, 0, 40))
    assert (place.shown.left, place.shown.width) == pytest.approx((5, 40))


def test_a_crop_keeps_a_part_and_the_resolution_counts_its_pixels() -> None:
    place = place_image(CLIP, (1000, 400), "cover", crop=(0.5, 0.0, 0.5, 1.0))
    assert (place.crop.left, place.crop.width) == (500, 500)
    assert (place.drawn.width, place.drawn.height) == pytest.approx((50, 40))
    assert place.dpi == pytest.approx(500 / (50 / 25.4))


def test_an_svg_has_no_resolution() -> None:
    assert place_image(CLIP, (100, 80), "stretch", raster=False).dpi is None


def test_bleed_moves_only_the_edges_on_the_trim() -> None:
    assert bleed_box(Rect(0, 0, 63, 88), 63, 88, 3) == Rect(-3, -3, 69, 94)
    assert bleed_box(Rect(0, 10, 30, 20), 63, 88, 3) == Rect(-3, 10, 33, 20)
