"""A face restored from the disk cache reads its font file only when its bytes are needed
(pnp.text.fontfile), and then only bytes that are the ones that named it: a file changed,
cut short or removed after the face was loaded is an error naming it, never other glyphs."""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont

from pnp.core import diskcache, files
from pnp.core.errors import FontError
from pnp.core.workspace import BUNDLED_FONTS
from pnp.text import fontcache, reportlab_fonts
from pnp.text.fonts import FontFace, _parse, _squeeze_table
from tests.conftest import edit, game_workspace

REGULAR = BUNDLED_FONTS / "PnpSansTC-Regular.ttf"
BOLD = BUNDLED_FONTS / "PnpSansTC-Bold.ttf"
NAME = "PnpSansTC-Regular"
SUBSET = [ord(ch) for ch in "替死鬼遮蔽板，「碟仙」"]


@pytest.fixture
def font(tmp_path: Path, cache: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A copy of a bundled face, whose stamp pnp takes for its content at once (it waits two
    seconds after a file was written: a file copied just now would never be restored)."""
    monkeypatch.setattr(diskcache, "RACY_NS", 0)
    path = tmp_path / f"{NAME}.ttf"
    shutil.copyfile(REGULAR, path)
    return path


@pytest.fixture
def whole_reads(monkeypatch: pytest.MonkeyPatch) -> list[Path]:
    """Every font file read whole (through pnp.core.files, as pnp reads every file)."""
    calls: list[Path] = []
    real = files.read_bytes

    def spy(path: Path, **options: Any) -> bytes:
        calls.append(Path(path))
        return real(path, **options)

    monkeypatch.setattr(files, "read_bytes", spy)
    return calls


def restored(path: Path) -> Any:
    """The face of ``path`` as a build has it once pnp knows the file: from the cache, unread."""
    _parse(NAME, path)
    font = _parse(NAME, path)
    assert isinstance(font.face, fontcache.CachedFace) and "_ttf_data" not in vars(font.face)
    return font


def reportlab_subset(path: Path) -> bytes:
    """The subset reportlab itself cuts from the file (an independent parse of it)."""
    subset: bytes = TTFont("reference", str(path)).face.makeSubset(SUBSET)
    return subset


def test_the_file_is_never_read_whole_to_cut_a_subset(font: Path, whole_reads: list[Path]) -> None:
    face = restored(font).face
    whole_reads.clear()
    # A few bytes of its tables are read alone, not the whole file.
    head = face.table["head"]["offset"]
    assert reportlab_fonts.read_parts(face, lambda read: read(head, 54)) == font.read_bytes()[head:head + 54]
    # A subset's glyphs and tables too: the same bytes as reportlab cuts from the whole file.
    assert face.makeSubset(SUBSET) == reportlab_subset(font)
    assert face.makeSubset(SUBSET) == reportlab_subset(font)
    assert whole_reads == [] and "_ttf_data" not in vars(face)
    # Once read whole (another reader asked for its bytes), subsets are cut from those bytes.
    assert face._ttf_data == font.read_bytes()
    assert face.makeSubset(SUBSET) == reportlab_subset(font)
    assert whole_reads == [font]


def test_without_positioned_reads_the_file_is_read_whole(font: Path, whole_reads: list[Path],
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    face = restored(font).face
    whole_reads.clear()
    monkeypatch.delattr(os, "pread")  # as on Windows
    head = face.table["head"]["offset"]
    assert reportlab_fonts.read_parts(face, lambda read: read(head, 54)) == font.read_bytes()[head:head + 54]
    assert face.makeSubset(SUBSET) == reportlab_subset(font)
    assert whole_reads == [font, font] and "_ttf_data" not in vars(face)


def test_the_ink_of_punctuation_is_read_alike_from_the_file_and_from_its_bytes(
        font: Path, whole_reads: list[Path]) -> None:
    fresh = TTFont(NAME, str(font))  # reportlab's own parse, every byte read
    cached = restored(font)
    face = FontFace(name=NAME, path=font, bold=False)
    before = pdfmetrics._fonts.get(NAME)
    try:
        pdfmetrics._fonts[NAME] = fresh
        expected = _squeeze_table(face)
        pdfmetrics._fonts[NAME] = cached
        whole_reads.clear()
        assert _squeeze_table(face) == expected
        assert whole_reads == [] and "_ttf_data" not in vars(cached.face)
    finally:
        if before is None:
            pdfmetrics._fonts.pop(NAME, None)
        else:
            pdfmetrics._fonts[NAME] = before
    # A zh-Hant face centres ，: it may give up the blank on both of its sides.
    left, right = expected["，"]
    assert left > 0.1 and right > 0.1


@pytest.mark.parametrize("cut", [slice(0, 4), slice(3, 9), slice(5, 20), slice(9, 12), slice(12, 30)])
def test_a_table_read_in_parts_is_cut_as_a_copy_of_it(cut: slice) -> None:
    # reportlab slices the 'glyf' table it asked for: a glyph that says it runs past the
    # table's end (a damaged loca) stops at the end, as a slice of a copy of the table does.
    data = bytes(range(40))
    table = data[10:20]
    parts = fontcache._Parts(lambda offset, length: data[offset:offset + length]).part(10, 10)
    assert parts[cut] == table[cut]


def test_a_hash_of_bytes_read_is_remembered_only_under_the_stamp_they_were_read_under(
        font: Path) -> None:
    data = font.read_bytes()
    stamp = diskcache.file_stamp(font.stat())
    other = (stamp[0] + 1, *stamp[1:])
    # Read under another stamp (the file was rewritten between the read and the hash): the hash
    # is given but not remembered for the file as it stands.
    assert diskcache.file_sha256(font, data, read_under=other) == hashlib.sha256(data).hexdigest()
    assert diskcache.remembered_sha256(font) is None
    assert diskcache.file_sha256(font, data, read_under=stamp) == hashlib.sha256(data).hexdigest()
    assert diskcache.remembered_sha256(font) == (hashlib.sha256(data).hexdigest(), stamp)


def _replaced(path: Path) -> None:
    """Another font put in its place, as a regenerated one is (a new file renamed over it)."""
    other = path.with_suffix(".new")
    shutil.copyfile(BOLD, other)
    os.replace(other, path)


def _edited_in_place(path: Path) -> None:
    """One byte of a glyph changed in the same file, its size and modification time kept."""
    before = path.stat()
    data = bytearray(path.read_bytes())
    data[len(data) // 2] ^= 0x01
    with path.open("r+b") as handle:
        handle.write(data)
    os.utime(path, ns=(before.st_atime_ns, before.st_mtime_ns))


def _cut_short(path: Path) -> None:
    os.truncate(path, path.stat().st_size // 2)


def _removed(path: Path) -> None:
    path.unlink()


@pytest.mark.parametrize("change", [_replaced, _edited_in_place, _cut_short, _removed])
def test_a_file_changed_after_loading_is_an_error_naming_it(font: Path, change: Any) -> None:
    face = restored(font).face
    change(font)
    with pytest.raises(FontError, match=rf"{font}.*(changed|removed)"):
        reportlab_fonts.read_parts(face, lambda read: read(0, 12))
    with pytest.raises(FontError, match=rf"{font}.*(changed|removed)"):
        face.makeSubset(SUBSET)
    assert "_ttf_data" not in vars(face)


def test_the_same_bytes_written_again_are_taken(font: Path) -> None:
    face = restored(font).face
    font.write_bytes(REGULAR.read_bytes())  # a new stamp, the same content: its hash says so
    assert face.makeSubset(SUBSET) == reportlab_subset(REGULAR)


# Runs pnp, taking every file's stamp for its content at once (the test's fonts were just
# copied); with "cut", every face is cut short just after it is loaded.
DRIVER = """
import sys
from pnp.core import diskcache
diskcache.RACY_NS = 0
if sys.argv[1] == "cut":
    import pnp.text.fonts as fonts
    load_family = fonts.load_family
    def load_then_cut(folder, lang):
        family = load_family(folder, lang)
        for face in (family.regular, family.bold):
            size = face.path.stat().st_size
            with face.path.open("r+b") as handle:
                handle.truncate(size // 2)
        return family
    fonts.load_family = load_then_cut
sys.argv = ["pnp", *sys.argv[2:]]
from pnp.__main__ import run
run()
"""


def test_a_build_whose_fonts_change_while_it_runs_stops_with_an_error(tmp_path: Path) -> None:
    root = game_workspace(tmp_path, "aizhewudi")
    shutil.copytree(BUNDLED_FONTS, root / "fonts", ignore=shutil.ignore_patterns("*.txt", "*.md"))
    driver = tmp_path / "driver.py"
    driver.write_text(DRIVER, encoding="utf-8")
    env = {**os.environ, "PNP_CACHE_DIR": str(tmp_path / "cache")}

    def pnp(mode: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([sys.executable, str(driver), mode, "--root", str(root), "build", "aizhewudi",
                               "--lang", "zh-Hant"], capture_output=True, text=True, env=env, timeout=600)

    first = pnp("keep")
    assert first.returncode == 0, first.stderr
    out = root / "output" / "aizhewudi" / "zh-Hant"
    before = {path.name: path.read_bytes() for path in out.iterdir()}
    assert "components.pdf" in before
    # A card's new text needs glyphs the kept subsets lack: the build must read a face again.
    edit(root / "card_data" / "aizhewudi" / "components.yaml", "必須亮出這張牌", "必須翻開這張牌")
    second = pnp("cut")
    assert second.returncode == 1, second.stderr
    assert "\nError:" in second.stderr and "Traceback" not in second.stderr, second.stderr
    assert "PnpSansTC-" in second.stderr and "changed" in second.stderr, second.stderr
    # Nothing half-written: the outputs are those of the first build, and nothing more.
    assert {path.name: path.read_bytes() for path in out.iterdir()} == before
