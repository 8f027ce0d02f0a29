"""components.yaml read into Components and their Cards: each component's shape, size, faces
and layouts, its cards listed inline, in a CSV or xlsx file, or generated, and the limit on the
pieces one game may print. Its layouts and symbols are read by layouts.py."""

from __future__ import annotations

from typing import Any

from pnp.core.choices import CARD_SIZES, MAX_BOARD, MAX_TILED_BOARD, SHAPES
from pnp.core.limits import MAX_COPIES, MAX_NAME_CHARS, MAX_PIECES
from pnp.data.computed import Computed
from pnp.data.layouts import read_layouts, read_symbols
from pnp.data.model import Card, Component, Layout, PrintedTable, Symbol, Text, frozen_mapping
from pnp.data.plaintext import is_plain_text, located_text, within_text_limit
from pnp.data.schema import IDENT, Reader, color_error, describe
from pnp.data.yamlmarks import PathKey


def _size(r: Reader, value: Any, path: PathKey, shape: Any) -> tuple[float, float] | None:
    if isinstance(value, str):
        if value in CARD_SIZES:
            return CARD_SIZES[value]
        r.fail(path, f"unknown size {value!r} (presets: {', '.join(CARD_SIZES)}; or [width, height] in mm)")
        return None
    if isinstance(value, list) and len(value) == 2:
        width = r.number(value[0], (*path, 0), minimum=5)
        height = r.number(value[1], (*path, 1), minimum=5)
        if shape == "rect":
            # A board larger than a sheet is tiled, so only its overall size is bounded.
            if width > MAX_TILED_BOARD[0] or height > MAX_TILED_BOARD[1]:
                r.fail(path, f"{width:g}×{height:g} mm is larger than the largest board "
                             f"{MAX_TILED_BOARD[0]:g}×{MAX_TILED_BOARD[1]:g} mm (boards larger than "
                             "a sheet print in tiles up to that size)")
        elif width > MAX_BOARD[0] or height > MAX_BOARD[1]:
            r.fail(path, f"{width:g}×{height:g} mm is larger than the largest printable piece "
                         f"{MAX_BOARD[0]:g}×{MAX_BOARD[1]:g} mm (only shape rect tiles across "
                         "sheets)")
        return (width, height)
    r.fail(path, f"expected a size preset or [width, height] in mm, got {describe(value)}")
    return None


_COMPONENT_KEYS = ("id", "name", "note", "shape", "size", "front", "back", "inner", "count",
                   "cards", "generate", "faces", "net_style", "held_in_hand")
_CARD_KEYS = ("id", "count", "size", "fields")


def read_components(r: Reader, tables: dict[str, PrintedTable], computed: Computed | None = None,
                    ) -> tuple[tuple[Component, ...], dict[str, Layout], dict[str, Symbol], set[str]]:
    """Components, layouts and symbols, and the ids of components whose cards could not all
    be made (so that figures do not report their missing cards a second time)."""
    top = r.mapping(r.doc.value, (), ("components", "layouts", "symbols"), required=("components",))
    symbols = read_symbols(r, {} if top.get("symbols") is None else top["symbols"])
    layouts = read_layouts(r, top.get("layouts", {}) or {}, tables, symbols)
    components: list[Component] = []
    seen: set[str] = set()
    incomplete: set[str] = set()
    for i, raw in enumerate(r.sequence(top.get("components", []), ("components",))):
        path: PathKey = ("components", i)
        comp = r.mapping(raw, path, _COMPONENT_KEYS, required=("id", "name"))
        if not comp:
            continue
        cid = _unique_id(r, comp, path, seen, "component")
        shape = r.string(comp, "shape", path, default="rect")
        if shape not in SHAPES:
            r.fail((*path, "shape"), f"expected one of {', '.join(SHAPES)}, got {shape!r}")
        default_size = _size(r, comp["size"], (*path, "size"), shape) if "size" in comp else None
        refs = {}
        for key in ("front", "back", "inner"):
            ref = comp.get(key)
            if ref is not None and not (isinstance(ref, str) and ref in layouts):
                r.fail((*path, key), f"unknown layout {ref!r} (defined: {', '.join(layouts) or 'none'})")
                ref = None
            refs[key] = ref
        is_net = shape in ("d6_net", "d4_net")
        if not is_net and refs["front"] is None and "front" not in comp:
            r.fail(path, "missing required field 'front' (the layout of the face)")
        if shape == "fold" and "inner" not in comp:
            r.fail(path, "a fold component needs 'inner', the layout of its second panel")
        faces: tuple[Text, ...] = ()
        if is_net:
            expected = 6 if shape == "d6_net" else 4
            raw_faces = r.sequence(comp.get("faces", []), (*path, "faces"))
            if len(raw_faces) != expected:
                r.fail((*path, "faces"), f"a {shape} needs exactly {expected} face labels, got {len(raw_faces)}")
            faces = tuple(Text(str(f), r.where((*path, "faces", j))) for j, f in enumerate(raw_faces))
        net_style = r.mapping(comp.get("net_style", {}), (*path, "net_style"), ("fill", "stroke", "color"))
        r.check_each((((*path, "net_style", k), v) for k, v in net_style.items()), color_error)
        before = len(r.problems.items)
        cards = _read_cards(r, comp, path, default_size, cid, tables, computed)
        if len(r.problems.items) > before:
            incomplete.add(cid)
        component = Component(
            id=cid, name=located_text(r, comp, "name", path, max_chars=MAX_NAME_CHARS),
            note=located_text(r, comp, "note", path, ""),
            shape=shape, front=refs["front"], back=refs["back"], inner=refs["inner"],
            cards=cards, faces=faces, net_style=frozen_mapping(net_style), where=r.where(path),
            held_in_hand=r.boolean(comp["held_in_hand"], (*path, "held_in_hand")) if "held_in_hand" in comp else False,
        )
        components.append(component)
    pieces = sum(card.count for component in components for card in component.cards)
    if pieces > MAX_PIECES:
        r.fail(("components",), f"{pieces} printed pieces is more than the limit of {MAX_PIECES} for one game "
                                "(lower the counts)")
    return tuple(components), layouts, symbols, incomplete


def _unique_id(r: Reader, obj: dict[str, Any], path: PathKey, seen: set[str], what: str) -> str:
    """The object's id, reporting a malformed id or one already used by a sibling."""
    value = r.string(obj, "id", path, pattern=IDENT, what="a lower-case identifier")
    if value in seen:
        r.fail((*path, "id"), f"duplicate {what} id {value!r}")
    seen.add(value)
    return value


def _read_cards(r: Reader, comp: dict[str, Any], path: PathKey,
                default_size: tuple[float, float] | None, cid: str,
                tables: dict[str, PrintedTable], computed: Computed | None = None) -> tuple[Card, ...]:
    listed = "cards" in comp or "generate" in comp
    if listed and "count" in comp:
        r.fail((*path, "count"), "give either 'count' (one design) or 'cards' / 'generate' (several), "
                                 "not both")
    if not listed:
        if default_size is None and "size" not in comp:
            r.fail(path, "missing required field 'size'")
        count = r.integer(comp, "count", path, default=1, minimum=1, maximum=MAX_COPIES)
        return (Card(cid, count, frozen_mapping({}), default_size or (0, 0), r.where(path)),)
    cards = []
    ids: set[str] = set()
    # A CSV file's rows come with a reader that locates problems by file:row:column.
    cr, raw_cards = r, comp.get("cards", [])
    if isinstance(raw_cards, str):  # a spreadsheet's name: its reader loads only for such a game
        from pnp.data.csvcards import csv_cards

        cr, raw_cards = csv_cards(r, raw_cards, (*path, "cards"))
    for j, raw in enumerate([] if raw_cards is None else cr.sequence(raw_cards, (*path, "cards"))):
        cpath = (*path, "cards", j)
        card = cr.mapping(raw, cpath, _CARD_KEYS, required=("id",))
        if not card:
            continue
        card_id = _unique_id(cr, card, cpath, ids, "card")
        count = cr.integer(card, "count", cpath, default=1, minimum=1, maximum=MAX_COPIES)
        size = _size(cr, card["size"], (*cpath, "size"), comp.get("shape", "rect")) if "size" in card \
            else default_size
        if size is None and "size" not in card:
            cr.fail(cpath, "missing required field 'size' (on the card or its component)")
        fields_raw = cr.mapping(card.get("fields", {}), (*cpath, "fields"),
                               allowed=card.get("fields", {}) or ())
        fields = {}
        for key, value in fields_raw.items():
            if not is_plain_text(value):
                cr.fail((*cpath, "fields", key), f"expected text, got {describe(value)}")
                continue
            if within_text_limit(cr, str(value), (*cpath, "fields", key)):
                fields[key] = Text(str(value), cr.where((*cpath, "fields", key)))
        cards.append(Card(card_id, count, frozen_mapping(fields), size or (0, 0), cr.where(cpath)))
    if "generate" in comp:
        from pnp.data.generate import generate_cards  # only a component that makes its cards

        if default_size is None and "size" not in comp:
            r.fail(path, "missing required field 'size' (generated cards take the component's size)")
        for made in generate_cards(r, comp["generate"], (*path, "generate"), default_size or (0, 0),
                                    tables, computed):
            if made.id in ids:
                r.fail((*path, "generate", "id"), f"duplicate card id {made.id!r}")
            ids.add(made.id)
            cards.append(made)
    if not cards and "generate" not in comp and raw_cards is not None:
        r.fail((*path, "cards"), "a component needs at least one card")
    return tuple(cards)
