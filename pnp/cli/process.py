"""What the ``pnp`` command sets up for its whole process, and the library never does.

pnp's core is a library: it leaves alone what belongs to the process that uses it (signal
handlers, the garbage collector, logging). The command line owns its process and sets them
here (logging is set where the command line parses -v/-q):

- :func:`install`: the collector, off while ``pnp`` started (pnp.__main__), is turned on
  with everything made so far frozen: the modules and what they made live for the process.
- Once a font family is registered, the garbage collector is frozen again. The
  faces' tables (some 150,000 objects each, kept for the process) made every full
  collection of a build walk them again: six of them cost 0.4 s of a 3.5 s shelf build.
  Everything alive then is moved out of the collector's sight (``gc.freeze``); what is made
  later is collected as before.
- :func:`install` also puts pnp's shorter ways to the bytes reportlab encodes text and names
  into (pnp.render.pdfencoding) in reportlab's place once a family is registered (a PDF is
  about to be drawn): a third of writing a components PDF whose faces were replayed.
- ``build --watch`` and ``serve`` put pnp's remembering deflate filter in reportlab's place
  (pnp.render.deflation.install_filter): their rebuilds write mostly the streams of the round
  before.
- :func:`ignore_interrupts`, :func:`hold_interrupts`, :func:`terminate_raises`: how a
  worker pool (``pnp simulate``) meets Ctrl-C and SIGTERM (pnp.play.simulate.PoolSignals).
- :func:`end_at_once` / :func:`ends_at_once`: a command that has written everything and started
  nothing still running (``pnp build``) lets the process end without the interpreter's teardown
  (pnp.__main__.run).
"""

from __future__ import annotations

import gc
import signal
import threading
from collections.abc import Callable
from typing import Any


def install() -> None:
    """Turn the collector back on if the start-up turned it off; each time a font family has
    been registered, freeze it and have reportlab encode through pnp.render.pdfencoding (once
    per process: installing again changes nothing)."""
    if not gc.isenabled():
        gc.freeze()
        gc.enable()
    from pnp.text import fonts

    fonts.after_registering(gc.freeze)
    fonts.after_registering(_encode_sooner)


def _encode_sooner() -> None:
    from pnp.render import pdfencoding

    pdfencoding.install()


def ignore_interrupts() -> None:
    """A worker's first step: it leaves Ctrl-C to the parent, which stops them all at once (a
    worker that took the SIGINT sent to the whole process group would die mid-chunk with a
    traceback). SIGTERM, which the pool sends to stop a worker, ends it at once again: the
    handler the pnp process installed (SIGTERM unwinds like Ctrl-C) is inherited by the fork."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    if hasattr(signal, "pthread_sigmask"):  # forked with it blocked (hold_interrupts): a pending one ends it now
        signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGTERM})


def hold_interrupts() -> Callable[[], None]:
    """Blocks SIGINT (and SIGTERM, which pnp turns into Ctrl-C) in this thread while workers
    are forked (they start with them blocked and nothing pending: a worker forked before its
    initializer ran would take Ctrl-C as KeyboardInterrupt and be replaced by the pool while
    the parent stops it). Returns the release, which delivers a signal that came meanwhile to
    the parent alone."""
    if not hasattr(signal, "pthread_sigmask") or threading.current_thread() is not threading.main_thread():
        return lambda: None
    previous = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT, signal.SIGTERM})

    def release() -> None:
        signal.pthread_sigmask(signal.SIG_SETMASK, previous)
    return release


def terminate_raises() -> Callable[[], None]:
    """While the pool runs, SIGTERM unwinds like Ctrl-C so the workers are killed too (by
    default the parent would die alone and leave them running). Returns the undo."""
    if threading.current_thread() is not threading.main_thread():
        return lambda: None

    def stop(signum: int, frame: Any) -> None:
        raise SystemExit(128 + signum)

    previous = signal.signal(signal.SIGTERM, stop)

    def undo() -> None:
        signal.signal(signal.SIGTERM, previous)
    return undo


_ending_at_once = False


def end_at_once() -> None:
    """Let the process end, once the command has returned, without the interpreter taking its
    objects down one by one (pnp.__main__.run): for a command whose files are written and closed
    and that leaves no worker, thread or temporary folder behind."""
    global _ending_at_once
    _ending_at_once = True


def ends_at_once() -> bool:
    """Whether the command asked for :func:`end_at_once`."""
    return _ending_at_once
