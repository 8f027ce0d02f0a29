"""Read card_data/<slug>/ into a Game, validating everything and failing once with all problems."""

from __future__ import annotations

import datetime
import re
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from pnp.data.model import (
    LANGS,
    Acknowledged,
    Card,
    Column,
    Component,
    Element,
    ExampleGame,
    Figure,
    Game,
    GameInfo,
    GlossaryTerm,
    Layout,
    PrintedTable,
    Symbol,
    SymbolPath,
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
from pnp.data.svgpath import PathSyntaxError, parse_path
from pnp.data.yamlmarks import Located, PathKey, load_yaml
from pnp.errors import DataError
from pnp.layout.icons import capacity, place_icons
from pnp.layout.presets import CARD_SIZES, MAX_BOARD, MAX_TILED_BOARD, SAFE_ZONE, SHAPES

GAME_FILE = "game.yaml"
COMPONENTS_FILE = "components.yaml"
TABLES_FILE = "tables.yaml"
GLOSSARY_FILE = "glossary.yaml"
FIGURES_FILE = "figures.yaml"

_COLORS = ("fill", "stroke", "color", "header_fill", "header_color")
_ALIGN = ("left", "center", "right")
COLUMN_FORMATS = ("", "thousands")
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
    "symbol": {"box": "req box", "symbol": "req symbol", "fill": "color", "stroke": "color"},
    "icons": {"box": "req box", "symbol": "req symbol", "count": "req count", "size": "req mm",
              "gap": "number", "fill": "color", "stroke": "color"},
    "grid": {"box": "req box", "rows": "req rows", "columns": "req texts", "row_labels": "texts",
             "column_widths": "weights", "header_height": "mm", "size": "req fontsize",
             "min_size": "fontsize", "stroke": "color", "stroke_width": "number",
             "header_fill": "color", "header_color": "color", "color": "color"},
}
# Every element may be turned half round about the trim's centre ("half"), or drawn both as
# placed and turned ("both"): a corner index is one element with turn: both.
TURNS = ("half", "both")
for _props in ELEMENT_PROPS.values():
    _props["turn"] = "turn"
TEXT_ELEMENTS = ("text", "boxes", "table", "grid")
SYMBOL_ELEMENTS = ("symbol", "icons")
ICON_GAP = 1.0  # mm between icons when the layout gives no gap
GENERATE_LIMIT = 1000  # cards one generate block may make; more is surely a typo


def load_game(game_dir: Path) -> Game:
    """Load and validate one game; raise DataError listing every problem found."""
    problems = Problems()
    docs: dict[str, Located] = {}
    for name in (GAME_FILE, COMPONENTS_FILE, TABLES_FILE, GLOSSARY_FILE, FIGURES_FILE):
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
    components, layouts, symbols, incomplete = _read_components(Reader(docs[COMPONENTS_FILE], problems),
                                                                tables)
    figures = _read_figures(Reader(docs[FIGURES_FILE], problems), components, incomplete) \
        if FIGURES_FILE in docs else {}
    if problems:
        raise DataError(problems.items)
    return Game(info, components, frozen_mapping(layouts), frozen_mapping(tables), glossary,
                frozen_mapping(symbols), frozen_mapping(figures))


def _text(reader: Reader, obj: dict[str, Any], key: str, path: PathKey,
          default: str | None = None) -> Text:
    value = reader.string(obj, key, path, default="" if default is None else default)
    return Text(value, reader.where((*path, key)))


def _read_game_info(r: Reader, slug_from_dir: str) -> GameInfo:
    keys = ("slug", "name", "source_lang", "version", "date", "players", "minutes", "age",
            "credits", "rules", "acknowledged", "example")
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
    example = None
    if "example" in top:
        spec = r.mapping(top["example"], ("example",), ("seed", "players", "variant"),
                         required=("seed", "players"))
        if spec:
            seed = r.integer(spec, "seed", ("example",), minimum=0)
            count = r.integer(spec, "players", ("example",), minimum=low, maximum=high)
            variant = r.string(spec, "variant", ("example",), default="") or None
            example = ExampleGame(seed, count, variant)
    return GameInfo(
        example=example,
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
            col = r.mapping(col, cpath, ("key", "label", "format"), required=("key", "label"))
            fmt = r.string(col, "format", cpath, default="")
            if fmt not in COLUMN_FORMATS:
                r.fail((*cpath, "format"), f"expected one of {', '.join(COLUMN_FORMATS[1:])}, got {fmt!r}")
            columns.append(Column(r.string(col, "key", cpath), _text(r, col, "label", cpath), fmt))
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
                   "cards", "generate", "faces", "net_style")
_CARD_KEYS = ("id", "count", "size", "fields")


def _read_components(r: Reader, tables: dict[str, PrintedTable]
                     ) -> tuple[tuple[Component, ...], dict[str, Layout], dict[str, Symbol], set[str]]:
    """Components, layouts and symbols, and the ids of components whose cards could not all
    be made (so that figures do not report their missing cards a second time)."""
    top = r.mapping(r.doc.value, (), ("components", "layouts", "symbols"), required=("components",))
    symbols = _read_symbols(r, {} if top.get("symbols") is None else top["symbols"])
    layouts = _read_layouts(r, top.get("layouts", {}) or {}, tables, symbols)
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
        cards = _read_cards(r, comp, path, default_size, cid, tables)
        if len(r.problems.items) > before:
            incomplete.add(cid)
        component = Component(
            id=cid, name=_text(r, comp, "name", path), note=_text(r, comp, "note", path, ""),
            shape=shape, front=refs["front"], back=refs["back"], inner=refs["inner"],
            cards=cards, faces=faces, net_style=frozen_mapping(net_style), where=r.where(path),
        )
        _check_component_layouts(r, component, layouts, symbols)
        components.append(component)
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
                tables: dict[str, PrintedTable]) -> tuple[Card, ...]:
    listed = "cards" in comp or "generate" in comp
    if listed and "count" in comp:
        r.fail((*path, "count"), "give either 'count' (one design) or 'cards' / 'generate' (several), "
                                 "not both")
    if not listed:
        if default_size is None and "size" not in comp:
            r.fail(path, "missing required field 'size'")
        count = r.integer(comp, "count", path, default=1, minimum=1)
        return (Card(cid, count, frozen_mapping({}), default_size or (0, 0), r.where(path)),)
    cards = []
    ids: set[str] = set()
    for j, raw in enumerate(r.sequence(comp.get("cards", []), (*path, "cards"))):
        cpath = (*path, "cards", j)
        card = r.mapping(raw, cpath, _CARD_KEYS, required=("id",))
        if not card:
            continue
        card_id = _unique_id(r, card, cpath, ids, "card")
        count = r.integer(card, "count", cpath, default=1, minimum=1)
        size = _size(r, card["size"], (*cpath, "size"), comp.get("shape", "rect")) if "size" in card \
            else default_size
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
    if "generate" in comp:
        if default_size is None and "size" not in comp:
            r.fail(path, "missing required field 'size' (generated cards take the component's size)")
        for card in _generate_cards(r, comp["generate"], (*path, "generate"), default_size or (0, 0),
                                    tables):
            if card.id in ids:
                r.fail((*path, "generate", "id"), f"duplicate card id {card.id!r}")
            ids.add(card.id)
            cards.append(card)
    if not cards and "generate" not in comp:
        r.fail((*path, "cards"), "a component needs at least one card")
    return tuple(cards)


_GENERATE_KEYS = ("range", "id", "count", "fields")
_N_REF = re.compile(r"\{([^{}]*)\}")


def _n_template(r: Reader, value: Any, path: PathKey) -> str | None:
    """A generate template; None (and a problem) unless its only placeholder is {n}."""
    if isinstance(value, bool) or not isinstance(value, str | int | float):
        r.fail(path, f"expected text (a template over {{n}}), a lookup or a map, got {describe(value)}")
        return None
    text = str(value)
    unknown = [ref for ref in _N_REF.findall(text) if ref != "n"]
    if unknown:
        r.fail(path, f"unknown placeholder {{{unknown[0]}}} (generate templates know only {{n}}; "
                     "use {field: ..., map: ...} to derive one field from another)")
        return None
    return text


def _generate_cards(r: Reader, raw: Any, path: PathKey, size: tuple[float, float],
                    tables: dict[str, PrintedTable]) -> list[Card]:
    """The cards of a ``generate:`` block: one per n in the range, fields from templates,
    printed-table lookups and maps of other fields."""
    spec = r.mapping(raw, path, _GENERATE_KEYS, required=("range", "id"))
    if not spec:
        return []
    bounds = spec.get("range")
    numbers: list[int] = []
    if (isinstance(bounds, list) and len(bounds) == 2
            and all(isinstance(b, int) and not isinstance(b, bool) for b in bounds)):
        low, high = bounds
        if low > high:
            r.fail((*path, "range"), f"the first number ({low}) is greater than the last ({high})")
        elif high - low + 1 > GENERATE_LIMIT:
            r.fail((*path, "range"), f"{high - low + 1} cards is more than the {GENERATE_LIMIT} one "
                                     "generate block may make")
        else:
            numbers = list(range(low, high + 1))
    elif "range" in spec:
        r.fail((*path, "range"), f"expected [first, last], two whole numbers, got {bounds!r}")
    id_template = _n_template(r, spec.get("id", ""), (*path, "id")) if "id" in spec else None
    if id_template is not None and len(numbers) > 1 and "{n}" not in id_template:
        r.fail((*path, "id"), f"the id template {id_template!r} needs {{n}}, or every card gets the same id")
        id_template = None
    count = r.integer(spec, "count", path, default=1, minimum=1)

    # Each field is made by one rule: ("text", template) | ("lookup", table, key, value) |
    # ("map", field, {value: result}); maps run last so they can read any other field.
    rules: dict[str, tuple[Any, ...]] = {}
    fields_raw = spec.get("fields", {})
    fields_raw = r.mapping(fields_raw, (*path, "fields"),
                           allowed=fields_raw if isinstance(fields_raw, dict) else ())
    for key, value in fields_raw.items():
        fpath = (*path, "fields", key)
        if not isinstance(value, dict):
            template = _n_template(r, value, fpath)
            if template is not None:
                rules[key] = ("text", template)
        elif "table" in value:
            rule = _lookup_rule(r, value, fpath, tables)
            if rule is not None:
                rules[key] = rule
        elif "map" in value or "field" in value:
            rule = _map_rule(r, value, fpath)
            if rule is not None:
                rules[key] = rule
        else:
            r.fail(fpath, "expected a template over {n}, a lookup {table: ..., key: ..., value: ...} "
                          f"or a map {{field: ..., map: {{...}}}}, got {describe(value)}")
    for key, rule in rules.items():
        if rule[0] == "map" and rule[1] not in fields_raw:
            r.fail((*path, "fields", key, "field"),
                   f"unknown field {rule[1]!r} (generated fields: {', '.join(fields_raw) or 'none'})")
    if id_template is None or len(rules) != len(fields_raw) \
            or any(rule[0] == "map" and rule[1] not in rules for rule in rules.values()):
        return []

    where = r.where(path)
    cards = []
    for n in numbers:
        card_id = id_template.replace("{n}", str(n))
        if not IDENT.match(card_id):
            r.fail((*path, "id"), f"generated card id {card_id!r} is not a lower-case identifier")
            continue
        fields: dict[str, Text] = {}
        for key, rule in rules.items():
            fpath = (*path, "fields", key)
            if rule[0] == "text":
                fields[key] = Text(rule[1].replace("{n}", str(n)), r.where(fpath))
            elif rule[0] == "lookup":
                _, name, column, value = rule
                table = tables[name]
                hit = next((i for i, row in enumerate(table.rows) if str(row.get(column)) == str(n)), None)
                if hit is None:
                    r.fail(fpath, f"card {card_id!r}: printed table {name!r} has no row whose "
                                  f"{column!r} is {n}")
                    continue
                fields[key] = Text(str(table.rows[hit][value]), table.row_where[hit])
        for key, rule in rules.items():
            if rule[0] != "map":
                continue
            fpath = (*path, "fields", key)
            _, source, mapping = rule
            if source not in fields:
                continue  # its own problem (a lookup miss) was reported
            found = fields[source].value
            if found not in mapping:
                r.fail(fpath, f"card {card_id!r}: {source} = {found!r} is not in the map "
                              f"(it maps: {', '.join(mapping) or 'nothing'})")
                continue
            fields[key] = Text(mapping[found], r.where((*fpath, "map", found)))
        if len(fields) == len(rules):
            cards.append(Card(card_id, count, frozen_mapping(fields), size, f"{where} (card {card_id!r})"))
    return cards


def _lookup_rule(r: Reader, value: dict[str, Any], path: PathKey,
                 tables: dict[str, PrintedTable]) -> tuple[Any, ...] | None:
    spec = r.mapping(value, path, ("table", "key", "value"), required=("table", "key", "value"))
    if len(spec) != 3 or not all(isinstance(v, str) for v in spec.values()):
        if len(spec) == 3:
            r.fail(path, "table, key and value must be names")
        return None
    name, key, column = spec["table"], spec["key"], spec["value"]
    if name not in tables:
        r.fail((*path, "table"), f"unknown table {name!r} (tables.yaml defines: {', '.join(tables) or 'none'})")
        return None
    keys = [c.key for c in tables[name].columns]
    ok = True
    for prop, col in (("key", key), ("value", column)):
        if col not in keys:
            r.fail((*path, prop), f"table {name!r} has no column {col!r} (columns: {', '.join(keys)})")
            ok = False
    return ("lookup", name, key, column) if ok else None


def _map_rule(r: Reader, value: dict[str, Any], path: PathKey) -> tuple[Any, ...] | None:
    spec = r.mapping(value, path, ("field", "map"), required=("field", "map"))
    if len(spec) != 2:
        return None
    source = spec["field"]
    if not isinstance(source, str):
        r.fail((*path, "field"), f"expected a field name, got {describe(source)}")
        return None
    mapping = spec["map"]
    if not isinstance(mapping, dict) or not mapping:
        r.fail((*path, "map"), f"expected a mapping of values to results, got {describe(mapping)}")
        return None
    out: dict[str, str] = {}
    for key, result in mapping.items():
        if isinstance(result, bool) or not isinstance(result, str | int | float):
            r.fail((*path, "map", key), f"expected text, got {describe(result)}")
            continue
        out[str(key)] = str(result)
    return ("map", source, out) if len(out) == len(mapping) else None


def _read_symbols(r: Reader, raw: Any) -> dict[str, Symbol]:
    symbols: dict[str, Symbol] = {}
    raw = r.mapping(raw, ("symbols",), allowed=raw if isinstance(raw, dict) else ())
    for name, body in raw.items():
        path: PathKey = ("symbols", name)
        if not IDENT.match(name):
            r.fail(path, f"symbol name {name!r} is not a lower-case identifier")
            continue
        body = r.mapping(body, path, ("viewbox", "paths"), required=("viewbox", "paths"))
        if not body:
            continue
        box = body.get("viewbox")
        viewbox = None
        if isinstance(box, list) and len(box) == 4:
            numbers = [r.number(v, (*path, "viewbox", i)) for i, v in enumerate(box)]
            if numbers[2] <= 0 or numbers[3] <= 0:
                r.fail((*path, "viewbox"), f"width and height must be positive, got {box!r}")
            else:
                viewbox = (numbers[0], numbers[1], numbers[2], numbers[3])
        elif "viewbox" in body:
            r.fail((*path, "viewbox"), f"expected [x, y, width, height], got {box!r}")
        paths = []
        raw_paths = r.sequence(body.get("paths", []), (*path, "paths"))
        if "paths" in body and isinstance(body["paths"], list) and not raw_paths:
            r.fail((*path, "paths"), "a symbol needs at least one path")
        for i, item in enumerate(raw_paths):
            ppath = (*path, "paths", i)
            item = r.mapping(item, ppath, ("d", "fill", "stroke", "stroke_width", "fill_rule"),
                             required=("d",))
            rule = item.get("fill_rule", "nonzero")
            if rule not in ("nonzero", "evenodd"):
                r.fail((*ppath, "fill_rule"), f"expected nonzero or evenodd, got {rule!r}")
            if "d" not in item:
                continue
            for key in ("fill", "stroke"):
                if key in item and not (isinstance(item[key], str) and COLOR.match(item[key])):
                    r.fail((*ppath, key), f"expected a colour '#rrggbb', got {item[key]!r}")
            width = r.number(item["stroke_width"], (*ppath, "stroke_width"), minimum=0) \
                if "stroke_width" in item else 1.0
            if "fill" not in item and "stroke" not in item:
                r.fail(ppath, "a path needs a fill or a stroke colour, or it draws nothing")
            try:
                segments = parse_path(str(item["d"]))
            except PathSyntaxError as exc:
                r.fail((*ppath, "d"), f"bad path: {exc}")
                continue
            paths.append(SymbolPath(segments, item.get("fill"), item.get("stroke"), width,
                                    rule == "evenodd"))
        # A broken symbol is still known, so its uses are not reported as unknown too.
        symbols[name] = Symbol(name, viewbox or (0.0, 0.0, 1.0, 1.0), tuple(paths), r.where(path))
    return symbols


def _read_layouts(r: Reader, raw: Any, tables: dict[str, PrintedTable],
                  symbols: dict[str, Symbol]) -> dict[str, Layout]:
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
            element = _read_element(r, item, (*path, "elements", i), tables, symbols)
            if element is not None:
                elements.append(element)
        layouts[name] = Layout(name, str(background), tuple(elements), r.where(path))
    return layouts


def _prop_error(kind: str, value: Any, tables: dict[str, PrintedTable],
                symbols: dict[str, Symbol]) -> str | None:
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

    def positive_error(item: Any) -> str | None:
        ok = isinstance(item, int | float) and not isinstance(item, bool) and item > 0
        return None if ok else f"expected a positive number, got {item!r}"

    def text_error(item: Any) -> str | None:
        ok = isinstance(item, str | int | float) and not isinstance(item, bool)
        return None if ok else f"expected text, got {describe(item)}"

    def symbol_error() -> str | None:
        if isinstance(value, str) and (value in symbols or FIELD_REF.fullmatch(value)):
            return None
        return f"unknown symbol {value!r} (components.yaml symbols: {', '.join(symbols) or 'none'})"

    def count_error() -> str | None:
        if isinstance(value, int) and not isinstance(value, bool) and value >= 0:
            return None
        if isinstance(value, str) and FIELD_REF.fullmatch(value):
            return None
        return f"expected a whole number of icons or a {{field}} holding one, got {value!r}"

    def rows_error() -> str | None:
        ok = isinstance(value, int) and not isinstance(value, bool) and value >= 1
        return None if ok else f"expected a whole number of rows (at least 1), got {value!r}"

    checks: dict[str, Callable[[], str | None]] = {
        "box": lambda: listed(coord_error, 4, "a box [x, y, width, height]"),
        "point": lambda: point_error(value),
        "points": lambda: listed(point_error, None, "a list of points [[x, y], ...]")
        or (None if len(value) >= 2 else "a line needs at least two points"),
        "coord": lambda: coord_error(value),
        "number": lambda: number_error(value),
        "numbers": lambda: listed(number_error, None, "a list of numbers"),
        "mm": lambda: positive_error(value),
        "weights": lambda: listed(positive_error, None, "a list of relative widths"),
        "color": lambda: color_error(value),
        "text": lambda: text_error(value),
        "texts": lambda: listed(text_error, None, "a list of labels"),
        "fontsize": lambda: font_size_error(value),
        "bool": lambda: None if isinstance(value, bool) else f"expected true or false, got {value!r}",
        "align": lambda: None if value in _ALIGN else f"expected one of {', '.join(_ALIGN)}, got {value!r}",
        "valign": lambda: None if value in _VALIGN else f"expected one of {', '.join(_VALIGN)}, got {value!r}",
        "name": lambda: None if value in tables else
        f"unknown table {value!r} (tables.yaml defines: {', '.join(tables) or 'none'})",
        "symbol": symbol_error,
        "count": count_error,
        "rows": rows_error,
        "turn": lambda: None if value in TURNS else f"expected one of {', '.join(TURNS)}, got {value!r}",
    }
    return checks[kind]()


def _read_element(r: Reader, raw: Any, path: PathKey, tables: dict[str, PrintedTable],
                  symbols: dict[str, Symbol]) -> Element | None:
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
        message = _prop_error(spec[key].removeprefix("req "), value, tables, symbols)
        if message:
            r.fail((*path, key), message)
            ok = False
    if not ok or any(k not in raw for k in required):
        return None
    if kind == "grid":
        ok = _check_grid_shape(r, raw, path)
    if not ok:
        return None
    props = {k: v for k, v in raw.items() if k != "type"}
    if "text" in props:
        props["text"] = str(props["text"])
    for key in ("labels", "columns", "row_labels"):
        if key in props:
            props[key] = [str(v) for v in props[key]]
    return Element(kind, frozen_mapping(props), r.where(path))


def _check_grid_shape(r: Reader, raw: dict[str, Any], path: PathKey) -> bool:
    """Row labels and column widths must match the grid they describe."""
    ok = True
    columns = raw["columns"]
    if not columns:
        r.fail((*path, "columns"), "a grid needs at least one column")
        ok = False
    if "row_labels" in raw and len(raw["row_labels"]) != raw["rows"]:
        r.fail((*path, "row_labels"), f"{len(raw['row_labels'])} row labels for {raw['rows']} rows")
        ok = False
    if "column_widths" in raw and len(raw["column_widths"]) != len(columns):
        r.fail((*path, "column_widths"), f"{len(raw['column_widths'])} widths for {len(columns)} columns")
        ok = False
    return ok


def field_refs(text: str) -> list[str]:
    return FIELD_REF.findall(text)


class _PerCard:
    """Problems that repeat card after card (a 104-card deck sharing one layout) are
    reported once, naming the first card and how many others share the problem."""

    def __init__(self, r: Reader, comp: Component) -> None:
        self.r = r
        self.comp = comp
        self.found: dict[str, tuple[str, list[str]]] = {}

    def add(self, key: str, card: Card, message: str) -> None:
        if key in self.found:
            self.found[key][1].append(card.id)
        else:
            self.found[key] = (message, [])

    def flush(self) -> None:
        for message, others in self.found.values():
            if others:
                more = f"{len(others)} more card" + ("s" if len(others) > 1 else "")
                message += f" (and {more} of component {self.comp.id!r}: {_brief(others)})"
            self.r.problems.add_raw(message)


def _brief(ids: list[str]) -> str:
    return ", ".join(ids) if len(ids) <= 4 else f"{', '.join(ids[:3])}, …, {ids[-1]}"


def _element_strings(element: Element) -> Iterator[tuple[str, str]]:
    for key, value in element.props.items():
        if isinstance(value, str):
            yield value, f"{element.where}.{key}"
        elif isinstance(value, list):
            yield from ((item, f"{element.where}.{key}") for item in value if isinstance(item, str))


def substitute(text: str, card: Card) -> str:
    return FIELD_REF.sub(lambda m: card.fields[m.group(1)].value if m.group(1) in card.fields
                         else m.group(0), text)


def _check_component_layouts(r: Reader, comp: Component, layouts: dict[str, Layout],
                             symbols: dict[str, Symbol]) -> None:
    """Per card: every {field} a layout uses exists, colours resolve, text is in the safe zone,
    symbols exist and icons fit."""
    used = [layouts[ref] for ref in (comp.front, comp.back, comp.inner) if ref in layouts]
    report = _PerCard(r, comp)
    for card in comp.cards:
        for layout in used:
            strings: list[tuple[str, str]] = [(layout.background, layout.where + ": background")]
            for element in layout.elements:
                strings.extend(_element_strings(element))
                if element.kind in TEXT_ELEMENTS:
                    _check_safe_zone(report, comp, card, element)
            missing = False
            for value, where in strings:
                for ref in field_refs(value):
                    if ref not in card.fields:
                        missing = True
                        report.add(f"{where}/{ref}", card,
                                   f"{where}: field {{{ref}}} is not defined by card {card.id!r} of "
                                   f"component {comp.id!r} ({card.where})")
            for key in _COLORS:
                for element in layout.elements:
                    ref = element.get(key)
                    if isinstance(ref, str) and FIELD_REF.fullmatch(ref):
                        _check_field_color(r, card, ref, f"{element.where}.{key}")
            if FIELD_REF.fullmatch(layout.background):
                _check_field_color(r, card, layout.background, f"{layout.where}: background")
            if not missing:
                for element in layout.elements:
                    if element.kind in SYMBOL_ELEMENTS:
                        _check_symbol_element(report, comp, card, element, symbols)
    report.flush()


def _check_symbol_element(report: _PerCard, comp: Component, card: Card, element: Element,
                          symbols: dict[str, Symbol]) -> None:
    """The symbol a card names exists, its icon count is a number, and that many fit."""
    on_card = f"on card {card.id!r} of component {comp.id!r}"
    name = substitute(element.get("symbol"), card)
    if name not in symbols:
        report.r.problems.add_raw(
            f"{element.where}.symbol: unknown symbol {name!r} {on_card} "
            f"(components.yaml symbols: {', '.join(symbols) or 'none'})")
        return
    if element.kind != "icons":
        return
    raw = element.get("count")
    count: int | None = raw if isinstance(raw, int) else None
    if count is None:
        text = substitute(raw, card).strip()
        source = card.fields[raw[1:-1]]
        if not text.isdigit():
            report.r.problems.add_raw(
                f"{source.where}: icon count {raw} must be a whole number, got {text!r} {on_card} "
                f"(used at {element.where}.count)")
            return
        count = int(text)
    x, y, w, h = element.get("box")
    box_w, box_h = resolve_coord(w, card.size[0]), resolve_coord(h, card.size[1])
    size = float(element.get("size"))
    gap = float(element.get("gap", ICON_GAP))
    icon_w = size * symbols[name].aspect
    if place_icons(count, box_w, box_h, icon_w, size, gap) is None:
        most = capacity(box_w, box_h, icon_w, size, gap)
        report.add(f"{element.where}/icons/{count}", card,
                   f"{element.where}: {count} icons of {icon_w:.3g}×{size:g} mm (gap {gap:g} mm) do not fit "
                   f"the {box_w:g}×{box_h:g} mm box {on_card}: it holds {most}; "
                   "enlarge the box or lower size or gap")


def _check_field_color(r: Reader, card: Card, ref: str, where: str) -> None:
    name = ref[1:-1]
    if name in card.fields and not COLOR.match(card.fields[name].value):
        r.problems.add_raw(f"{card.fields[name].where}: expected a colour '#rrggbb' for {ref} "
                           f"(used at {where}), got {card.fields[name].value!r}")


def _check_safe_zone(report: _PerCard, comp: Component, card: Card, element: Element) -> None:
    width, height = card.size
    x, y, w, h = element.get("box")
    left, top = resolve_coord(x, width), resolve_coord(y, height)
    right, bottom = left + resolve_coord(w, width), top + resolve_coord(h, height)
    eps = 1e-6
    if (left < SAFE_ZONE - eps or top < SAFE_ZONE - eps or right > width - SAFE_ZONE + eps
            or bottom > height - SAFE_ZONE + eps):
        report.add(
            f"{element.where}/safe/{left}/{top}/{right}/{bottom}/{width}/{height}", card,
            f"{element.where}.box: text box [{left:g}, {top:g}, {right - left:g}, {bottom - top:g}] mm "
            f"leaves the safe zone ({SAFE_ZONE:g} mm inside the {width:g}×{height:g} mm trim) "
            f"on card {card.id!r} of component {comp.id!r}"
        )


_FIGURE_KEYS = ("caption", "component", "side", "rows", "labels", "card_height")
FIGURE_CARD_HEIGHT = 25.0  # mm, when a figure does not say


def _read_figures(r: Reader, components: tuple[Component, ...], incomplete: set[str]) -> dict[str, Figure]:
    top = r.mapping(r.doc.value, (), ("figures",), required=("figures",))
    raw = top.get("figures", {})
    raw = r.mapping(raw, ("figures",), allowed=raw if isinstance(raw, dict) else ())
    by_id = {c.id: c for c in components}
    figures: dict[str, Figure] = {}
    for name, body in raw.items():
        path: PathKey = ("figures", name)
        if not IDENT.match(name):
            r.fail(path, f"figure name {name!r} is not a lower-case identifier")
            continue
        body = r.mapping(body, path, _FIGURE_KEYS, required=("component", "rows"))
        if not body:
            continue
        ok = True
        cid = r.string(body, "component", path)
        component = by_id.get(cid)
        if component is None and "component" in body:
            r.fail((*path, "component"), f"unknown component {cid!r} (components: {', '.join(by_id) or 'none'})")
            ok = False
        side = r.string(body, "side", path, default="front")
        if side not in ("front", "back"):
            r.fail((*path, "side"), f"expected front or back, got {side!r}")
            ok = False
        elif side == "back" and component is not None and component.back is None:
            r.fail((*path, "side"), f"component {cid!r} has no back")
            ok = False
        card_ids = {card.id for card in component.cards} if component else set()
        rows: list[tuple[str, ...]] = []
        for i, row in enumerate(r.sequence(body.get("rows", []), (*path, "rows"))):
            ids = r.sequence(row, (*path, "rows", i))
            if not ids:
                r.fail((*path, "rows", i), "a row needs at least one card")
                ok = False
            for j, card_id in enumerate(ids):
                if component is not None and str(card_id) not in card_ids and cid not in incomplete:
                    r.fail((*path, "rows", i, j), f"component {cid!r} has no card {card_id!r}"
                                                  f" (cards: {_brief(sorted(card_ids))})")
                    ok = False
            rows.append(tuple(str(card_id) for card_id in ids))
        if "rows" in body and isinstance(body["rows"], list) and not rows:
            r.fail((*path, "rows"), "a figure needs at least one row")
            ok = False
        labels: tuple[Text, ...] = ()
        if "labels" in body:
            raw_labels = r.sequence(body["labels"], (*path, "labels"))
            labels = tuple(Text(str(v), r.where((*path, "labels", i))) for i, v in enumerate(raw_labels))
            if len(labels) != len(rows):
                r.fail((*path, "labels"), f"{len(labels)} labels for {len(rows)} rows (one per row)")
                ok = False
        height = FIGURE_CARD_HEIGHT
        if "card_height" in body:
            height = r.number(body["card_height"], (*path, "card_height"), minimum=5)
        caption = _text(r, body, "caption", path) if "caption" in body else None
        if ok and component is not None:
            figures[name] = Figure(name, caption, cid, side, tuple(rows), labels, height, r.where(path))
    return figures
