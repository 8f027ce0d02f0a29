"""The serve tests' fixtures: the real headless browser (tests/browser.py)."""

from tests.browser import browser  # noqa: F401  (the fixture)
