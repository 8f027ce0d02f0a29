"""The disk cache of parsed faces (pnp.text.fontcache): same font as a fresh parse, invalidated by
any change to the font file, and never read unless pnp wrote it."""

from __future__ import annotations

import hashlib
import hmac
import json
import os
import shutil
from pathlib import Path
from types import SimpleNamespace

import pytest
import reportlab.pdfbase.ttfonts as ttfonts
from reportlab.pdfgen import canvas

from pnp.core import diskcache
from pnp.core.workspace import BUNDLED_FONTS
from pnp.text import fontcache
from pnp.text.fonts import _parse

FONTS = BUNDLED_FONTS
REGULAR = FONTS / "PnpSansTC-Regular.ttf"
BOLD = FONTS / "PnpSansTC-Bold.ttf"
NAME = "PnpSansTC-Regular"
SAMPLE = "替死鬼遮蔽板，「碟仙」……ABC 123"


@pytest.fixture
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "cache"
    monkeypatch.setenv("PNP_CACHE_DIR", str(folder))
    return folder / "fonts"


@pytest.fixture
def parses(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Every real parse by reportlab (a cache hit makes none)."""
    calls: list[str] = []
    real = ttfonts.TTFont

    class Spy(real):  # type: ignore[misc, valid-type]
        def __init__(self, name: str, filename: str, *args, **kwargs) -> None:
            calls.append(filename)
            super().__init__(name, filename, *args, **kwargs)

    monkeypatch.setattr(ttfonts, "TTFont", Spy)
    return calls


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def entry(cache: Path, path: Path) -> Path:
    return cache / fontcache.entry_name(digest(path))


def plain(face) -> dict:
    """A face's attributes but its scale function, and the digest and file pnp notes on a
    cached one."""
    return {k: v for k, v in vars(face).items() if k not in ("_pdfScale", "digest", "source")}


def test_a_cached_face_is_the_face_reportlab_parses(cache: Path, parses: list[str]) -> None:
    fresh = _parse(NAME, REGULAR)
    assert parses == [str(REGULAR)] and entry(cache, REGULAR).is_file()
    cached = _parse(NAME, REGULAR)
    assert parses == [str(REGULAR)]  # the second came from the cache
    # The tables only subsetting (or drawing text no cache holds) reads stay packed, and the
    # file unread, until first asked for; once they have been, the face is reportlab's.
    lazy = ("glyphToChar", "hmetrics", "glyphPos", "charToGlyph", "charWidths", "_ttf_data")
    assert fontcache.LAZY in vars(cached.face) and not set(lazy) & set(vars(cached.face))
    for name in lazy:
        assert getattr(cached.face, name) == getattr(fresh.face, name), name
        assert getattr(cached.face, name) is getattr(cached.face, name), name  # built once
    assert cached.face._ttf_data == REGULAR.read_bytes()
    assert fontcache.LAZY not in vars(cached.face)
    assert plain(cached.face) == plain(fresh.face)
    assert cached.face.digest == digest(REGULAR) and "digest" not in vars(fresh.face)
    assert {type(g) for g in cached.face.glyphToChar} == {type(g) for g in fresh.face.glyphToChar}
    assert {type(c) for chars in cached.face.glyphToChar.values() for c in chars} == \
        {type(c) for chars in fresh.face.glyphToChar.values() for c in chars}
    assert isinstance(cached.face, ttfonts.TTFontFace)
    with pytest.raises(AttributeError):
        cached.face.no_such_table  # noqa: B018 - the lookup is the test
    assert {k: type(v) for k, v in plain(cached.face).items()} == {k: type(v) for k, v in plain(fresh.face).items()}
    assert {type(v) for v in cached.face.charWidths.values()} == {type(v) for v in fresh.face.charWidths.values()}
    # In reportlab's order too (a dict compares equal in any order).
    for table in ("charWidths", "charToGlyph"):
        assert list(getattr(cached.face, table).items()) == list(getattr(fresh.face, table).items()), table
    assert cached.face.name.ustr == fresh.face.name.ustr
    assert cached.face._pdfScale(123) == fresh.face._pdfScale(123)
    # The TTFont around the face: every attribute reportlab's __init__ sets, and nothing else.
    assert set(vars(cached)) == set(vars(fresh))
    for name in set(vars(fresh)) - {"face", "encoding", "state"}:
        assert getattr(cached, name) == getattr(fresh, name), name
    assert cached.stringWidth(SAMPLE, 10.5) == fresh.stringWidth(SAMPLE, 10.5)
    subset = [fresh.face.charToGlyph[ord(ch)] and ord(ch) for ch in SAMPLE]
    assert cached.face.makeSubset(subset) == fresh.face.makeSubset(subset)


def test_a_pdf_is_the_same_with_a_cached_face(cache: Path) -> None:
    from reportlab.pdfbase import pdfmetrics

    def draw(font) -> bytes:
        registered = pdfmetrics._fonts.get(NAME)
        pdfmetrics._fonts[NAME] = font
        try:
            out = canvas.Canvas(None, invariant=1)  # type: ignore[arg-type]
            out.setFont(NAME, 12)
            out.drawString(72, 720, SAMPLE)
            out.showPage()
            return out.getpdfdata()
        finally:
            if registered is None:
                del pdfmetrics._fonts[NAME]
            else:
                pdfmetrics._fonts[NAME] = registered

    fresh = draw(_parse(NAME, REGULAR))
    assert entry(cache, REGULAR).is_file()
    assert draw(_parse(NAME, REGULAR)) == fresh


def test_a_changed_font_file_is_parsed_again(cache: Path, parses: list[str], tmp_path: Path) -> None:
    path = tmp_path / f"{NAME}.ttf"
    shutil.copyfile(REGULAR, path)
    assert _parse(NAME, path).face.name == b"PnpSansTC-Regular"
    assert len(parses) == 1
    shutil.copyfile(BOLD, path)  # same name and folder, other bytes (a regenerated font)
    after = _parse(NAME, path)
    assert len(parses) == 2, "the entry of the old bytes must not serve the new ones"
    assert after.face.name == b"PnpSansTC-Bold"
    assert _parse(NAME, path).face.name == b"PnpSansTC-Bold" and len(parses) == 2
    # Other bytes anywhere in the file are another font too (four zero bytes after its last
    # table: still a sound font, its checksums unchanged; a flipped byte is a damaged one).
    path.write_bytes(REGULAR.read_bytes() + b"\0\0\0\0")
    _parse(NAME, path)
    assert len(parses) == 3


def _write_entry(cache: Path, path: Path, payload: bytes, key: bytes) -> Path:
    """An entry signed the way pnp signs them, with ``key``."""
    target = entry(cache, path)
    message = f"{fontcache.AREA}/{target.name}\0".encode() + payload
    target.write_bytes(hmac.new(key, message, hashlib.sha256).hexdigest().encode() + b"\n" + payload)
    target.chmod(0o600)
    return target


def test_an_entry_pnp_did_not_write_is_never_loaded(cache: Path, parses: list[str]) -> None:
    _parse(NAME, REGULAR)
    target = entry(cache, REGULAR)
    blob = target.read_bytes()
    _, _, payload = blob.partition(b"\n")
    key_file = cache.parent / diskcache.KEY_NAME
    key = key_file.read_bytes()
    assert key_file.stat().st_mode & 0o077 == 0  # the key is the owner's alone

    # Signed with another key: an entry copied from another machine or planted by hand.
    _write_entry(cache, REGULAR, payload, os.urandom(32))
    assert fontcache.load(digest(REGULAR)) is None
    # The payload changed after it was signed (one width edited).
    _write_entry(cache, REGULAR, payload, key)
    tampered = bytearray(target.read_bytes())
    tampered[-5] ^= 0x01
    target.write_bytes(bytes(tampered))
    assert fontcache.load(digest(REGULAR)) is None
    # Cut short.
    target.write_bytes(blob[: len(blob) // 2])
    assert fontcache.load(digest(REGULAR)) is None
    # A genuine entry copied under the name of other bytes: the signature covers the name.
    other = entry(cache, BOLD)
    other.write_bytes(blob)
    other.chmod(0o600)
    assert fontcache.load(digest(BOLD)) is None
    # Signed with the right key under another name, the payload still names the font it is for.
    _write_entry(cache, BOLD, payload, key)
    assert fontcache.load(digest(BOLD)) is None
    # Writable by others: anyone could have put it there.
    target.write_bytes(blob)
    target.chmod(0o666)
    assert fontcache.load(digest(REGULAR)) is None
    # No key (the cache folder was copied without it, or it was deleted): nothing is trusted.
    target.chmod(0o600)
    assert fontcache.load(digest(REGULAR)) is not None  # the untouched entry itself is fine
    key_file.unlink()
    assert fontcache.load(digest(REGULAR)) is None

    before = len(parses)
    font = _parse(NAME, REGULAR)  # parsed afresh, and cached again under a new key
    assert len(parses) == before + 1 and font.face.name == b"PnpSansTC-Regular"
    assert fontcache.load(digest(REGULAR)) is not None


def test_the_cache_can_be_turned_off(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                     parses: list[str]) -> None:
    monkeypatch.setenv("PNP_CACHE_DIR", "")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    _parse(NAME, REGULAR)
    _parse(NAME, REGULAR)
    assert len(parses) == 2
    assert not any(tmp_path.rglob("*.face"))


def test_an_unwritable_cache_is_only_skipped(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    monkeypatch.setenv("PNP_CACHE_DIR", str(blocker))
    assert _parse(NAME, REGULAR).face.name == b"PnpSansTC-Regular"


def _face_like(widths: dict) -> SimpleNamespace:
    """What reportlab's parse leaves on a face, made up: the tables the cache packs, small."""
    return SimpleNamespace(charToGlyph={32: 1, 65: 2, 0x4E00: 3}, charWidths=widths,
                           glyphToChar={1: [32], 2: [65], 3: [0x4E00]}, hmetrics=[(0, 0), (500, 10), (1000, 20)],
                           glyphPos=[0, 0, 40, 90], unitsPerEm=1000)


def _packed(header: dict, arrays: list, leave_out: str | None = None) -> tuple[dict, bytes]:
    """An entry's header, through JSON as it is stored, and its arrays' bytes (one column
    replaced by an empty JSON one when asked: a damaged entry)."""
    header = json.loads(json.dumps(header))
    index = None
    if leave_out is not None:
        index = header["columns"][leave_out]["array"]
        header["columns"][leave_out] = {"json": []}
    return header, b"".join(a.tobytes() for i, a in enumerate(arrays) if i != index)


def test_widths_come_back_in_their_order_and_their_types() -> None:
    # Mostly one em, as a CJK face's are; then an int, a float equal to the usual int, a bool.
    widths = {0x4E00: 1000, 32: 500, 0x4E01: 1000, 65: 600.5, 66: 1000.0, 67: True, 0x4E02: 1000}
    header, arrays = fontcache.face_state(_face_like(widths))
    restored = fontcache.restored_table(fontcache.restore_state(*_packed(header, arrays)), "charWidths")
    assert list(restored.items()) == list(widths.items())
    assert [type(v) for v in restored.values()] == [int, int, int, float, float, bool, int]
    empty = fontcache.restore_state(*_packed(*fontcache.face_state(_face_like({}))))
    assert fontcache.restored_table(empty, "charWidths") == {}


def test_widths_for_characters_the_entry_does_not_list_make_it_unusable() -> None:
    header, arrays = fontcache.face_state(_face_like({0x4E00: 1000, 32: 500}))
    with pytest.raises(ValueError, match="charWidths"):
        fontcache.restore_state(*_packed(header, arrays, leave_out="charWidths.keys"))
