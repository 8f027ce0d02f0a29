"""``python -m pnp.cli`` runs the same command line as the ``pnp`` script."""

from pnp.cli import main

main()
