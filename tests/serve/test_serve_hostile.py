"""``pnp serve`` against hostile clients: floods of held-open and slow connections, oversized
and unreadable requests, slow readers of a large file. The server must answer the page
throughout, answer what it cannot read with a 4xx, and hold its memory.

The floods run against a server in a process of its own (tests/serve/standalone.py), with
the limit on open files macOS gives every process (256): before the limits, a few hundred
held-open sockets took every descriptor and the server accepted nobody.
"""

from __future__ import annotations

import contextlib
import http.client
import re
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from pnp.core.workspace import Workspace
from pnp.serve.connections import HEAD_SECONDS, IDLE_SECONDS, MAX_HEAD_BYTES, MAX_REQUEST_LINE
from pnp.serve.markdown import markdown_html
from pnp.serve.preview import Preview
from pnp.serve.server import PreviewServer

ROOT = Path(__file__).resolve().parents[2]
FACE = "tisigui/zh-Hant/png/identity-ghost-front.png"
BIG = "tisigui/zh-Hant/components.pdf"
BIG_BYTES = 50 * 2**20


@contextlib.contextmanager
def _standalone(workspace: Path, files: int = 0) -> Iterator[tuple[int, int]]:
    """(port, pid) of a preview server in its own process."""
    command = [sys.executable, "-m", "tests.serve.standalone", str(workspace), "tisigui"]
    process = subprocess.Popen([*command, *(["--files", str(files)] if files else [])], cwd=ROOT,
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        assert process.stdout is not None
        line = process.stdout.readline()
        found = re.match(r"serving http://127\.0\.0\.1:(\d+)/", line)
        assert found, line + process.stdout.read()
        yield int(found.group(1)), process.pid
    finally:
        process.kill()
        process.wait(timeout=10)
        if process.stdout is not None:
            process.stdout.close()


def _root(workspace: Path) -> Path:
    """The preview root the standalone server serves, with one face in it."""
    root = workspace / "output" / ".serve"
    (root / FACE).parent.mkdir(parents=True)
    (root / FACE).write_bytes(b"\x89PNG face")
    return root


def _get(port: int, path: str, timeout: float = 5) -> tuple[int, bytes, float]:
    """Status, body and seconds taken of a GET."""
    started = time.monotonic()
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    try:
        connection.request("GET", path)
        response = connection.getresponse()
        return response.status, response.read(), time.monotonic() - started
    finally:
        connection.close()


def _raw(port: int, request: bytes, timeout: float = 10) -> http.client.HTTPResponse:
    """The answer to bytes sent as they are (read whole before returning)."""
    with socket.create_connection(("127.0.0.1", port), timeout=timeout) as sock:
        sock.sendall(request)
        response = http.client.HTTPResponse(sock)
        response.begin()
        response.read()
        return response


def _rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    raise AssertionError(f"no VmRSS for {pid}")


def test_the_page_answers_through_a_flood_of_idle_and_slow_connections(workspace_copy: Path) -> None:
    _root(workspace_copy)
    with _standalone(workspace_copy, files=256) as (port, _pid):
        assert _get(port, "/")[0] == 200
        held: list[socket.socket] = []
        stop = threading.Event()
        try:
            for _ in range(300):  # open and silent
                held.append(socket.create_connection(("127.0.0.1", port), timeout=5))
            slow = []
            for _ in range(50):  # a request line, then headers a byte at a time (slowloris)
                sock = socket.create_connection(("127.0.0.1", port), timeout=5)
                sock.sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n")
                slow.append(sock)

            def trickle() -> None:
                for _ in range(int(HEAD_SECONDS * 4)):  # bounded: HEAD_SECONDS + a margin
                    for sock in slow:
                        with contextlib.suppress(OSError):
                            sock.send(b"X")
                    if stop.wait(0.25):
                        return

            trickler = threading.Thread(target=trickle, daemon=True)
            trickler.start()
            held.extend(slow)
            for path in ("/", "/version", f"/files/{FACE}"):
                status, _body, seconds = _get(port, path)
                assert status == 200, path
                assert seconds < 3, (path, seconds)
            # The slow clients are cut once their head is overdue, however much they sent.
            deadline = time.monotonic() + HEAD_SECONDS + 5
            for sock in slow:
                sock.settimeout(max(deadline - time.monotonic(), 0.1))
                with contextlib.suppress(ConnectionResetError):
                    while sock.recv(4096):
                        pass
            assert time.monotonic() < deadline
            assert _get(port, "/")[0] == 200
        finally:
            stop.set()
            for sock in held:
                sock.close()


def test_an_idle_connection_is_closed(served_here: tuple[int, Path]) -> None:
    port, _ = served_here
    with socket.create_connection(("127.0.0.1", port), timeout=IDLE_SECONDS + 5) as sock:
        started = time.monotonic()
        assert sock.recv(1) == b""  # closed by the server, not by our timeout
        assert time.monotonic() - started < IDLE_SECONDS + 2


@pytest.fixture
def served_here(workspace_copy: Path) -> Iterator[tuple[int, Path]]:
    """A preview server in this process over a hand-made root: (port, root)."""
    root = _root(workspace_copy)
    (root / "tisigui/zh-Hant/rulebook.pdf").write_bytes(b"%PDF-1.7 not really")
    preview = Preview(Workspace(workspace_copy), "tisigui")
    with PreviewServer(preview, "127.0.0.1", 0) as server:
        yield int(server.url.rstrip("/").rsplit(":", 1)[1]), root


HOST = b"Host: 127.0.0.1\r\n"


@pytest.mark.parametrize(("request_bytes", "status"), [
    (b"GET /" + b"a" * MAX_REQUEST_LINE + b" HTTP/1.1\r\n" + HOST + b"\r\n", 414),
    (b"GET / HTTP/1.1\r\n" + HOST + b"X-Padding: " + b"a" * MAX_HEAD_BYTES + b"\r\n\r\n", 431),
    (b"GET / HTTP/1.1\r\n" + HOST + b"".join(b"X-%d: a\r\n" % n for n in range(2000)) + b"\r\n", 431),
    (b"GET / HTTP/1.1\r\n" + HOST + b"Content-Length: 1000000\r\n\r\n" + b"a" * 100, 413),
    (b"GET / HTTP/1.1\r\n" + HOST + b"Transfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n0\r\n\r\n", 413),
    (b"POST / HTTP/1.1\r\n" + HOST + b"Content-Length: 5\r\n\r\nhello", 501),
])
def test_oversized_requests_and_bodies_are_refused(served_here: tuple[int, Path], request_bytes: bytes,
                                                   status: int) -> None:
    port, _ = served_here
    assert _raw(port, request_bytes).status == status


@pytest.mark.parametrize("request_bytes", [
    b"\r\n",  # an empty request line
    b"GET /\r\n",  # HTTP/0.9: no version, no headers
    b"GET / HTTP/1.1 extra\r\n" + HOST + b"\r\n",
    b"GET /%zz HTTP/1.1\r\n" + HOST + b"\r\n",  # malformed percent-encoding
    b"GET /files/%E4%B8 HTTP/1.1\r\n" + HOST + b"\r\n",  # a cut-off UTF-8 sequence
    b"GET /files/%ff%fe.png HTTP/1.1\r\n" + HOST + b"\r\n",  # not UTF-8 once decoded
    b"GET /files/\xe7\xa2\x9f.png HTTP/1.1\r\n" + HOST + b"\r\n",  # raw bytes in the target
    b"GET /\xff HTTP/1.1\r\n" + HOST + b"\r\n",
    b"GET /version?after=%G1 HTTP/1.1\r\n" + HOST + b"\r\n",
    b"GET /version?after=%ff HTTP/1.1\r\n" + HOST + b"\r\n",
    b"GET /version?%ff=1 HTTP/1.1\r\n" + HOST + b"\r\n",
    b"GET /version?after=%C2%B2 HTTP/1.1\r\n" + HOST + b"\r\n",  # a superscript two: isdigit, not int
    b"GET /version?after=" + b"9" * 4000 + b" HTTP/1.1\r\n" + HOST + b"\r\n",  # 4,000 digits
    b"GET /version?after=-1 HTTP/1.1\r\n" + HOST + b"\r\n",
    b"GET * HTTP/1.1\r\n" + HOST + b"\r\n",
    b"GET /\x01 HTTP/1.1\r\n" + HOST + b"\r\n",
])
def test_a_request_the_server_cannot_read_is_answered_400(served_here: tuple[int, Path],
                                                          request_bytes: bytes) -> None:
    port, _ = served_here
    response = _raw(port, request_bytes)
    assert response.status == 400
    assert response.getheader("Content-Security-Policy", "").startswith("default-src 'self'")
    assert _get(port, "/")[0] == 200  # and the server goes on


def test_every_answer_carries_the_content_security_policy(served_here: tuple[int, Path]) -> None:
    port, root = served_here
    answers = {
        "page": b"GET / HTTP/1.1\r\n",
        "style": b"GET /page.css HTTP/1.1\r\n",
        "script": b"GET /page.js HTTP/1.1\r\n",
        "version": b"GET /version HTTP/1.1\r\n",
        "balance page": b"GET /balance/tisigui HTTP/1.1\r\n",
        "balance style": b"GET /balance.css HTTP/1.1\r\n",
        "balance script": b"GET /balance.js HTTP/1.1\r\n",
        "balance data": b"GET /balance/tisigui.json HTTP/1.1\r\n",
        "balance of no game": b"GET /balance/nogame.json HTTP/1.1\r\n",
        "image": f"GET /files/{FACE}?v=1 HTTP/1.1\r\n".encode(),
        "pdf": b"GET /files/tisigui/zh-Hant/rulebook.pdf HTTP/1.1\r\n",
        "font": b"GET /fonts/PnpSansTC-Regular.ttf HTTP/1.1\r\n",
        "head": f"HEAD /files/{FACE} HTTP/1.1\r\n".encode(),
        "not found": b"GET /nothing HTTP/1.1\r\n",
        "bad request": b"GET /%zz HTTP/1.1\r\n",
        "other host": b"GET / HTTP/1.1\r\nHost: attacker.example\r\n\r\n",
        "too long": b"GET /" + b"a" * MAX_REQUEST_LINE + b" HTTP/1.1\r\n",
        "method": b"DELETE / HTTP/1.1\r\n",
    }
    statuses = {}
    for name, start in answers.items():
        request = start if start.endswith(b"\r\n\r\n") else start + HOST + b"\r\n"
        with socket.create_connection(("127.0.0.1", port), timeout=10) as sock:
            sock.sendall(request)
            response = http.client.HTTPResponse(sock, method="HEAD" if name == "head" else "GET")
            response.begin()
            body = response.read()
        statuses[name] = response.status
        policy = response.getheader("Content-Security-Policy", "")
        directives = dict(item.strip().partition(" ")[::2] for item in policy.split(";"))
        assert directives.get("default-src") == "'self'", (name, policy)
        assert "unsafe-inline" not in policy and "*" not in policy, name
        assert response.getheader("X-Content-Type-Options") == "nosniff", name
        if name == "page":
            # Nothing inline for the policy to forbid: style and script are files of the server.
            assert b"<style" not in body and b"<script>" not in body and b" style=" not in body
            assert b'<script src="/page.js">' in body and b'href="/page.css"' in body
        if name == "balance page":
            assert b"<style" not in body and b"<script>" not in body and b" style=" not in body
            assert b'<script src="/balance.js">' in body and b'href="/balance.css"' in body
    assert statuses == {"page": 200, "style": 200, "script": 200, "version": 200, "balance page": 200,
                        "balance style": 200, "balance script": 200, "balance data": 200,
                        "balance of no game": 404, "image": 200, "pdf": 200,
                        "font": 200, "head": 200, "not found": 404, "bad request": 400, "other host": 403,
                        "too long": 414, "method": 501}


def test_slow_readers_of_a_large_file_keep_the_server_small(workspace_copy: Path) -> None:
    root = _root(workspace_copy)
    big = root / BIG
    with big.open("wb") as out:  # real bytes, not a sparse file: the server must read them
        block = bytes(range(256)) * 4096
        for _ in range(BIG_BYTES // len(block)):
            out.write(block)
    with _standalone(workspace_copy) as (port, pid):
        assert _get(port, "/")[0] == 200
        baseline = _rss_mb(pid)
        readers = []
        try:
            for _ in range(30):
                sock = socket.create_connection(("127.0.0.1", port), timeout=10)
                sock.sendall(f"GET /files/{BIG} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".encode())
                readers.append(sock)
            peak = baseline
            for _ in range(12):  # each reader takes a little now and then
                for sock in readers:
                    sock.recv(16384)
                peak = max(peak, _rss_mb(pid))
                time.sleep(0.25)
            assert peak - baseline < 64, f"{peak - baseline:.0f} MB for 30 readers of a {BIG_BYTES >> 20} MB file"
            assert _get(port, "/version")[0] == 200
        finally:
            for sock in readers:
                sock.close()
        # A reader that reads it all gets all of it, byte for byte.
        status, body, _seconds = _get(port, f"/files/{BIG}", timeout=60)
        assert status == 200
        assert body == big.read_bytes()


@pytest.mark.parametrize("address", [
    "http://198.51.100.7/beacon.png", "HTTPS://198.51.100.7/b.png", "//198.51.100.7/b.png",
    "data:image/gif;base64,R0lGODlhAQABAAAAACw=", "ftp://198.51.100.7/b", " http://198.51.100.7/b",
])  # (``/\host``, which a browser reads as ``//host``, markdown-it writes as the path ``/%5Chost``)
def test_a_narration_names_nothing_outside_the_preview(address: str) -> None:
    html = markdown_html(f"![beacon]({address}) [a link]({address}) ![by reference][far] <{address}>\n\n"
                         f"[far]: {address}\n\n![here](/pages/x.png) [top](#tisigui)\n")
    # Only the preview's own picture and fragment are addresses; the rest is text.
    assert re.findall(r'(?:src|href)="([^"]*)"', html) == ["/pages/x.png", "#tisigui"], html
    assert html.count("<img") == 1 and html.count("<a ") == 1
    assert "beacon" in html and "a link" in html and "by reference" in html  # the words stay


def test_narration_tables_align_by_class_not_style() -> None:
    html = markdown_html("| a | b |\n|--:|:-:|\n| 1 | 2 |\n")
    assert "style=" not in html
    assert '<td class="align-right">1</td>' in html and '<th class="align-center">b</th>' in html
