"""Read card_data/<slug>/ into a Game, validating everything and failing once with all problems."""

from __future__ import annotations

import datetime
from collections.abc import Callable
from pathlib import Path
from typing import Any

from pnp.data.model import (
    LANGS,
    Acknowledged,
    Card,
    Column,
    Component,
    Element,
    Game,
    GameInfo,
    GlossaryTerm,
    Layout,
    PrintedTable,
    Text,
    frozen_mapping,
)
from pnp.data.schema import (
    COLOR,
    FIELD_REF,
    IDENT,
    Problems,
    Reader,
    color_error,
    coord_error,
    describe,
    font_size_error,
    resolve_coord,
)
from pnp.data.yamlmarks import Located, PathKey, load_yaml
from pnp.errors import DataError
from pnp.layout.presets import CARD_SIZES, MAX_BOARD, SAFE_ZONE, SHAPES

GAME_FILE = "game.yaml"
COMPONENTS_FILE = "components.yaml"
TABLES_FILE = "tables.yaml"
GLOSSARY_FILE = "glossary.yaml"

_COLORS = ("fill", "stroke", "color", "header_fill", "header_color")
_ALIGN = ("left", "center", "right")
_VALIGN = ("top", "middle", "bottom")

# What each element type accepts; "req" marks required props.
ELEMENT_PROPS: dict[str, dict[str, str]] = {
    "rect": {"box": "req box", "radius": "coord", "fill": "color", "stroke": "color",
             "stroke_width": "number"},
    "circle": {"center": "req point", "r": "req coord", "fill": "color", "stroke": "color",
               "stroke_width": "number"},
    "line": {"points": "req points", "stroke": "color", "stroke_width": "number",
             "dash": "numbers"},
    "text": {"box": "req box", "text": "req text", "size": "req fontsize",
             "min_size": "fontsize", "bold": "bool", "color": "color", "align": "align",
             "valign": "valign"},
    "boxes": {"box": "req box", "labels": "req texts", "size": "req fontsize",
              "min_size": "fontsize", "fill": "color", "stroke": "color",
              "stroke_width": "number", "color": "color"},
    "table": {"box": "req box", "table": "req name", "size": "req fontsize",
              "min_size": "fontsize", "color": "color", "header_fill": "color",
              "header_color": "color", "stroke": "color"},
}
TEXT_ELEMENTS = ("text", "boxes", "table")


def load_game(game_dir: Path) -> Game:
    """Load and validate one game; raise DataError listing every problem found."""
    problems = Problems()
    docs: dict[str, Located] = {}
    for name in (GAME_FILE, COMPONENTS_FILE, TABLES_FILE, GLOSSARY_FILE):
        path = game_dir / name
        if not path.is_file():
            if name in (GAME_FILE, COMPONENTS_FILE):
                problems.add_raw(f"{path}: file not found")
            continue
        try:
            docs[name] = load_yaml(path)
        except DataError as exc:
            problems.items.extend(exc.problems)
    if problems:
        raise DataError(problems.items)

    info = _read_game_info(Reader(docs[GAME_FILE], problems), game_dir.name)
    tables = _read_tables(Reader(docs[TABLES_FILE], problems)) if TABLES_FILE in docs else {}
    glossary = _read_glossary(Reader(docs[GLOSSARY_FILE], problems)) if GLOSSARY_FILE in docs else ()
    components, layouts = _read_components(Reader(docs[COMPONENTS_FILE], problems), tables)
    if problems:
        raise DataError(problems.items)
    return Game(info, components, frozen_mapping(layouts), frozen_mapping(tables), glossary)


def _text(reader: Reader, obj: dict[str, Any], key: str, path: PathKey,
          default: str | None = None) -> Text:
    value = reader.string(obj, key, path, default="" if default is None else default)
    return Text(value, reader.where((*path, key)))


def _read_game_info(r: Reader, slug_from_dir: str) -> GameInfo:
    keys = ("slug", "name", "source_lang", "version", "date", "players", "minutes", "age",
            "credits", "rules", "acknowledged")
    top = r.mapping(r.doc.value, (), keys, required=("slug", "name", "source_lang", "version",
                                                     "date", "players"))
    slug = r.string(top, "slug", (), pattern=IDENT, what="a lower-case identifier")
    if slug and slug != slug_from_dir:
        r.fail(("slug",), f"slug {slug!r} must match its folder name {slug_from_dir!r}")
    source_lang = r.string(top, "source_lang", ())
    if source_lang and source_lang not in LANGS:
        r.fail(("source_lang",), f"expected one of {', '.join(LANGS)}, got {source_lang!r}")
    date = top.get("date", "")
    if isinstance(date, datetime.date):
        date = date.isoformat()
    elif not isinstance(date, str):
        r.fail(("date",), f"expected a date such as '2026-11-29', got {describe(date)}")
        date = ""
    players = r.mapping(top.get("players", {}), ("players",), ("min", "max", "common"),
                        required=("min", "max"))
    low = r.integer(players, "min", ("players",), minimum=1)
    high = r.integer(players, "max", ("players",), minimum=1)
    common = r.integer(players, "common", ("players",), default=low, minimum=1)
    if low > high:
        r.fail(("players",), f"min ({low}) is greater than max ({high})")
    elif not low <= common <= high:
        r.fail(("players", "common"), f"must lie between min {low} and max {high}, got {common}")
    credits = tuple(
        Text(str(item), r.where(("credits", i)))
        for i, item in enumerate(r.sequence(top.get("credits", []), ("credits",)))
    )
    rules = top.get("rules", {})
    if not isinstance(rules, dict):
        r.fail(("rules",), f"expected a mapping, got {describe(rules)}")
        rules = {}
    acknowledged = []
    for i, item in enumerate(r.sequence(top.get("acknowledged", []), ("acknowledged",))):
        path = ("acknowledged", i)
        item = r.mapping(item, path, ("code", "reason"), required=("code", "reason"))
        if item:
            acknowledged.append(Acknowledged(r.string(item, "code", path), r.string(item, "reason", path),
                                             r.where(path)))
    return GameInfo(
        acknowledged=tuple(acknowledged),
        slug=slug,
        name=_text(r, top, "name", ()),
        source_lang=source_lang,
        version=r.string(top, "version", ()),
        date=date,
        players_min=low,
        players_max=high,
        players_common=common,
        minutes=r.string(top, "minutes", (), default=""),
        age=r.string(top, "age", (), default=""),
        credits=credits,
        rules=frozen_mapping(rules),
        where=r.where(()),
    )


def _read_tables(r: Reader) -> dict[str, PrintedTable]:
    top = r.mapping(r.doc.value, (), ("tables",), required=("tables",))
    tables_raw = r.mapping(top.get("tables", {}), ("tables",), allowed=top.get("tables", {}) or ())
    tables: dict[str, PrintedTable] = {}
    for name, raw in tables_raw.items():
        path: PathKey = ("tables", name)
        table = r.mapping(raw, path, ("title", "columns", "rows", "pivot"),
                          required=("columns", "rows"))
        columns: list[Column] = []
        for i, col in enumerate(r.sequence(table.get("columns", []), (*path, "columns"))):
            cpath = (*path, "columns", i)
            col = r.mapping(col, cpath, ("key", "label"), required=("key", "label"))
            columns.append(Column(r.string(col, "key", cpath), _text(r, col, "label", cpath)))
        keys = [c.key for c in columns]
        rows = []
        row_where = []
        for i, row in enumerate(r.sequence(table.get("rows", []), (*path, "rows"))):
            rpath = (*path, "rows", i)
            row = r.mapping(row, rpath, keys, required=keys)
            for key, value in row.items():
                if isinstance(value, bool) or not isinstance(value, int | float | str):
                    r.fail((*rpath, key), f"expected a number or text, got {describe(value)}")
            rows.append(frozen_mapping(row))
            row_where.append(r.where(rpath))
        pivot = None
        if "pivot" in table:
            spec = r.mapping(table["pivot"], (*path, "pivot"), ("down", "across", "value"),
                             required=("down", "across", "value"))
            picked = tuple(str(spec.get(k, "")) for k in ("down", "across", "value"))
            for key, value in zip(("down", "across", "value"), picked, strict=True):
                if key in spec and value not in keys:
                    r.fail((*path, "pivot", key), f"unknown column {value!r} (columns: {', '.join(keys)})")
            if len(spec) == 3 and all(v in keys for v in picked):
                pivot = picked
        tables[name] = PrintedTable(
            name, _text(r, table, "title", path, default=name), tuple(columns), tuple(rows),
            r.where(path), tuple(row_where), pivot,
        )
    return tables


def _read_glossary(r: Reader) -> tuple[GlossaryTerm, ...]:
    top = r.mapping(r.doc.value, (), ("terms",), required=("terms",))
    terms = []
    for i, item in enumerate(r.sequence(top.get("terms", []), ("terms",))):
        path = ("terms", i)
        item = r.mapping(item, path, LANGS, required=LANGS)
        hans = r.string(item, "zh-Hans", path)
        hant = r.string(item, "zh-Hant", path)
        if hans and hant:
            terms.append(GlossaryTerm(hans, hant, r.where(path)))
    return tuple(terms)


def _size(r: Reader, value: Any, path: PathKey) -> tuple[float, float] | None:
    if isinstance(value, str):
        if value in CARD_SIZES:
            return CARD_SIZES[value]
        r.fail(path, f"unknown size {value!r} (presets: {', '.join(CARD_SIZES)}; or [width, height] in mm)")
        return None
    if isinstance(value, list) and len(value) == 2:
        width = r.number(value[0], (*path, 0), minimum=5)
        height = r.number(value[1], (*path, 1), minimum=5)
        if width > MAX_BOARD[0] or height > MAX_BOARD[1]:
            r.fail(path, f"{width:g}×{height:g} mm is larger than the largest printable piece "
                         f"{MAX_BOARD[0]:g}×{MAX_BOARD[1]:g} mm")
        return (width, height)
    r.fail(path, f"expected a size preset or [width, height] in mm, got {describe(value)}")
    return None


_COMPONENT_KEYS = ("id", "name", "note", "shape", "size", "front", "back", "inner", "count",
                   "cards", "faces", "net_style")
_CARD_KEYS = ("id", "count", "size", "fields")


def _read_components(r: Reader, tables: dict[str, PrintedTable]
                     ) -> tuple[tuple[Component, ...], dict[str, Layout]]:
    top = r.mapping(r.doc.value, (), ("components", "layouts"), required=("components",))
    layouts = _read_layouts(r, top.get("layouts", {}) or {}, tables)
    components: list[Component] = []
    seen: set[str] = set()
    for i, raw in enumerate(r.sequence(top.get("components", []), ("components",))):
        path: PathKey = ("components", i)
        comp = r.mapping(raw, path, _COMPONENT_KEYS, required=("id", "name"))
        if not comp:
            continue
        cid = r.string(comp, "id", path, pattern=IDENT, what="a lower-case identifier")
        if cid in seen:
            r.fail((*path, "id"), f"duplicate component id {cid!r}")
        seen.add(cid)
        shape = r.string(comp, "shape", path, default="rect")
        if shape not in SHAPES:
            r.fail((*path, "shape"), f"expected one of {', '.join(SHAPES)}, got {shape!r}")
        default_size = _size(r, comp["size"], (*path, "size")) if "size" in comp else None
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
        cards = _read_cards(r, comp, path, default_size, cid)
        component = Component(
            id=cid, name=_text(r, comp, "name", path), note=_text(r, comp, "note", path, ""),
            shape=shape, front=refs["front"], back=refs["back"], inner=refs["inner"],
            cards=cards, faces=faces, net_style=frozen_mapping(net_style), where=r.where(path),
        )
        _check_component_layouts(r, component, layouts, tables)
        components.append(component)
    return tuple(components), layouts


def _read_cards(r: Reader, comp: dict[str, Any], path: PathKey,
                default_size: tuple[float, float] | None, cid: str) -> tuple[Card, ...]:
    if "cards" in comp and "count" in comp:
        r.fail((*path, "count"), "give either 'count' (one design) or 'cards' (a list), not both")
    if "cards" not in comp:
        if default_size is None and "size" not in comp:
            r.fail(path, "missing required field 'size'")
        count = r.integer(comp, "count", path, default=1, minimum=1)
        return (Card(cid, count, frozen_mapping({}), default_size or (0, 0), r.where(path)),)
    cards = []
    ids: set[str] = set()
    for j, raw in enumerate(r.sequence(comp["cards"], (*path, "cards"))):
        cpath = (*path, "cards", j)
        card = r.mapping(raw, cpath, _CARD_KEYS, required=("id",))
        if not card:
            continue
        card_id = r.string(card, "id", cpath, pattern=IDENT, what="a lower-case identifier")
        if card_id in ids:
            r.fail((*cpath, "id"), f"duplicate card id {card_id!r}")
        ids.add(card_id)
        count = r.integer(card, "count", cpath, default=1, minimum=1)
        size = _size(r, card["size"], (*cpath, "size")) if "size" in card else default_size
        if size is None and "size" not in card:
            r.fail(cpath, "missing required field 'size' (on the card or its component)")
        fields_raw = r.mapping(card.get("fields", {}), (*cpath, "fields"),
                               allowed=card.get("fields", {}) or ())
        fields = {}
        for key, value in fields_raw.items():
            if isinstance(value, bool) or not isinstance(value, str | int | float):
                r.fail((*cpath, "fields", key), f"expected text, got {describe(value)}")
                continue
            fields[key] = Text(str(value), r.where((*cpath, "fields", key)))
        cards.append(Card(card_id, count, frozen_mapping(fields), size or (0, 0), r.where(cpath)))
    if not cards:
        r.fail((*path, "cards"), "a component needs at least one card")
    return tuple(cards)


def _read_layouts(r: Reader, raw: Any, tables: dict[str, PrintedTable]) -> dict[str, Layout]:
    layouts: dict[str, Layout] = {}
    raw = r.mapping(raw, ("layouts",), allowed=raw if isinstance(raw, dict) else ())
    for name, body in raw.items():
        path: PathKey = ("layouts", name)
        body = r.mapping(body, path, ("background", "elements"), required=("background",))
        background = body.get("background", "#ffffff")
        if color_error(background):
            r.fail((*path, "background"), color_error(background) or "")
        elements = []
        for i, item in enumerate(r.sequence(body.get("elements", []), (*path, "elements"))):
            element = _read_element(r, item, (*path, "elements", i), tables)
            if element is not None:
                elements.append(element)
        layouts[name] = Layout(name, str(background), tuple(elements), r.where(path))
    return layouts


def _prop_error(kind: str, value: Any, tables: dict[str, PrintedTable]) -> str | None:
    def listed(check: Callable[[Any], str | None], size: int | None, what: str) -> str | None:
        if not isinstance(value, list) or (size is not None and len(value) != size):
            return f"expected {what}, got {value!r}"
        for item in value:
            message = check(item)
            if message:
                return message
        return None

    def point_error(item: Any) -> str | None:
        if not isinstance(item, list) or len(item) != 2:
            return f"expected a point [x, y], got {item!r}"
        return coord_error(item[0]) or coord_error(item[1])

    def number_error(item: Any) -> str | None:
        ok = isinstance(item, int | float) and not isinstance(item, bool) and item >= 0
        return None if ok else f"expected a non-negative number, got {item!r}"

    def text_error(item: Any) -> str | None:
        ok = isinstance(item, str | int | float) and not isinstance(item, bool)
        return None if ok else f"expected text, got {describe(item)}"

    checks: dict[str, Callable[[], str | None]] = {
        "box": lambda: listed(coord_error, 4, "a box [x, y, width, height]"),
        "point": lambda: point_error(value),
        "points": lambda: listed(point_error, None, "a list of points [[x, y], ...]")
        or (None if len(value) >= 2 else "a line needs at least two points"),
        "coord": lambda: coord_error(value),
        "number": lambda: number_error(value),
        "numbers": lambda: listed(number_error, None, "a list of numbers"),
        "color": lambda: color_error(value),
        "text": lambda: text_error(value),
        "texts": lambda: listed(text_error, None, "a list of labels"),
        "fontsize": lambda: font_size_error(value),
        "bool": lambda: None if isinstance(value, bool) else f"expected true or false, got {value!r}",
        "align": lambda: None if value in _ALIGN else f"expected one of {', '.join(_ALIGN)}, got {value!r}",
        "valign": lambda: None if value in _VALIGN else f"expected one of {', '.join(_VALIGN)}, got {value!r}",
        "name": lambda: None if value in tables else
        f"unknown table {value!r} (tables.yaml defines: {', '.join(tables) or 'none'})",
    }
    return checks[kind]()


def _read_element(r: Reader, raw: Any, path: PathKey,
                  tables: dict[str, PrintedTable]) -> Element | None:
    if not isinstance(raw, dict) or "type" not in raw:
        r.fail(path, f"expected an element mapping with a 'type', got {describe(raw)}")
        return None
    kind = raw["type"]
    if kind not in ELEMENT_PROPS:
        r.fail((*path, "type"), f"unknown element type {kind!r} (expected one of: {', '.join(ELEMENT_PROPS)})")
        return None
    spec = ELEMENT_PROPS[kind]
    required = [k for k, v in spec.items() if v.startswith("req ")]
    r.mapping(raw, path, ("type", *spec), required=required)
    ok = True
    for key, value in raw.items():
        if key == "type" or key not in spec:
            continue
        message = _prop_error(spec[key].removeprefix("req "), value, tables)
        if message:
            r.fail((*path, key), message)
            ok = False
    if not ok or any(k not in raw for k in required):
        return None
    props = {k: v for k, v in raw.items() if k != "type"}
    if "text" in props:
        props["text"] = str(props["text"])
    if "labels" in props:
        props["labels"] = [str(v) for v in props["labels"]]
    return Element(kind, frozen_mapping(props), r.where(path))


def field_refs(text: str) -> list[str]:
    return FIELD_REF.findall(text)


def _check_component_layouts(r: Reader, comp: Component, layouts: dict[str, Layout],
                             tables: dict[str, PrintedTable]) -> None:
    """Per card: every {field} a layout uses exists, colours resolve, text is in the safe zone."""
    used = [layouts[ref] for ref in (comp.front, comp.back, comp.inner) if ref in layouts]
    for card in comp.cards:
        for layout in used:
            strings: list[tuple[str, str]] = [(layout.background, layout.where + ": background")]
            for element in layout.elements:
                for key, value in element.props.items():
                    if isinstance(value, str):
                        strings.append((value, f"{element.where}.{key}"))
                for label in element.get("labels", []):
                    strings.append((label, f"{element.where}.labels"))
                if element.kind in TEXT_ELEMENTS:
                    _check_safe_zone(r, comp, card, element)
            for value, where in strings:
                for ref in field_refs(value):
                    if ref not in card.fields:
                        r.problems.add_raw(
                            f"{where}: field {{{ref}}} is not defined by card {card.id!r} of "
                            f"component {comp.id!r} ({card.where})"
                        )
            for key in _COLORS:
                for element in layout.elements:
                    ref = element.get(key)
                    if isinstance(ref, str) and FIELD_REF.fullmatch(ref):
                        _check_field_color(r, card, ref, f"{element.where}.{key}")
            if FIELD_REF.fullmatch(layout.background):
                _check_field_color(r, card, layout.background, f"{layout.where}: background")


def _check_field_color(r: Reader, card: Card, ref: str, where: str) -> None:
    name = ref[1:-1]
    if name in card.fields and not COLOR.match(card.fields[name].value):
        r.problems.add_raw(f"{card.fields[name].where}: expected a colour '#rrggbb' for {ref} "
                           f"(used at {where}), got {card.fields[name].value!r}")


def _check_safe_zone(r: Reader, comp: Component, card: Card, element: Element) -> None:
    width, height = card.size
    x, y, w, h = element.get("box")
    left, top = resolve_coord(x, width), resolve_coord(y, height)
    right, bottom = left + resolve_coord(w, width), top + resolve_coord(h, height)
    eps = 1e-6
    if (left < SAFE_ZONE - eps or top < SAFE_ZONE - eps or right > width - SAFE_ZONE + eps
            or bottom > height - SAFE_ZONE + eps):
        r.problems.add_raw(
            f"{element.where}.box: text box [{left:g}, {top:g}, {right - left:g}, {bottom - top:g}] mm "
            f"leaves the safe zone ({SAFE_ZONE:g} mm inside the {width:g}×{height:g} mm trim) "
            f"on card {card.id!r} of component {comp.id!r}"
        )
