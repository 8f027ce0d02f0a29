"""ICU's line breaking against the previous breaker (uniseg) on every paragraph of the shipped
rulebooks and every printed table cell, in both scripts.

They agree everywhere except around the curly quotation marks zh-Hans writes (“ ”). uniseg
follows UAX #14 before Unicode 15.1, where a quotation mark glues to both neighbours, so
在“1”。 was one unit and a line could not end before “ or begin after ”. Unicode 15.1 (rule
LB19a, which ICU implements) lets an East Asian quotation mark break like the bracket it
stands for: a line may end before an opening “ and begin after a closing ” — exactly where
Chinese typesetting breaks around 「」 in zh-Hant. So every break ICU adds must sit just before
“/‘ or just after ”/’, and ICU must keep every break uniseg had.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from uniseg.linebreak import line_break_units

from pnp.build.pipeline import converter_for, load_games
from pnp.core.workspace import Workspace
from pnp.games.registry import tables_from_engine
from pnp.play.examples import book_engine
from pnp.render.grid import display_grid
from pnp.rulebook.source import MarkdownBlock, parse_markdown, rulebook_markdown
from pnp.text.linebreaks import break_offsets

ROOT = Path(__file__).resolve().parents[2]
OPENING_QUOTES = "“‘"
CLOSING_QUOTES = "”’"


def _texts(blocks: list[MarkdownBlock]):
    for block in blocks:
        if block.runs:
            yield "".join(run.text for run in block.runs)
        for item in block.items:
            yield "".join(run.text for run in item)
        yield from _texts(list(block.children))


def _uniseg_offsets(text: str) -> set[int]:
    offsets, end = set(), 0
    for unit in line_break_units(text):
        end += len(unit)
        offsets.add(end)
    return offsets


@pytest.fixture(scope="module")
def shipped_texts() -> dict[tuple[str, str], list[str]]:
    workspace = Workspace(ROOT)
    out = {}
    for game in load_games(workspace, workspace.game_slugs(), tables_from_engine):
        for lang in ("zh-Hant", "zh-Hans"):
            convert = converter_for(game, lang)
            markdown = rulebook_markdown(workspace, game, book_engine(workspace, game))
            texts = list(_texts(parse_markdown(convert(markdown))))
            for table in game.tables.values():
                texts += [cell.value for row in display_grid(table, convert) for cell in row]
            out[(game.slug, lang)] = texts
    return out


def test_icu_keeps_every_old_break_and_adds_only_breaks_at_quotation_marks(shipped_texts):
    changed = []
    for (slug, lang), texts in shipped_texts.items():
        for text in texts:
            icu, old = set(break_offsets(text)), _uniseg_offsets(text)
            assert old <= icu, f"{slug} {lang}: ICU lost a break in {text!r}"
            for offset in icu - old:
                before, after = text[offset - 1], text[offset] if offset < len(text) else ""
                assert after in OPENING_QUOTES or before in CLOSING_QUOTES, \
                    f"{slug} {lang}: new break after {text[:offset][-8:]!r} in {text!r}"
            if icu != old:
                changed.append((slug, lang))
    # The change is real and confined to the script that writes curly quotes.
    assert changed and all(lang == "zh-Hans" for _, lang in changed)


def test_the_two_agree_exactly_on_zh_hant(shipped_texts):
    for (slug, lang), texts in shipped_texts.items():
        if lang == "zh-Hant":
            for text in texts:
                assert set(break_offsets(text)) == _uniseg_offsets(text), (slug, text)
