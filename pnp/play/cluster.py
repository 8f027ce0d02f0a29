"""Games played on a Dask distributed cluster instead of the local worker pool (``--cluster``).

The cluster gets the same jobs the local pool would: a plain function of this package and
its arguments (a :class:`~pnp.games.base.Plan` with its rules mapping, the first seed and how
many games), and sends back what the local worker would (a chunk's tally or summaries, never a
game's log). The caller merges them by job number, so the report is the same bytes as a local
run's. Workers must have pnp installed at the same version; this is checked before a game is
sent.

``distributed`` is an optional extra (``pip install 'pnp-zh[cluster]'``), imported only here
and only when a cluster is asked for.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Callable, Iterable, Iterator
from typing import Any, TypeVar

import pnp
from pnp.core.errors import PnpError

J = TypeVar("J")
R = TypeVar("R")

# Past this a scheduler that does not answer is taken as unreachable (distributed retries a
# refused connection until then).
CONNECT_SECONDS = 5.0
# How long a scheduler may have no worker before the run gives up.
WORKERS_SECONDS = 30.0
# Jobs in flight per worker thread: enough to keep every worker busy while results travel,
# few enough that the scheduler holds a window of the run, not all of it.
IN_FLIGHT_PER_THREAD = 4
# A host name is at most 253 characters; with the scheme and the port an address is shorter.
MAX_ADDRESS = 300
INSTALL_HINT = "pip install 'pnp-zh[cluster]' (the Dask distributed client)"

_HOST = r"[A-Za-z0-9](?:[A-Za-z0-9.-]{0,251}[A-Za-z0-9])?"
_ADDRESS = re.compile(rf"(tcp|tls)://({_HOST}|\[[0-9A-Fa-f:.]{{2,45}}\]):(\d{{1,5}})")


def check_address(text: str) -> str:
    """``tcp://HOST:PORT`` (or ``tls://``), as a scheduler prints it; anything else is refused
    before a connection is tried."""
    found = _ADDRESS.fullmatch(text.strip()) if len(text) <= MAX_ADDRESS else None
    if not found or not 1 <= int(found[3]) <= 65535:
        shown = repr(text) if len(text) <= 60 else f"{text[:40]!r}… ({len(text):,} characters)"
        raise PnpError(f"{shown} is not a scheduler address: write tcp://HOST:PORT (e.g. tcp://10.0.0.5:8786)")
    return text.strip()


def _distributed() -> Any:
    try:
        import distributed
    except ImportError:
        raise PnpError(f"--cluster needs the Dask distributed client: {INSTALL_HINT}") from None
    return distributed


def _pnp_version() -> str:
    """Runs on each worker: the pnp it imports."""
    return pnp.__version__


def _connect(distributed: Any, address: str) -> Any:
    try:
        # set_as_default=False: the client is this run's, not the process's default.
        return distributed.Client(address, timeout=CONNECT_SECONDS, set_as_default=False)
    except (OSError, TimeoutError) as error:
        raise PnpError(f"--cluster {address}: no scheduler answered within {CONNECT_SECONDS:.0f} s "
                       f"({type(error).__name__})") from None


def _check_workers(client: Any, address: str) -> int:
    """The worker threads of the cluster, once every worker runs this pnp."""
    try:
        client.wait_for_workers(1, timeout=WORKERS_SECONDS)
    except TimeoutError:
        raise PnpError(f"--cluster {address}: the scheduler has had no worker for "
                       f"{WORKERS_SECONDS:.0f} s (start some: dask worker {address})") from None
    versions: dict[str, str] = client.run(_pnp_version)
    other = sorted(f"{worker} has pnp {version}" for worker, version in versions.items()
                   if version != pnp.__version__)
    if other:
        raise PnpError(f"--cluster {address}: workers must run pnp {pnp.__version__} like this machine; "
                       + ", ".join(other))
    threads: dict[str, int] = client.nthreads()
    return max(1, sum(threads.values()))


def clustered(work: Callable[[J], R], jobs_given: Iterable[J], address: str) -> Iterator[R]:
    """``work`` of each job on the cluster at ``address``, each result as it comes (in any
    order). A window of jobs is in flight at a time; closing the iterator early (an error,
    Ctrl-C) cancels what is still queued."""
    distributed = _distributed()
    client = _connect(distributed, check_address(address))
    try:
        window = IN_FLIGHT_PER_THREAD * _check_workers(client, address)
        waiting = iter(jobs_given)
        running = distributed.as_completed(loop=client.loop)

        def submit(count: int) -> None:
            for job in itertools.islice(waiting, count):
                # pure=False: two equal jobs are still two runs (no result is shared by key).
                running.add(client.submit(work, job, pure=False))

        submit(window)
        for future in running:
            try:
                result: R = future.result()
            except PnpError:
                raise
            except Exception as error:
                raise PnpError(f"--cluster {address}: a job failed on a worker: "
                               f"{type(error).__name__}: {error}") from None
            submit(1)
            yield result
    finally:
        client.close()
