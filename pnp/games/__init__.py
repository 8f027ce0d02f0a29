"""The games pnp plays: one package per game (see base.GamePlugin and registry)."""
