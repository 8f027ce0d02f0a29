"""Imposition plans kept between builds (pnp.render.keptplans): a kept plan is the packer's
plan, a components PDF imposed from it is a cold build's byte for byte, and an entry that is
damaged, not pnp's or not about these pieces is packed again, never trusted."""

from __future__ import annotations

import json
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

from pnp.build.manifest import MANIFEST_NAME
from pnp.build.pipeline import build
from pnp.core import diskcache
from pnp.core.workspace import Workspace
from pnp.layout.impose import impose
from pnp.layout.presets import SHEETS
from pnp.layout.sheetplan import Piece
from pnp.render import keptplans
from pnp.render.keptplans import AREA, decode, encode, entry_name, kept_impose
from tests.conftest import ROOT, edit

SPEC = SHEETS["a4"]


def _pieces() -> tuple[Piece, ...]:
    """Eleven poker cards with their own bleed, a butted run of nine mini cards and a round
    token: three runs, so the packer fills one sheet's free space with another run."""
    cards = [Piece("deck", f"c{i}", 0, 63, 88, 3.0, True) for i in range(11)]
    minis = [Piece("minis", "m", i, 41, 63, 3.0, False, butt=True) for i in range(9)]
    return (*cards, *minis, Piece("tokens", "t", 0, 25, 25, 2.0, False, outline="round"))


@pytest.fixture
def packed(monkeypatch: pytest.MonkeyPatch, cache: Path) -> Iterator[list[int]]:
    """How many pieces each packing the kept plans asked the packer for took (one entry per
    packing); each test starts and ends with no plan kept in memory."""
    calls: list[int] = []

    def counting(pieces: tuple[Piece, ...], spec: object) -> object:
        calls.append(len(pieces))
        return impose(pieces, spec)  # type: ignore[arg-type]

    monkeypatch.setattr(keptplans, "impose", counting)
    keptplans._plans.cache_clear()
    yield calls
    keptplans._plans.cache_clear()


def _new_process() -> None:
    """What a new process starts with: the disk cache, no plan in memory."""
    keptplans._plans.cache_clear()


def test_a_plan_packed_once_is_taken_from_the_disk_by_the_next_process(packed: list[int], cache: Path) -> None:
    pieces = _pieces()
    reference = impose(pieces, SPEC)
    # 11 poker cards (8 to a sheet turned), 9 mini cards and a token: more than one sheet.
    assert len(reference) >= 2
    first = kept_impose(pieces, SPEC)
    assert packed == [len(pieces)]
    assert len(list((cache / AREA).iterdir())) == 1
    _new_process()
    again = kept_impose(list(pieces), SPEC)
    assert packed == [len(pieces)]  # not packed again
    assert again == first == reference
    # Each slot holds the very piece it was given, as the packer's plan does.
    assert all(any(slot.piece is piece for piece in pieces) for plan in again for slot in plan.slots)


def test_other_pieces_or_another_sheet_have_their_own_entry(packed: list[int], cache: Path) -> None:
    pieces = _pieces()
    thicker = (*pieces[:-1], Piece("tokens", "t", 0, 25, 25, 2.5, False, outline="round"))
    names = {entry_name(pieces, SPEC), entry_name(thicker, SPEC), entry_name(pieces, SHEETS["letter"]),
             entry_name(pieces[::-1], SPEC)}
    assert len(names) == 4
    assert kept_impose(thicker, SPEC) == impose(thicker, SPEC)
    _new_process()
    assert kept_impose(pieces, SPEC) == impose(pieces, SPEC)
    assert packed == [len(pieces), len(pieces)]


def test_with_the_disk_cache_off_every_plan_is_packed(packed: list[int], cache: Path,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PNP_CACHE_DIR", "")
    pieces = _pieces()
    kept_impose(pieces, SPEC)
    _new_process()
    assert kept_impose(pieces, SPEC) == impose(pieces, SPEC)
    assert packed == [len(pieces), len(pieces)]
    assert not cache.exists()


def _good_rows() -> list[list[object]]:
    pieces = _pieces()
    rows: list[list[object]] = json.loads(encode(impose(pieces, SPEC), pieces))
    return rows


def _first_slot(rows: list[list[object]]) -> list[object]:
    return rows[0][2][0][3][0]  # type: ignore[index,no-any-return]


def _edited(change: str) -> bytes:
    """A signed payload that is not a plan of :func:`_pieces` on A4, as ``change`` makes it."""
    rows = _good_rows()
    slot = _first_slot(rows)
    if change == "not JSON":
        return b"{\"sheets\": ["
    if change == "not a list":
        return b"{\"sheets\": []}"
    if change == "a piece placed twice":
        slot[0] = _first_slot(rows[1:])[0] if len(rows) > 1 else 1
    elif change == "a piece out of range":
        slot[0] = 99
    elif change == "a negative piece":
        slot[0] = -1
    elif change == "a piece left out":
        rows[0][2][0][3].pop()  # type: ignore[index]
    elif change == "text for a number":
        slot[1] = ["7.5", 7.5, 69, 94]
    elif change == "a number for a flag":
        slot[2] = 1
    elif change == "a short rectangle":
        slot[1] = [7.5, 7.5, 69]
    elif change == "a fraction for a count":
        rows[0][2][0][0] = 2.0  # type: ignore[index]
    elif change == "an older layout":
        rows = [[row[0], row[2]] for row in rows]
    elif change == "fewer pieces":  # the plan of other pieces, kept under this name
        other = _pieces()[:-1]
        return encode(impose(other, SPEC), other)
    return json.dumps(rows).encode()


DAMAGE = ["not JSON", "not a list", "a piece placed twice", "a piece out of range", "a negative piece",
          "a piece left out", "text for a number", "a number for a flag", "a short rectangle",
          "a fraction for a count", "an older layout", "fewer pieces"]


@pytest.mark.parametrize("change", DAMAGE)
def test_a_signed_entry_that_is_no_plan_of_these_pieces_is_packed_again(
        packed: list[int], cache: Path, change: str) -> None:
    pieces = _pieces()
    name = entry_name(pieces, SPEC)
    assert name is not None
    diskcache.write(AREA, name, _edited(change))
    plans = kept_impose(pieces, SPEC)
    assert packed == [len(pieces)]
    assert plans == impose(pieces, SPEC)
    # The entry holds the packed plan again: the next process takes it.
    payload = diskcache.read(AREA, name, 1 << 24)
    assert payload is not None and decode(payload, pieces, SPEC) == tuple(plans)


@pytest.mark.parametrize("damage", ["truncated", "a byte changed", "another entry's file", "written by another"])
def test_an_entry_pnp_did_not_write_as_it_is_is_ignored(packed: list[int], cache: Path, damage: str) -> None:
    pieces = _pieces()
    other = (*pieces, Piece("extra", "e", 0, 63, 88, 3.0, True))
    kept_impose(pieces, SPEC)
    kept_impose(other, SPEC)
    name, other_name = entry_name(pieces, SPEC), entry_name(other, SPEC)
    assert name is not None and other_name is not None
    path = cache / AREA / name
    data = path.read_bytes()
    if damage == "truncated":
        path.write_bytes(data[:-20])
    elif damage == "a byte changed":  # a rectangle moved: the signature no longer holds
        path.write_bytes(data.replace(b"7.5", b"8.5", 1))
    elif damage == "another entry's file":  # a genuine entry under another's name
        shutil.copyfile(cache / AREA / other_name, path)
    else:  # signed with another key, as another machine's cache would be
        tag = b"0" * 64
        path.write_bytes(tag + b"\n" + data.partition(b"\n")[2])
    assert path.read_bytes() != data
    _new_process()
    assert kept_impose(pieces, SPEC) == impose(pieces, SPEC)
    assert packed == [len(pieces), len(other), len(pieces)]


GAME = "aizhewudi"
CARDS = f"card_data/{GAME}/components.yaml"


def _files(folder: Path) -> dict[str, bytes]:
    return {path.relative_to(folder).as_posix(): path.read_bytes() for path in sorted(folder.rglob("*"))
            if path.is_file() and path.name != MANIFEST_NAME}


def test_sheets_imposed_from_a_kept_plan_after_a_card_edit_are_a_cold_builds_bytes(
        tmp_path: Path, packed: list[int], monkeypatch: pytest.MonkeyPatch) -> None:
    workspace = tmp_path / "ws"
    (workspace / "card_data").mkdir(parents=True)
    shutil.copytree(ROOT / CARDS.rpartition("/")[0], workspace / CARDS.rpartition("/")[0])
    build(Workspace(workspace), GAME, "all", out=workspace / "output")
    assert len(packed) == 1  # once for both scripts
    _new_process()
    edit(workspace / CARDS, "必須亮出這張牌", "必須翻開這張牌")
    build(Workspace(workspace), GAME, "all", out=workspace / "output")
    assert len(packed) == 1  # the edit changed no piece: the kept plan was taken
    _new_process()
    with monkeypatch.context() as cold_build:
        cold_build.setenv("PNP_CACHE_DIR", "")
        build(Workspace(workspace), GAME, "all", out=tmp_path / "cold", force=True)
    assert len(packed) == 2
    incremental, cold = _files(workspace / "output"), _files(tmp_path / "cold")
    assert sorted(incremental) == sorted(cold)
    assert [name for name in cold if incremental[name] != cold[name]] == []
