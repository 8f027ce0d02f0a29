"""Which engine plays which game: the one place that maps a slug to its engine module.

Each engine module defines ``ENGINE``, an object following ``pnp.engines.base.Engine`` that
delegates to the module's functions (which calculators and narration also call directly).
"""

from __future__ import annotations

import importlib
from typing import Any

from pnp.engines.base import Engine

ENGINE_MODULES = {
    "tisigui": "pnp.engines.tisigui",
    "wurenshenghuan": "pnp.engines.wurenshenghuan",
    "niutouwang": "pnp.engines.niutouwang",
    "aizhewudi": "pnp.engines.aizhewudi",
}


def has_engine(slug: str) -> bool:
    return slug in ENGINE_MODULES


def get_engine(slug: str) -> Engine:
    if slug not in ENGINE_MODULES:
        raise KeyError(f"no rules engine for game {slug!r}")
    module: Any = importlib.import_module(ENGINE_MODULES[slug])
    engine: Engine = module.ENGINE  # AttributeError: an engine module without its object
    return engine
