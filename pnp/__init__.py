"""pnp: print-and-play asset generator for Chinese-language tabletop games."""

from __future__ import annotations

__version__ = "0.1.0"
