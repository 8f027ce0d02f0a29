"""``python -m pnp`` and the ``pnp`` script: the command line, stopped quietly by Ctrl-C.

Importing the command line (click, YAML, the data model) takes a noticeable moment; Ctrl-C
in it would otherwise end in a traceback from whichever import it interrupted. So a quiet
handler goes in first, as this module is imported and before anything else of pnp is, and
stays until the command line takes over (it turns Ctrl-C into the same one line and exit
status). ``_signal`` is the interpreter's built-in half of ``signal``, loaded at start-up;
``signal`` itself imports enum and takes a moment of its own.

SIGTERM (``kill PID``) is turned into the same interruption once the command line runs, so
a build being swapped into place is rolled back rather than cut off (pnp.build.journal).

The garbage collector is off while the command line and the command's modules are imported:
their objects (classes, functions, constants) live as long as the process, so collecting
among them is wasted work (a few milliseconds of every build). The command turns it back on,
with those objects frozen out of its sight (pnp.cli.process.install).

A command that has written and closed everything (``pnp build``, pnp.cli.process.end_at_once)
ends its process without the interpreter's teardown, which frees every object one by one: a
tenth of a second's worth of a small edit's rebuild went to freeing the fonts' tables, the
kept faces and the modules just before the process ended anyway (Bazaar's ``bzr`` ended so for
the same reason). Logging is shut down and the standard streams flushed first; a command that
left another thread or a worker process running, streams that cannot be flushed, or a process
run under a profiler, a tracer (coverage) or ``python -i`` end the usual way.
"""

from __future__ import annotations

import _signal  # type: ignore[import-not-found]  # no stub; see above
import gc
import os
import sys

INTERRUPTED = "pnp: interrupted"
EXIT_INTERRUPTED = 130  # the shell's status for a process ended by SIGINT (128 + 2)


def _stop(signum: int, frame: object) -> None:
    sys.stderr.write(INTERRUPTED + "\n")
    sys.stderr.flush()
    # SystemExit unwinds the interrupted import without a traceback.
    raise SystemExit(EXIT_INTERRUPTED)


# A shell that started pnp with SIGINT ignored (nohup, a background job) keeps it ignored.
_QUIET = _signal.getsignal(_signal.SIGINT) is _signal.default_int_handler
if _QUIET:
    _signal.signal(_signal.SIGINT, _stop)

import signal  # noqa: E402 - after the quiet handler: importing it takes a moment too
import threading  # noqa: E402


def _terminate(signum: int, frame: object) -> None:
    raise KeyboardInterrupt  # SIGTERM (`kill PID`) stops pnp as Ctrl-C does, undoing a swap


def run() -> None:
    gc.disable()  # until the command starts (see above)
    from pnp.cli import main

    if _QUIET:
        # From here KeyboardInterrupt is raised again: commands clean up (worker pools,
        # staged outputs) and the command line reports it with the same line and status.
        signal.signal(signal.SIGINT, signal.default_int_handler)
    if signal.getsignal(signal.SIGTERM) is signal.SIG_DFL:
        # Not when started with it ignored (nohup-like starters keep that choice).
        signal.signal(signal.SIGTERM, _terminate)
    ended: SystemExit | None = None
    try:
        main()
    except SystemExit as status:
        ended = status
        raise
    finally:
        # The command has ended (its status is set): Ctrl-C now could only cut the
        # interpreter's own exit short and kill it by the signal, with nothing left to stop.
        signal.signal(signal.SIGINT, signal.SIG_IGN)
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
        if ended is not None:
            _end(ended)


def _end(ended: SystemExit) -> None:
    """End the process at once with ``ended``'s status if the command asked for it and nothing
    is left running (see above); else return, and the interpreter ends it as usual."""
    from pnp.cli import process

    status = 0 if ended.code is None else ended.code
    if not process.ends_at_once() or not isinstance(status, int) or threading.active_count() > 1:
        return
    # Under a profiler, a coverage tracer or `python -i`, whose work is done at the usual end.
    if sys.getprofile() is not None or sys.gettrace() is not None or sys.flags.inspect:
        return
    pools = sys.modules.get("multiprocessing")
    if pools is not None and pools.active_children():  # workers its usual exit would join
        return
    if "logging" in sys.modules:
        sys.modules["logging"].shutdown()
    try:
        for stream in (sys.stdout, sys.stderr):
            if stream is not None:  # None when the descriptor was closed at start
                stream.flush()
    except (OSError, ValueError):  # a closed pipe: the usual exit reports it as usual
        return
    os._exit(status)


if __name__ == "__main__":
    run()
