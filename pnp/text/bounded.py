"""Run one function in a forked child process under hard limits: the budget of a template.

The checks of :mod:`pnp.text.sandbox` stop every way pnp knows of that a template can exhaust
the machine, each on its line. This is the guarantee behind them: the render runs in a child
forked for it, with an address-space limit (``RLIMIT_AS``: an allocation past it is a
``MemoryError`` in the template's frame), a CPU limit (``RLIMIT_CPU``: ``SIGXCPU`` at the soft
limit becomes :class:`OutOfTime` on the template's line, ``SIGKILL`` one second later whatever
the child is doing) and a wall-clock limit the parent enforces by killing it. Nothing inside
a template can lift a limit the kernel holds.

A fork costs about 4 ms of CPU (parent and child together) in a process of pnp's size, and the
child's pages are the parent's until written (``gc.freeze`` keeps the collector from touching
them). The child sends back its function's value or its error (a :class:`ProblemsError` as its
records, anything else as text) through a pipe. Where ``os.fork`` does not exist (Windows) the
function runs in this process, bounded by the sandbox's own checks only.
"""

from __future__ import annotations

import contextlib
import gc
import math
import os
import pickle
import select
import signal
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TypeVar

from pnp.core.errors import ProblemsError

T = TypeVar("T")


@dataclass(frozen=True)
class Budget:
    """What one bounded call may use: CPU seconds, wall-clock seconds, memory beyond what the
    process had when it forked."""

    # A book's render takes under 0.1 s of CPU here (its worked example played included): ten
    # times that leaves room for a slow machine. The wall clock allows for a busy one.
    cpu_seconds: float = 1.0
    wall_seconds: float = 10.0
    memory_bytes: int = 512 * 1024 * 1024


DEFAULT_BUDGET = Budget()


class OutOfTime(Exception):  # noqa: N818 - named for what the user reads
    """Raised inside the child when its CPU time runs out (the soft limit's SIGXCPU)."""


class OverBudget(Exception):  # noqa: N818
    """The child was stopped from outside (killed at a limit, or it died): ``reason`` says how."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


_in_child = False  # True only in a forked child: a bounded call inside one runs in place


def run_bounded(function: Callable[[], T], budget: Budget = DEFAULT_BUDGET) -> T:
    """``function()``, run in a child process within ``budget``; its error is raised here."""
    if _in_child or not hasattr(os, "fork"):
        return function()
    read_end, write_end = os.pipe()
    pid = os.fork()
    if pid == 0:  # pragma: no cover - runs in the child, which reports through the pipe
        os.close(read_end)
        _child(function, budget, write_end)
    os.close(write_end)
    try:
        payload = _collect(read_end, pid, budget)
    finally:
        os.close(read_end)
        _reap(pid)
    kind, value = payload
    if kind == "value":
        return value  # type: ignore[no-any-return]
    if kind == "problems":
        error_class, records = value
        raise error_class(records)
    if kind == "memory":
        raise MemoryError
    if kind == "time":
        raise OutOfTime(value)
    raise OverBudget(value)


def _child(function: Callable[[], Any], budget: Budget, write_end: int) -> None:  # pragma: no cover
    global _in_child
    status = 0
    try:
        _in_child = True
        gc.freeze()  # the parent's objects stay shared: the collector does not touch them
        signal.signal(signal.SIGINT, signal.SIG_DFL)
        signal.signal(signal.SIGTERM, signal.SIG_DFL)
        _limit(budget)
        try:
            payload: tuple[str, Any] = ("value", function())
        except ProblemsError as exc:
            payload = ("problems", (type(exc), exc.records))
        except MemoryError:
            payload = ("memory", "")
        except OutOfTime as exc:
            payload = ("time", str(exc))
        except BaseException as exc:  # noqa: BLE001 - sent to the parent, which raises it
            payload = ("error", f"{type(exc).__name__}: {exc}")
        data = pickle.dumps(payload, protocol=pickle.HIGHEST_PROTOCOL)
        view = memoryview(data)
        while view:
            view = view[os.write(write_end, view):]
    except BaseException:  # noqa: BLE001 - the parent reads an empty pipe as a crash
        status = 70
    finally:
        os._exit(status)


def _limit(budget: Budget) -> None:  # pragma: no cover - child only
    import resource

    cpu = max(1, math.ceil(budget.cpu_seconds))
    resource.setrlimit(resource.RLIMIT_CPU, (cpu, cpu + 1))

    def out_of_time(signum: int, frame: Any) -> None:
        raise OutOfTime(f"more than {cpu} s of CPU time")

    signal.signal(signal.SIGXCPU, out_of_time)
    used = _address_space()
    if used is not None:
        cap = used + budget.memory_bytes
        resource.setrlimit(resource.RLIMIT_AS, (cap, cap))


def _address_space() -> int | None:
    """This process's mapped bytes (Linux); None where /proc does not say."""
    try:
        with open("/proc/self/statm", "rb") as statm:
            pages = int(statm.read().split()[0])
    except (OSError, ValueError, IndexError):
        return None
    return pages * os.sysconf("SC_PAGE_SIZE")


def _collect(read_end: int, pid: int, budget: Budget) -> tuple[str, Any]:
    deadline = time.monotonic() + budget.wall_seconds
    chunks: list[bytes] = []
    while True:
        left = deadline - time.monotonic()
        if left <= 0:
            _kill(pid)
            return "over", f"more than {budget.wall_seconds:g} s"
        ready, _, _ = select.select([read_end], [], [], left)
        if not ready:
            continue
        chunk = os.read(read_end, 1 << 20)
        if not chunk:
            break
        chunks.append(chunk)
    data = b"".join(chunks)
    if not data:
        _, status = os.waitpid(pid, 0)
        if os.WIFSIGNALED(status) and os.WTERMSIG(status) in (signal.SIGKILL, signal.SIGXCPU):
            return "over", f"more than {math.ceil(budget.cpu_seconds)} s of CPU time"
        return "over", "a failure of the process rendering it"
    try:
        return pickle.loads(data)  # type: ignore[no-any-return]  # the child's own pickle
    except Exception:  # noqa: BLE001 - a value that does not unpickle
        return "over", "a result that could not be read back"


def _kill(pid: int) -> None:
    with contextlib.suppress(ProcessLookupError):
        os.kill(pid, signal.SIGKILL)


def _reap(pid: int) -> None:
    """Wait for the child (killing it if still running, as after Ctrl-C in the parent)."""
    try:
        done, _ = os.waitpid(pid, os.WNOHANG)
        if done == 0:
            _kill(pid)
            os.waitpid(pid, 0)
    except ChildProcessError:
        pass
