"""The layout element vocabulary, declared once.

Each element kind (``rect``, ``text``, ``grid`` …) is an :class:`ElementSpec`: its properties,
what type each takes, its default, its limits and a sentence for designers. The loader
validates elements with it (:func:`prop_error`), the renderer dispatches on its kinds and
reads defaults from it (:func:`prop`), and ``python -m pnp.data.spec_docs`` writes the
element reference in docs/layout-vocabulary.md and docs/components.schema.json from it, so
the three cannot drift apart. Tests check that the committed documents are current.

The limits live in :mod:`pnp.core.limits`, the checks of single values in
:mod:`pnp.data.propchecks`; this module says which property takes which.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any

from pnp.core.choices import FONT_ROLES
from pnp.core.limits import (
    MAX_COORD_MM,
    MAX_DASH_ITEMS,
    MAX_DASH_MM,
    MAX_FONT_PT,
    MAX_GAP_MM,
    MAX_GRID_COLUMNS,
    MAX_GRID_ROWS,
    MAX_ICON_MM,
    MAX_ICONS,
    MAX_LABELS,
    MAX_POINTS,
    MAX_STROKE_MM,
    MAX_TEXT_CHARS,
    MAX_WEIGHT,
    MIN_FONT_PT,
    MIN_ICON_MM,
)
from pnp.core.records import record
from pnp.data.imagefiles import name_error
from pnp.data.labelranges import EXAMPLE, labels_check, row_labels_check
from pnp.data.propchecks import (
    ALIGN,
    DIRECTIONS,
    TURNS,
    VALIGN,
    Check,
    SpecContext,
    bounded_number,
    choice,
    color_check,
    coord_check,
    count_check,
    font_size_check,
    listed,
    point_check,
    rows_check,
    symbol_check,
    table_check,
    text_item_check,
)
from pnp.data.schema import COLOR, COORD, FIELD_REF, describe


@record
class ValueType:
    """One kind of property value: how it is checked, described and written in JSON Schema."""

    name: str
    check: Check
    summary: str  # for the reference table
    schema: Callable[[Prop], dict[str, Any]]


@record
class Prop:
    name: str
    type: str  # a key of VALUE_TYPES
    description: str
    required: bool = False
    default: Any = None
    minimum: float | None = None
    maximum: float | None = None
    max_items: int | None = None

    @property
    def value_type(self) -> ValueType:
        return VALUE_TYPES[self.type]


@record
class ElementSpec:
    kind: str
    description: str
    props: tuple[Prop, ...]
    text: bool = False  # prints text: must lie in the safe zone
    uses_symbol: bool = False  # names a symbol: checked per card

    def prop(self, name: str) -> Prop:
        return next(p for p in self.props if p.name == name)

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(p.name for p in self.props)

    @property
    def required(self) -> tuple[str, ...]:
        return tuple(p.name for p in self.props if p.required)



# -- JSON Schema fragments ------------------------------------------------------------------

_FIELD_PATTERN = "^\\{[A-Za-z_][A-Za-z0-9_]*\\}$"
_NUMBER_REF_PATTERN = "^\\{(rules|count)\\.[^{}]+\\}$"
_COORD_SCHEMA: dict[str, Any] = {"anyOf": [
    {"type": "number", "minimum": -MAX_COORD_MM, "maximum": MAX_COORD_MM},
    {"type": "string", "pattern": COORD.pattern},
]}
_POINT_SCHEMA: dict[str, Any] = {"type": "array", "items": _COORD_SCHEMA, "minItems": 2, "maxItems": 2}
COLOR_SCHEMA: dict[str, Any] = {"type": "string", "pattern": f"{COLOR.pattern}|{_FIELD_PATTERN}"}
_TEXT_SCHEMA: dict[str, Any] = {"anyOf": [{"type": "string", "maxLength": MAX_TEXT_CHARS}, {"type": "number"}]}


def _number_ref_schema(maximum: float | None) -> dict[str, Any]:
    """A whole number from 1, or one {rules.x} / {count.x} reference giving it."""
    whole: dict[str, Any] = {"type": "integer", "minimum": 1}
    if maximum is not None:
        whole["maximum"] = maximum
    return {"anyOf": [whole, {"type": "string", "pattern": _NUMBER_REF_PATTERN}]}


def _label_schema(p: Prop) -> dict[str, Any]:
    """A label text, or a range of numbered labels."""
    ranged = {"type": "object", "additionalProperties": False, "required": ["count", "label"],
              "properties": {"count": _number_ref_schema(p.max_items),
                             "label": {"anyOf": [{"type": "string", "maxLength": MAX_TEXT_CHARS,
                                                  "not": {"pattern": "\\{row\\}"}},
                                                 {"type": "number"}]}}}
    return {"anyOf": [*_TEXT_SCHEMA["anyOf"], ranged]}


_IMAGE_PATTERN = "^art/.+\\.([pP][nN][gG]|[jJ][pP][eE]?[gG]|[wW][eE][bB][pP]|[sS][vV][gG])$"
FITS = ("cover", "contain", "stretch")
QUARTERS = (0, 90, 180, 270)


def _image_check(value: Any) -> str | None:
    if not isinstance(value, str):
        return f"expected a picture's path ('art/ghost.png') or '{{field}}', got {describe(value)}"
    return None if FIELD_REF.fullmatch(value) else name_error(value)


def _fraction(value: Any) -> str | None:
    if not isinstance(value, int | float) or isinstance(value, bool) or not 0 <= value <= 1:
        return f"expected a fraction from 0 to 1, got {describe(value)}"
    return None


def _crop_check(value: Any) -> str | None:
    message = listed(value, _NO_BOUNDS, "a crop box [x, y, width, height] of fractions", _fraction, 4)
    if message:
        return message
    x, y, w, h = value
    if w <= 0 or h <= 0 or x + w > 1 + 1e-9 or y + h > 1 + 1e-9:
        return f"a crop box keeps a part of the picture: width and height above 0, within it, got {value!r}"
    return None


def _number_schema(prop: Prop, positive: bool) -> dict[str, Any]:
    out: dict[str, Any] = {"type": "number"}
    if prop.minimum is not None:
        out["minimum"] = prop.minimum
    else:
        out["exclusiveMinimum" if positive else "minimum"] = 0
    if prop.maximum is not None:
        out["maximum"] = prop.maximum
    return out


def _array(items: dict[str, Any], prop: Prop, min_items: int = 0) -> dict[str, Any]:
    out: dict[str, Any] = {"type": "array", "items": items}
    if min_items:
        out["minItems"] = min_items
    if prop.max_items is not None:
        out["maxItems"] = prop.max_items
    return out


_FRACTION_SCHEMA: dict[str, Any] = {"type": "number", "minimum": 0, "maximum": 1}


class _Unbounded:
    """The bounds of a list with none of its own (a crop box, whose items are fractions): a
    single constant, so a plain class (docs/architecture.md, "Start-up")."""

    minimum: float | None = None
    maximum: float | None = None
    max_items: int | None = None


_NO_BOUNDS = _Unbounded()

VALUE_TYPES: dict[str, ValueType] = {t.name: t for t in (
    ValueType("image", lambda v, p, c: _image_check(v), "`'art/NAME.png'` (PNG, JPEG, WebP, SVG) or `'{field}'`",
              lambda p: {"anyOf": [{"type": "string", "pattern": _IMAGE_PATTERN},
                                   {"type": "string", "pattern": _FIELD_PATTERN}]}),
    ValueType("fit", choice(FITS), " / ".join(FITS), lambda p: {"enum": list(FITS)}),
    ValueType("fraction", lambda v, p, c: _fraction(v), "a number from 0 to 1", lambda p: _FRACTION_SCHEMA),
    ValueType("focus", lambda v, p, c: listed(v, p, "a point [x, y] of fractions", _fraction, 2),
              "`[x, y]`, fractions of the picture", lambda p: {"type": "array", "items": _FRACTION_SCHEMA,
                                                              "minItems": 2, "maxItems": 2}),
    ValueType("crop", lambda v, p, c: _crop_check(v), "`[x, y, width, height]`, fractions of the picture",
              lambda p: {"type": "array", "items": _FRACTION_SCHEMA, "minItems": 4, "maxItems": 4}),
    ValueType("quarter", lambda v, p, c: None if v in QUARTERS and not isinstance(v, bool)
              else f"expected one of {', '.join(map(str, QUARTERS))} (degrees clockwise), got {describe(v)}",
              " / ".join(map(str, QUARTERS)), lambda p: {"enum": list(QUARTERS)}),
    ValueType("box", lambda v, p, c: listed(v, p, "a box [x, y, width, height]", coord_check, 4),
              "`[x, y, width, height]` coordinates",
              lambda p: {"type": "array", "items": _COORD_SCHEMA, "minItems": 4, "maxItems": 4}),
    ValueType("point", lambda v, p, c: point_check(v), "`[x, y]` coordinates", lambda p: _POINT_SCHEMA),
    ValueType("elements", lambda v, p, c: None if isinstance(v, list) else f"expected a list of elements, got {v!r}",
              "a list of elements (below)", lambda p: {"type": "array", "items": {"$ref": "#/$defs/element"}}),
    ValueType("points", lambda v, p, c: listed(v, p, "a list of points [[x, y], ...]", point_check)
              or (None if len(v) >= 2 else "a line needs at least two points"),
              "`[[x, y], …]`, at least two", lambda p: _array(_POINT_SCHEMA, p, 2)),
    ValueType("coord", lambda v, p, c: coord_check(v), "a coordinate (mm, `'12mm'` or `'50%'`)",
              lambda p: _COORD_SCHEMA),
    ValueType("number", lambda v, p, c: bounded_number(p, False)(v), "a number ≥ 0",
              lambda p: _number_schema(p, False)),
    ValueType("numbers", lambda v, p, c: listed(v, p, "a list of numbers", bounded_number(p, False)),
              "a list of numbers ≥ 0", lambda p: _array(_number_schema(p, False), p)),
    ValueType("mm", lambda v, p, c: bounded_number(p, True)(v), "a length in mm, > 0",
              lambda p: _number_schema(p, True)),
    ValueType("weights", lambda v, p, c: listed(v, p, "a list of relative widths", bounded_number(p, True)),
              "a list of relative numbers > 0", lambda p: _array(_number_schema(p, True), p)),
    ValueType("color", lambda v, p, c: color_check(v), "`'#rrggbb'` or `'{field}'`", lambda p: COLOR_SCHEMA),
    ValueType("text", lambda v, p, c: text_item_check(v), f"text (at most {MAX_TEXT_CHARS} characters)",
              lambda p: _TEXT_SCHEMA),
    ValueType("labels", labels_check, f"a list of texts; an item may be a range `{EXAMPLE}`",
              lambda p: _array(_label_schema(p), p)),
    ValueType("fontsize", lambda v, p, c: font_size_check(v),
              f"a font size, `'9pt'` ({MIN_FONT_PT:g}–{MAX_FONT_PT:g} pt)",
              lambda p: {"anyOf": [{"type": "number", "minimum": MIN_FONT_PT, "maximum": MAX_FONT_PT},
                                   # A pattern cannot bound a number; three digits come close.
                                   {"type": "string", "pattern": "^\\s*\\d{1,3}(?:\\.\\d+)?\\s*pt\\s*$"}]}),
    ValueType("bool", lambda v, p, c: None if isinstance(v, bool) else f"expected true or false, got {v!r}",
              "`true` or `false`", lambda p: {"type": "boolean"}),
    ValueType("align", choice(ALIGN), " / ".join(ALIGN), lambda p: {"enum": list(ALIGN)}),
    ValueType("valign", choice(VALIGN), " / ".join(VALIGN), lambda p: {"enum": list(VALIGN)}),
    ValueType("direction", choice(DIRECTIONS), " / ".join(DIRECTIONS), lambda p: {"enum": list(DIRECTIONS)}),
    ValueType("turn", choice(TURNS), " / ".join(TURNS), lambda p: {"enum": list(TURNS)}),
    ValueType("font", choice(FONT_ROLES), " / ".join(FONT_ROLES), lambda p: {"enum": list(FONT_ROLES)}),
    ValueType("table", table_check, "a printed table's name (tables.yaml)", lambda p: {"type": "string"}),
    ValueType("symbol", symbol_check, "a symbol's name, or `'{field}'` naming one",
              lambda p: {"type": "string"}),
    ValueType("count", count_check, "a whole number ≥ 0, or `'{field}'` holding one",
              lambda p: {"anyOf": [{"type": "integer", "minimum": 0, "maximum": p.maximum},
                                   {"type": "string", "pattern": _FIELD_PATTERN}]}),
    ValueType("rows", rows_check, "a whole number ≥ 1, or `'{rules.x}'` / `'{count.x}'` giving one",
              lambda p: _number_ref_schema(p.maximum)),
    ValueType("row_labels", row_labels_check, "like `labels`, one of them may hold `{row}`; or one "
              "text holding `{row}`",
              lambda p: {"anyOf": [_array(_label_schema(p), p),
                                   {"type": "string", "maxLength": MAX_TEXT_CHARS, "pattern": "\\{row\\}"}]}),
)}


# -- the elements ----------------------------------------------------------------------------

def _box(what: str = "where the element goes") -> Prop:
    return Prop("box", "box", what, required=True)


def _fill(default: str | None = None) -> Prop:
    return Prop("fill", "color", "fill colour", default=default)


def _stroke(default: str | None = None) -> Prop:
    return Prop("stroke", "color", "outline colour", default=default)


def _stroke_width(default: float) -> Prop:
    return Prop("stroke_width", "number", "outline width in mm", default=default, maximum=MAX_STROKE_MM)


def _size() -> Prop:
    return Prop("size", "fontsize", "font size", required=True)


def _min_size() -> Prop:
    return Prop("min_size", "fontsize", "the smallest size shrink-to-fit may use (default: size)")


def _font() -> Prop:
    return Prop("font", "font", "the text role whose face prints it: the face game.yaml `fonts:` gives "
                "that role (`title: AR PL UKai TW`), else the script's bundled face")


def _color(what: str = "text colour") -> Prop:
    return Prop("color", "color", what, default="#000000")


ELEMENTS: dict[str, ElementSpec] = {e.kind: e for e in (
    ElementSpec("rect", "A rectangle, optionally with rounded corners.", (
        _box(), Prop("radius", "coord", "corner radius (a percentage is of the smaller side)", default=0),
        _fill(), _stroke(), _stroke_width(0.5))),
    ElementSpec("circle", "A circle.", (
        Prop("center", "point", "the centre", required=True),
        Prop("r", "coord", "radius (a percentage is of the smaller side)", required=True),
        _fill(), _stroke(), _stroke_width(0.5))),
    ElementSpec("line", "A polyline through the points, round caps and joins.", (
        Prop("points", "points", "the points, in order", required=True, max_items=MAX_POINTS),
        _stroke(), _stroke_width(0.5),
        Prop("dash", "numbers", "dash pattern `[on, off, …]` in mm", maximum=MAX_DASH_MM,
             max_items=MAX_DASH_ITEMS))),
    ElementSpec("text", "Text wrapped with Chinese line-breaking rules, shrunk to fit its box.", (
        _box(), Prop("text", "text", "the text; `{field}` is replaced by the card's field; `**bold**`, "
             "colour spans, `:icon:` and `<br>` are rich text (see Rich text)", required=True),
        _size(), _min_size(), Prop("bold", "bool", "bold weight", default=False), _font(), _color(),
        Prop("align", "align", "horizontal alignment", default="left"),
        Prop("valign", "valign", "vertical alignment", default="top"),
        Prop("direction", "direction", "`vertical`: 直排, columns read top to bottom and right to left, "
             "punctuation in the font's vertical forms (its `vert` feature: 「」 turned, ，。 placed for "
             "a column), one or two Latin letters or digits upright across one cell (縱中橫), longer "
             "Latin runs and dashes turned; no column starts with closing punctuation. `align` places "
             "the columns across the box, `valign` along it; shrunk to fit like horizontal text, and "
             "a box too short for the text at `min_size` is an error; rich text as on a line: bold "
             "in the bold face, a colour span's characters and single-colour icons in its colour, an "
             "icon upright in a cell of its own", default="horizontal")),
        text=True),
    ElementSpec("boxes", "A strip of equal rounded boxes, one label centred in each.", (
        _box(), Prop("labels", "labels", "one label per box; a range prints `count` labels, `{n}` numbering "
             "them from 1 (`[{count: '{rules.players.max}', label: '{n}'}]`: a box per seat)",
             required=True, max_items=MAX_LABELS),
        _size(), _min_size(), _font(), _fill(), _stroke(), _stroke_width(0.5), _color()), text=True),
    ElementSpec("table", "A printed table from tables.yaml; one with more rows than columns prints on "
                "its side, a `pivot:` table as a matrix.", (
        _box(), Prop("table", "table", "the printed table's name", required=True),
        _size(), _min_size(), _color(),
        Prop("header_fill", "color", "fill of the header cells"),
        Prop("header_color", "color", "text colour of the header cells (default: color)"),
        _stroke("#000000")), text=True),
    ElementSpec("symbol", "One symbol scaled into the box, aspect kept, centred.", (
        _box(), Prop("symbol", "symbol", "the symbol", required=True),
        Prop("fill", "color", "replaces the fill of every filled path"),
        Prop("stroke", "color", "replaces the stroke of every stroked path")), uses_symbol=True),
    ElementSpec("icons", "`count` copies of a symbol centred in the box, wrapped into as few rows as "
                "fit, rows balanced, longer rows first; too many to fit is a problem naming the card.", (
        _box(), Prop("symbol", "symbol", "the symbol", required=True),
        Prop("count", "count", "how many icons", required=True, maximum=MAX_ICONS),
        Prop("size", "mm", "one icon's height in mm; its width follows the viewbox", required=True,
             minimum=MIN_ICON_MM, maximum=MAX_ICON_MM),
        Prop("gap", "number", "mm between icons", default=1.0, maximum=MAX_GAP_MM),
        Prop("fill", "color", "replaces the fill of every filled path"),
        Prop("stroke", "color", "replaces the stroke of every stroked path")), uses_symbol=True),
    ElementSpec("image", "A picture from the game's art/ folder (PNG, JPEG, WebP, or SVG kept as "
                "vectors) fitted to the box; each file is embedded once per PDF however many cards "
                "show it.", (
        _box(), Prop("file", "image", "the picture, `art/NAME.png` in the game folder, or `'{field}'`: "
                     "each card names its own", required=True),
        Prop("fit", "fit", "`cover` fills the box and cuts what overflows, `contain` shows all of "
             "the picture, `stretch` fills the box and gives up the aspect", default="cover"),
        Prop("focus", "focus", "under `cover`, the point of the picture kept nearest the box's "
             "centre (`[0.5, 0.2]`: keep the top)", default=(0.5, 0.5)),
        Prop("crop", "crop", "the part of the picture used, before it is turned and fitted",
             default=(0.0, 0.0, 1.0, 1.0)),
        Prop("rotate", "quarter", "quarter turns clockwise, in degrees", default=0),
        Prop("opacity", "fraction", "1 opaque, 0 invisible", default=1.0),
        Prop("bleed", "bool", "each box edge on the trim edge reaches out to the bleed edge: "
             "full-bleed art (`box: [0, 0, 100%, 100%]`)", default=False))),
    ElementSpec("grid", "A blank form to write on (score pads, record sheets): a header row of column "
                "labels, optional row labels, all labels at one size.", (
        _box(), Prop("rows", "rows", "body rows (`'{rules.days}'`: as many as the rules say)", required=True,
                     maximum=MAX_GRID_ROWS),
        Prop("columns", "labels", "the header row, one label per column (`\"\"` for an empty cell); a "
             "range is a column per label (`[座位, {count: '{rules.players.max}', label: '{n}'}]`)",
             required=True, max_items=MAX_GRID_COLUMNS),
        Prop("row_labels", "row_labels", "the first column of the body rows: one label per row, "
             "ranges counted; one label holding `{row}` is printed on every row the others leave, "
             "`{row}` counting those rows from 1 (`[姓名, '第 {row} 局', 合計]`); one text alone "
             "holding `{row}` labels every row (`'第 {row} 天'`)",
             max_items=MAX_GRID_ROWS),
        Prop("column_widths", "weights", "relative widths, one per column as written: a range's "
             "width is each of its columns' (default equal)",
             maximum=MAX_WEIGHT, max_items=MAX_GRID_COLUMNS),
        Prop("header_height", "mm", "header row height in mm (default: a body row's)", maximum=MAX_ICON_MM),
        _size(), _min_size(), _stroke("#000000"), _stroke_width(0.25),
        Prop("header_fill", "color", "fill of the header row"),
        Prop("header_color", "color", "text colour of the header row (default: color)"),
        _color("text colour of the row labels")), text=True),
)}

_TURN = Prop("turn", "turn", "`half`: drawn turned half round about the trim's centre; `both`: drawn "
             "as placed and again turned (corner indices)")
# Every kind may be turned; the prop is added here so no element's list can forget it.
ELEMENTS = {kind: dataclasses.replace(spec, props=(*spec.props, _TURN)) for kind, spec in ELEMENTS.items()}

# The corner of a card a fanned hand shows, as fractions of the trim's width and height from
# its top-left corner: a hand held in the left hand and spread to the right covers each card
# but this strip, and a strip narrows down the card as the fan closes.
FAN_CORNER = (0.25, 1 / 3)

# A face layout's own keys: one spec, like an element's.
LAYOUT = ElementSpec("layout", "A face: its background, the elements drawn on it in order, and where a "
                     "fanned hand sees its index.", (
    Prop("background", "color", "fills the face and its bleed (a circle for round pieces)", required=True),
    Prop("elements", "elements", "drawn in order, the first underneath"),
    Prop("index", "box", "the card's index: the corner a fanned hand shows, within the left "
         f"{FAN_CORNER[0]:.0%} of the trim's width and the top {FAN_CORNER[1]:.0%} of its height; the elements "
         "whose box lies "
         "inside it are the index, drawn `turn: both` so it shows again turned in the bottom-right corner. "
         "`pnp check` holds the front of every deck held in hand to one (see `held_in_hand`)"),
))

# Value types of label lists, whose items may be ranges (pnp.data.labelranges).
RANGED_TYPES = ("labels", "row_labels")
TEXT_ELEMENTS = tuple(kind for kind, spec in ELEMENTS.items() if spec.text)
SYMBOL_ELEMENTS = tuple(kind for kind, spec in ELEMENTS.items() if spec.uses_symbol)


def prop_error(spec: ElementSpec, name: str, value: Any, ctx: SpecContext) -> str | None:
    """None when ``value`` is acceptable for property ``name`` of ``spec``, else why not."""
    prop = spec.prop(name)
    return prop.value_type.check(value, prop, ctx)


def prop(element: Any, name: str) -> Any:
    """An element's property, or the spec's default when the layout leaves it out."""
    value = element.props.get(name)
    return ELEMENTS[element.kind].prop(name).default if value is None else value
