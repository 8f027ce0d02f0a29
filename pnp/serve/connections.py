"""What a client of the preview server may hold: how many connections, for how long, how big a
request.

A connection costs the server a thread and a file descriptor. Idle sockets and clients that
trickle their headers a byte at a time (slowloris) would otherwise hold both for ever, and a
few hundred of them exhaust the descriptors (256 by default on macOS): the server then accepts
nobody, the page included. So:

- at most MAX_CONNECTIONS are open; a new one closes the one that has waited longest for its
  request (or, when every connection is busy answering, the oldest of those): a flood of
  held-open sockets ends its own oldest members, never the browser's newest request;
- a request's line and headers must arrive whole within HEAD_SECONDS of the connection
  starting to wait for them, however slowly they trickle; each read or write of a socket may
  take IDLE_SECONDS (an idle keep-alive connection closes after that);
- a request line is at most MAX_REQUEST_LINE bytes, the line and headers together at most
  MAX_HEAD_BYTES; the preview takes no request body.
"""

from __future__ import annotations

import contextlib
import http.client
import io
import socket
import threading
import time

MAX_CONNECTIONS = 64
HEAD_SECONDS = 10.0
IDLE_SECONDS = 5.0
MAX_REQUEST_LINE = 4096
MAX_HEAD_BYTES = 16384
MAX_WAITING_POLLS = 16  # /version long polls held at once; more are answered at once
CHUNK = 64 * 1024  # a streamed file is read and sent this much at a time


class Connections:
    """The open connections and, for each, since when it waits for a request head (None while
    it is answering one). Used from the accepting thread and every connection's thread."""

    def __init__(self, limit: int = MAX_CONNECTIONS, head_seconds: float = HEAD_SECONDS) -> None:
        self.limit = limit
        self.head_seconds = head_seconds
        self._lock = threading.Lock()
        self._open: dict[socket.socket, float | None] = {}
        self._order: dict[socket.socket, float] = {}  # when each was accepted

    def admit(self, connection: socket.socket) -> None:
        """Count a new connection in, first making room for it if the limit is reached."""
        with self._lock:
            if len(self._open) >= self.limit:
                waiting = [(since, c) for c, since in self._open.items() if since is not None]
                candidates = waiting or [(self._order[c], c) for c in self._open]
                self._cut(min(candidates, key=lambda item: item[0])[1])
            now = time.monotonic()
            self._open[connection] = now
            self._order[connection] = now

    def waiting(self, connection: socket.socket) -> None:
        """The connection waits for its next request head from now."""
        with self._lock:
            if connection in self._open:
                self._open[connection] = time.monotonic()

    def busy(self, connection: socket.socket) -> None:
        """The connection's request head is in: it is being answered."""
        with self._lock:
            if connection in self._open:
                self._open[connection] = None

    def forget(self, connection: socket.socket) -> None:
        """Before the connection is closed: one closed while still counted could have its
        descriptor reused by a new connection, which a cut would then shut."""
        with self._lock:
            self._open.pop(connection, None)
            self._order.pop(connection, None)

    def expire(self) -> None:
        """Cut every connection whose request head is overdue."""
        deadline = time.monotonic() - self.head_seconds
        with self._lock:
            for connection, since in list(self._open.items()):
                if since is not None and since < deadline:
                    self._cut(connection)

    def __len__(self) -> int:
        with self._lock:
            return len(self._open)

    def _cut(self, connection: socket.socket) -> None:
        """End a connection from another thread (the lock held): its reader sees the end of the
        stream, its writer an error, and its own thread closes it. It counts no more from now."""
        self._open.pop(connection, None)
        self._order.pop(connection, None)
        with contextlib.suppress(OSError):
            connection.shutdown(socket.SHUT_RDWR)


class BoundedHead:
    """A request's header lines read from ``stream`` with at most ``budget`` bytes in all; one
    more is http.client's LineTooLong, which the standard handler answers with 431."""

    def __init__(self, stream: io.BufferedIOBase, budget: int) -> None:
        self._stream = stream
        self._left = budget

    def readline(self, limit: int = -1) -> bytes:
        wanted = self._left + 1 if limit < 0 else min(limit, self._left + 1)
        line = self._stream.readline(wanted)
        self._left -= len(line)
        if self._left < 0:
            raise http.client.LineTooLong(f"request headers over {MAX_HEAD_BYTES} bytes")
        return line
