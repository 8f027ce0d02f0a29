"""``pnp serve``'s balance page in a real headless browser, after real saves of game.yaml.

The page loads from the preview's own origin, draws a bar per seat, shows the numbers of its
JSON, fills in while the sweep plays, starts again (a new generation) after a save of the
rules, shows a rules error as the terminal would, and never holds up the preview's answers.
"""

from __future__ import annotations

import json
import re
import urllib.request
from pathlib import Path
from typing import Any

from selenium import webdriver
from selenium.common.exceptions import StaleElementReferenceException
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

from tests.conftest import edit, game_workspace
from tests.liveproc import Live

RULES = Path("card_data") / "niutouwang" / "game.yaml"


def _json(url: str) -> dict[str, Any]:
    with urllib.request.urlopen(url, timeout=30) as reply:
        found: dict[str, Any] = json.loads(reply.read())
        return found


def _page(driver: webdriver.Chrome) -> dict[str, Any]:
    """What the page shows, read in one script (the page redraws itself on every change)."""
    found: dict[str, Any] = driver.execute_script("""
        const root = document.getElementById("balance");
        const error = document.getElementById("balance-error");
        return {
          generation: root.dataset.generation, games: root.dataset.games, status: root.dataset.status,
          text: document.getElementById("balance-status").textContent,
          error: error.hidden ? "" : error.textContent,
          settings: [...document.querySelectorAll("section.balance-setting")].map((s) => ({
            id: s.dataset.setting, players: s.dataset.players,
            heading: s.querySelector("h2").textContent,
            cells: [...s.querySelectorAll("td.seat-win")].map((td) => td.textContent),
            bars: [...s.querySelectorAll("svg[id^='wins-'] rect.bar")].map((r) => [
              r.getAttribute("data-seat"), r.getAttribute("data-value"),
              r.getAttribute("data-low"), r.getAttribute("data-high")]),
          })),
        };""")
    return found


def _requested(driver: webdriver.Chrome) -> list[str]:
    """Every address the browser asked for since the last call (its network log)."""
    return [json.loads(entry["message"])["message"]["params"]["request"]["url"]
            for entry in driver.get_log("performance")
            if json.loads(entry["message"])["message"]["method"] == "Network.requestWillBeSent"]


def test_the_balance_page_fills_in_and_follows_rules_saves(tmp_path: Path, browser: webdriver.Chrome) -> None:
    root = game_workspace(tmp_path, "niutouwang", templates=True)
    live = Live("serve", "niutouwang", "--lang", "zh-Hant", "--port", "0", cwd=root)
    try:
        url = live.expect(r"^serving (http://127\.0\.0\.1:\d+/) \(Ctrl-C to stop\)", timeout=60).group(1)
        data = f"{url}balance/niutouwang.json"
        assert _json(data)["status"] == "not started"
        # The game's preview links to its balance page (once its first build is shown).
        browser.get(url)
        wait = WebDriverWait(browser, 240, poll_frequency=0.1, ignored_exceptions=(StaleElementReferenceException,))
        wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, "#niutouwang a.balance-link"))
        browser.find_element(By.CSS_SELECTOR, "#niutouwang a.balance-link").click()
        wait.until(lambda d: d.current_url == url + "balance/niutouwang")

        # The games count grows between two reads of the endpoint while the sweep plays, and
        # the preview's /version answers meanwhile.
        view = _json(data)
        while not (view["status"] == "running" and view["games"] > 0):
            view = _json(f"{data}?after={view['version']}")
        version = _json(f"{url}version")
        assert isinstance(version["version"], int) and version["activity"] == ""
        later = _json(f"{data}?after={view['version']}")
        assert later["generation"] == 1 and later["games"] > view["games"]
        wait.until(lambda d: _page(d)["status"] == "done")

        # The page shows the endpoint's numbers: a bar per seat in each setting, its value and
        # interval, and the same figures in the table.
        final = _json(data)
        shown = _page(browser)
        assert final["status"] == "done" and shown["games"] == str(final["games"]) == "600"
        assert "done: 600 games" in shown["text"]
        assert [s["players"] for s in shown["settings"]] == ["4", "5", "6"]
        for section, expected in zip(shown["settings"], final["settings"], strict=True):
            seats = expected["wins"]["by_seat"]
            assert len(section["bars"]) == expected["players"] == len(seats)
            assert section["bars"] == [[str(i), str(s["value"]), str(s["low"]), str(s["high"])]
                                       for i, s in enumerate(seats)]
            # The table: each seat's share and interval to a tenth of a percent.
            assert len(section["cells"]) == len(seats)
            for cell, share in zip(section["cells"], seats, strict=True):
                assert re.fullmatch(r"\d+\.\d% \(\d+\.\d%–\d+\.\d%\)", cell), cell
                shown_numbers = [float(n) / 100 for n in re.findall(r"\d+\.\d", cell)]
                for number, exact in zip(shown_numbers, (share["value"], share["low"], share["high"]), strict=True):
                    assert abs(number - exact) <= 0.0005 + 1e-9, (cell, share)
            assert section["heading"] == f"{expected['players']} players · 200 games"
        first_scores = [s["scores"] for s in final["settings"]]

        # A save of the rules: a new generation, whose count starts again from nothing.
        edit(root / RULES, "  row_limit: 6 ", "  row_limit: 5 ")
        view = _json(f"{data}?after={final['version']}")
        while view["generation"] == 1:
            view = _json(f"{data}?after={view['version']}")
        assert view["generation"] == 2 and view["games"] < 600
        wait.until(lambda d: _page(d)["generation"] == "2" and _page(d)["status"] == "done")
        second = _json(data)
        assert second["games"] == 600 and [s["scores"] for s in second["settings"]] != first_scores

        # Rules that do not load: the error as the terminal prints it, and no traceback.
        edit(root / RULES, "  row_limit: 5 ", "  row_limit: 0 ")
        wait.until(lambda d: _page(d)["generation"] == "3" and _page(d)["status"] == "error")
        shown = _page(browser)
        assert shown["error"].startswith("Error: ")
        assert "game.yaml:27: rules.row_limit: must be at least 2, got 0" in shown["error"]
        assert "Traceback" not in shown["error"] and shown["settings"] == []

        # Everything the pages asked for over the network came from the preview itself.
        requested = [address for address in _requested(browser) if address.startswith(("http", "ws"))]
        assert f"{url}balance.js" in requested and f"{data}?after=" in requested
        assert [address for address in requested if not address.startswith(url)] == []

        assert live.interrupt() == 0, live.output
        assert "Traceback" not in live.output
    finally:
        live.close()
