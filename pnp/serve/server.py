"""The preview's HTTP side: the standard library's threading server, a handful of routes.

``/`` the page; ``/version?after=N`` waits (a long poll, at most WAIT seconds) until the
preview's version is no longer N and answers it; ``/files/<path>`` a file of the preview's
build root; ``/pages/<key>`` a rasterised PDF page; ``/fonts/<file>`` one of the workspace's
font files the page uses. Nothing else is served: a path that leaves the build root, a hidden
file, a symlink out of it, another file of fonts/ are all 404. Bound to 127.0.0.1, the server
also refuses requests addressed to another host name (a web page elsewhere cannot reach it
through DNS rebinding).
"""

from __future__ import annotations

import http.server
import ipaddress
import json
import logging
import threading
from pathlib import Path
from typing import ClassVar
from urllib.parse import parse_qs, unquote, urlsplit

from pnp.core import files
from pnp.core.errors import PnpError
from pnp.serve.page import render_page
from pnp.serve.preview import Preview
from pnp.text.fonts import FACE_FILES
from pnp.text.fontscan import MAX_FONT_BYTES

log = logging.getLogger(__name__)

WAIT = 10.0  # seconds a /version request waits for a new version
TYPES = {".png": "image/png", ".pdf": "application/pdf", ".ttf": "font/ttf"}
FONT_NAMES = frozenset(name for files in FACE_FILES.values() for name in files)
LOCAL_NAMES = frozenset({"localhost", "127.0.0.1", "::1"})


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
    routes: ClassVar[dict[str, str]] = {"files": "_file", "pages": "_page", "fonts": "_font"}

    def do_HEAD(self) -> None:  # noqa: N802 (http.server's naming)
        self._answer(head=True)

    def do_GET(self) -> None:  # noqa: N802
        self._answer(head=False)

    def _answer(self, head: bool) -> None:
        if not self._host_allowed():
            self._send(403, b"unknown host name\n", "text/plain; charset=utf-8", head)
            return
        url = urlsplit(self.path)
        path = unquote(url.path)
        preview = self.server.preview
        if path == "/":
            self._send(200, render_page(preview.state).encode("utf-8"), "text/html; charset=utf-8", head)
            return
        if path == "/version":
            after = parse_qs(url.query).get("after", [""])[0]
            state = preview.state
            if after.isdigit():
                state = preview.wait(int(after), WAIT)
            body = json.dumps({"version": state.version, "activity": state.activity}).encode()
            self._send(200, body, "application/json", head)
            return
        route, _, rest = path.lstrip("/").partition("/")
        method = self.routes.get(route)
        data = getattr(self, method)(rest) if method else None
        if data is None:
            self._send(404, b"not found\n", "text/plain; charset=utf-8", head)
            return
        # A URL with ?v= names one version of a file: it never changes, so the browser keeps it.
        lasting = route == "pages" or "v=" in url.query
        self._send(200, data, TYPES.get(Path(rest).suffix, "application/octet-stream"), head, lasting)

    def _file(self, relative: str) -> bytes | None:
        target = self.server.preview.file(relative)
        return target.read_bytes() if target is not None else None

    def _page(self, key: str) -> bytes | None:
        return self.server.preview.page(key)

    def _font(self, name: str) -> bytes | None:
        if name not in FONT_NAMES:
            return None
        try:  # the one reader: a fonts/ (or a face in it) that links out is refused, 404
            return files.read_bytes(self.server.preview.workspace.fonts / name, limit=MAX_FONT_BYTES)
        except PnpError:
            return None

    def _host_allowed(self) -> bool:
        if not _is_loopback(str(self.server.server_address[0])):
            return True  # served to the network on purpose (--host): any name may reach it
        host = self.headers.get("Host", "")
        name = host.rsplit(":", 1)[0] if not host.endswith("]") else host
        return name.strip("[]") in LOCAL_NAMES

    def _send(self, status: int, body: bytes, kind: str, head: bool, lasting: bool = False) -> None:
        self.send_response(status)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Cache-Control", "max-age=31536000, immutable" if lasting else "no-cache")
        self.send_header("X-Content-Type-Options", "nosniff")
        self.end_headers()
        if not head:
            self.wfile.write(body)

    def log_message(self, format: str, *args: object) -> None:  # noqa: A002 (the base class's name)
        log.debug("%s " + format, self.address_string(), *args)


class _Server(http.server.ThreadingHTTPServer):
    daemon_threads = True  # a waiting /version request never holds up the end
    preview: Preview

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

    def __enter__(self) -> PreviewServer:
        return self.start()

    def __exit__(self, *_exc: object) -> None:
        self.stop()
