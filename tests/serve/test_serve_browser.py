"""``pnp serve`` in a real headless browser (Debian's chromium, driven by chromedriver).

The page loads and shows every card face, the sheets, the rulebook, the check report and a
sample game; a saved edit shows up without a reload; a broken save shows its error above the
last good faces; Ctrl-C ends the server cleanly. The browser is required, never skipped:
.ci/run installs chromium and chromium-driver.
"""

from __future__ import annotations

import hashlib
import re
import urllib.request
from pathlib import Path

import yaml
from pypdf import PdfReader
from selenium import webdriver
from selenium.common.exceptions import StaleElementReferenceException
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

from tests.conftest import edit
from tests.liveproc import Live

GHOST = "tisigui/zh-Hant/png/identity-ghost-front.png"
HUMAN = "tisigui/zh-Hant/png/identity-human-front.png"


def _faces(driver: webdriver.Chrome) -> dict[str, tuple[str, int]]:
    """data-face -> (src, natural width; 0 while the image is not loaded or broken)."""
    found = driver.execute_script(
        "return [...document.querySelectorAll('img.face')].map("
        "i => [i.dataset.face, i.getAttribute('src'), i.complete ? i.naturalWidth : 0]);")
    return {face: (src, width) for face, src, width in found}


def _all_loaded(driver: webdriver.Chrome, selector: str = "img.face") -> bool:
    """Every image ``selector`` finds is decoded (and there is at least one)."""
    widths = driver.execute_script(
        "return [...document.querySelectorAll(arguments[0])].map(i => i.complete ? i.naturalWidth : 0);", selector)
    return bool(widths) and all(width > 0 for width in widths)


def _idle(driver: webdriver.Chrome) -> bool:
    """The preview has finished its round: built, checked, played."""
    return "busy" not in (driver.execute_script(
        "const s = document.getElementById('status'); return s ? s.className : 'busy';") or "")


def _errors(driver: webdriver.Chrome) -> str:
    """The error box's text, '' when there is none.

    Read in one script: the page swaps the box for a new one on every round, so an element
    found first and read later can already be gone (a stale element).
    """
    return driver.execute_script(
        "const e = document.getElementById('errors'); return e ? e.innerText : '';") or ""


def _fetch(url: str) -> bytes:
    with urllib.request.urlopen(url, timeout=30) as reply:
        return reply.read()


def test_the_page_shows_the_game_and_follows_each_save(workspace_copy: Path, browser: webdriver.Chrome) -> None:
    components = workspace_copy / "card_data" / "tisigui" / "components.yaml"
    live = Live("serve", "tisigui", "--lang", "zh-Hant", "--port", "0", cwd=workspace_copy)
    try:
        url = live.expect(r"^serving (http://127\.0\.0\.1:\d+/) \(Ctrl-C to stop\)", timeout=60).group(1)
        browser.get(url)
        # A round replaces parts of the page; an element caught mid-swap is looked up again.
        wait = WebDriverWait(browser, 240, poll_frequency=0.25,
                             ignored_exceptions=(StaleElementReferenceException,))
        wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, "pre.check")
                   and d.find_elements(By.CSS_SELECTOR, "details.sample") and _all_loaded(d))

        # Every component of the data has its faces on the page, each a decoded image.
        ids = [component["id"] for component in yaml.safe_load(components.read_text(encoding="utf-8"))["components"]]
        faces = _faces(browser)
        for component_id in ids:
            assert any(Path(face).name.startswith(component_id + "-") for face in faces), component_id
        assert GHOST in faces and HUMAN in faces
        assert "tisigui/zh-Hant/png/identity-back.png" in faces  # the deck's back

        # A thumbnail per sheet and per rulebook page: as many as the built PDFs have pages.
        built = workspace_copy / "output" / ".serve" / "tisigui" / "zh-Hant"
        sheets = browser.find_elements(By.CSS_SELECTOR, "img.sheet")
        pages = browser.find_elements(By.CSS_SELECTOR, "img.page")
        assert len(sheets) == len(PdfReader(built / "components.pdf").pages)
        assert len(pages) >= len(PdfReader(built / "rulebook.pdf").pages)
        wait.until(lambda d: _all_loaded(d, "img.sheet") and _all_loaded(d, "img.page"))
        assert "tisigui: ok" in browser.find_element(By.CSS_SELECTOR, "pre.check").text
        sample = browser.find_element(By.CSS_SELECTOR, "details.sample")
        assert sample.find_elements(By.TAG_NAME, "h1") and len(sample.text) > 200
        assert not browser.find_elements(By.ID, "errors")

        # Edit a card's text: the page picks the new face up by itself.
        browser.execute_script("window.pnpMarker = 'same page';")
        ghost_src, human_src = faces[GHOST][0], faces[HUMAN][0]
        ghost_before = _fetch(url.rstrip("/") + ghost_src)
        edit(components, "title: 碟仙,", "title: 碟仙王,")
        wait.until(lambda d: _faces(d).get(GHOST, ("",))[0] not in ("", ghost_src) and _all_loaded(d)
                   and _idle(d))
        assert browser.execute_script("return window.pnpMarker;") == "same page"  # no reload
        faces = _faces(browser)
        new_src = faces[GHOST][0]
        ghost_after = _fetch(url.rstrip("/") + new_src)
        assert hashlib.sha256(ghost_after).digest() != hashlib.sha256(ghost_before).digest()
        assert ghost_after.startswith(b"\x89PNG")
        assert faces[HUMAN][0] == human_src  # a face the edit did not touch keeps its picture

        # A broken save: its error (file, line, what is wrong) above the last good faces.
        lines = components.read_text(encoding="utf-8").splitlines()
        line = next(number for number, text in enumerate(lines, start=1) if "title: 碟仙王," in text)
        edit(components, "title: 碟仙王,", "title: [碟仙王,")
        wait.until(lambda d: "malformed YAML" in _errors(d))
        error = _errors(browser)
        # The parser names the line where it noticed: the edited one, or the next.
        assert re.search(rf"card_data/tisigui/components\.yaml:({line}|{line + 1}): malformed YAML", error), error
        assert error.startswith("Error: 1 problem found:")
        assert _faces(browser)[GHOST][0] == new_src and _all_loaded(browser)

        # A field-level problem names the field.
        edit(components, "title: [碟仙王,", "title: 碟仙王,")
        edit(components, "    size: poker\n    front: identity_front", "    size: pokr\n    front: identity_front")
        size_line = next(number for number, text in enumerate(
            components.read_text(encoding="utf-8").splitlines(), start=1) if "size: pokr" in text)
        wait.until(lambda d: "pokr" in _errors(d))
        assert (f"card_data/tisigui/components.yaml:{size_line}: components[0].size: unknown size 'pokr'"
                in _errors(browser))

        # Fixed: the error goes away, and the page is still the one opened at the start.
        edit(components, "size: pokr", "size: poker")
        wait.until(lambda d: not _errors(d) and _idle(d))
        assert _faces(browser)[GHOST][0] == new_src
        assert browser.execute_script("return window.pnpMarker;") == "same page"

        status = live.interrupt()
        assert status == 0, live.output
        assert "Traceback" not in live.output
        assert live.lines[-1] == "stopped"
    finally:
        live.close()
