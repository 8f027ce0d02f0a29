"""A sheet template filled with what fits its slots, the rest imposed after it (issue 21, item
4): every shipped game builds on the shipped templates in both scripts, read back from its PDF;
a game's own templates before the workspace's before the shipped ones; `sheet` in pnp.toml."""

from __future__ import annotations

import json
import shutil

import pytest
import yaml
from click.testing import CliRunner
from pypdf import PdfReader

from pnp.build.kinds import COMPONENTS
from pnp.build.outputs import Output
from pnp.build.pipeline import SheetOptions, make
from pnp.cli import cli
from pnp.core.workspace import Workspace
from tests.conftest import ROOT
from tests.layout import test_sheet_templates
from tests.layout.test_sheet_templates import build, cards, page_mm, same_places
from tests.sheetprobe import sheet_items

# `pnp new`'s game cut down to its twelve poker cards: the fixture deck_workspace.
deck = test_sheet_templates.deck_workspace

GAMES = ("aizhewudi", "niutouwang", "tisigui", "wurenshenghuan")
SHIPPED = ROOT / "pnp" / "core" / "sheets"
# The shipped templates' papers, as the standards give them.
PAPERS = {"poker-3x3-a4": (210, 297), "poker-3x3-letter": (215.9, 279.4)}
CARD = (63, 88)  # the shipped templates' slots, poker cards
BLEED = 3


def declared_slots(name: str) -> list[tuple[float, float]]:
    """The slots' top-left corners as the shipped file declares them (read here with PyYAML,
    not with pnp's loader), each a 63 × 88 mm upright slot."""
    data = yaml.safe_load((SHIPPED / f"{name}.yaml").read_text(encoding="utf-8"))
    assert all(slot["size"] == list(CARD) and slot.get("rotate", 0) == 0 for slot in data["slots"])
    return [tuple(slot["at"]) for slot in data["slots"]]


def front_place(at: tuple[float, float], height: float) -> tuple[float, float, float, float, bool]:
    """The card form's box (mm, from the page's bottom-left) in a slot whose trim's top-left is ``at``."""
    return (at[0] - BLEED, height - at[1] - CARD[1] - BLEED, CARD[0] + 2 * BLEED, CARD[1] + 2 * BLEED, False)


def component_of(form: str) -> str:
    """The component of a face form ``face-<component>-<card>-<side>`` (no shipped component's id has a -)."""
    return form.removeprefix("face-").split("-", 1)[0]


def is_back_of(back: str, front: str) -> bool:
    """Whether form ``back`` is the back of the card whose front is ``front``: its own back, or
    its component's shared one (``face-<component>-_all-back``)."""
    own = back.removesuffix("-back") == front.removesuffix("-front")
    return own or (back.endswith("-_all-back") and front.startswith(back.removesuffix("_all-back")))


def poker_forms(page) -> list:  # noqa: ANN001 - a pypdf page
    """The card forms of poker size a page places, upright or turned."""
    sizes = {(CARD[0] + 2 * BLEED, CARD[1] + 2 * BLEED), (CARD[1] + 2 * BLEED, CARD[0] + 2 * BLEED)}
    return [f for f in sheet_items(page).forms if f.name.startswith("face-")
            and (round(f.box.width, 2), round(f.box.height, 2)) in sizes]


@pytest.fixture(scope="module")
def shipped_builds(tmp_path_factory) -> dict[str, object]:
    """Each shipped game's component sheets on each shipped template, both scripts, through the
    build pipeline (components only: the books do not use templates)."""
    out = tmp_path_factory.mktemp("mix")
    reports = {}
    for name in PAPERS:
        outputs = [Output(slug, lang, COMPONENTS) for slug in GAMES for lang in ("zh-Hant", "zh-Hans")]
        reports[name] = make(Workspace(ROOT), out / name, outputs, "a4", force=True,
                             sheet=SheetOptions(sheet=name))
    return {"out": out, "reports": reports}


@pytest.mark.parametrize("lang", ["zh-Hant", "zh-Hans"])
@pytest.mark.parametrize("name", sorted(PAPERS))
@pytest.mark.parametrize("slug", GAMES)
def test_every_shipped_game_fills_the_template_then_computed_sheets(shipped_builds, slug, name, lang):
    reader = PdfReader(shipped_builds["out"] / name / slug / lang / "components.pdf")
    width, height = PAPERS[name]
    # One paper for the whole PDF: the template's, though the build was asked for A4.
    assert {page_mm(page) for page in reader.pages} == {(round(width, 1), round(height, 1))}
    slots = [front_place(at, height) for at in declared_slots(name)]
    mirrored = [(width - x - w, y, w, h, turned) for x, y, w, h, turned in slots]
    pages = list(reader.pages)
    on_template = 0
    sheets = 0
    # Template sheets come first, front then back: every piece on them a poker card in a
    # declared slot, filled in the template's order, with crop marks round them.
    while sheets * 2 < len(pages):
        front, back = pages[2 * sheets], pages[2 * sheets + 1]
        forms = [f for f in sheet_items(front).forms if f.name.startswith("face-")]
        if not forms or poker_forms(front) != forms:
            break
        placed = cards_of(forms)
        assert placed == same_places(slots[:len(placed)])
        assert [s for s in sheet_items(front).strokes if not s.dashed], "no crop marks"
        # Each back is in its front's slot mirrored left to right, and is that card's back.
        backs = [f for f in sheet_items(back).forms if f.name.startswith("face-")]
        assert backs and all(f.name.endswith("-back") for f in backs)
        for form in backs:
            place = cards_of([form])
            found = [i for i, slot in enumerate(mirrored[:len(forms)]) if place == same_places([slot])]
            assert len(found) == 1, f"{form.name} at {place}: in no mirrored slot of a card"
            index = found[0]
            assert is_back_of(form.name, forms[index].name), (form.name, forms[index].name)
        on_template += len(forms)
        sheets += 1
    assert sheets >= 1
    # Then the computed sheets, with the pieces no slot takes: none of them a poker card.
    later = pages[2 * sheets:]
    assert later, "every shipped game has pieces no poker slot takes"
    assert not any(poker_forms(page) for page in later)
    assert all(sheet_items(page).forms for page in later[::2])
    share = dict(shipped_builds["reports"][name].sheets)[slug]
    assert sum(count for _, count in share.on_template) == on_template
    assert share.on_computed


def cards_of(forms: list) -> list[tuple[float, float, float, float, bool]]:
    return [(round(f.box.x, 2), round(f.box.y, 2), round(f.box.width, 2), round(f.box.height, 2), f.turned)
            for f in forms]


def test_tisigui_reports_what_went_where(tmp_path):
    """tisigui's six identity cards and its reference card fill seven slots; its shields,
    board, tokens and dice go on computed sheets; the report says so, in text and JSON."""
    result = CliRunner().invoke(cli, ["--root", str(ROOT), "build", "tisigui", "--lang", "zh-Hant",
                                      "--sheet", "poker-3x3-a4", "--out", str(tmp_path / "out")])
    assert result.exit_code == 0, result.output
    assert ("tisigui: sheet template poker-3x3-a4 (pnp/core/sheets/poker-3x3-a4.yaml): in its slots "
            "identity ×6, reference ×1; on computed sheets shield ×6, board ×1") in result.stderr
    reader = PdfReader(tmp_path / "out" / "tisigui" / "zh-Hant" / "components.pdf")
    names = [component_of(f.name) for f in sheet_items(reader.pages[0]).forms if f.name.startswith("face-")]
    assert names == ["identity"] * 6 + ["reference"]
    later = {component_of(f.name) for page in reader.pages[2:] for f in sheet_items(page).forms}
    assert {"shield", "board", "plate", "score", "question", "cube", "big_die", "small_die"} <= later
    result = CliRunner().invoke(cli, ["--root", str(ROOT), "build", "tisigui", "--lang", "zh-Hant",
                                      "--sheet", "poker-3x3-a4", "--out", str(tmp_path / "out"),
                                      "--force", "--format", "json"])
    report = json.loads(result.stdout)
    assert report["sheets"]["tisigui"]["on_template"] == {"identity": 6, "reference": 1}
    assert report["sheets"]["tisigui"]["on_computed"]["score"] == 43
    assert report["sheets"]["tisigui"]["template"] == "poker-3x3-a4"


def test_new_games_markers_and_pad_follow_its_cards(tmp_path):
    """`pnp new`'s game: twelve poker cards fill the template (a full sheet and three), its
    round markers and score pad are imposed after, on the template's paper."""
    root = tmp_path / "ws"
    root.mkdir()
    assert CliRunner().invoke(cli, ["--root", str(root), "new", "demo"]).exit_code == 0
    code, output = build(root, root / "out", "--sheet", "poker-3x3-letter")
    assert code == 0, output
    reader = PdfReader(root / "out" / "demo" / "zh-Hant" / "components.pdf")
    assert {page_mm(page) for page in reader.pages} == {(215.9, 279.4)}
    slots = [front_place(at, 279.4) for at in declared_slots("poker-3x3-letter")]
    assert cards(reader.pages[0]) == same_places(slots)
    assert cards(reader.pages[2]) == same_places(slots[:3])
    later = [component_of(f.name) for page in reader.pages[4:] for f in sheet_items(page).forms]
    assert "cards" not in later and later
    assert len(reader.pages) % 2 == 0  # each sheet with its back


# --------------------------------------------------------------------------------------------
# Where a template is found, and pnp.toml


def one_slot(paper: str) -> str:
    return f"paper: {paper}\nslots:\n  - {{at: [20, 30], size: [63, 88]}}\n"


def test_a_games_own_template_comes_before_the_workspaces_and_the_shipped(deck, tmp_path):
    root = tmp_path / "ws"
    shutil.copytree(deck, root)
    own = root / "card_data" / "demo" / "sheets" / "poker-3x3-a4.yaml"
    workspace = root / "sheets" / "poker-3x3-a4.yaml"
    for file, paper in ((own, "a5"), (workspace, "b5")):
        file.parent.mkdir(parents=True)
        file.write_text(one_slot(paper), encoding="utf-8")
    pdf = root / "out" / "demo" / "zh-Hant" / "components.pdf"
    for expected in ((148, 210), (176, 250), (210, 297)):  # the game's, the workspace's, pnp's
        code, output = build(root, root / "out", "--sheet", "poker-3x3-a4")
        assert code == 0, output
        assert page_mm(PdfReader(pdf).pages[0]) == expected
        (own if own.exists() else workspace).unlink(missing_ok=True)


def test_sheet_in_pnp_toml_and_sheet_overriding_it(deck, tmp_path):
    root = tmp_path / "ws"
    shutil.copytree(deck, root)
    (root / "card_data" / "demo" / "sheets").mkdir()
    (root / "card_data" / "demo" / "sheets" / "one-up.yaml").write_text(one_slot("a5"), encoding="utf-8")
    (root / "pnp.toml").write_text('sheet = "One-Up"\n', encoding="utf-8")
    pdf = root / "out" / "demo" / "zh-Hant" / "components.pdf"
    code, output = build(root, root / "out")
    assert code == 0, output
    reader = PdfReader(pdf)
    assert page_mm(reader.pages[0]) == (148, 210)
    assert len(reader.pages) == 24  # 12 cards, one to a sheet, each with its back
    assert cards(reader.pages[0]) == same_places([(17, 210 - 118 - 3, 69, 94, False)])
    code, output = build(root, root / "out", "--sheet", "poker-3x3-letter")
    assert code == 0 and "--sheet option changed" in output, output
    assert page_mm(PdfReader(pdf).pages[0]) == (215.9, 279.4)


def test_a_games_template_edit_rebuilds_that_games_sheets_alone(tmp_path):
    root = tmp_path / "ws"
    root.mkdir()
    for slug in ("one", "two"):
        assert CliRunner().invoke(cli, ["--root", str(root), "new", slug]).exit_code == 0
    (root / "card_data" / "one" / "sheets").mkdir()
    mine = root / "card_data" / "one" / "sheets" / "poker-3x3-a4.yaml"
    mine.write_text(one_slot("a4"), encoding="utf-8")
    args = ["--root", str(root), "build", "all", "--lang", "zh-Hant", "--sheet", "poker-3x3-a4"]
    assert CliRunner().invoke(cli, args).exit_code == 0
    mine.write_text(one_slot("a4").replace("[20, 30]", "[25, 30]"), encoding="utf-8")
    result = CliRunner().invoke(cli, [*args, "--format", "json"])
    outcomes = {(o["game"], o["output"]): o["status"] for o in json.loads(result.stdout)["outputs"]}
    assert outcomes[("one", "components")] == "rebuilt"
    assert outcomes[("two", "components")] == "up-to-date"
