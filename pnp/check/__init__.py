"""``pnp check`` and ``pnp tables``: printed matter proved against the rules, and the rules linted."""
