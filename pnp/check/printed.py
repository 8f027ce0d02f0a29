"""What reaches paper: every text a game prints, and the place each came from.

The printed-text checks (typography, conversion, script purity, glyphs, tool words) read the
same texts: card_data's names, notes, card fields, layout literals, tables and figures
(``printed_texts``), and the rulebook and aid as their templates render, each Markdown line
traced back to the template line it most likely came from (``book_texts``). Nothing here
judges a text; it only gathers them with a ``where`` a designer can open.
"""

from __future__ import annotations

import re
from pathlib import Path

from pnp.check.places import GamePlaces
from pnp.core.errors import DataError
from pnp.core.records import record
from pnp.core.workspace import Workspace
from pnp.data.markup import ICON_NAME, plain_text
from pnp.data.model import Game
from pnp.data.schema import COLOR, FIELD_REF
from pnp.data.textfile import read_text
from pnp.play.examples import book_engine
from pnp.rulebook.source import AID_TEMPLATE, aid_markdown, marks_as_printed, rulebook_markdown


@record
class TextItem:
    """A text that gets printed, in the game's source script, and the place it came from."""

    text: str
    where: str
    bold: bool = False
    role: str = "body"  # the text role whose face prints it (game.yaml fonts:)


# Element props that are never printed as text.
_NOT_TEXT = frozenset({
    "box", "center", "r", "points", "radius", "fill", "stroke", "stroke_width", "dash", "color",
    "header_fill", "header_color", "size", "min_size", "align", "valign", "table", "symbol",
    "count", "gap", "column_widths", "bold", "rows", "background",
})


def printed_texts(game: Game) -> list[TextItem]:
    """Every text of card_data that can reach paper (field references stripped from layouts)."""
    info = game.info
    items = [TextItem(info.name.value, info.name.where, True)]
    items += [TextItem(c.value, c.where) for c in info.credits]
    for component in game.components:
        items.append(TextItem(component.name.value, component.name.where, True))
        items.append(TextItem(component.note.value, component.note.where))
        items += [TextItem(face.value, face.where, True) for face in component.faces]
        for card in component.cards:
            for value in card.fields.values():
                if not COLOR.fullmatch(value.value):
                    # As printed: a text element's markup (**, {red|…}, :icon:) prints no characters.
                    items.append(TextItem(plain_text(value.value), value.where, True))
    for layout in game.layouts.values():
        for element in layout.elements:
            bold = bool(element.get("bold", False)) or element.kind != "text"
            role = str(element.get("font") or "body")
            for key, value in element.props.items():
                if key in _NOT_TEXT:
                    continue
                values = value if isinstance(value, list | tuple) else [value]
                for text in values:
                    if isinstance(text, str):
                        literal = FIELD_REF.sub("", text)
                        if element.kind == "text" and key == "text":
                            literal = plain_text(literal)
                        items.append(TextItem(literal, f"{element.where}.{key}", bold, role))
    for table in game.tables.values():
        items.append(TextItem(table.title.value, table.title.where, True))
        items += [TextItem(c.label.value, c.label.where, True) for c in table.columns]
        for row, where in zip(table.rows, table.row_where, strict=False):
            for key, value in row.items():
                if isinstance(value, str):
                    items.append(TextItem(value, f"{where}.{key}"))
    for figure in getattr(game, "figures", {}).values():
        if figure.caption is not None:
            items.append(TextItem(figure.caption.value, figure.caption.where))
        items += [TextItem(label.value, label.where) for label in figure.labels]
    return [item for item in items if item.text.strip()]


def _rulebook_texts(workspace: Workspace, game: Game, places: GamePlaces, markdown: str | None = None,
                    name: str = "rulebook.md.j2") -> list[TextItem]:
    """The rendered rulebook (or ``name``, such as the aid) Markdown line by line, each mapped
    to its template line; ``markdown`` when the caller has rendered it already."""
    source = workspace.templates / game.slug / name
    if not source.is_file():
        return []
    if markdown is None:
        try:
            engine = book_engine(workspace, game)
            markdown = (rulebook_markdown(workspace, game, engine) if name == "rulebook.md.j2"
                        else aid_markdown(workspace, game, engine) or "")
        except DataError:
            return []  # reported as a reference finding
    return _template_texts(source, markdown, places)


def _template_texts(source: Path, markdown: str, places: GamePlaces) -> list[TextItem]:
    template = read_text(source).splitlines()
    fragments = [_literal_fragments(line) for line in template]
    shown = places.rel(str(source))
    items = []
    previous = 0
    for number, line in enumerate(markdown.splitlines(), start=1):
        if not line.strip():
            continue
        found = _template_line(line, fragments, previous)
        if found is None:
            where = f"{shown}: rendered Markdown line {number}"
        else:
            previous = found
            where = f"{shown}:{found + 1}"
        heading = line.lstrip().startswith("#")
        # An inline icon (:die:) prints a picture, no characters: its colons are no punctuation.
        items.append(TextItem(_BOOK_ICON.sub("", line), where, heading or "**" in line,
                              "title" if heading else "body"))
    return items


_BOOK_ICON = re.compile(f":{ICON_NAME}:")
_JINJA = re.compile(r"\{\{.*?\}\}|\{%.*?%\}|\{#.*?#\}")


def _literal_fragments(line: str) -> list[str]:
    return [part.strip() for part in _JINJA.split(line) if part.strip()]


def _template_line(line: str, fragments: list[list[str]], start: int) -> int | None:
    """The template line the rendered ``line`` most likely came from (search on from start):
    the first whose literal text is all in ``line`` (a line of only short fragments, such
    as a lone "-", says nothing)."""
    order = list(range(start, len(fragments))) + list(range(0, start))
    for index in order:
        parts = fragments[index]
        # Most lines fail on their first fragment: tested before the rest are looked at.
        if parts and parts[0] in line and any(len(p) >= 2 for p in parts) and all(p in line for p in parts):
            return index
    return None


def book_texts(workspace: Workspace, game: Game, places: GamePlaces, rulebook: str | None = None,
               aid: str | None = None, cards: bool = True) -> list[TextItem]:
    """Every text a player reads: the data's printed texts (only the credits without
    ``cards``), the rulebook and the aid as they print (a ruling mark as its label)."""
    data = printed_texts(game) if cards else [TextItem(c.value, c.where) for c in game.info.credits]
    items = [TextItem(i.text, places.rel(i.where), i.bold, i.role) for i in data]
    for markdown, name in ((rulebook, "rulebook.md.j2"), (aid, AID_TEMPLATE)):
        items += [TextItem(marks_as_printed(i.text), i.where, i.bold, i.role)
                  for i in _rulebook_texts(workspace, game, places, markdown, name)]
    return items
