"""The balance report's HTML opened in headless Chromium (Debian's chromium and chromedriver,
as tests/serve drives it): its SVG charts are there, and the numbers their marks stand for, and
the heights the browser lays them out at, are the JSON report's."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from selenium import webdriver
from selenium.webdriver.common.by import By

from pnp.cli import cli
from tests.browser import browser  # noqa: F401  (the fixture)

ARGS = ["simulate", "niutouwang", "--sweep", "rules.row_limit=5,6,7", "--players", "4..5",
        "--games", "120", "--jobs", "1"]


@pytest.fixture(scope="module")
def made(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, Any]]:
    folder = tmp_path_factory.mktemp("balance")
    page = folder / "report.html"
    runner = CliRunner()
    result = runner.invoke(cli, [*ARGS, "--format", "html", "--out", str(page)], catch_exceptions=False)
    assert result.exit_code == 0, result.output
    data = runner.invoke(cli, [*ARGS, "--format", "json"], catch_exceptions=False)
    return page, json.loads(data.stdout)


def test_the_page_is_self_contained(made: tuple[Path, dict[str, Any]]) -> None:
    text = made[0].read_text(encoding="utf-8")
    assert not re.search(r'(src|href)="', text)
    assert "<link" not in text and "@import" not in text
    assert text.count("<svg ") == len(re.findall(r'<svg xmlns="http://www.w3.org/2000/svg"', text))


def _number(text: str | None) -> float:
    assert text is not None
    return float(text)


def test_charts_show_the_json_numbers(browser: webdriver.Chrome,  # noqa: F811
                                      made: tuple[Path, dict[str, Any]]) -> None:
    page, data = made
    browser.get(page.as_uri())
    charts = browser.find_elements(By.CSS_SELECTOR, "svg.chart")
    # Per setting: wins by seat and the score distribution; over the sweep: winning score and
    # spread and turns against row_limit (rounds, always 1 in the SP game, get no chart).
    assert len(charts) == 2 * len(data["settings"]) + 3
    assert browser.find_elements(By.ID, "length.rounds-swept") == []
    for section in data["settings"]:
        chart = browser.find_element(By.ID, f"wins-{section['id']}")
        bars = chart.find_elements(By.CSS_SELECTOR, "rect.bar")
        assert len(bars) == section["players"]
        heights = []
        for bar, figure in zip(bars, section["wins"]["by_seat"], strict=True):
            for key in ("value", "low", "high"):
                assert _number(bar.get_attribute(f"data-{key}")) == figure[key]
            title = bar.find_element(By.TAG_NAME, "title").get_attribute("textContent")
            assert f"{figure['value']:.1%}" in title and f"{figure['low']:.1%}–{figure['high']:.1%}" in title
            heights.append(browser.execute_script("return arguments[0].getBBox().height", bar))
        # What the eye compares: bar heights in the ratio of the win shares.
        for height, figure in zip(heights, section["wins"]["by_seat"], strict=True):
            assert height / max(heights) == pytest.approx(
                figure["value"] / max(f["value"] for f in section["wins"]["by_seat"]), abs=0.01)
        assert len(chart.find_elements(By.CSS_SELECTOR, "line.whisker")) == 3 * section["players"]
        fair = chart.find_element(By.CSS_SELECTOR, "line.fair")
        assert _number(fair.get_attribute("data-value")) == section["wins"]["fair"]
    swept = browser.find_element(By.ID, "scores.winning-swept")
    points = swept.find_elements(By.CSS_SELECTOR, "circle.point")
    assert len(points) == len(data["settings"])
    for point in points:
        section = data["settings"][int(_number(point.get_attribute("data-setting")))]
        assert _number(point.get_attribute("data-value")) == section["scores"]["winning"]["value"]
        assert _number(point.get_attribute("data-high")) == section["scores"]["winning"]["high"]
    embedded = browser.execute_script("return document.getElementById('report').textContent")
    assert json.loads(embedded) == data
