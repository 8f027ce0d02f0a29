"""``python -m pnp`` and the ``pnp`` script: the command line, stopped quietly by Ctrl-C.

Importing the command line (click, YAML, the data model) takes a noticeable moment; Ctrl-C
in it would otherwise end in a traceback from whichever import it interrupted. So a quiet
handler goes in first, before anything else of pnp is imported, and stays until the command
line takes over (it turns Ctrl-C into the same one line and exit status).
"""

from __future__ import annotations

import signal
import sys
from types import FrameType

INTERRUPTED = "pnp: interrupted"
EXIT_INTERRUPTED = 130  # the shell's status for a process ended by SIGINT (128 + 2)


def _stop(signum: int, frame: FrameType | None) -> None:
    sys.stderr.write(INTERRUPTED + "\n")
    sys.stderr.flush()
    # SystemExit unwinds the interrupted import without a traceback.
    raise SystemExit(EXIT_INTERRUPTED)


def run() -> None:
    # A shell that started pnp with SIGINT ignored (nohup, a background job) keeps it ignored.
    quiet = signal.getsignal(signal.SIGINT) is signal.default_int_handler
    if quiet:
        signal.signal(signal.SIGINT, _stop)
    from pnp.cli import main

    if quiet:
        # From here KeyboardInterrupt is raised again: commands clean up (worker pools,
        # staged outputs) and the command line reports it with the same line and status.
        signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        main()
    finally:
        # The command has ended (its status is set): Ctrl-C now could only cut the
        # interpreter's own exit short and kill it by the signal, with nothing left to stop.
        signal.signal(signal.SIGINT, signal.SIG_IGN)


if __name__ == "__main__":
    run()
