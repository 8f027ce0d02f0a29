"""The y axis of a chart against a swept value: round grid values, the data inside."""

from __future__ import annotations

import pytest

from pnp.play.charts import _nice_range


@pytest.mark.parametrize(
    ("low", "top", "expected"),
    [
        # Worked by hand: the tightest axis of 4-6 steps of 1, 2, 2.5 or 5 x 10^k.
        (4.952, 22.43, (0.0, 25.0, 5)),  # steps of 5 from 0; steps of 2.5 would need 8
        (34.68, 41.54, (34.0, 42.0, 4)),  # steps of 2 from 34
        (36.33, 40.97, (36.0, 41.0, 5)),  # steps of 1 from 36
        (0.1, 0.9, (0.0, 1.0, 5)),  # steps of 0.2 from 0
        (-3.0, 7.0, (-4.0, 8.0, 6)),  # steps of 2 from -4: below zero too
    ],
)
def test_axis_is_round_and_covers_the_data(low: float, top: float,
                                           expected: tuple[float, float, int]) -> None:
    bottom, ceiling, steps = _nice_range(low, top)
    assert (bottom, ceiling, steps) == pytest.approx(expected)
    assert bottom <= low and ceiling >= top
