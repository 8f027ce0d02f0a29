"""The component vocabulary a game folder chooses from: card sizes, shapes, board limits (mm).

Declared once here: the loader validates against it, the schema and the layout vocabulary
document it, and the imposer and renderer draw what it allows.
"""

from __future__ import annotations

CARD_SIZES: dict[str, tuple[float, float]] = {
    "poker": (63.0, 88.0),
    "bridge": (57.0, 89.0),
    "mini": (44.0, 63.0),
    "tarot": (70.0, 120.0),
    "square": (70.0, 70.0),
}

SAFE_ZONE = 3.0  # text stays this far inside the trim
MAX_BOARD = (180.0, 250.0)  # fits the printable area of A4 and Letter with bleed and marks
# A rect board may be larger, in either orientation: it is then printed in tiles across
# sheets (pnp.layout.tiles). Beyond this it would be a poster, not a board: 12 tiles to glue.
MAX_TILED_BOARD = (600.0, 600.0)
SHAPES = ("rect", "round", "fold", "d6_net", "d4_net")
