"""Imposition plans kept between builds: a components PDF made again after a card's text
changed puts the same pieces on the same paper, so it takes the sheets the last build worked
out instead of packing them again (three packings of aizhewudi's 143 pieces cost some 13 ms
of a one-card rebuild's 0.43 s).

A plan depends on nothing but the pieces (sizes, bleeds, groups, tiles, their order), the
sheet and pnp's code, so an entry is named by a SHA-256 of pnp's fingerprint, the sheet and
every piece, each written out in full (their ``repr``: every field, floats to the last digit).
The entry holds each sheet's blocks with their slots, a slot naming its piece by its place in
the list. One pnp did not write is never read (:mod:`pnp.core.diskcache`); one that does not
decode into sheets holding every piece exactly once, with numbers where numbers belong, is
packed again and replaced. With the disk cache off (``PNP_CACHE_DIR=``) every plan is packed.
"""

from __future__ import annotations

import hashlib
import json
import logging
from collections.abc import Sequence
from functools import lru_cache
from typing import Any

from pnp.core import diskcache
from pnp.core.fingerprint import pnp_fingerprint
from pnp.layout.impose import impose
from pnp.layout.presets import SheetSpec
from pnp.layout.sheetplan import Piece, PieceBlock, Rect, SheetPlan, Slot

log = logging.getLogger(__name__)

AREA = "plans"
FORMAT = 1
# A plan names each piece once, in a few dozen bytes: thousands of pieces stay far below this.
_MAX_ENTRY = 16 * 1024 * 1024


class _Unusable(Exception):
    """An entry that does not decode into a plan of these pieces."""


def kept_impose(pieces: Sequence[Piece], spec: SheetSpec) -> list[SheetPlan]:
    """What :func:`pnp.layout.impose.impose` makes of ``pieces`` on ``spec``, from the disk
    cache when a build packed the same pieces on the same sheet before."""
    return list(_plans(tuple(pieces), spec))


# Both scripts of a game impose the same pieces: the second takes the first's plans.
@lru_cache(maxsize=16)
def _plans(pieces: tuple[Piece, ...], spec: SheetSpec) -> tuple[SheetPlan, ...]:
    name = entry_name(pieces, spec)
    if name is not None:
        payload = diskcache.read(AREA, name, _MAX_ENTRY)
        if payload is not None:
            try:
                return decode(payload, pieces, spec)
            except _Unusable as exc:
                log.debug("imposition entry %s unusable: %s", name, exc)
    plans = tuple(impose(pieces, spec))
    if name is not None:
        diskcache.write(AREA, name, encode(plans, pieces))
    return plans


def entry_name(pieces: tuple[Piece, ...], spec: SheetSpec) -> str | None:
    """The entry of these pieces on this sheet, or None with the disk cache off."""
    if diskcache.root() is None:
        return None
    key = "\0".join([AREA, str(FORMAT), pnp_fingerprint(), repr(spec), repr(pieces)])
    return hashlib.sha256(key.encode("utf-8", "surrogateescape")).hexdigest()


def _box(rect: Rect) -> list[float]:
    return [rect.x, rect.y, rect.width, rect.height]


def encode(plans: Sequence[SheetPlan], pieces: tuple[Piece, ...]) -> bytes:
    """The entry's payload: per sheet its number, its cut and its blocks, each block's slots
    naming their pieces by index in ``pieces``."""
    index = {piece: number for number, piece in enumerate(pieces)}
    rows = [[plan.number, plan.cut,
             [[block.columns, block.rows, _box(block.box),
               [[index[slot.piece], _box(slot.bleed_box), slot.rotated,
                 None if slot.cell is None else _box(slot.cell), slot.scale]
                for slot in block.slots]]
              for block in plan.blocks]]
            for plan in plans]
    return json.dumps(rows, separators=(",", ":")).encode("ascii")


def _number(value: Any) -> float:
    # An int where the plan had one, a float where it had a float: JSON keeps which.
    if type(value) not in (int, float):
        raise _Unusable(f"expected a number, found {value!r}")
    return value  # type: ignore[no-any-return]


def _whole(value: Any) -> int:
    if type(value) is not int:
        raise _Unusable(f"expected a whole number, found {value!r}")
    return value


def _flag(value: Any) -> bool:
    if type(value) is not bool:
        raise _Unusable(f"expected true or false, found {value!r}")
    return value


def _rect(value: Any) -> Rect:
    if not isinstance(value, list) or len(value) != 4:
        raise _Unusable(f"expected a rectangle, found {value!r}")
    return Rect(*map(_number, value))


def _items(value: Any, size: int | None = None) -> list[Any]:
    if not isinstance(value, list) or (size is not None and len(value) != size):
        raise _Unusable(f"expected a list{'' if size is None else f' of {size}'}, found {value!r}")
    return value


def decode(payload: bytes, pieces: tuple[Piece, ...], spec: SheetSpec) -> tuple[SheetPlan, ...]:
    """The plans an entry holds for ``pieces`` on ``spec``; :class:`_Unusable` unless they
    place every piece exactly once."""
    try:
        rows = json.loads(payload)
    except ValueError as exc:
        raise _Unusable(str(exc)) from None
    placed: list[int] = []
    plans = []
    for row in _items(rows):
        number, cut, blocks = _items(row, 3)
        made = []
        for block in _items(blocks):
            columns, block_rows, box, slots = _items(block, 4)
            kept_slots = []
            for slot in _items(slots):
                index, bleed_box, rotated, cell, scale = _items(slot, 5)
                placed.append(_whole(index))
                if not 0 <= index < len(pieces):
                    raise _Unusable(f"piece {index} of {len(pieces)}")
                kept_slots.append(Slot(pieces[index], _rect(bleed_box), _flag(rotated),
                                       None if cell is None else _rect(cell), _number(scale)))
            made.append(PieceBlock(tuple(kept_slots), _whole(columns), _whole(block_rows), _rect(box)))
        plans.append(SheetPlan(_whole(number), spec, tuple(made), None if cut is None else _number(cut)))
    if sorted(placed) != list(range(len(pieces))):
        raise _Unusable("the pieces placed are not each piece once")
    return tuple(plans)
