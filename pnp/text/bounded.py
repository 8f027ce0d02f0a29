"""The budget of one template render: CPU time, wall-clock time and memory.

The checks of :mod:`pnp.text.sandbox` refuse every operation that would make a value past its
limit, each on its line; what is left is work made of many bounded steps (a loop of a thousand
sorts of a million items) and the one way a bounded value still prints unbounded text (a list
holding itself twice, forty levels deep: its ``str`` is 2⁴⁰ items long, made inside one C call).
The budget holds both:

- time is checked at every step the sandbox counts (each loop iteration, call and operator):
  past :attr:`Budget.cpu_seconds` of this thread's CPU time or :attr:`Budget.wall_seconds`,
  :class:`OutOfTime` is raised there, on the template's line. No single step can run long:
  every value a step makes is bounded by the sandbox's checks;
- memory is held by the kernel: the process's address space may grow by at most
  :attr:`Budget.memory_bytes` while the template renders (``RLIMIT_AS``, its soft limit lowered
  for the render and put back after), so an allocation past it is a ``MemoryError`` raised in
  the template's frame, inside a C call or not. Nothing inside a template can lift it.

Why in the process and not in a forked child (tried first, measured): a fork per render cost
0.55 s of CPU on a cold ``pnp build all --lang all`` (28 renders; the copy-on-write faults of a
200 MB process, in parent and child), 13 %, and the child's side effects were lost: the build
record notes which card fields a book read (:func:`pnp.build.manifest.noting_game`), and reads
made inside the child never reached it, so a card edit would not have rebuilt the book. The
in-process budget costs nothing measurable (a clock read per step, two ``setrlimit`` calls
per render).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import TypeVar

from pnp.core.records import record

T = TypeVar("T")


@record
class Budget:
    """What one render may use: CPU seconds of its thread, wall-clock seconds, and memory
    beyond what the process had mapped when it began."""

    # A book's render takes under 0.1 s of CPU here (its worked example played included): ten
    # times that leaves room for a slow machine; the wall clock allows for a busy one.
    cpu_seconds: float = 1.0
    wall_seconds: float = 10.0
    memory_bytes: int = 512 * 1024 * 1024


DEFAULT_BUDGET = Budget()


class OutOfTime(Exception):  # noqa: N818 - named for what the user reads
    """The render used up its time; raised at the step that found it out."""


class Clock:
    """The deadlines of one render, checked at every step: the wall clock (a cheap read) each
    time, this thread's CPU time (a system call) when 20 ms have passed since it was last read."""

    CPU_READ_EVERY = 0.02

    def __init__(self, budget: Budget) -> None:
        self.budget = budget
        self.cpu_deadline = time.thread_time() + budget.cpu_seconds
        self.wall_deadline = time.monotonic() + budget.wall_seconds
        self.cpu_read = time.monotonic()

    def check(self) -> None:
        now = time.monotonic()
        if now - self.cpu_read >= self.CPU_READ_EVERY:
            self.cpu_read = now
            if time.thread_time() > self.cpu_deadline:
                raise OutOfTime(f"more than {self.budget.cpu_seconds:g} s of CPU time")
        if now > self.wall_deadline:
            raise OutOfTime(f"more than {self.budget.wall_seconds:g} s")


def within_memory(budget: Budget, function: Callable[[], T]) -> T:
    """``function()`` with the process's address space allowed to grow by at most
    ``budget.memory_bytes`` (Linux; elsewhere, without the limit)."""
    try:
        import resource
    except ImportError:  # Windows
        return function()
    used = _address_space()
    if used is None:
        return function()
    soft, hard = resource.getrlimit(resource.RLIMIT_AS)
    cap = used + budget.memory_bytes
    if soft != resource.RLIM_INFINITY and soft <= cap or hard != resource.RLIM_INFINITY and hard < cap:
        return function()  # already held as tightly by whoever started pnp
    resource.setrlimit(resource.RLIMIT_AS, (cap, hard))
    try:
        return function()
    finally:
        resource.setrlimit(resource.RLIMIT_AS, (soft, hard))


def _address_space() -> int | None:
    """This process's mapped bytes (Linux); None where /proc does not say."""
    import os

    try:
        with open("/proc/self/statm", "rb") as statm:
            pages = int(statm.read().split()[0])
    except (OSError, ValueError, IndexError):
        return None
    return pages * os.sysconf("SC_PAGE_SIZE")
