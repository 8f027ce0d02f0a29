"""A tent screen's base tab, as pure geometry (mm).

A ``fold`` component is a strip of two panels folded into a standing tent. Folded in two and
nothing more, its feet slide apart on the table and it falls flat. Below the outer panel the
strip therefore carries a base, which folds in under the tent and lies on the table, and a
glue flap beyond it, which folds up and is glued inside the foot of the other panel: the tent
becomes a triangle that stands on its own, its base as wide as ``BASE`` of a panel's height.
"""

from __future__ import annotations

from pnp.core.records import record

BASE = 0.35  # of a panel's height: the tent's foot, steep enough to read, wide enough to stand
GLUE = 8.0  # mm: the flap glued inside the other panel's foot


@record
class BaseTab:
    base: float  # mm
    glue: float  # mm

    @property
    def depth(self) -> float:
        """How much the tab adds to the strip below its outer panel."""
        return self.base + self.glue


def base_tab(panel_height: float) -> BaseTab:
    return BaseTab(round(BASE * panel_height, 1), GLUE)
