"""Rich text in a card's text: the markup a ``text`` element's words may carry, read into
styled spans.

- ``**粗體**``: bold (the face's bold weight);
- ``{red|紅字}``: a colour span, a colour of :data:`COLOURS` or ``#rgb`` / ``#rrggbb`` before
  the bar. A ``{field}`` reference never holds a bar, and Chinese writes its brackets full
  width, so ``{name|`` is markup and nothing else;
- ``:die:``: the inline icon ``card_data/<slug>/icons/die.svg`` (or ``.png``), one em square,
  kept on its line with the characters written against it;
- a line break: a newline in the value, or ``<br>`` where a newline is awkward to type (a
  spreadsheet cell).

Bold may sit inside a colour span and a colour span inside bold, but each must close where it
was opened: ``**a{red|b**c}`` is refused, as are an unclosed ``**`` or ``{red|``, an unknown
colour and an unknown icon (:class:`MarkupError`; the loader says where). Text without any
of ``**``, ``{…|``, ``:name:`` or ``<br>`` is a single plain span, exactly as before markup.
"""

from __future__ import annotations

import re
from collections.abc import Collection

from pnp.core.records import record

# Named colours, chosen to read on white card stock in both a laser and an inkjet print.
COLOURS: dict[str, str] = {
    "red": "#c0392b",
    "orange": "#d35400",
    "gold": "#b7950b",
    "green": "#1e8449",
    "blue": "#1f5fa8",
    "purple": "#7d3c98",
    "grey": "#6b6b6b",
    "black": "#000000",
}
ICON_NAME = r"[a-z][a-z0-9_-]{0,39}"
# One token of markup: bold, a colour span's opening and closing, an icon, a line break.
_TOKEN = re.compile(r"\*\*|\{(#[0-9A-Fa-f]{3}|#[0-9A-Fa-f]{6}|[A-Za-z][A-Za-z0-9_-]*)\||\}"
                    rf"|:({ICON_NAME}):|<br>")
# A colour span's opening, ``{red|`` or ``{#rrggbb|``: the colour's name or value in group 1.
COLOUR_OPEN = re.compile(r"\{(#[0-9A-Fa-f]{3}|#[0-9A-Fa-f]{6}|[A-Za-z][A-Za-z0-9_-]*)\|")
# Whether a text may hold markup at all (the fast path of every plain card text).
_ANY = re.compile(rf"\*\*|\{{#?[A-Za-z0-9_-]+\||:{ICON_NAME}:|<br>")


class MarkupError(ValueError):
    """Markup that cannot be read: the message says what and at which character."""


@record
class Span:
    """A stretch of text in one style, or one inline icon (``icon`` set, ``text`` empty)."""

    text: str
    bold: bool = False
    colour: str | None = None  # '#rrggbb'
    icon: str | None = None


def has_markup(text: str) -> bool:
    return _ANY.search(text) is not None


def colour_value(name: str) -> str | None:
    """The '#rrggbb' of a colour as markup names it, or None for an unknown one."""
    if name.startswith("#"):
        digits = name[1:].lower()
        return "#" + ("".join(c * 2 for c in digits) if len(digits) == 3 else digits)
    return COLOURS.get(name.lower())


def span_colour(name: str, where: str) -> str:
    """The '#rrggbb' a colour span ``{name|`` opens (``where`` says where it is written);
    raises :class:`MarkupError` for a colour pnp does not know."""
    value = colour_value(name)
    if value is None:
        raise MarkupError(f"unknown colour {name!r} {where} (colours: {', '.join(COLOURS)}, or '#rrggbb')")
    return value


def parse_markup(text: str, icons: Collection[str], bold: bool = False) -> tuple[Span, ...]:
    """``text`` as styled spans; ``bold`` is the element's own weight (``**`` inside bold
    text stays bold). Raises :class:`MarkupError` for markup that cannot be read."""
    if not has_markup(text):
        return (Span(text, bold),) if text else ()
    spans: list[Span] = []
    opened: list[tuple[str, int]] = []  # ("**" or "{", character) of each open style, innermost last
    colour: str | None = None
    strong = False
    at = 0

    def add(piece: str) -> None:
        if piece:
            spans.append(Span(piece, bold or strong, colour))

    for match in _TOKEN.finditer(text):
        token = match.group(0)
        if token == "}" and not any(kind == "{" for kind, _ in opened):
            continue  # a brace of the text itself
        add(text[at:match.start()])
        at = match.end()
        where = match.start() + 1
        if token == "**":
            if opened and opened[-1][0] == "**":
                opened.pop()
                strong = False
            elif strong:
                raise MarkupError(f"'**' at character {where} closes bold across a colour span "
                                  f"opened inside it; close the colour span first")
            else:
                opened.append(("**", where))
                strong = True
        elif token == "}":
            if opened[-1][0] != "{":
                raise MarkupError(f"'}}' at character {where} closes a colour span across bold "
                                  f"('**' at character {opened[-1][1]}); close the bold first")
            opened.pop()
            colour = None
        elif token == "<br>":
            add("\n")
        elif match.group(2) is not None:
            name = match.group(2)
            if name not in icons:
                known = ", ".join(sorted(icons)) or "none: add icons/NAME.svg or icons/NAME.png"
                raise MarkupError(f"unknown icon ':{name}:' at character {where} (icons: {known})")
            spans.append(Span("", bold or strong, colour, name))
        else:
            name = match.group(1)
            if colour is not None:
                raise MarkupError(f"colour span '{{{name}|' at character {where} inside another; "
                                  "colour spans do not nest")
            value = span_colour(name, f"at character {where}")
            opened.append(("{", where))
            colour = value
    if opened:
        kind, where = opened[-1]
        what = "bold '**'" if kind == "**" else "colour span '{…|'"
        raise MarkupError(f"unclosed {what} opened at character {where}")
    add(text[at:])
    return tuple(spans)


def plain_text(text: str) -> str:
    """What ``text`` prints as characters, markup taken out and icons left out (for the
    checks that read printed words: scripts, glyphs, numbers); ``text`` as it is when its
    markup cannot be read (the loader reports that)."""
    if not has_markup(text):
        return text
    try:
        return "".join(span.text for span in parse_markup(text, _AnyIcon()))
    except MarkupError:
        return text


class _AnyIcon(Collection[str]):
    """Every icon name: :func:`plain_text` leaves icons out, known or not."""

    def __contains__(self, name: object) -> bool:
        return True

    def __iter__(self):  # type: ignore[no-untyped-def]
        return iter(())

    def __len__(self) -> int:
        return 0
