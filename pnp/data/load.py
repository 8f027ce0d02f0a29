"""Read card_data/<slug>/ into a Game, validating everything and failing once with all problems."""

from __future__ import annotations

import datetime
import math
import re
from pathlib import Path
from typing import Any

from pnp.core.choices import CARD_SIZES, LANGS, MAX_BOARD, MAX_TILED_BOARD, SHAPES
from pnp.core.errors import DataError
from pnp.core.limits import (
    MAX_COPIES,
    MAX_CREDITS,
    MAX_FIGURE_CARD_MM,
    MAX_PIECES,
    MAX_PLAYERS,
    MAX_TABLE_COLUMNS,
    MAX_TABLE_ROWS,
    MAX_TEXT_CHARS,
)
from pnp.core.problems import Problem
from pnp.data.computed import Computed, TableSource, no_engine
from pnp.data.csvcards import csv_cards
from pnp.data.generate import generate_cards
from pnp.data.layouts import brief, check_component_layouts, read_layouts, read_symbols
from pnp.data.model import (
    Acknowledged,
    AllowedText,
    Card,
    Column,
    Component,
    ExampleGame,
    Figure,
    Game,
    GameInfo,
    GlossaryTerm,
    Layout,
    LiteralMark,
    PrintedTable,
    ReviewedReading,
    Symbol,
    Text,
    ToolWords,
    frozen_mapping,
)
from pnp.data.purity import purity_problems
from pnp.data.rulerefs import resolve_components, resolve_figures, resolve_layouts
from pnp.data.schema import (
    IDENT,
    Problems,
    Reader,
    color_error,
    describe,
)
from pnp.data.table_figures import read_table_figure
from pnp.data.yamlmarks import Located, PathKey, load_yaml

GAME_FILE = "game.yaml"
COMPONENTS_FILE = "components.yaml"
TABLES_FILE = "tables.yaml"
GLOSSARY_FILE = "glossary.yaml"
FIGURES_FILE = "figures.yaml"

COLUMN_FORMATS = ("", "thousands")


def load_game(game_dir: Path, tables_of: TableSource = no_engine) -> Game:
    """Load and validate one game; raise DataError listing every problem found."""
    problems = Problems()
    docs: dict[str, Located] = {}
    for name in (GAME_FILE, COMPONENTS_FILE, TABLES_FILE, GLOSSARY_FILE, FIGURES_FILE):
        path = game_dir / name
        if not path.is_file():
            if name in (GAME_FILE, COMPONENTS_FILE):
                problems.add_raw(Problem("file not found", str(path), code="file-not-found"))
            continue
        try:
            docs[name] = load_yaml(path)
        except DataError as exc:
            problems.items.extend(exc.records)
    if problems:
        raise DataError(problems.items)

    info = _read_game_info(Reader(docs[GAME_FILE], problems), game_dir.name)
    tables = _read_tables(Reader(docs[TABLES_FILE], problems)) if TABLES_FILE in docs else {}
    glossary, reviewed = _read_glossary(Reader(docs[GLOSSARY_FILE], problems)) if GLOSSARY_FILE in docs else ((), ())
    # Computed only if a generated card quotes the engine's tables ({computed: ...}).
    computed = tables_of(info.slug, info.rules, game_dir / GAME_FILE)
    components, layouts, symbols, incomplete = _read_components(Reader(docs[COMPONENTS_FILE], problems),
                                                                tables, computed)
    figures = _read_figures(Reader(docs[FIGURES_FILE], problems), components, incomplete) \
        if FIGURES_FILE in docs else {}
    components = resolve_components(components, info.rules, problems.items)
    layouts = resolve_layouts(layouts, info.rules, problems.items, components)
    # Faces are checked against their layouts once the rules references are resolved, so that a
    # field such as an icon count may quote the rules.
    for component in components:
        check_component_layouts(Reader(docs[COMPONENTS_FILE], problems), component, layouts, symbols)
    figures = resolve_figures(figures, components, info.rules, problems.items)
    if problems:
        raise DataError(problems.items)
    game = Game(info, components, frozen_mapping(layouts), frozen_mapping(tables), glossary,
                frozen_mapping(symbols), frozen_mapping(figures), reviewed)
    impure = purity_problems(game)
    if impure:
        raise DataError(impure)
    return game


def _text(reader: Reader, obj: dict[str, Any], key: str, path: PathKey,
          default: str | None = None) -> Text:
    value = reader.string(obj, key, path, default="" if default is None else default)
    return Text(value, reader.where((*path, key)))


def _read_game_info(r: Reader, slug_from_dir: str) -> GameInfo:
    keys = ("slug", "name", "source_lang", "version", "date", "players", "minutes", "age",
            "credits", "rules", "acknowledged", "example", "script_exceptions", "literal_numbers",
            "tool_words")
    top = r.mapping(r.doc.value, (), keys, required=("slug", "name", "source_lang", "version",
                                                     "date", "players"))
    slug = r.string(top, "slug", (), pattern=IDENT, what="a lower-case identifier")
    if slug and slug != slug_from_dir:
        r.fail(("slug",), f"slug {slug!r} must match its folder name {slug_from_dir!r}")
    source_lang = r.string(top, "source_lang", ())
    if source_lang and source_lang not in LANGS:
        r.fail(("source_lang",), f"expected one of {', '.join(LANGS)}, got {source_lang!r}")
    date = _read_date(r, top.get("date", ""))
    players = r.mapping(top.get("players", {}), ("players",), ("min", "max", "common"),
                        required=("min", "max"))
    low = r.integer(players, "min", ("players",), minimum=1, maximum=MAX_PLAYERS)
    high = r.integer(players, "max", ("players",), minimum=1, maximum=MAX_PLAYERS)
    common = r.integer(players, "common", ("players",), default=low, minimum=1, maximum=MAX_PLAYERS)
    if low > high:
        r.fail(("players",), f"min ({low}) is greater than max ({high})")
    elif not low <= common <= high:
        r.fail(("players", "common"), f"must lie between min {low} and max {high}, got {common}")
    credits = _read_credits(r, top.get("credits", []))
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
    literal_numbers = _read_literal_marks(r, top.get("literal_numbers", []))
    if "example" in top:
        spec = r.mapping(top["example"], ("example",), ("seed", "players", "variant"),
                         required=("seed", "players"))
        if spec:
            seed = r.integer(spec, "seed", ("example",), minimum=0)
            count = r.integer(spec, "players", ("example",), minimum=low, maximum=high)
            variant = r.string(spec, "variant", ("example",), default="") or None
            example = ExampleGame(seed, count, variant)
    return GameInfo(
        script_exceptions=frozen_mapping(_read_script_exceptions(r, top.get("script_exceptions", []))),
        example=example,
        acknowledged=tuple(acknowledged),
        literal_numbers=literal_numbers,
        tool_words=_read_tool_words(r, top.get("tool_words", {})),
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


def _read_literal_marks(r: Reader, value: Any) -> tuple[LiteralMark, ...]:
    """game.yaml ``literal_numbers``: digits in printed text that are deliberate, with why."""
    marks = []
    for i, item in enumerate(r.sequence(value, ("literal_numbers",))):
        path = ("literal_numbers", i)
        item = r.mapping(item, path, ("file", "field", "text", "from", "until", "reason"),
                         required=("reason",))
        if not item:
            continue
        text, start = r.string(item, "text", path, default=""), r.string(item, "from", path, default="")
        until = r.string(item, "until", path, default="")
        field = r.string(item, "field", path, default="")
        if text and start or not (text or start or field):
            r.fail(path, "give `text:` (the digits it covers, in their words), `from:` (a text on "
                         "the first line of the lines it covers) or `field:` (a YAML path)")
        elif until and not start:
            r.fail((*path, "until"), "`until:` ends a `from:` range; this mark has no `from:`")
        elif text and not re.search(r"[0-9０-９]", text):
            r.fail((*path, "text"), f"{text!r} holds no digit, so it marks nothing")
        reason = r.string(item, "reason", path)
        if item and not reason.strip():
            r.fail((*path, "reason"), "say why the number is typed rather than derived from the rules")
        marks.append(LiteralMark(r.string(item, "file", path, default=""), text, start, until,
                                 reason, r.where(path), field))
    return tuple(marks)


def _read_tool_words(r: Reader, value: Any) -> ToolWords:
    """game.yaml ``tool_words``: the game's own words about the tool, and passages allowed one."""
    path: PathKey = ("tool_words",)
    spec = r.mapping(value, path, ("forbid", "allow"))
    forbid = []
    for i, item in enumerate(r.sequence(spec.get("forbid", []), (*path, "forbid"))):
        word = r.string({"item": item}, "item", (*path, "forbid", i))
        if not word.strip():
            r.fail((*path, "forbid", i), "a word to forbid, not an empty text")
        else:
            forbid.append(word)
    allow = []
    for i, item in enumerate(r.sequence(spec.get("allow", []), (*path, "allow"))):
        ipath = (*path, "allow", i)
        item = r.mapping(item, ipath, ("text", "reason"), required=("text", "reason"))
        if not item:
            continue
        text, reason = r.string(item, "text", ipath), r.string(item, "reason", ipath)
        if "text" in item and not text.strip():
            r.fail((*ipath, "text"), "the passage that may print a tool word, not an empty text")
        elif "reason" in item and not reason.strip():
            r.fail((*ipath, "reason"), "say why this passage must print a word about the tool")
        else:
            allow.append(AllowedText(text, reason, r.where(ipath)))
    return ToolWords(tuple(forbid), tuple(allow))


_DATE = re.compile(r"^\d{4}-\d{2}-\d{2}$")


def _read_date(r: Reader, value: Any) -> str:
    """An ISO date: YAML's own date, or text holding a real calendar date."""
    if isinstance(value, datetime.date):
        return value.isoformat()
    if isinstance(value, str) and _DATE.match(value):
        try:
            return datetime.date.fromisoformat(value).isoformat()
        except ValueError as exc:
            r.fail(("date",), f"{value!r} is not a calendar date ({exc})")
            return ""
    r.fail(("date",), f"expected a date such as '2026-11-29', got {describe(value)}")
    return ""


def _read_credits(r: Reader, value: Any) -> tuple[Text, ...]:
    """Credit lines: each one text, so that a nested list is not printed as its repr."""
    items = r.sequence(value, ("credits",))
    if len(items) > MAX_CREDITS:
        r.fail(("credits",), f"at most {MAX_CREDITS} entries (the limit for credits), got {len(items)}")
        return ()
    credits = []
    for i, item in enumerate(items):
        text = r.string({"item": item}, "item", ("credits", i)) if _plain_text(item) else None
        if text is None:
            r.fail(("credits", i), f"expected one line of text, got {describe(item)}")
        elif _text_limit(r, text, ("credits", i)):
            credits.append(Text(text, r.where(("credits", i))))
    return tuple(credits)


def _plain_text(value: Any) -> bool:
    return isinstance(value, str | int | float) and not isinstance(value, bool) \
        and not (isinstance(value, float) and not math.isfinite(value))


def _text_limit(r: Reader, text: str, path: PathKey) -> bool:
    if len(text) > MAX_TEXT_CHARS:
        r.fail(path, f"text of {len(text)} characters is longer than the limit of {MAX_TEXT_CHARS}")
        return False
    return True


def _read_script_exceptions(r: Reader, value: Any) -> dict[str, str]:
    """Characters of the other script a source text holds on purpose, each with a reason."""
    out: dict[str, str] = {}
    for i, item in enumerate(r.sequence(value, ("script_exceptions",))):
        path = ("script_exceptions", i)
        item = r.mapping(item, path, ("chars", "reason"), required=("chars", "reason"))
        chars = r.string(item, "chars", path) if item else ""
        reason = r.string(item, "reason", path) if item else ""
        if item and not reason.strip():
            r.fail((*path, "reason"), "say why the characters belong in the source text")
        for ch in chars:
            out[ch] = reason
    return out


def _read_tables(r: Reader) -> dict[str, PrintedTable]:
    top = r.mapping(r.doc.value, (), ("tables",), required=("tables",))
    tables_raw = r.mapping(top.get("tables", {}), ("tables",), allowed=top.get("tables", {}) or ())
    tables: dict[str, PrintedTable] = {}
    for name, raw in tables_raw.items():
        path: PathKey = ("tables", name)
        table = r.mapping(raw, path, ("title", "columns", "rows", "pivot", "variant", "engine_table"),
                          required=("columns", "rows"))
        variant = (r.string(table, "variant", path, pattern=IDENT, what="a variant's name, as the "
                            "engine knows it") or None) if "variant" in table else None
        engine_table = r.string(table, "engine_table", path, pattern=IDENT, what="the name of a "
                                "table the engine computes") if "engine_table" in table else ""
        if engine_table and variant is None:
            r.fail((*path, "engine_table"), "`engine_table:` names a table of a variant's rules; "
                                            "give the variant too (`variant:`)")
        columns: list[Column] = []
        raw_columns = r.sequence(table.get("columns", []), (*path, "columns"))
        raw_rows = r.sequence(table.get("rows", []), (*path, "rows"))
        if len(raw_columns) > MAX_TABLE_COLUMNS or len(raw_rows) > MAX_TABLE_ROWS:
            r.fail(path, f"{len(raw_rows)} rows of {len(raw_columns)} columns is more than the limit of "
                         f"{MAX_TABLE_ROWS} rows and {MAX_TABLE_COLUMNS} columns for a printed table")
            continue
        for i, col in enumerate(raw_columns):
            cpath = (*path, "columns", i)
            col = r.mapping(col, cpath, ("key", "label", "format"), required=("key", "label"))
            fmt = r.string(col, "format", cpath, default="")
            if fmt not in COLUMN_FORMATS:
                r.fail((*cpath, "format"), f"expected one of {', '.join(COLUMN_FORMATS[1:])}, got {fmt!r}")
            columns.append(Column(r.string(col, "key", cpath), _text(r, col, "label", cpath), fmt))
        keys = [c.key for c in columns]
        rows = []
        row_where = []
        for i, row in enumerate(raw_rows):
            rpath = (*path, "rows", i)
            row = r.mapping(row, rpath, keys, required=keys)
            for key, value in row.items():
                if not _plain_text(value):
                    r.fail((*rpath, key), f"expected a number or text, got {describe(value)}")
                elif isinstance(value, str):
                    _text_limit(r, value, (*rpath, key))
            rows.append(frozen_mapping(row))
            row_where.append(r.where(rpath))
        pivot: tuple[str, str, str] | None = None
        if "pivot" in table:
            spec = r.mapping(table["pivot"], (*path, "pivot"), ("down", "across", "value"),
                             required=("down", "across", "value"))
            picked = tuple(str(spec.get(k, "")) for k in ("down", "across", "value"))
            for key, value in zip(("down", "across", "value"), picked, strict=True):
                if key in spec and value not in keys:
                    r.fail((*path, "pivot", key), f"unknown column {value!r} (columns: {', '.join(keys)})")
            if len(spec) == 3 and all(v in keys for v in picked):
                pivot = (picked[0], picked[1], picked[2])
        tables[name] = PrintedTable(
            name, _text(r, table, "title", path, default=name), tuple(columns), tuple(rows),
            r.where(path), tuple(row_where), pivot, variant, engine_table or name,
        )
    return tables


def _read_glossary(r: Reader) -> tuple[tuple[GlossaryTerm, ...], tuple[ReviewedReading, ...]]:
    """glossary.yaml: ``terms`` (forms pinned in both scripts) and ``reviewed`` (phrases whose
    whole-text conversion pnp check may report and the designer read and accepts)."""
    top = r.mapping(r.doc.value, (), ("terms", "reviewed"), required=("terms",))
    terms: list[tuple[int, GlossaryTerm]] = []
    for i, item in enumerate(r.sequence(top.get("terms", []), ("terms",))):
        path = ("terms", i)
        item = r.mapping(item, path, LANGS, required=LANGS)
        hans = r.string(item, "zh-Hans", path)
        hant = r.string(item, "zh-Hant", path)
        for lang, form in (("zh-Hans", hans), ("zh-Hant", hant)):
            if lang in item and not form.strip():
                r.fail((*path, lang), "empty term: a glossary entry needs text in both scripts")
        if hans.strip() and hant.strip():
            terms.append((i, GlossaryTerm(hans, hant, r.where(path))))
    _check_glossary(r, terms)
    reviewed = []
    for i, item in enumerate(r.sequence(top.get("reviewed", []), ("reviewed",))):
        path = ("reviewed", i)
        item = r.mapping(item, path, ("text", "reason"), required=("text", "reason"))
        if not item:
            continue
        text, reason = r.string(item, "text", path), r.string(item, "reason", path)
        if "text" in item and not text.strip():
            r.fail((*path, "text"), "give the phrase, in the game's source script, as the text prints it")
        if "reason" in item and not reason.strip():
            r.fail((*path, "reason"), "say why the reading the whole text gives is right")
        reviewed.append(ReviewedReading(text, reason, r.where(path)))
    return tuple(term for _, term in terms), tuple(reviewed)


def _check_glossary(r: Reader, terms: list[tuple[int, GlossaryTerm]]) -> None:
    """Each form converts one way only: no two entries give one form different partners
    (a conflict), and no entry's target is another entry's source with a different target
    (a cycle or chain: converting twice would not come back)."""
    by_form: dict[tuple[str, str], tuple[int, GlossaryTerm]] = {}
    for i, term in terms:
        for lang, form, partner in (("zh-Hans", term.hans, term.hant), ("zh-Hant", term.hant, term.hans)):
            first = by_form.setdefault((lang, form), (i, term))
            other = first[1].hant if lang == "zh-Hans" else first[1].hans
            if first[0] != i and other != partner:
                r.fail(("terms", i), f"conflicts with terms[{first[0]}] ({first[1].where}): {lang} {form!r} "
                                     f"is given as {other!r} there and {partner!r} here")
    for i, term in terms:
        for lang, target, other_lang in (("zh-Hant", term.hant, "zh-Hans"), ("zh-Hans", term.hans, "zh-Hant")):
            source = term.hans if lang == "zh-Hant" else term.hant
            hit = by_form.get((other_lang, target))
            if hit is None or hit[0] == i or target == source:
                continue
            onward = hit[1].hant if other_lang == "zh-Hans" else hit[1].hans
            if onward != target:
                kind = "a cycle" if onward == source else "a chain"
                r.fail(("terms", i), f"{lang} {target!r} is also the {other_lang} form of terms[{hit[0]}] "
                                     f"({hit[1].where}), which turns it into {onward!r}: {kind} of conversions")


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


def _read_components(r: Reader, tables: dict[str, PrintedTable], computed: Computed | None = None,
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
            id=cid, name=_text(r, comp, "name", path), note=_text(r, comp, "note", path, ""),
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
    cr, raw_cards = csv_cards(r, comp.get("cards", []), (*path, "cards"))
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
            if not _plain_text(value):
                cr.fail((*cpath, "fields", key), f"expected text, got {describe(value)}")
                continue
            if _text_limit(cr, str(value), (*cpath, "fields", key)):
                fields[key] = Text(str(value), cr.where((*cpath, "fields", key)))
        cards.append(Card(card_id, count, frozen_mapping(fields), size or (0, 0), cr.where(cpath)))
    if "generate" in comp:
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
        if isinstance(body, dict) and "seats" in body:
            caption = _text(r, body, "caption", path) if "caption" in body else None
            table = read_table_figure(r, name, body, path, by_id, incomplete, caption)
            if table is not None:
                figures[name] = table
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
                                                  f" (cards: {brief(sorted(card_ids))})")
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
            height = r.number(body["card_height"], (*path, "card_height"), minimum=5,
                              maximum=MAX_FIGURE_CARD_MM)
        caption = _text(r, body, "caption", path) if "caption" in body else None
        if ok and component is not None:
            figures[name] = Figure(name, caption, cid, side, tuple(rows), labels, height, r.where(path))
    return figures
