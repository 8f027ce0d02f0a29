"""Reading a table set-up figure of figures.yaml: seats, the pieces in front of each player and
the shared pieces in the middle (see docs/layout-vocabulary.md, "Table set-up figures")."""

from __future__ import annotations

from typing import Any

from pnp.data.layouts import brief
from pnp.data.model import Component, Figure, FigurePiece, TableSetup, Text
from pnp.data.schema import IDENT, Reader
from pnp.data.yamlmarks import PathKey

TABLE_KEYS = ("caption", "component", "seats", "seat", "first_seat", "centre", "labels", "width")
PIECE_KEYS = ("component", "card", "side", "count", "spread", "over")
MAX_SEATS = 12
MAX_STACK = 12  # copies drawn in one stack
MAX_SPREAD = 100.0  # mm between copies of a stack
MAX_FIGURE_WIDTH = 400.0  # mm
SEAT = "{seat}"


def read_table_figure(r: Reader, name: str, body: dict[str, Any], path: PathKey,
                      by_id: dict[str, Component], incomplete: set[str],
                      caption: Text | None) -> Figure | None:
    """The figure, or None when a problem was reported."""
    body = r.mapping(body, path, TABLE_KEYS, required=("seats", "seat"))
    default = r.string(body, "component", path, default="")
    if default and default not in by_id:
        r.fail((*path, "component"), f"unknown component {default!r} (components: {', '.join(by_id) or 'none'})")
        return None
    seats = r.integer(body, "seats", path, minimum=1, maximum=MAX_SEATS)
    reader = _Pieces(r, by_id, incomplete, default, max(1, seats))
    seat = reader.rows(body.get("seat", []), (*path, "seat"), each_seat=True)
    first = reader.rows(body["first_seat"], (*path, "first_seat"), each_seat=False) \
        if "first_seat" in body else ()
    centre = reader.rows(body.get("centre", []), (*path, "centre"), each_seat=False) \
        if "centre" in body else ()
    width = r.number(body["width"], (*path, "width"), minimum=30, maximum=MAX_FIGURE_WIDTH) \
        if "width" in body else 0.0
    labels: tuple[Text, ...] = ()
    if "labels" in body:
        raw = r.sequence(body["labels"], (*path, "labels"))
        labels = tuple(Text(str(v), r.where((*path, "labels", i))) for i, v in enumerate(raw))
        if len(labels) != seats:
            r.fail((*path, "labels"), f"{len(labels)} labels for {seats} seats (one per seat)")
            reader.ok = False
    if not reader.ok or seats < 1 or not seat:
        return None
    table = TableSetup(seats, seat, first, centre, width)
    return Figure(name, caption, default, "front", (), labels, 0.0, r.where(path), table)


class _Pieces:
    """Reads rows of pieces, noting whether every one named a real card."""

    def __init__(self, r: Reader, by_id: dict[str, Component], incomplete: set[str], default: str,
                 seats: int) -> None:
        self.r, self.by_id, self.incomplete, self.default, self.seats = r, by_id, incomplete, default, seats
        self.ok = True

    def fail(self, path: PathKey, message: str) -> None:
        self.r.fail(path, message)
        self.ok = False

    def rows(self, value: Any, path: PathKey, each_seat: bool) -> tuple[tuple[FigurePiece, ...], ...]:
        rows = []
        for i, row in enumerate(self.r.sequence(value, path)):
            items = self.r.sequence(row, (*path, i))
            if not items:
                self.fail((*path, i), "a row needs at least one piece")
            pieces = tuple(p for j, item in enumerate(items)
                           if (p := self.piece(item, (*path, i, j), each_seat)) is not None)
            if pieces and pieces[0].over:
                self.fail((*path, i, 0, "over"), "the first piece of a row has nothing to lie on")
            rows.append(pieces)
        if not rows and isinstance(value, list):
            self.fail(path, "expected at least one row of pieces")
        return tuple(rows)

    def piece(self, item: Any, path: PathKey, each_seat: bool) -> FigurePiece | None:
        r = self.r
        if isinstance(item, str):
            item = {"card": item}
        body = r.mapping(item, path, PIECE_KEYS, required=("card",))
        if not body:
            return None
        cid = r.string(body, "component", path, default=self.default)
        component = self.by_id.get(cid)
        if component is None:
            self.fail((*path, "component"), f"unknown component {cid!r} (components: "
                                            f"{', '.join(self.by_id) or 'none'}); give one here or "
                                            "a default `component` for the figure")
            return None
        card = r.string(body, "card", path)
        side = r.string(body, "side", path, default="front")
        if side not in ("front", "back"):
            self.fail((*path, "side"), f"expected front or back, got {side!r}")
        elif side == "back" and component.back is None:
            self.fail((*path, "side"), f"component {cid!r} has no back")
        if SEAT in card and not each_seat:
            self.fail((*path, "card"), f"{SEAT} names each seat's own card: only in `seat`")
            return None
        known = {c.id for c in component.cards}
        wanted = [card.replace(SEAT, str(n)) for n in range(1, self.seats + 1)] if SEAT in card else [card]
        missing = [c for c in wanted if c not in known]
        if missing and cid not in self.incomplete:
            self.fail((*path, "card"), f"component {cid!r} has no card {missing[0]!r}"
                                       f" (cards: {brief(sorted(known))})")
            return None
        if not IDENT.fullmatch(card.replace(SEAT, "1")):
            self.fail((*path, "card"), f"expected a card id (lower-case, digits, - and _), got {card!r}")
            return None
        count = r.integer(body, "count", path, default=1, minimum=1, maximum=MAX_STACK)
        spread = r.number(body["spread"], (*path, "spread"), minimum=0, maximum=MAX_SPREAD) \
            if "spread" in body else 0.0
        over = r.boolean(body["over"], (*path, "over")) if "over" in body else False
        return FigurePiece(cid, card, side, count, spread, over)
