"""Fonts verified before they are parsed (pnp.text.fontcheck): the bundled faces are sound, a
face cut short or with bytes flipped is named damaged (one that reportlab would parse and print
wrong glyphs from included), and a sound verdict is kept by the font's SHA-256."""

from __future__ import annotations

import hashlib
import random
import struct
import subprocess
from pathlib import Path

import pytest
from reportlab.pdfbase.ttfonts import TTFont

from pnp.core.workspace import BUNDLED_FONTS
from pnp.text import fontcheck
from pnp.text.fontcheck import font_damage, font_damage_cached

FACE = BUNDLED_FONTS / "PnpSansTC-Regular.ttf"


def flipped(data: bytes, count: int, seed: int = 0) -> bytes:
    damaged = bytearray(data)
    for at in random.Random(seed).sample(range(len(data) // 2, len(data)), count):
        damaged[at] ^= 0x55
    return bytes(damaged)


@pytest.mark.parametrize("face", sorted(p.name for p in BUNDLED_FONTS.glob("*.ttf")))
def test_every_bundled_face_is_sound(face: str) -> None:
    assert font_damage((BUNDLED_FONTS / face).read_bytes()) is None


def test_a_face_cut_short_is_named_so() -> None:
    damage = font_damage(FACE.read_bytes()[:3_000_000])
    assert damage is not None and "cut short" in damage and "3,000,000" in damage


def test_a_face_with_flipped_bytes_that_reportlab_parses_is_caught(tmp_path: Path) -> None:
    damaged = flipped(FACE.read_bytes(), 2000)
    (tmp_path / "f.ttf").write_bytes(damaged)
    TTFont("FlippedForTest", str(tmp_path / "f.ttf"))  # parses: without the check, wrong glyphs in silence
    damage = font_damage(damaged)
    assert damage is not None and "does not match its checksum" in damage


def test_one_flipped_byte_in_any_table_is_caught() -> None:
    data = FACE.read_bytes()
    (count,) = struct.unpack_from(">H", data, 4)
    for at in range(12, 12 + 16 * count, 16):
        tag, _, offset, length = struct.unpack_from(">4sIII", data, at)
        if length == 0:
            continue
        damaged = bytearray(data)
        damaged[offset + length // 2] ^= 0x01
        damage = font_damage(bytes(damaged))
        assert damage is not None and "checksum" in damage, tag


def test_the_whole_file_checksum_counts() -> None:
    data = bytearray(FACE.read_bytes())
    (count,) = struct.unpack_from(">H", data, 4)
    head = next(struct.unpack_from(">4sIII", data, at)[2] for at in range(12, 12 + 16 * count, 16)
                if data[at:at + 4] == b"head")
    data[head + 8] ^= 0x01  # checkSumAdjustment itself: the head table's own sum leaves it out
    damage = font_damage(bytes(data))
    assert damage is not None and "checkSumAdjustment" in damage


@pytest.mark.parametrize(("data", "says"), [
    (b"", "cut short"),
    (b"<html>not a font</html>", "does not begin as a font"),
    (b"\x00\x01\x00\x00\xff\xff" + b"\0" * 6, "table directory"),
    (b"ttcf\x00\x01\x00\x00\x00\x00\x00\x05", "collection header"),
])
def test_what_is_not_a_font_is_named(data: bytes, says: str) -> None:
    damage = font_damage(data)
    assert damage is not None and says in damage


def test_every_font_installed_here_is_sound() -> None:
    # Real fonts, made by many tools, must not be taken for damaged ones (Debian's UKai sums
    # its head table with checkSumAdjustment in it).
    files = subprocess.run(["fc-list", "--format", "%{file}\n"], capture_output=True, text=True,
                           check=True).stdout.split()
    checked = 0
    for name in sorted(set(files)):
        data = Path(name).read_bytes()
        if data[:4] in (b"\x00\x01\x00\x00", b"OTTO", b"true", b"ttcf"):
            assert font_damage(data) is None, name
            checked += 1
    assert checked >= 5


def test_a_sound_verdict_is_kept_by_content(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("PNP_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setattr(fontcheck, "_sound", set())
    calls: list[int] = []
    real = fontcheck.font_damage
    monkeypatch.setattr(fontcheck, "font_damage", lambda data: calls.append(len(data)) or real(data))
    data = (BUNDLED_FONTS / "PnpSansTC-Regular-Vert.ttf").read_bytes()
    digest = hashlib.sha256(data).hexdigest()
    assert font_damage_cached(data, digest) is None and len(calls) == 1
    assert font_damage_cached(data, digest) is None and len(calls) == 1, "kept in the process"
    monkeypatch.setattr(fontcheck, "_sound", set())  # a new process: the disk cache remembers
    assert font_damage_cached(data, digest) is None and len(calls) == 1
    damaged = flipped(data, 50)
    assert font_damage_cached(damaged, hashlib.sha256(damaged).hexdigest()) is not None
    assert font_damage_cached(damaged, hashlib.sha256(damaged).hexdigest()) is not None, "never kept"
    assert len(calls) == 3
