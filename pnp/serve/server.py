"""The preview's HTTP side: the standard library's threading server, a handful of routes.

``/`` the page (``/page.css`` and ``/page.js`` its style and script); ``/version?after=N`` waits
(a long poll, at most WAIT seconds) until the preview's version is no longer N and answers it;
``/files/<path>`` a file of the preview's build root; ``/pages/<key>`` a rasterised PDF page;
``/fonts/<file>`` one of the workspace's font files the page uses; ``/balance/<slug>`` a game's
balance page (``/balance.css`` and ``/balance.js`` its style and script) and
``/balance/<slug>.json?after=N`` its figures, a long poll like ``/version`` (pnp.serve.balance
runs the sweep). Nothing else is served: a
path that leaves the build root, a hidden file, a symlink out of it, another file of fonts/
are all 404. Bound to 127.0.0.1, the server also refuses requests addressed to another host
name (a web page elsewhere cannot reach it through DNS rebinding).

Every answer carries a Content-Security-Policy that lets a page load, run, style and fetch
only what this server serves: a game folder's narration that names a remote picture cannot
make the browser call out. A request the server cannot read (a malformed request line or
percent-encoding, a target that is not UTF-8, a body) is answered 4xx, never dropped; files are
streamed, so a slow reader holds a buffer, not the file; what clients may hold open is bounded
by pnp.serve.connections.
"""

from __future__ import annotations

import http.server
import io
import ipaddress
import json
import logging
import os
import re
import threading
from collections.abc import Callable
from pathlib import Path
from typing import BinaryIO, ClassVar
from urllib.parse import unquote_to_bytes

from pnp.core import files
from pnp.core.errors import PnpError
from pnp.core.limits import MAX_FONT_BYTES
from pnp.core.numbers import too_long
from pnp.core.records import record
from pnp.serve.balance_page import SCRIPT as BALANCE_SCRIPT
from pnp.serve.balance_page import STYLE as BALANCE_STYLE
from pnp.serve.balance_page import balance_page
from pnp.serve.connections import (
    CHUNK,
    IDLE_SECONDS,
    MAX_HEAD_BYTES,
    MAX_REQUEST_LINE,
    MAX_WAITING_POLLS,
    BoundedHead,
    Connections,
)
from pnp.serve.page import SCRIPT, page_style, render_page
from pnp.serve.preview import Preview
from pnp.text.fonts import FACE_FILES

log = logging.getLogger(__name__)

WAIT = 10.0  # seconds a /version request waits for a new version
TYPES = {".png": "image/png", ".pdf": "application/pdf", ".ttf": "font/ttf"}
FONT_NAMES = frozenset(name for files in FACE_FILES.values() for name in files)
LOCAL_NAMES = frozenset({"localhost", "127.0.0.1", "::1"})
# The page's own origin for everything it loads, runs, styles or fetches; no <base>, no form,
# no framing by another site. Sent with every answer, whatever its type (a PDF or an image
# opened in a tab of its own is a document too).
POLICY = ("default-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'")
CSS, JS = "text/css; charset=utf-8", "text/javascript; charset=utf-8"
# The pages' styles and scripts: path -> (type, text).
STATIC: dict[str, tuple[str, Callable[[], str]]] = {
    "/page.css": (CSS, page_style), "/page.js": (JS, lambda: SCRIPT),
    "/balance.css": (CSS, lambda: BALANCE_STYLE), "/balance.js": (JS, lambda: BALANCE_SCRIPT),
}
# A request target is visible ASCII; a % starts a two-digit escape.
_TARGET = re.compile(r"/[\x21-\x7e]*")
_BAD_ESCAPE = re.compile(r"%(?![0-9A-Fa-f]{2})")


class BadRequest(ValueError):
    """A request target the server cannot read: answered 400 with the reason."""


@record
class Target:
    """A request target, percent-decoded: the path and the query's names and values."""

    path: str
    query: dict[str, str]


def _decoded(text: str, plus_is_space: bool = False) -> str:
    if _BAD_ESCAPE.search(text):
        raise BadRequest(f"malformed percent-encoding in {text[:80]!r}")
    if plus_is_space:
        text = text.replace("+", " ")
    try:
        return unquote_to_bytes(text).decode("utf-8")
    except UnicodeDecodeError:
        raise BadRequest(f"{text[:80]!r} is not UTF-8 once decoded") from None


def parse_target(target: str) -> Target:
    """The path and query of a request target (origin form: ``/path?query``); BadRequest for
    anything else, rather than a guess at what was meant."""
    if not _TARGET.fullmatch(target):
        raise BadRequest("the request target is not a path of visible ASCII characters")
    path, _, query = target.partition("?")
    path = path.partition("#")[0]
    fields: dict[str, str] = {}
    for pair in query.split("&") if query else ():
        name, _, value = pair.partition("=")
        fields.setdefault(_decoded(name, True), _decoded(value, True))
    return Target(_decoded(path), fields)


def _is_loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


class _Handler(http.server.BaseHTTPRequestHandler):
    server: _Server
    server_version = "pnp-serve"
    protocol_version = "HTTP/1.1"
    timeout = IDLE_SECONDS  # each read and write of the socket (StreamRequestHandler sets it)
    routes: ClassVar[dict[str, str]] = {"files": "_file", "pages": "_page", "fonts": "_font"}

    def handle_one_request(self) -> None:
        """The standard library's, with the request line and headers bounded and the
        connection's state told to the server (waiting for a head, or answering one)."""
        connections = self.server.connections
        connections.waiting(self.connection)
        try:
            self.raw_requestline = self.rfile.readline(MAX_REQUEST_LINE + 1)
            if not self.raw_requestline:
                self.close_connection = True
                return
            if len(self.raw_requestline) > MAX_REQUEST_LINE:
                self._refuse(414, f"a request line is at most {MAX_REQUEST_LINE} bytes")
                return
            if len(self.raw_requestline.split()) != 3:  # HTTP/0.9's bare "GET /" included
                self._refuse(400, "a request line is a method, a target and the HTTP version")
                return
            stream = self.rfile
            self.rfile = BoundedHead(stream, MAX_HEAD_BYTES - len(self.raw_requestline))  # type: ignore[assignment]
            try:
                parsed = self.parse_request()
            finally:
                self.rfile = stream
            if not parsed:
                return  # answered (400, 431, 505) by the standard library
            connections.busy(self.connection)
            if self.command not in ("GET", "HEAD"):
                self.send_error(501, "pnp serve answers GET and HEAD only")
                return
            if self.headers.get("Transfer-Encoding") or self.headers.get("Content-Length", "0").strip() != "0":
                self.send_error(413, "pnp serve takes no request body")
                return
            self._answer(head=self.command == "HEAD")
            self.wfile.flush()
        except TimeoutError:
            self.close_connection = True

    def _refuse(self, status: int, reason: str) -> None:
        self.requestline, self.request_version, self.command = "", "HTTP/1.1", ""
        self.send_error(status, reason)

    def _answer(self, head: bool) -> None:
        self._started = False
        if not self._host_allowed():
            self._send(403, b"unknown host name\n", "text/plain; charset=utf-8", head)
            return
        try:
            target = parse_target(self.path)
        except BadRequest as exc:
            self._send(400, f"bad request: {exc}\n".encode(), "text/plain; charset=utf-8", head)
            return
        try:
            self._route(target, head)
        except (ConnectionError, TimeoutError):
            raise
        except Exception:  # a bug must not drop the connection unanswered: 500, and the log has it
            log.exception("answering %r failed", self.path)
            if not self._started:
                self._send(500, b"internal error\n", "text/plain; charset=utf-8", head)
            self.close_connection = True

    def _route(self, target: Target, head: bool) -> None:
        path = target.path
        preview = self.server.preview
        if path == "/":
            self._send(200, render_page(preview.state).encode("utf-8"), "text/html; charset=utf-8", head)
            return
        if path in STATIC:
            kind, text = STATIC[path]
            self._send(200, text().encode("utf-8"), kind, head)
            return
        if path == "/version":
            self._version(target.query.get("after", ""), head)
            return
        route, _, rest = path.lstrip("/").partition("/")
        if route == "balance":
            self._balance(rest, target.query.get("after", ""), head)
            return
        method = self.routes.get(route)
        found = getattr(self, method)(rest) if method else None
        if found is None:
            self._send(404, b"not found\n", "text/plain; charset=utf-8", head)
            return
        # A URL with ?v= names one version of a file: it never changes, so the browser keeps it.
        lasting = route == "pages" or "v" in target.query
        kind = TYPES.get(Path(rest).suffix, "application/octet-stream")
        if isinstance(found, bytes):
            self._send(200, found, kind, head, lasting)
        else:
            self._stream(found, kind, head, lasting)

    def _version(self, after: str, head: bool) -> None:
        preview = self.server.preview
        state = preview.state
        if not self._after_ok(after, head):
            return
        # A waiting poll holds a thread: a few at once, the others are answered now.
        if after and self.server.polls.acquire(blocking=False):
            try:
                state = preview.wait(int(after), WAIT)
            finally:
                self.server.polls.release()
        body = json.dumps({"version": state.version, "activity": state.activity}).encode()
        self._send(200, body, "application/json", head)

    def _after_ok(self, after: str, head: bool) -> bool:
        """``after`` is a version number the page was given: ASCII digits, short enough for int."""
        if after and not (after.isascii() and after.isdigit() and too_long(after) is None):
            self._send(400, b"after= takes a version number\n", "text/plain; charset=utf-8", head)
            return False
        return True

    def _balance(self, rest: str, after: str, head: bool) -> None:
        """A game's balance page (opening it starts the game's sweep), or its figures."""
        lab = self.server.preview.balance
        slug = rest.removesuffix(".json")
        if not lab.serves(slug):
            self._send(404, b"not found: no such game in this preview\n", "text/plain; charset=utf-8", head)
            return
        if slug == rest:
            if not head:
                lab.open(slug)
            self._send(200, balance_page(slug, lab.games).encode("utf-8"), "text/html; charset=utf-8", head)
            return
        if not self._after_ok(after, head):
            return
        if after and self.server.polls.acquire(blocking=False):
            try:
                view = lab.wait(slug, int(after), WAIT)
            finally:
                self.server.polls.release()
        else:
            view = lab.view(slug)
        self._send(200, json.dumps(view, ensure_ascii=False).encode("utf-8"), "application/json", head)

    def _file(self, relative: str) -> Path | None:
        return self.server.preview.file(relative)

    def _page(self, key: str) -> bytes | None:
        return self.server.preview.page(key)

    def _font(self, name: str) -> Path | None:
        if name not in FONT_NAMES:
            return None
        try:  # a fonts/ (or a face in it) that links out of the workspace is refused: 404
            path = files.confined(self.server.preview.workspace.fonts / name)
            found = files.check_kind(path)
        except PnpError:
            return None
        return path if found is not None and found.st_size <= MAX_FONT_BYTES else None

    def _host_allowed(self) -> bool:
        if not _is_loopback(str(self.server.server_address[0])):
            return True  # served to the network on purpose (--host): any name may reach it
        host = self.headers.get("Host", "")
        name = host.rsplit(":", 1)[0] if not host.endswith("]") else host
        return name.strip("[]") in LOCAL_NAMES

    _started = False  # the status line of this request's answer is sent

    def _headers(self, status: int, kind: str, length: int, lasting: bool) -> None:
        self._started = True
        self.send_response(status)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(length))
        self.send_header("Cache-Control", "max-age=31536000, immutable" if lasting else "no-cache")
        self.end_headers()

    def _send(self, status: int, body: bytes, kind: str, head: bool, lasting: bool = False) -> None:
        self._headers(status, kind, len(body), lasting)
        if not head:
            self.wfile.write(body)

    def _stream(self, path: Path, kind: str, head: bool, lasting: bool) -> None:
        """A file sent CHUNK bytes at a time: the size it has once opened (a rebuild replaces
        files by renaming, so the open file stays whole), never the whole file in memory."""
        try:
            file: BinaryIO = path.open("rb")
        except OSError:
            self._send(404, b"not found\n", "text/plain; charset=utf-8", head)
            return
        with file:
            size = _size(file)
            self._headers(200, kind, size, lasting)
            if head:
                return
            sent = _copy(file, self.wfile, size)
        if sent != size:  # the file shrank under us: the client must not take it as whole
            self.close_connection = True

    def end_headers(self) -> None:
        # Every answer, the standard library's error pages included, carries the policy.
        self.send_header("Content-Security-Policy", POLICY)
        self.send_header("X-Content-Type-Options", "nosniff")
        self.send_header("Referrer-Policy", "no-referrer")
        super().end_headers()

    def log_message(self, format: str, *args: object) -> None:  # noqa: A002 (the base class's name)
        log.debug("%s " + format, self.address_string(), *args)


def _size(file: BinaryIO) -> int:
    return os.fstat(file.fileno()).st_size


def _copy(source: BinaryIO, target: io.BufferedIOBase, size: int) -> int:
    """Up to ``size`` bytes from ``source`` to ``target``, CHUNK at a time; how many went."""
    sent = 0
    while sent < size:
        chunk = source.read(min(CHUNK, size - sent))
        if not chunk:
            break
        target.write(chunk)
        sent += len(chunk)
    return sent


class _Server(http.server.ThreadingHTTPServer):
    daemon_threads = True  # a waiting /version request never holds up the end
    request_queue_size = 128  # a burst of connections waits in the backlog, not refused
    preview: Preview

    def __init__(self, address: tuple[str, int], handler: type[_Handler]) -> None:
        self.connections = Connections()
        self.polls = threading.BoundedSemaphore(MAX_WAITING_POLLS)
        super().__init__(address, handler)

    def process_request(self, request, client_address) -> None:  # type: ignore[no-untyped-def]
        self.connections.admit(request)
        super().process_request(request, client_address)

    def shutdown_request(self, request) -> None:  # type: ignore[no-untyped-def]
        self.connections.forget(request)
        super().shutdown_request(request)

    def service_actions(self) -> None:
        # Called by serve_forever between connections and at least every poll interval.
        self.connections.expire()

    def handle_error(self, request, client_address) -> None:  # type: ignore[no-untyped-def]
        # A browser that closes a connection mid-answer is no news; anything else is logged.
        log.debug("request from %s failed", client_address, exc_info=True)


class PreviewServer:
    """The preview served over HTTP from a thread of its own; ``stop`` ends it."""

    def __init__(self, preview: Preview, host: str = "127.0.0.1", port: int = 0) -> None:
        try:
            self._server = _Server((host, port), _Handler)
        except OSError as exc:
            raise PnpError(f"cannot serve on {host}:{port}: {exc.strerror or exc}"
                           + ("; choose another port with --port" if port else "")) from None
        self._server.preview = preview
        self._thread = threading.Thread(target=self._server.serve_forever, kwargs={"poll_interval": 0.2},
                                        name="pnp-serve", daemon=True)

    @property
    def url(self) -> str:
        host, port = str(self._server.server_address[0]), int(self._server.server_address[1])
        shown = f"[{host}]" if ":" in host else host
        return f"http://{shown}:{port}/"

    def start(self) -> PreviewServer:
        self._thread.start()
        return self

    def stop(self) -> None:
        if self._thread.is_alive():
            self._server.shutdown()
            self._thread.join(timeout=5)
        self._server.server_close()
        self._server.preview.balance.close()

    def __enter__(self) -> PreviewServer:
        return self.start()

    def __exit__(self, *_exc: object) -> None:
        self.stop()
