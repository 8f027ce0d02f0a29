"""``python -m pnp.cli`` runs the same command line as the ``pnp`` script."""

from pnp.__main__ import run

run()
