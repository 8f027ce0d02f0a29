"""What a build will cost, known before it starts, and the budget it must stay within.

Every value of a game folder has its own limit, yet all of them at their limits together can
still ask for hours of work: a thousand distinct 600 × 600 mm boards are fifty thousand
megapixels of PNG. The build estimates the pixels ``--png`` will rasterise from the faces'
sizes alone and refuses past the budget unless the designer says it is meant
(``--allow-large``), naming what it would cost.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from pnp.build.outputs import Output
from pnp.core.errors import PnpError
from pnp.data.model import Game

# Two thousand megapixels: about 2,500 poker faces at 300 dpi, a few minutes of rasterising on
# a laptop; every shipped game needs a tenth of it.
MAX_PNG_PIXELS = 2_000_000_000


def check_workload(games: Mapping[str, Game], stale: Sequence[Output], allow_large: bool) -> None:
    """PnpError when the PNG faces ``stale`` asks for are past the budget and not allowed."""
    if allow_large:
        return
    faces = pixels = 0
    for output in stale:
        if output.kind.name == "png":
            # Here, not at the top: the PNG module loads PDFium, which a build without --png never needs.
            from pnp.render.png import png_pixels

            count, size = png_pixels(games[output.slug])
            faces, pixels = faces + count, pixels + size
    if pixels > MAX_PNG_PIXELS:
        raise PnpError(
            f"--png would rasterise {faces:,} faces of {pixels / 1e6:,.0f} megapixels in all, past "
            f"the {MAX_PNG_PIXELS / 1e6:,.0f} a build makes unasked (at 300 dpi a 600 × 600 mm "
            "board is 50 megapixels); build without --png, or add --allow-large to make them anyway")
