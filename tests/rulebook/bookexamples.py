"""Reading a rulebook's worked examples back, for the tests that re-derive every claim.

Each book's test (tests/test_examples_<slug>.py) reads the rulebook as the build renders it
(the Markdown in the game's source script, figures and tables still as markers) and checks
each sentence of its examples against what the engine makes of the same game or script,
worked out again in the test, never taken from the example code that wrote the sentence.
"""

from __future__ import annotations

import atexit
import re
import shutil
import tempfile
from functools import cache
from pathlib import Path
from typing import Any

from pnp.build.pipeline import build
from pnp.core.choices import LANGS
from pnp.core.workspace import Workspace
from pnp.data.load import load_game
from pnp.data.model import Game
from pnp.games.registry import tables_from_engine
from pnp.play.examples import book_engine
from pnp.play.narrate import play_sample
from pnp.rulebook.source import marks_as_printed, rulebook_markdown
from pnp.text.convert import converter_for
from tests.conftest import ROOT
from tests.pdfprobe import text


@cache
def game(slug: str) -> Game:
    return load_game(ROOT / "card_data" / slug, tables_from_engine)


@cache
def book(slug: str) -> str:
    """The rulebook's Markdown in the game's source script."""
    return rulebook_markdown(Workspace(ROOT), game(slug), book_engine(Workspace(ROOT), game(slug)))


def section(text: str, heading: str) -> str:
    """The text under the heading that starts with ``heading`` (any level), up to the next
    heading of the same level or above."""
    found = re.search(rf"^(#+) {re.escape(heading)}.*$", text, re.MULTILINE)
    assert found, f"no heading {heading!r}"
    level = len(found.group(1))
    rest = text[found.end():]
    end = re.search(rf"^#{{1,{level}}} ", rest, re.MULTILINE)
    return rest[: end.start()] if end else rest


def flat(text: str) -> str:
    """The text without spaces and line breaks: Chinese sets none, so a phrase is found
    whatever the template's spacing around numbers and bold marks."""
    return re.sub(r"\s+", "", text).replace("**", "")


def example_log(slug: str) -> dict[str, Any]:
    """The event log of game.yaml's ``example:`` game, as the engine plays it."""
    spec = game(slug).info.example
    assert spec is not None
    return play_sample(Workspace(ROOT), slug, spec.players, spec.seed, spec.variant,
                       game=game(slug)).log


@cache
def _built(slug: str) -> Path:
    out = Path(tempfile.mkdtemp(prefix=f"pnp-examples-{slug}-"))
    atexit.register(shutil.rmtree, out, ignore_errors=True)
    build(Workspace(ROOT), slug, "all", "a4", out)
    return out


# A page's running foot ("第 7 頁 無人生還・版本 pnp.1（2026-11-29）") can fall inside a
# paragraph that runs over a page break.
_FOOT = re.compile(r"第\d+[頁页][^（]{0,40}?・版本[^（]{0,40}（[\d-]+）")


def pdf_text(slug: str, lang: str) -> str:
    """The built rulebook's text in ``lang``, flat (see ``flat``), without page feet."""
    return _FOOT.sub("", flat(text(_built(slug) / slug / lang / "rulebook.pdf")))


def printed_in_both_scripts(slug: str, markdown: str) -> list[str]:
    """Each sentence of ``markdown`` (source script) that the built PDF of either script does
    not print, converted as the build converts it: empty when both books say it."""
    missing = []
    for lang in LANGS:
        printed = pdf_text(slug, lang)
        convert = converter_for(game(slug), lang)
        for line in convert(marks_as_printed(markdown)).splitlines():
            line = re.sub(r"^\s*(?:[->]|\d+\.|#+)\s*|@@\w+:[\w-]+@@", "", line)
            for sentence in re.split(r"(?<=[。：；])", flat(line)):
                if sentence and sentence not in printed:
                    missing.append(f"{lang}: {sentence}")
    return missing
