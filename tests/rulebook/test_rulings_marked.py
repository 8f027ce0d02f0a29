"""Every ruling of docs/rulings.md is marked 〔本版補充〕 where its game's rulebook applies it.

docs/rulings.md has a section per game (``## tisigui``) with an entry per ruling
(``### tisigui-player-count``). An entry a player need not be told of says so under
``**Not marked.**``. The rulebook template marks a sentence with ``{{ ruling("<id>") }}``;
here the rendered rulebook of each shipped game is read back: every entry of its section but
the unmarked ones must be marked somewhere in it, no unmarked one may be, and every mark must
name an entry of its own game's section.
"""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path

import pytest

from pnp.rulebook.source import ruling_marks
from tests.check.test_check import check_json, findings
from tests.conftest import ROOT, book_markdown, edit, game_workspace

GAMES = ("tisigui", "wurenshenghuan", "niutouwang", "aizhewudi")


@cache
def sections() -> dict[str, dict[str, bool]]:
    """Per ``## <section>`` of docs/rulings.md: each ``### <id>`` and whether it is marked
    (False when its entry says ``**Not marked.**``)."""
    found: dict[str, dict[str, bool]] = {}
    section = entry = ""
    for line in (ROOT / "docs" / "rulings.md").read_text(encoding="utf-8").splitlines():
        if line.startswith("## "):
            section = line[3:].strip()
            found[section] = {}
        elif line.startswith("### "):
            entry = line[4:].strip()
            found[section][entry] = True
        elif line.startswith("**Not marked.**"):
            found[section][entry] = False
    return found


@cache
def rulebook(game: str) -> str:
    return book_markdown(ROOT, game)


def test_the_rulings_document_has_a_section_per_game() -> None:
    assert set(GAMES) <= set(sections())
    assert all(entry.startswith(f"{game}-") for game in GAMES for entry in sections()[game])


@pytest.mark.parametrize("game", GAMES)
def test_every_ruling_is_marked_where_the_book_applies_it(game: str) -> None:
    marked = {mark.ruling for mark in ruling_marks(rulebook(game))}
    entries = sections()[game]
    unmarked = sorted(entry for entry, wanted in entries.items() if wanted and entry not in marked)
    assert unmarked == [], f"{game}: rulings the rulebook applies without the 〔本版補充〕 mark"
    wrongly = sorted(entry for entry, wanted in entries.items() if not wanted and entry in marked)
    assert wrongly == [], f"{game}: rulings docs/rulings.md says are not marked, marked anyway"


@pytest.mark.parametrize("game", GAMES)
def test_every_mark_names_a_ruling_of_its_game(game: str) -> None:
    strangers = sorted({mark.ruling for mark in ruling_marks(rulebook(game))} - set(sections()[game]))
    assert strangers == [], f"{game}: marks naming no entry of docs/rulings.md's {game} section"


@pytest.mark.parametrize("game", GAMES)
def test_the_book_says_what_the_mark_means_before_the_first_mark(game: str) -> None:
    # The legend is the label alone (no ruling), before any ruling's mark.
    text = rulebook(game)
    legend = re.search(r"\[[^\]]+\]\(ruling:\)", text)
    first = re.search(r"\[[^\]]+\]\(ruling:[a-z]", text)
    assert legend and first and legend.start() < first.start()


@pytest.mark.parametrize("game", GAMES)
def test_the_player_aid_carries_no_marks(game: str) -> None:
    aid = book_markdown(ROOT, game, aid=True)
    assert aid is not None and "(ruling:" not in aid


def test_a_malformed_ruling_id_stops_the_rulebook(tmp_path: Path) -> None:
    root = game_workspace(tmp_path, "niutouwang", templates=True)
    edit(root / "templates/niutouwang/rulebook.md.j2", "## 遊戲簡介\n", '## 遊戲簡介\n\n{{ ruling("SP ending") }}。\n')
    code, report = check_json(root, "niutouwang")
    assert code == 1
    messages = [f["message"] for f in findings(report, "niutouwang", "reference")]
    assert any("ruling 'SP ending': a ruling id is lower-case words joined by hyphens" in m for m in messages)
