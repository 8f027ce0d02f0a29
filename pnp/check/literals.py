"""The ``literal-number`` lint of ``pnp check``: digits typed into printed text.

A number the players read should come from the rules: a ``{rules.x}`` reference or a card
field in card text, a template variable in the rulebook, a generated card's ``{n}``, a table
cell (proven cell by cell). Whatever digits are left were typed by hand, and nothing ties
them to the rules. This module finds each of them exactly, from the source rather than from
the printed result:

- card_data (components.yaml, figures.yaml, tables.yaml headings, game.yaml's name and
  credits): every digit of a printed text once its ``{...}`` references are taken out. A card
  field counts when a face prints it (a text, label or ``count`` naming ``{field}``) and its
  value is more than a number: a field that is a number and nothing else (``power: 5``, a stat
  column of a spreadsheet deck) is the card's data, as a table's cell is, while digits inside
  a card's sentence were typed into the text. A
  grid's typed ``rows`` counts when a row label numbers the rows (``{row}``), and a label
  range's typed ``count`` when its label numbers the range (``{n}``): the numbers printed
  follow from them.
- templates (``rulebook.md.j2``, ``aid.md.j2``), parsed by Jinja: every digit of the
  template's own text (in every branch, taken or not), every digit in a string constant, and
  every number constant that is printed (``{{ 4 }}``, ``{{ x + 1 }}``) or named
  (``{% set rows = 4 %}``, also in a tuple, list or dict: ``{% set a, b = 3, 4 %}``). Numbers
  a template only compares, indexes or passes on are logic, not print. Markdown list numbers
  (``1. ``) are the list's own numbering.

game.yaml ``literal_numbers:`` marks the deliberate ones (a seat number, a year, a step
number) with the reason (:mod:`pnp.check.literal_marks`).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Mapping
from dataclasses import replace
from pathlib import Path
from typing import Any

import jinja2
from jinja2 import nodes

from pnp.core.errors import DataError
from pnp.core.records import record
from pnp.data.cardfiles import CSV_NAME
from pnp.data.csvcards import read_csv_cards
from pnp.data.labelranges import RANGE_NUMBER, is_range
from pnp.data.load import COMPONENTS_FILE, FIGURES_FILE, GAME_FILE, TABLES_FILE
from pnp.data.propchecks import ROW_NUMBER
from pnp.data.schema import COLOR, FIELD_REF
from pnp.data.textfile import read_text
from pnp.data.yamlmarks import Located, PathKey, format_path
from pnp.text.templating import markdown_environment

TEMPLATES = ("rulebook.md.j2", "aid.md.j2")
NUMBER = re.compile(r"[0-9０-９]+(?:[.,][0-9０-９]+)*")
# A card field that is one number and nothing else, signed or not: the card's data.
WHOLE_NUMBER = re.compile(rf"\s*[+\-−＋－]?{NUMBER.pattern}\s*")
# Any {...} placeholder of card text: {field}, {rules.x:money}, a generated card's {n}.
_REFERENCE = re.compile(r"\{[^{}\n]*\}")
# A whole number printed as a float: "6.0", the trace of a float where an integer belongs.
FLOAT_NUMBER = re.compile(r"(?<![\d.,])\d+\.0+(?![\d.])")
# Element props that never print text (a card field named there is not printed either);
# ``count`` is printed, as that many icons.
_NOT_PRINTED = frozenset({
    "type", "box", "center", "r", "points", "radius", "fill", "stroke", "stroke_width", "dash",
    "color", "header_fill", "header_color", "size", "min_size", "align", "valign", "table",
    "symbol", "gap", "column_widths", "bold", "rows", "background", "header_height",
    "file", "fit", "focus", "crop", "rotate", "opacity", "bleed",  # an image's: drawn, never printed
})
_LIST_NUMBER = re.compile(r"^\s*[0-9]+\.(?=\s)")
_ARITHMETIC = (nodes.Add, nodes.Sub, nodes.Mul, nodes.Div, nodes.FloorDiv, nodes.Mod,
               nodes.Pow, nodes.Neg, nodes.Pos, nodes.Concat)
_CONTAINERS = (nodes.Tuple, nodes.List, nodes.Dict, nodes.Pair)


@record
class Literal:
    """Digits typed into a printed text: ``source[start:end]`` of ``name`` at ``line``."""

    name: str  # the file's name, as a mark names it
    shown: str  # the file as findings show it
    line: int
    field: str  # the YAML path, or "" for a template
    source: str  # the text the digits sit in, as written (references and all)
    start: int
    end: int
    component: str = ""  # the id of the component whose text it is, if any
    card: str = ""  # the id of the card whose field it is, if any
    column: int = 0  # a spreadsheet's column (and a workbook's cell), where a CSV cell is
    cell: str = ""

    @property
    def number(self) -> str:
        return self.source[self.start:self.end]

    @property
    def where(self) -> str:
        at = f"{self.shown}:{self.line}" + (f":{self.column}" if self.column else "") + \
            (f": {self.cell}" if self.cell else "")
        return f"{at}: {self.field}" if self.field else at


# --------------------------------------------------------------------------------------------
# card_data


def _digits(source: str) -> Iterator[tuple[int, int]]:
    blanked = _REFERENCE.sub(lambda m: " " * len(m[0]), source)
    for match in NUMBER.finditer(blanked):
        yield match.start(), match.end()


class _Yaml:
    """Finds the typed digits of texts in one located document (``file``: the file its lines
    are in, when that is not the document's own, as for CSV cards)."""

    def __init__(self, doc: Located, rel: Callable[[str], str], file: Path | None = None) -> None:
        self.doc = doc
        self.name = (file or doc.file).name
        self.shown = rel(str(file or doc.file))
        self.spreadsheet = file is not None

    def scan(self, value: Any, path: PathKey) -> list[Literal]:
        if isinstance(value, bool) or not isinstance(value, str | int | float):
            return []
        source = str(value)
        if COLOR.fullmatch(source):
            return []
        place = self.doc.where(path)
        line = place.line or 0  # a CSV document places by row, a YAML one by line
        # A spreadsheet's cell is named as its problems name it (row, column, Sheet!G5).
        column = (place.column or 0) if self.spreadsheet else 0
        cell = (place.cell or "") if self.spreadsheet else ""
        return [Literal(self.name, self.shown, line, format_path(path), source, start, end,
                        column=column, cell=cell)
                for start, end in _digits(source)]

    def scan_list(self, value: Any, path: PathKey) -> list[Literal]:
        if not isinstance(value, list):
            return self.scan(value, path)
        return [hit for i, item in enumerate(value) for hit in self.scan(item, (*path, i))]


def _mapping(value: Any) -> dict[str, Any]:
    return value if isinstance(value, dict) else {}


def _sequence(value: Any) -> list[Any]:
    return value if isinstance(value, list) else []


def data_literals(docs: Mapping[str, Located | None], rel: Callable[[str], str]) -> list[Literal]:
    """The typed digits of every printed text of a game folder's YAML files."""
    found: list[Literal] = []
    game = docs.get(GAME_FILE)
    if game is not None:
        y = _Yaml(game, rel)
        top = _mapping(game.value)
        found += y.scan(top.get("name"), ("name",))
        found += y.scan_list(top.get("credits"), ("credits",))
    tables = docs.get(TABLES_FILE)
    if tables is not None:
        y = _Yaml(tables, rel)
        for name, table in _mapping(_mapping(tables.value).get("tables")).items():
            table = _mapping(table)
            found += y.scan(table.get("title"), ("tables", name, "title"))
            for i, column in enumerate(_sequence(table.get("columns"))):
                found += y.scan(_mapping(column).get("label"), ("tables", name, "columns", i, "label"))
    figures = docs.get(FIGURES_FILE)
    if figures is not None:
        y = _Yaml(figures, rel)
        for name, figure in _mapping(_mapping(figures.value).get("figures")).items():
            figure = _mapping(figure)
            found += y.scan(figure.get("caption"), ("figures", name, "caption"))
            found += y.scan_list(figure.get("labels"), ("figures", name, "labels"))
    components = docs.get(COMPONENTS_FILE)
    if components is not None:
        found += _component_literals(components, rel)
    return found


def _component_literals(doc: Located, rel: Callable[[str], str]) -> list[Literal]:
    y = _Yaml(doc, rel)
    top = _mapping(doc.value)
    found: list[Literal] = []
    printed_fields: dict[str, set[str]] = {}  # layout -> the card fields its faces print
    for name, layout in _mapping(top.get("layouts")).items():
        fields = printed_fields.setdefault(name, set())
        for k, element in enumerate(_sequence(_mapping(layout).get("elements"))):
            for key, value in _mapping(element).items():
                if key in _NOT_PRINTED:
                    continue
                for text in value if isinstance(value, list) else [value]:
                    if is_range(text):
                        text = text.get("label")
                    if isinstance(text, str):
                        fields.update(FIELD_REF.findall(text))
                if key != "count":
                    found += y.scan_list(value, ("layouts", name, "elements", k, key))
                    found += _ranges(y, value, ("layouts", name, "elements", k, key))
            found += _numbered_rows(y, _mapping(element), ("layouts", name, "elements", k))
    for i, component in enumerate(_sequence(top.get("components"))):
        found += _one_component(doc, y, _mapping(component), ("components", i), printed_fields, rel)
    return found


def _one_component(doc: Located, y: _Yaml, component: dict[str, Any], path: PathKey,
                   printed_fields: Mapping[str, set[str]], rel: Callable[[str], str]) -> list[Literal]:
    """The typed digits of one component's texts and printed card fields, each knowing the
    component's id (and the card's) for a mark that names them."""
    found: list[Literal] = []
    found += y.scan(component.get("name"), (*path, "name"))
    found += y.scan(component.get("note"), (*path, "note"))
    found += y.scan_list(component.get("faces"), (*path, "faces"))
    shown: set[str] = set()
    for side in ("front", "back", "inner"):
        shown |= printed_fields.get(str(component.get(side)), set())
    cards, reader = component.get("cards"), y
    if isinstance(cards, str) and CSV_NAME.fullmatch(cards):
        cards, reader = _csv_cards(doc, cards, (*path, "cards"), rel)
    for j, card in enumerate(_sequence(cards)):
        card_id = _mapping(card).get("id")
        for key, value in _mapping(_mapping(card).get("fields")).items():
            if key in shown and not is_whole_number(value):
                found += [replace(hit, card=str(card_id or "")) for hit in
                          reader.scan(value, (*path, "cards", j, "fields", key))]
    generate = _mapping(component.get("generate"))
    for key, value in _mapping(generate.get("fields")).items():
        # A lookup or a map is derived; a number every generated card carries is their data.
        if key in shown and isinstance(value, str | int) and not is_whole_number(value):
            found += y.scan(value, (*path, "generate", "fields", key))
    component_id = str(component.get("id") or "")
    return [replace(hit, component=component_id) for hit in found]


def is_whole_number(value: Any) -> bool:
    """Whether a card field is one number and nothing else (``5``, ``"12"``, ``"-1"``,
    ``"2.5"``): data the card carries, printed as it stands, not digits typed into a text."""
    if isinstance(value, bool):
        return False
    if isinstance(value, int | float):
        return True
    return isinstance(value, str) and WHOLE_NUMBER.fullmatch(value) is not None


def _numbered_rows(y: _Yaml, element: dict[str, Any], path: PathKey) -> list[Literal]:
    """A grid whose row label numbers its rows (``'第 {row} 天'``, or ``第 {row} 局`` in a list,
    on the rows the others leave) prints numbers that follow from its ``rows``: typed there
    unless ``rows`` is a reference."""
    labels = element.get("row_labels")
    texts = labels if isinstance(labels, list) else [labels]
    numbered = any(isinstance(text, str) and ROW_NUMBER in text for text in texts)
    if numbered and isinstance(element.get("rows"), int):
        return y.scan(element["rows"], (*path, "rows"))
    return []


def _ranges(y: _Yaml, value: Any, path: PathKey) -> list[Literal]:
    """A label range's ``label`` is printed text; its ``count``, when typed, is printed too if
    the label numbers the range (``{n}`` prints 1 up to it): a reference is derived."""
    found: list[Literal] = []
    for i, item in enumerate(_sequence(value)):
        if not is_range(item):
            continue
        label = item.get("label")
        found += y.scan(label, (*path, i, "label"))
        if isinstance(label, str) and RANGE_NUMBER in label and isinstance(item.get("count"), int):
            found += y.scan(item["count"], (*path, i, "count"))
    return found


def _csv_cards(doc: Located, name: str, path: PathKey,
               rel: Callable[[str], str]) -> tuple[list[Any], _Yaml]:
    """The raw rows of a component's CSV cards (``{rules.x}`` still unresolved), located in
    the CSV file; none when it does not read (load_game reported that already)."""
    file = doc.file.parent / name
    try:
        cards, located = read_csv_cards(file, doc, path)
    except (DataError, OSError):
        return [], _Yaml(doc, rel)
    return cards, _Yaml(located, rel, file)


# --------------------------------------------------------------------------------------------
# templates


def template_literals(templates: Path, slug: str, rel: Callable[[str], str]) -> list[Literal]:
    """The typed numbers of a game's rulebook and aid templates (a template that does not
    parse is reported by the reference check)."""
    env = markdown_environment(templates)
    found: list[Literal] = []
    for name in TEMPLATES:
        path = templates / slug / name
        if not path.is_file():
            continue
        source = read_text(path)
        try:
            tree = env.parse(source, name, str(path))
        except jinja2.TemplateSyntaxError:
            continue
        scan = _TemplateScan(name, rel(str(path)), source.splitlines())
        scan.visit(tree, printed=False)
        found += scan.found
    return found


class _TemplateScan:
    def __init__(self, name: str, shown: str, lines: list[str]) -> None:
        self.name = name
        self.shown = shown
        self.lines = lines
        self.found: list[Literal] = []

    def _line(self, number: int) -> str:
        return self.lines[number - 1] if 0 < number <= len(self.lines) else ""

    def data(self, node: nodes.TemplateData) -> None:
        for offset, piece in enumerate(node.data.split("\n")):
            number = node.lineno + offset
            line = self._line(number)
            column = line.find(piece) if piece else -1
            # Markdown's ordered-list numbers count the list's items, they are not typed facts.
            body = piece
            if column >= 0 and not line[:column].strip():
                body = _LIST_NUMBER.sub(lambda m: " " * len(m[0]), piece)
            for start, end in _digits(body):
                if column >= 0:
                    self.found.append(Literal(self.name, self.shown, number, "", line,
                                              column + start, column + end))
                else:
                    self.found.append(Literal(self.name, self.shown, number, "", piece, start, end))

    def const(self, node: nodes.Const) -> None:
        value = node.value
        if isinstance(value, bool) or not isinstance(value, str | int | float):
            return
        text = value if isinstance(value, str) else repr(value)
        line = self._line(node.lineno)
        for start, end in _digits(text):
            digits = text[start:end]
            column = line.find(digits)
            if column >= 0:
                self.found.append(Literal(self.name, self.shown, node.lineno, "", line,
                                          column, column + len(digits)))
            else:
                self.found.append(Literal(self.name, self.shown, node.lineno, "", text, start, end))

    def visit(self, node: nodes.Node, printed: bool) -> None:
        if isinstance(node, nodes.TemplateData):
            self.data(node)
            return
        if isinstance(node, nodes.Const):
            # A string with digits is printable text wherever it stands; a number only when it
            # is printed or named.
            if isinstance(node.value, str) or printed:
                self.const(node)
            return
        if isinstance(node, nodes.Output):
            for output in node.nodes:
                self.visit(output, True)
            return
        if isinstance(node, nodes.Assign):
            self.visit(node.node, True)  # a named number is printed wherever the name is
            self.visit(node.target, False)
            return
        if isinstance(node, nodes.Filter | nodes.Test) and node.name == "format" and \
                isinstance(node.node, nodes.Const):
            # "%.1f" | format(x): the format's digits say how to print, they are not printed.
            for arg in node.args:
                self.visit(arg, False)
            return
        if isinstance(node, nodes.Include | nodes.Import | nodes.FromImport | nodes.Extends):
            return  # a template's name
        if isinstance(node, nodes.Call) and isinstance(node.node, nodes.Name) and node.node.name == "colour":
            # colour("#1f5fa8", words): a colour span; the colour's digits are not printed.
            for argument in node.args[1:]:
                self.visit(argument, printed)
            return
        if isinstance(node, nodes.Filter | nodes.Test):
            if node.node is not None:
                self.visit(node.node, printed)
            for argument in (*node.args, *(kw.value for kw in node.kwargs)):
                self.visit(argument, False)
            return
        if isinstance(node, nodes.CondExpr):
            self.visit(node.test, False)
            self.visit(node.expr1, printed)
            if node.expr2 is not None:
                self.visit(node.expr2, printed)
            return
        # A number inside a named or printed tuple, list or dict (``{% set a, b = 3, 4 %}``)
        # is named or printed as much as a lone one.
        keeps = printed and isinstance(node, _ARITHMETIC + _CONTAINERS)
        for child in node.iter_child_nodes():
            self.visit(child, keeps)
