"""The real headless browser the preview and balance-report tests drive (Debian's chromium, through chromedriver).

Required, never skipped: .ci/run installs chromium and chromium-driver. The browser logs its
network events (``driver.get_log("performance")``), so a test can see every request it made.
"""

from __future__ import annotations

import shutil
import tempfile
from collections.abc import Iterator

import pytest
from selenium import webdriver
from selenium.webdriver.chrome.service import Service

FLAGS = ("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--window-size=1280,1600")


def _program(*names: str) -> str:
    for name in names:
        found = shutil.which(name)
        if found:
            return found
    pytest.fail(f"{' or '.join(names)} not found: install Debian's chromium and chromium-driver "
                "(apt-get install -y chromium chromium-driver; .ci/run does it)")


@pytest.fixture
def browser() -> Iterator[webdriver.Chrome]:
    options = webdriver.ChromeOptions()
    options.binary_location = _program("chromium", "chromium-browser")
    options.set_capability("goog:loggingPrefs", {"performance": "ALL"})
    profile = tempfile.mkdtemp(prefix="pnp-chromium-")
    for flag in (*FLAGS, f"--user-data-dir={profile}"):
        options.add_argument(flag)
    driver = webdriver.Chrome(options=options, service=Service(_program("chromedriver")))
    driver.set_page_load_timeout(60)
    driver.set_script_timeout(30)
    try:
        yield driver
    finally:
        driver.quit()
        shutil.rmtree(profile, ignore_errors=True)
        shutil.rmtree(profile, ignore_errors=True)
