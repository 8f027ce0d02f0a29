"""A font file verified before it is parsed: its structure and its checksums.

reportlab reads a face's tables as they come: a truncated file fails deep in its parser (a
``struct.error``, a traceback), and a file with bytes flipped inside a glyph or the cmap parses
and prints wrong glyphs without a word. Every sfnt records a checksum of each of its tables,
and ``head.checkSumAdjustment`` makes the whole file sum to a constant: the file is checked
against them (the sums as the OpenType spec defines them, which fontTools also computes when it
writes a font) before pnp parses it, so a damaged face is an ``Error:`` naming the file.

The bundled faces are checked when they are parsed, which a build does only when pnp's disk
cache does not hold the parse already (an entry is made only after the check passed, and keyed
by the file's SHA-256): with the cache filled, the check costs nothing.
"""

from __future__ import annotations

import struct

# OpenType: the whole font, checkSumAdjustment taken as 0, sums to this minus checkSumAdjustment.
_WHOLE_FONT_MAGIC = 0xB1B0AFBA
_SFNT_VERSIONS = {b"\x00\x01\x00\x00", b"OTTO", b"true", b"typ1"}
_REQUIRED = ("cmap", "head", "hhea", "hmtx", "maxp")
_MAX_TABLES = 512  # a font has some 10 to 40; the count is 16 bits of the file


def checksum(data: bytes) -> int:
    """The OpenType checksum: the sum of the big-endian 32-bit words, the data padded with zeros
    to a whole word, modulo 2³². reportlab's, in C where rl-accel is installed (some 5 ms for a
    5 MB face, against 100 in Python)."""
    from reportlab.lib.rl_accel import calcChecksum

    return int(calcChecksum(data)) & 0xFFFFFFFF


def font_damage(data: bytes) -> str | None:
    """What is wrong with the font file ``data`` (an sfnt: TrueType, OpenType, or a collection
    of them), or None when its structure holds and every checksum matches."""
    if data[:4] == b"ttcf":
        return _collection_damage(data)
    return _font_damage(data, 0, whole_file=True)


def _collection_damage(data: bytes) -> str | None:
    if len(data) < 12:
        return "the file is cut short (no collection header)"
    (count,) = struct.unpack_from(">I", data, 8)
    if count == 0 or count > _MAX_TABLES or 12 + 4 * count > len(data):
        return f"the collection header is damaged ({count} fonts)"
    for number in range(count):
        (offset,) = struct.unpack_from(">I", data, 12 + 4 * number)
        damage = _font_damage(data, offset, whole_file=False)
        if damage:
            return f"font {number} of the collection: {damage}"
    return None


def _font_damage(data: bytes, start: int, whole_file: bool) -> str | None:
    if start + 12 > len(data):
        return "the file is cut short (no table directory)"
    if data[start:start + 4] not in _SFNT_VERSIONS:
        return "it does not begin as a font does (not a TrueType or OpenType file)"
    (count,) = struct.unpack_from(">H", data, start + 4)
    directory_end = start + 12 + 16 * count
    if count == 0 or count > _MAX_TABLES or directory_end > len(data):
        return f"the table directory is damaged or cut short ({count} tables)"
    tables: dict[str, tuple[int, int, int]] = {}
    for at in range(start + 12, directory_end, 16):
        raw_tag, recorded, offset, length = struct.unpack_from(">4sIII", data, at)
        tag = raw_tag.decode("latin-1")
        if offset + length > len(data):
            return (f"the file is cut short: its {tag!r} table runs to byte {offset + length:,}, "
                    f"the file has {len(data):,}")
        tables[tag] = (recorded, offset, length)
    missing = [tag for tag in _REQUIRED if tag not in tables]
    if "glyf" not in tables and "CFF " not in tables and "CFF2" not in tables:
        missing.append("glyf or CFF")
    if missing:
        return f"it lacks the {', '.join(repr(tag) for tag in missing)} table(s) every font has"
    head_recorded, head_offset, head_length = tables["head"]
    if head_length < 54:
        return "its 'head' table is cut short"
    head = bytearray(data[head_offset:head_offset + head_length])
    (adjustment,) = struct.unpack_from(">I", head, 8)
    struct.pack_into(">I", head, 8, 0)
    for tag, (recorded, offset, length) in tables.items():
        if tag == "head":
            # The spec sums 'head' with checkSumAdjustment as 0; some tools (and some fonts
            # installed on Debian) summed it as it stands: either is the head as written.
            sound = recorded in (checksum(bytes(head)), checksum(data[offset:offset + length]))
        else:
            sound = checksum(data[offset:offset + length]) == recorded
        if not sound:
            return f"its {tag!r} table does not match its checksum: the file is damaged"
    if whole_file:
        whole = (checksum(data) - adjustment) & 0xFFFFFFFF  # the sum with the adjustment as 0
        if (_WHOLE_FONT_MAGIC - whole) & 0xFFFFFFFF != adjustment:
            return "the file does not match its checksum (head.checkSumAdjustment): it is damaged"
    return None


AREA = "fontchecks"  # pnp's disk cache: one signed entry per sound font, named by its SHA-256
_sound: set[str] = set()  # this process's verdicts, by SHA-256


def font_damage_cached(data: bytes, digest: str) -> str | None:
    """:func:`font_damage`, computed once per font's bytes (``digest``, their SHA-256): a sound
    verdict is kept in this process and in pnp's disk cache (signed, so no one else can plant
    one), so a build with the cache filled does not read a face's checksums again."""
    from pnp.core import diskcache

    if known_sound(digest):
        return None
    damage = font_damage(data)
    if damage is None:
        _sound.add(digest)
        diskcache.write(AREA, digest, b"sound")
    return damage


def known_sound(digest: str) -> bool:
    """Whether the font whose bytes hash to ``digest`` was found sound (in this process, or by
    pnp before: its signed verdict in the disk cache), so it need not be read to check it."""
    from pnp.core import diskcache

    if digest in _sound:
        return True
    if diskcache.read(AREA, digest, 16) == b"sound":
        _sound.add(digest)
        return True
    return False
