"""The spelling of the references card data may hold, ``{rules.x}``, ``{count.x}``,
``{sum.x}`` and ``{card.c/id.field}``: one place that both the checks of a layout's
properties (pnp.data.propchecks) and their resolution (pnp.data.rulerefs) read."""

from __future__ import annotations

import re

RULES_REF = re.compile(r"\{rules\.([A-Za-z_][\w.\[\]]*?)(?:/rules\.([A-Za-z_][\w.\[\]]*?))?"
                       r"([+-]\d+)?(?::(money|thousands))?\}")
COUNT_REF = re.compile(r"\{count\.([a-z0-9][a-z0-9_-]*)(?:/([a-z0-9][a-z0-9_-]*))?\}")
SUM_REF = re.compile(r"\{sum\.([A-Za-z_]\w*)\}")
CARD_REF = re.compile(r"\{card\.([a-z0-9][a-z0-9_-]*)/([a-z0-9][a-z0-9_-]*)\.([A-Za-z_]\w*)\}")
