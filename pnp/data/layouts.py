"""Symbols, face layouts and their elements (validated with the element spec), and the
checks that need a card: fields a layout uses, colours, the safe zone, symbols and icons."""

from __future__ import annotations

from collections.abc import Collection, Iterator
from dataclasses import replace
from typing import Any

from pnp.core.choices import SAFE_ZONE
from pnp.core.limits import MAX_ICONS, MAX_VIEWBOX
from pnp.core.problems import Problem, problem_at
from pnp.data.icons import capacity, place_icons
from pnp.data.labelranges import expand, fill_rows, has_ranges, is_range, typed_count, typed_total
from pnp.data.markup import MarkupError, has_markup, parse_markup
from pnp.data.model import (
    Card,
    Component,
    Element,
    Layout,
    PrintedTable,
    Symbol,
    SymbolPath,
    frozen_mapping,
)
from pnp.data.propchecks import ROW_NUMBER, SpecContext
from pnp.data.schema import (
    COLOR,
    FIELD_REF,
    IDENT,
    Reader,
    color_error,
    describe,
    resolve_coord,
)
from pnp.data.spec import (
    ELEMENTS,
    LAYOUT,
    SYMBOL_ELEMENTS,
    TEXT_ELEMENTS,
    prop,
    prop_error,
)
from pnp.data.svgpath import PathSyntaxError, parse_path
from pnp.data.yamlmarks import PathKey

# Properties that take a colour, so a "{field}" there must hold one on every card.
_COLORS = ("fill", "stroke", "color", "header_fill", "header_color")


def read_symbols(r: Reader, raw: Any) -> dict[str, Symbol]:
    symbols: dict[str, Symbol] = {}
    raw = r.mapping(raw, ("symbols",), allowed=raw if isinstance(raw, dict) else ())
    for name, body in raw.items():
        path: PathKey = ("symbols", name)
        if not IDENT.fullmatch(name):
            r.fail(path, f"symbol name {name!r} is not a lower-case identifier")
            continue
        body = r.mapping(body, path, ("viewbox", "paths"), required=("viewbox", "paths"))
        if not body:
            continue
        box = body.get("viewbox")
        viewbox = None
        if isinstance(box, list) and len(box) == 4:
            numbers = [r.number(v, (*path, "viewbox", i)) for i, v in enumerate(box)]
            if any(abs(n) > MAX_VIEWBOX for n in numbers):
                r.fail((*path, "viewbox"), f"numbers must lie within ±{MAX_VIEWBOX:g}, got {box!r}")
            elif numbers[2] <= 0 or numbers[3] <= 0:
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
                if key in item and not (isinstance(item[key], str) and COLOR.fullmatch(item[key])):
                    r.fail((*ppath, key), f"expected a colour '#rrggbb', got {item[key]!r}")
            width = r.number(item["stroke_width"], (*ppath, "stroke_width"), minimum=0, maximum=MAX_VIEWBOX) \
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


def read_layouts(r: Reader, raw: Any, tables: dict[str, PrintedTable],
                  symbols: dict[str, Symbol]) -> dict[str, Layout]:
    layouts: dict[str, Layout] = {}
    raw = r.mapping(raw, ("layouts",), allowed=raw if isinstance(raw, dict) else ())
    for name, body in raw.items():
        path: PathKey = ("layouts", name)
        body = r.mapping(body, path, LAYOUT.names, required=LAYOUT.required)
        background = body.get("background", "#ffffff")
        if color_error(background):
            r.fail((*path, "background"), color_error(background) or "")
        elements = []
        for i, item in enumerate(r.sequence(body.get("elements", []), (*path, "elements"))):
            element = _read_element(r, item, (*path, "elements", i), tables, symbols)
            if element is not None:
                elements.append(element)
        index = body.get("index")
        if index is not None:
            message = prop_error(LAYOUT, "index", index, SpecContext(tables, symbols))
            if message:
                r.fail((*path, "index"), message)
                index = None
        layouts[name] = Layout(name, str(background), tuple(elements), r.where(path),
                               None if index is None else (index[0], index[1], index[2], index[3]),
                               r.where((*path, "index")) if index is not None else "")
    return layouts


def _read_element(r: Reader, raw: Any, path: PathKey, tables: dict[str, PrintedTable],
                  symbols: dict[str, Symbol]) -> Element | None:
    if not isinstance(raw, dict) or "type" not in raw:
        r.fail(path, f"expected an element mapping with a 'type', got {describe(raw)}")
        return None
    kind = raw["type"]
    if not isinstance(kind, str) or kind not in ELEMENTS:
        r.fail((*path, "type"), f"unknown element type {kind!r} (expected one of: {', '.join(ELEMENTS)})")
        return None
    spec = ELEMENTS[kind]
    r.mapping(raw, path, ("type", *spec.names), required=spec.required)
    ok = True
    context = SpecContext(tables, symbols)
    for key, value in raw.items():
        if key == "type" or key not in spec.names:
            continue
        message = prop_error(spec, key, value, context)
        if message:
            r.fail((*path, key), message)
            ok = False
    if not ok or any(k not in raw for k in spec.required):
        return None
    if kind == "grid":
        ok = _check_grid_shape(r, raw, path)
    if not ok:
        return None
    props = {k: v for k, v in raw.items() if k != "type"}
    if "text" in props:
        props["text"] = str(props["text"])
    for key in ("labels", "columns", "row_labels"):
        if isinstance(props.get(key), list):
            props[key] = [{"count": v["count"], "label": str(v["label"])} if is_range(v) else str(v)
                          for v in props[key]]
    return Element(kind, frozen_mapping(props), r.where(path))


def _check_grid_shape(r: Reader, raw: dict[str, Any], path: PathKey) -> bool:
    """Row labels and column widths must match the grid they describe."""
    ok = True
    columns = raw["columns"]
    if not columns:
        r.fail((*path, "columns"), "a grid needs at least one column")
        ok = False
    # Rows given by a reference, labels given as one text for every row and ranges counted by
    # a reference are matched when the references resolve (pnp.data.rulerefs.resolve_layouts).
    labels = raw.get("row_labels")
    if isinstance(labels, list) and isinstance(raw["rows"], int) and typed_total(labels) is not None:
        counts = [typed_count(item) or 0 for item in labels if is_range(item)]
        fitted = fill_rows(expand(labels, counts)[0], raw["rows"])
        if isinstance(fitted, str):
            r.fail((*path, "row_labels"), fitted + (" (its ranges counted)" if counts else ""))
            ok = False
    # One width per column as written: a range of columns takes one, whatever its count.
    if "column_widths" in raw and len(raw["column_widths"]) != len(columns):
        written = " as written (a range of columns takes one width)" if has_ranges(columns) else ""
        r.fail((*path, "column_widths"),
               f"{len(raw['column_widths'])} widths for {len(columns)} columns{written}")
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
        self.found: dict[str, tuple[Problem, list[str]]] = {}

    def add(self, key: str, card: Card, problem: Problem) -> None:
        if key in self.found:
            self.found[key][1].append(card.id)
        else:
            self.found[key] = (problem, [])

    def flush(self) -> None:
        for problem, others in self.found.values():
            if others:
                more = f"{len(others)} more card" + ("s" if len(others) > 1 else "")
                problem = replace(problem, message=problem.message
                                  + f" (and {more} of component {self.comp.id!r}: {brief(others)})")
            self.r.problems.add_raw(problem)


def brief(ids: list[str]) -> str:
    return ", ".join(ids) if len(ids) <= 4 else f"{', '.join(ids[:3])}, …, {ids[-1]}"


def _element_strings(element: Element) -> Iterator[tuple[str, str]]:
    for key, value in element.props.items():
        texts = [value] if isinstance(value, str) else value if isinstance(value, list) else []
        for text in texts:
            if isinstance(text, str):
                # {row} numbers rows, no card field; left only in labels a problem kept from their rows.
                yield (text.replace(ROW_NUMBER, "") if key == "row_labels" else text), element.where.child(key)


def _quoted_fields(layout: Layout) -> list[tuple[str, list[str]]]:
    """Each string of ``layout`` that may quote a card field (its background and its elements'
    properties), as where it is written and the fields it quotes."""
    strings: list[tuple[str, str]] = [(layout.background, layout.where + ": background")]
    for element in layout.elements:
        strings.extend(_element_strings(element))
    return [(where, field_refs(value)) for value, where in strings]


def substitute(text: str, card: Card) -> str:
    return FIELD_REF.sub(lambda m: card.fields[m.group(1)].value if m.group(1) in card.fields
                         else m.group(0), text)


def check_component_layouts(r: Reader, comp: Component, layouts: dict[str, Layout],
                             symbols: dict[str, Symbol], icons: Collection[str] = frozenset()) -> None:
    """Per card: every {field} a layout uses exists, colours resolve, text is in the safe zone,
    its markup reads (inline icons among ``icons``), symbols exist and icons fit."""
    used = [layouts[ref] for ref in (comp.front, comp.back, comp.inner) if ref in layouts]
    report = _PerCard(r, comp)
    # What each layout quotes, and where, is the same for every card: found once per layout,
    # not once per card (a 104-card deck made 4,000 places for the same few dozen strings).
    quoted = {id(layout): _quoted_fields(layout) for layout in used}
    for card in comp.cards:
        for layout in used:
            for element in layout.elements:
                if element.kind in TEXT_ELEMENTS:
                    _check_safe_zone(report, comp, card, element)
            missing = False
            for where, refs in quoted[id(layout)]:
                for ref in refs:
                    if ref not in card.fields:
                        missing = True
                        report.add(f"{where}/{ref}", card, problem_at(
                            where, f"field {{{ref}}} is not defined by card {card.id!r} of "
                                   f"component {comp.id!r} ({card.where})"))
            for key in _COLORS:
                for element in layout.elements:
                    ref = element.get(key)
                    if isinstance(ref, str) and FIELD_REF.fullmatch(ref):
                        _check_field_color(r, card, ref, f"{element.where}.{key}")
            if FIELD_REF.fullmatch(layout.background):
                _check_field_color(r, card, layout.background, f"{layout.where}: background")
            if not missing:
                for element in layout.elements:
                    if element.kind == "text":
                        _check_markup(report, comp, card, element, icons)
                    if element.kind in SYMBOL_ELEMENTS:
                        _check_symbol_element(report, comp, card, element, symbols)
    report.flush()


def _check_symbol_element(report: _PerCard, comp: Component, card: Card, element: Element,
                          symbols: dict[str, Symbol]) -> None:
    """The symbol a card names exists, its icon count is a number, and that many fit."""
    on_card = f"on card {card.id!r} of component {comp.id!r}"
    name = substitute(element.get("symbol"), card)
    if name not in symbols:
        report.r.problems.add_raw(element.where.child("symbol").problem(
            f"unknown symbol {name!r} {on_card} (components.yaml symbols: {', '.join(symbols) or 'none'})"))
        return
    if element.kind != "icons":
        return
    raw = element.get("count")
    count: int | None = raw if isinstance(raw, int) else None
    if count is None:
        text = substitute(raw, card).strip()
        source = card.fields[raw[1:-1]]
        if not text.isdigit():
            report.r.problems.add_raw(problem_at(
                source.where, f"icon count {raw} must be a whole number, got {text!r} {on_card} "
                              f"(used at {element.where}.count)"))
            return
        count = int(text)
        if count > MAX_ICONS:
            report.r.problems.add_raw(problem_at(
                source.where, f"icon count {raw} is {count} {on_card}, more than the limit of "
                              f"{MAX_ICONS} (used at {element.where}.count)"))
            return
    x, y, w, h = element.get("box")
    box_w, box_h = resolve_coord(w, card.size[0]), resolve_coord(h, card.size[1])
    size = float(element.get("size"))
    gap = float(prop(element, "gap"))
    icon_w = size * symbols[name].aspect
    if place_icons(count, box_w, box_h, icon_w, size, gap) is None:
        most = capacity(box_w, box_h, icon_w, size, gap)
        report.add(f"{element.where}/icons/{count}", card, element.where.problem(
                   f"{count} icons of {icon_w:.3g}×{size:g} mm (gap {gap:g} mm) do not fit "
                   f"the {box_w:g}×{box_h:g} mm box {on_card}: it holds {most}; "
                   "enlarge the box or lower size or gap"))


def _check_markup(report: _PerCard, comp: Component, card: Card, element: Element,
                  icons: Collection[str]) -> None:
    """A text element's words read as markup on this card (:mod:`pnp.data.markup`): reported
    at the card's field when the text is that one field, else at the element, naming the card."""
    raw = element.get("text")
    if not isinstance(raw, str):
        return
    text = substitute(raw, card)
    if not has_markup(text):
        return
    try:
        parse_markup(text, icons)
    except MarkupError as exc:
        on_card = f"on card {card.id!r} of component {comp.id!r}"
        refs = field_refs(raw)
        if raw == "{" + refs[0] + "}" if len(refs) == 1 else False:
            source = card.fields[refs[0]]
            report.r.problems.add_raw(problem_at(
                source.where, f"field {{{refs[0]}}} {on_card}: {exc} (used at {element.where}.text)"))
        else:
            report.add(f"{element.where}/markup/{exc}", card,
                       element.where.child("text").problem(f"text {on_card}: {exc}"))


def _check_field_color(r: Reader, card: Card, ref: str, where: str) -> None:
    name = ref[1:-1]
    if name in card.fields and not COLOR.fullmatch(card.fields[name].value):
        r.problems.add_raw(problem_at(card.fields[name].where, f"expected a colour '#rrggbb' for {ref} "
                                      f"(used at {where}), got {card.fields[name].value!r}"))


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
            element.where.child("box").problem(
                f"text box [{left:g}, {top:g}, {right - left:g}, {bottom - top:g}] mm "
                f"leaves the safe zone ({SAFE_ZONE:g} mm inside the {width:g}×{height:g} mm trim) "
                f"on card {card.id!r} of component {comp.id!r}"))
