"""The game model: frozen dataclasses built from validated card_data.

Every piece of text keeps where it came from (``Text.where``) so that a glyph the font
lacks, or a string too long for its box, can be reported against its file, line and field.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import field
from types import MappingProxyType
from typing import Any

from pnp.core.problems import Place
from pnp.core.records import record


@record
class Text:
    """A string of the game's source language and the place it was written."""

    value: str
    where: str

    def __str__(self) -> str:
        return self.value


@record
class Element:
    """One drawing instruction of a face layout; ``props`` are already validated."""

    kind: str
    props: Mapping[str, Any]
    where: Place

    def get(self, key: str, default: Any = None) -> Any:
        return self.props.get(key, default)


@record
class Layout:
    id: str
    background: str
    elements: tuple[Element, ...]
    where: str
    # The corner a fanned hand shows, [x, y, width, height] as written (coordinates), and
    # where it was written; None when the layout declares none.
    index: tuple[Any, Any, Any, Any] | None = None
    index_where: str = ""

    @property
    def uses_fields(self) -> bool:
        """Whether any card field shows on this face: if not, every card's face is the same."""
        def refers(value: Any) -> bool:
            if isinstance(value, str):
                return "{" in value
            if isinstance(value, list | tuple):
                return any(refers(item) for item in value)
            return False

        return refers(self.background) or any(
            refers(value) for element in self.elements for value in element.props.values())


@record
class Card:
    """One distinct face design of a component, printed ``count`` times."""

    id: str
    count: int
    fields: Mapping[str, Text]
    size: tuple[float, float]  # trim width, height in mm
    where: str


@record
class Component:
    id: str
    name: Text
    note: Text
    shape: str  # rect | round | fold | d6_net | d4_net
    front: str | None
    back: str | None
    inner: str | None  # the second panel of a fold
    cards: tuple[Card, ...]
    faces: tuple[Text, ...] = ()
    net_style: Mapping[str, str] = field(default_factory=lambda: MappingProxyType({}))
    where: str = ""
    held_in_hand: bool = False  # components.yaml says the players hold these cards fanned

    @property
    def count(self) -> int:
        return sum(card.count for card in self.cards)

    @property
    def double_sided(self) -> bool:
        return self.back is not None


@record
class Column:
    key: str
    label: Text
    format: str = ""  # "" prints the value as it is; "thousands" groups digits: 20,000


@record
class PrintedTable:
    """A table exactly as printed; ``rows`` are literal values, checked by ``pnp check``.

    The engine computes it from the game's rules as its table ``name``; a table with a
    ``variant`` is computed from that variant's rules instead, as its table ``engine_table``
    (tables.yaml ``variant:`` and ``engine_table:``), so a variant's set-up can be printed
    beside the canonical one and checked alike."""

    name: str
    title: Text
    columns: tuple[Column, ...]
    rows: tuple[Mapping[str, Any], ...]
    where: str
    row_where: tuple[str, ...] = ()
    pivot: tuple[str, str, str] | None = None  # (down, across, value) column keys for display
    variant: str | None = None
    engine_table: str = ""  # the engine's name for it ("" = ``name``)

    @property
    def computed_as(self) -> str:
        return self.engine_table or self.name


@record
class GlossaryTerm:
    hans: str
    hant: str
    where: str


@record
class ReviewedReading:
    """A phrase of the source text whose conversion the designer read and accepts as the whole
    text converts it, although the words converted alone read otherwise (glossary.yaml
    ``reviewed:``, in the game's source script)."""

    text: str
    reason: str
    where: str


@record
class Acknowledged:
    """A rules-lint finding the designer has reviewed and accepts, with the reason why."""

    code: str
    reason: str
    where: str


@record
class LiteralMark:
    """Digits the designer typed into printed text on purpose (game.yaml ``literal_numbers``).

    The mark covers the digits inside each occurrence of ``text``, or, with ``start``, every
    literal digit on the lines from the first one holding ``start`` up to (not including) the
    next one holding ``until`` (the end of the file when empty); ``field`` (a YAML path such
    as ``components[8].faces``) limits it to the texts at or under that path. ``file``
    ("" = any) names the file by its name (``components.yaml``, ``rulebook.md.j2``).
    ``component`` (an id) limits it to that component's texts, wherever its cards are (YAML or
    a spreadsheet), and ``card`` (an id, with ``component``) to that card's fields.
    """

    file: str
    text: str
    start: str
    until: str
    reason: str
    where: str
    field: str = ""
    component: str = ""
    card: str = ""


@record
class AllowedText:
    """A passage that may print a tool word (game.yaml ``tool_words.allow``), with why."""

    text: str
    reason: str
    where: str


@record
class ToolWords:
    """game.yaml ``tool_words``: words about the tool this game's books may not print, besides
    pnp's own list (:data:`pnp.check.bookwords.TOOL_WORDS`), and passages that may print one."""

    forbid: tuple[str, ...] = ()
    allow: tuple[AllowedText, ...] = ()


@record
class ExampleGame:
    """The seeded sample game a rulebook tells as its worked example."""

    seed: int
    players: int
    variant: str | None = None


@record
class FontPick:
    """game.yaml ``fonts:``: the face a text role prints in, by family name (looked up in the
    workspace's fonts/, the bundled faces, then the system's fonts as fontconfig finds them)
    or by a file in the workspace's fonts/ (``file``, and ``bold_file`` for its bold)."""

    role: str
    family: str
    file: str
    bold_file: str
    where: Place


@record
class GameInfo:
    slug: str
    name: Text
    source_lang: str
    version: str
    date: str
    players_min: int
    players_max: int
    players_common: int
    minutes: str
    age: str
    credits: tuple[Text, ...]
    rules: Mapping[str, Any]
    where: Place
    acknowledged: tuple[Acknowledged, ...] = ()
    literal_numbers: tuple[LiteralMark, ...] = ()
    tool_words: ToolWords = ToolWords()
    example: ExampleGame | None = None
    # Characters of the other script the source text may hold on purpose (game.yaml
    # script_exceptions), each with the reason the designer gave.
    script_exceptions: Mapping[str, str] = field(default_factory=lambda: MappingProxyType({}))
    fonts: tuple[FontPick, ...] = ()  # the faces the designer chose, by role (game.yaml fonts:)


@record
class PathSegment:
    """One drawing command of a symbol path in absolute viewbox units (y points down).

    ``op`` is M (move), L (line), C (cubic curve: two control points then the end) or Z.
    """

    op: str
    points: tuple[tuple[float, float], ...] = ()


@record
class SymbolPath:
    segments: tuple[PathSegment, ...]
    fill: str | None  # "#rrggbb"; None leaves the shape unfilled
    stroke: str | None
    stroke_width: float  # viewbox units
    even_odd: bool = False  # fill rule; SVG's default is nonzero


@record
class Symbol:
    """A vector shape defined once and drawn by ``symbol`` and ``icons`` elements."""

    name: str
    viewbox: tuple[float, float, float, float]  # x, y, width, height
    paths: tuple[SymbolPath, ...]
    where: str

    @property
    def aspect(self) -> float:
        """Width over height."""
        return self.viewbox[2] / self.viewbox[3]


@record
class FigurePiece:
    """One piece a table figure lays down: a card face, or a stack of copies of it."""

    component: str
    card: str  # may hold ``{seat}``: each seat's own card (seat 1 gets card-1 …)
    side: str  # front | back
    count: int  # copies, each shifted by ``spread``
    spread: float  # mm between copies; 0 is a squared-up pile
    over: bool  # laid on the piece before it, centred, taking no room of its own


@record
class TableSetup:
    """A table seen from above, to scale: seats round its edge, each with the pieces in
    front of that player (rows, the first nearest the middle), shared pieces in the middle."""

    seats: int
    seat: tuple[tuple[FigurePiece, ...], ...]
    first_seat: tuple[tuple[FigurePiece, ...], ...]  # seat 1's own, when it differs; else ()
    centre: tuple[tuple[FigurePiece, ...], ...]
    width: float  # mm the figure may take at most; 0 = the text column


@record
class Figure:
    """Miniatures of real card faces for the rulebook, in rows with optional row labels, or
    a table set-up (``table``) with optional seat labels."""

    name: str
    caption: Text | None
    component: str
    side: str  # front | back
    rows: tuple[tuple[str, ...], ...]  # card ids of ``component``
    labels: tuple[Text, ...]  # one per row (one per seat for a table), or none
    card_height: float  # mm of each miniature's trim
    where: str
    table: TableSetup | None = None


@record
class IconFile:
    """An inline icon of the game (``icons/NAME.svg`` or ``.png``), its bytes as checked at load."""

    name: str
    kind: str  # "svg" | "png"
    data: bytes = field(repr=False)
    path: str = ""


@record
class ImageFile:
    """A picture a layout draws (``art/…`` in the game folder), read and checked at load."""

    name: str  # as the layout or card names it: art/ghost.svg
    path: str  # absolute, symlinks resolved, inside the game's art/
    format: str  # PNG | JPEG | WEBP | SVG
    width: float  # pixels; an SVG's in points
    height: float
    digest: str  # sha256 of the file: the build record and the PDF's form name key by it

    @property
    def raster(self) -> bool:
        return self.format != "SVG"


@record
class Game:
    info: GameInfo
    components: tuple[Component, ...]
    layouts: Mapping[str, Layout]
    tables: Mapping[str, PrintedTable]
    glossary: tuple[GlossaryTerm, ...]
    symbols: Mapping[str, Symbol] = field(default_factory=lambda: MappingProxyType({}))
    figures: Mapping[str, Figure] = field(default_factory=lambda: MappingProxyType({}))
    reviewed_readings: tuple[ReviewedReading, ...] = ()
    icons: Mapping[str, IconFile] = field(default_factory=lambda: MappingProxyType({}))
    images: Mapping[str, ImageFile] = field(default_factory=lambda: MappingProxyType({}))

    @property
    def slug(self) -> str:
        return self.info.slug

    def component(self, component_id: str) -> Component:
        for component in self.components:
            if component.id == component_id:
                return component
        raise KeyError(component_id)

    def card(self, component_id: str, card_id: str) -> Card:
        for card in self.component(component_id).cards:
            if card.id == card_id:
                return card
        raise KeyError(card_id)


def frozen_mapping(mapping: Mapping[str, Any]) -> Mapping[str, Any]:
    return MappingProxyType(dict(mapping))
