"""A game folder cannot make the preview page call out: in a real browser, a narration naming
remote pictures and links loads nothing but the preview's own files.

The "remote" addresses are a beacon server of the test's own on another port of 127.0.0.1 (a
different origin, and a listener that counts every request that reaches it) and an address of
TEST-NET-2 (198.51.100.0/24, never routed). The browser's own network log must show requests to
the preview's origin alone; a picture the test adds to the page itself, past the narration's
filter, must be stopped by the Content-Security-Policy.
"""

from __future__ import annotations

import http.server
import json
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from selenium import webdriver
from selenium.common.exceptions import StaleElementReferenceException
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

from tests.liveproc import Live

FAR = "http://198.51.100.7"


class _Beacon(http.server.ThreadingHTTPServer):
    daemon_threads = True
    hits: list[str]


class _Counting(http.server.BaseHTTPRequestHandler):
    server: _Beacon

    def do_GET(self) -> None:  # noqa: N802 (http.server's naming)
        self.server.hits.append(self.path)
        self.send_response(200)
        self.send_header("Content-Type", "image/gif")
        self.send_header("Content-Length", "0")
        self.end_headers()

    def log_message(self, format: str, *args: object) -> None:  # noqa: A002
        pass


@pytest.fixture
def beacon() -> Iterator[tuple[str, list[str]]]:
    """(origin, paths requested) of a server that counts the requests reaching it."""
    server = _Beacon(("127.0.0.1", 0), _Counting)
    server.hits = []
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.1}, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}", server.hits
    finally:
        server.shutdown()
        server.server_close()


def _requested(driver: webdriver.Chrome) -> list[str]:
    """Every URL the browser asked the network for since the last call, from its log: a request
    the Content-Security-Policy blocked is logged as begun, then failed as "csp", and left out."""
    urls: dict[str, str] = {}
    blocked: set[str] = set()
    for entry in driver.get_log("performance"):
        message = json.loads(entry["message"])["message"]
        params = message["params"]
        if message["method"] == "Network.requestWillBeSent":
            urls[params["requestId"]] = params["request"]["url"]
        elif message["method"] == "Network.loadingFailed" and params.get("blockedReason") == "csp":
            blocked.add(params["requestId"])
    return [url for request, url in urls.items() if request not in blocked]


def test_remote_pictures_and_links_in_a_narration_load_nothing(
        workspace_copy: Path, browser: webdriver.Chrome, beacon: tuple[str, list[str]]) -> None:
    origin, hits = beacon
    narration = workspace_copy / "templates" / "tisigui" / "narration.md.j2"
    remote = (f"\n{{% if not excerpt %}}\n\n![beacon-picture]({origin}/narration.png) ![far-picture]({FAR}/far.png) "
              f"![protocol-relative](//127.0.0.1:{origin.rsplit(':', 1)[1]}/protocol.png) "
              f"[a-link]({origin}/link) <{origin}/autolink> ![by-reference][far]\n\n"
              f"[far]: {origin}/reference.png\n{{% endif %}}\n")
    narration.write_text(narration.read_text(encoding="utf-8") + remote, encoding="utf-8")
    live = Live("serve", "tisigui", "--lang", "zh-Hant", "--port", "0", cwd=workspace_copy)
    try:
        url = live.expect(r"^serving (http://127\.0\.0\.1:\d+/) \(Ctrl-C to stop\)", timeout=60).group(1)
        browser.get(url)
        wait = WebDriverWait(browser, 240, poll_frequency=0.25,
                             ignored_exceptions=(StaleElementReferenceException,))
        # The link's text shows once the sample game is on the page, with or without its link.
        wait.until(lambda d: "a-link" in (d.execute_script(
            "const s = document.querySelector('details.sample'); return s ? s.textContent : '';") or ""))
        # The page's own style and script run under the policy: the header sticks (page.css),
        # the sample game, played after the page loaded, came by page.js's long poll.
        assert browser.execute_script(
            "return getComputedStyle(document.querySelector('header')).position;") == "sticky"
        sample = browser.find_element(By.CSS_SELECTOR, "details.sample")
        # The pictures' descriptions and the links' text are shown; nothing points away.
        for words in ("beacon-picture", "far-picture", "protocol-relative", "a-link", "by-reference"):
            assert words in sample.get_attribute("textContent"), words
        addresses = browser.execute_script(
            "return [...document.querySelectorAll('[src], [href]')].map(e => e.src || e.href);")
        assert addresses and all(address.startswith(url) for address in addresses), addresses

        # Past the narration's filter (a picture the page itself is made to add), the browser
        # still loads nothing from elsewhere: the policy stops it and says so.
        violations = browser.execute_async_script("""
            const done = arguments[arguments.length - 1], seen = [];
            document.addEventListener("securitypolicyviolation", e => seen.push(e.blockedURI));
            const picture = new Image();
            picture.src = arguments[0] + "/added-by-script.png";
            document.body.append(picture);
            fetch(arguments[0] + "/fetched").catch(() => {});
            setTimeout(() => done(seen), 1500);""", origin)
        assert any(blocked.startswith(origin) for blocked in violations), violations

        requested = _requested(browser)
        assert any(address.startswith(url) for address in requested)
        # (The browser's own chrome:// pages of its first tab are no network.)
        away = [address for address in requested
                if address.startswith(("http:", "https:", "ws:", "wss:", "//")) and not address.startswith(url)]
        assert away == [], away
        assert hits == []  # the beacon heard nothing
    finally:
        live.close()
