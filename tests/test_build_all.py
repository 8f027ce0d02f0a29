"""pnp build all --lang all: every game, both scripts, read back from the PDFs."""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

import pytest
from pypdf import PdfReader

from pnp.build import build
from pnp.i18n import foreign_characters
from pnp.workspace import Workspace
from tests.conftest import ROOT
from tests.pdfprobe import component_counts, fonts, page_sizes, text

GAMES = ("tisigui", "wurenshenghuan", "niutouwang", "aizhewudi")
FACES = {"zh-Hant": "PnpSansTC", "zh-Hans": "PnpSansSC"}


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("all")
    build(Workspace(ROOT), "all", "all", "a4", out)
    return out


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("lang", ["zh-Hant", "zh-Hans"])
def test_every_game_builds_pure_embedded_a4_pdfs(built, game, lang):
    for name in ("components.pdf", "rulebook.pdf"):
        path = built / game / lang / name
        assert page_sizes(path) == {(595.3, 841.9)}
        used = fonts(path)
        assert used and all(embedded for embedded in used.values()), used
        assert all(base.lstrip("/").split("+")[1].startswith(FACES[lang]) for base in used), used
        assert foreign_characters(text(path), lang) == [], (game, lang, name)


def _heads_by_the_rule(card: int) -> int:
    """The printed rule of 誰是牛頭王, written out here independently of the engine."""
    if card == 55:
        return 7
    if card % 11 == 0:
        return 5
    if card % 10 == 0:
        return 3
    if card % 5 == 0:
        return 2
    return 1


@pytest.mark.parametrize("lang", ["zh-Hant", "zh-Hans"])
def test_niutouwang_fronts_each_show_their_number_three_times(built, lang):
    reader = PdfReader(built / "niutouwang" / lang / "components.pdf")
    seen: Counter[int] = Counter()
    for page in reader.pages:
        placed = [int(n) for n in re.findall(rb"/FormXob\.face-cards-card-(\d+)-front Do",
                                             page.get_contents().get_data())]
        if not placed:
            continue
        numbers = [int(line) for line in page.extract_text().splitlines() if line.strip().isdigit()]
        # The only bare numbers on a sheet of card fronts are the cards' own numbers: each in
        # the centre and in two corner indices, so a fanned hand shows them.
        assert Counter(numbers) == Counter({n: 3 for n in placed})
        seen.update(numbers)
    assert seen == Counter({n: 3 for n in range(1, 105)})


def test_niutouwang_heads_drawn_on_each_card_follow_the_rule(built):
    reader = PdfReader(built / "niutouwang" / "zh-Hant" / "components.pdf")
    drawn: dict[int, int] = {}
    for page in reader.pages:
        xobjects = page["/Resources"].get("/XObject", {})
        for name, ref in xobjects.items():
            match = re.fullmatch(r"/FormXob\.face-cards-card-(\d+)-front", name)
            if match:
                content = ref.get_object().get_data()
                drawn[int(match.group(1))] = len(re.findall(rb"/FormXob\.sym-[a-z_]+ Do", content))
    # The heads in the centre and again in each corner index.
    assert drawn == {card: 3 * _heads_by_the_rule(card) for card in range(1, 105)}
    assert sum(drawn.values()) == 3 * 171


def test_wurenshenghuan_card_fronts(built):
    pdf = built / "wurenshenghuan" / "zh-Hant" / "components.pdf"
    assert [component_counts(pdf, c) for c in ("identity", "character", "item")] == [10, 10, 41]
    assert component_counts(pdf, "item", "back") == 41


def test_aizhewudi_card_fronts_and_markers(built):
    pdf = built / "aizhewudi" / "zh-Hant" / "components.pdf"
    cards = [component_counts(pdf, c) for c in ("character", "action", "bill", "ability")]
    assert cards == [6, 48, 40, 12]
    assert component_counts(pdf, "loved") + component_counts(pdf, "fickle") == 28
    # Each colour set of action cards carries its own back design.
    backs = {name for (name, side) in _faces(pdf) if side == "back" and name.startswith("face-action-")}
    assert len(backs) >= 6


def _faces(pdf: Path) -> set[tuple[str, str]]:
    from tests.pdfprobe import face_counts

    return set(face_counts(pdf))


def test_list_shows_every_game():
    from click.testing import CliRunner

    from pnp.cli import cli

    result = CliRunner().invoke(cli, ["--root", str(ROOT), "list", "--format", "json"])
    assert result.exit_code == 0, result.output
    import json

    games = {g["slug"]: {c["id"]: c["count"] for c in g["components"]} for g in json.loads(result.output)["games"]}
    assert set(GAMES) <= set(games)  # a designer's own new game may sit beside them
    assert games["niutouwang"]["cards"] == 104
    assert games["aizhewudi"]["bill"] == 40 and games["aizhewudi"]["action"] == 48
    assert games["wurenshenghuan"]["item"] == 41


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("lang", ["zh-Hant", "zh-Hans"])
def test_no_a4_sheet_prints_text_within_the_hardware_margin(built, game, lang):
    from tests.test_build_sheets import HARDWARE, nearest_text

    for page, distance, run in nearest_text(built / game / lang / "components.pdf"):
        assert distance >= HARDWARE - 1e-3, (page, distance, run)


def test_a4_sheet_counts(built):
    counts = {game: len(PdfReader(built / game / "zh-Hant" / "components.pdf").pages) // 2
              for game in GAMES}
    # Before the packer: tisigui 5, wurenshenghuan 12, niutouwang 15, aizhewudi 15. niutouwang
    # is 13 sheets of 8 cards, then the score pad's page with the 105th card (the reference)
    # at its foot: alone, that card took a sheet of its own (15 sheets). aizhewudi's character
    # tents are longer by their base tabs (63 x 111 mm, not 63 x 88): 15 sheets, not 14.
    assert counts == {"tisigui": 5, "wurenshenghuan": 11, "niutouwang": 14, "aizhewudi": 15}
