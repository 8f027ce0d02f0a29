"""Rulebook source: a Jinja2 template (StrictUndefined) rendered to Markdown, parsed to blocks.

The template is written once, in the game's source script. Tables are never typed into it:
``{{ table("setup") }}`` leaves a marker that the PDF stage replaces with the printed table
from card_data, so a rule edit and ``pnp tables --update`` keep the rulebook right.
``{{ figure("name") }}`` does the same for a figure of figures.yaml: miniatures of the real
card faces, drawn by the code that draws the cards.

``{{ ruling("tisigui-player-count") }}`` marks the sentence it begins as the edition's own
decision, where the source post leaves a question open or contradicts itself: the Markdown
gets a link ``[本版補充](ruling:tisigui-player-count)``, which the PDF stage prints as the
label 〔本版補充〕 (bold, in the mark colour, never broken across lines), and
:func:`ruling_marks` reads back which rulings a book applies on which line.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import field
from functools import lru_cache
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import jinja2
from markdown_it import MarkdownIt

from pnp.core.errors import DataError
from pnp.core.records import record
from pnp.core.workspace import Workspace
from pnp.data.markup import COLOUR_OPEN, ICON_NAME, MarkupError, span_colour
from pnp.data.model import Game
from pnp.text.linetypes import ICON, Run, joinable
from pnp.text.strings import ui
from pnp.text.templating import located_by_identity, render_template

AID_TEMPLATE = "aid.md.j2"
TABLE_MARKER = re.compile(r"^@@table:([a-z0-9_]+)@@$")
FIGURE_MARKER = re.compile(r"^@@figure:([a-z0-9][a-z0-9_-]*)@@$")
RULING_ID = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*$")
RULING_SCHEME = "ruling:"
# A ruling mark as the template writes it into the Markdown (an empty id: the legend's sample).
RULING_LINK = re.compile(r"\[([^\]\n]+)\]\(ruling:([a-z0-9-]*)\)")


@record
class RulingMark:
    """One 〔本版補充〕 of a rendered book: the ruling it applies, on which Markdown line."""

    ruling: str
    line: int


def ruling_marks(markdown: str) -> list[RulingMark]:
    """Every ruling mark of a rendered book, in order (the legend's sample, with no id, left out)."""
    return [RulingMark(match[2], number)
            for number, text in enumerate(markdown.splitlines(), start=1)
            for match in RULING_LINK.finditer(text) if match[2]]


def marks_as_printed(text: str) -> str:
    """``text`` with each ruling link as the page prints it (〔本版補充〕), for checks that read
    rendered Markdown as a reader would."""
    return RULING_LINK.sub(lambda match: f"〔{match[1]}〕", text)


@record
class MarkdownBlock:
    kind: str  # heading | paragraph | bullets | numbers | quote | table | figure
    runs: tuple[Run, ...] = ()
    level: int = 0
    items: tuple[tuple[Run, ...], ...] = ()
    markers: tuple[str, ...] = ()  # per item: "•", "◦" or "3." — nested lists keep their own
    levels: tuple[int, ...] = ()  # per item: 0 for the outer list, 1 for a list inside it, …
    children: tuple[MarkdownBlock, ...] = field(default_factory=tuple)
    table: str = ""
    figure: str = ""
    line: int = 0  # line in the rendered Markdown, for error messages


def template_path(templates: Path, slug: str) -> Path:
    return templates / slug / "rulebook.md.j2"


@record
class Engine:
    """What a book's template may ask of the game's rules engine, supplied by the caller (the
    play layer knows the engines; the rulebook names none).

    ``example`` gives the moments of game.yaml's ``example:`` game; ``worked`` maps a name to
    the engine's function for a hand-worked example (``worked.<name>(...)`` in a template).
    """

    example: Callable[[], dict[str, Any]] | None = None
    worked: Mapping[str, Callable[..., Any]] = field(default_factory=dict)


NO_ENGINE = Engine()


def template_context(game: Game, engine: Engine = NO_ENGINE) -> dict[str, Any]:
    info = game.info
    played: list[dict[str, Any]] = []

    def worked_example() -> dict[str, Any]:
        if engine.example is None:
            raise jinja2.UndefinedError("example() needs `example: {seed, players}` in game.yaml")
        if not played:  # one game per render, however often the template asks
            played.append(engine.example())
        return played[0]

    def table(name: str) -> str:
        if name not in game.tables:
            raise jinja2.UndefinedError(f"unknown table {name!r}")
        return f"\n\n@@table:{name}@@\n\n"

    def figure(name: str) -> str:
        if name not in game.figures:
            known = ", ".join(game.figures) or "none; add them to figures.yaml"
            raise jinja2.UndefinedError(f"unknown figure {name!r} (figures: {known})")
        return f"\n\n@@figure:{name}@@\n\n"

    def ruling(name: str = "") -> str:
        # The label in the template's own script: the book's conversion turns it like the text.
        if name and not RULING_ID.fullmatch(name):
            raise jinja2.UndefinedError(f"ruling {name!r}: a ruling id is lower-case words joined by "
                                        "hyphens, as its heading in docs/rulings.md (e.g. tisigui-player-count)")
        return f"[{ui(info.source_lang, 'ruling')}]({RULING_SCHEME}{name})"

    def colour(value: str, words: str) -> str:
        # ``{#`` opens a Jinja comment, so a template cannot write {#1f5fa8|…} as it stands.
        try:
            span_colour(value, "")
        except MarkupError as exc:
            raise jinja2.UndefinedError(str(exc)) from exc
        return f"{{{value}|{words}}}"

    components = [
        SimpleNamespace(id=c.id, name=c.name.value, count=c.count, note=c.note.value)
        for c in game.components
    ]
    tables = {name: [dict(row) for row in t.rows] for name, t in game.tables.items()}
    return {
        "game": SimpleNamespace(
            name=info.name.value, slug=info.slug, version=info.version, date=info.date,
            players_min=info.players_min, players_max=info.players_max,
            players_common=info.players_common, minutes=info.minutes, age=info.age,
            credits=[c.value for c in info.credits],
        ),
        "components": components,
        # The rules parameters of game.yaml, so prose can quote a number instead of typing it.
        "rules": dict(game.info.rules),
        "tables": tables,
        "table": table,
        # example(): the moments of game.yaml's `example:` game, played by the engine on every
        # build so the worked example cannot go stale (pnp/play/examples.py). Its seed is
        # deliberately absent: a rulebook is for players, the transcript is `pnp sample`'s.
        "example": worked_example,
        # worked.<name>(...): the engine's result for inputs the template picked by hand (a
        # split of a fund, a scripted round), so a hand-worked example states computed values.
        "worked": dict(engine.worked),
        "figure": figure,
        # ruling("<id>"): the 〔本版補充〕 mark before a sentence that settles what the source post
        # leaves open (docs/rulings.md#<id>); ruling() alone: the mark as the legend shows it.
        "ruling": ruling,
        # colour("#1f5fa8", "words"): a colour span {#1f5fa8|words}, which a template cannot
        # type (``{#`` opens a Jinja comment); {red|words} and the other named colours can be.
        "colour": colour,
        # The card ids each figure shows, row by row, so the text beside a figure can count
        # and add what it shows instead of retyping it.
        "figures": {name: [list(row) for row in f.rows] for name, f in game.figures.items()},
    }


def rulebook_markdown(workspace: Workspace, game: Game, engine: Engine = NO_ENGINE) -> str:
    """The game's rulebook as Markdown in its source script, worked example included."""
    return render_markdown(workspace.templates, game, engine)


def aid_markdown(workspace: Workspace, game: Game, engine: Engine = NO_ENGINE) -> str | None:
    """The player aid as Markdown in the game's source script, or None for a game without
    ``templates/<slug>/aid.md.j2``. The aid has no worked example of its own."""
    if not (workspace.templates / game.slug / AID_TEMPLATE).is_file():
        return None
    return render_markdown(workspace.templates, game, Engine(worked=engine.worked), AID_TEMPLATE)


def render_markdown(templates: Path, game: Game, engine: Engine = NO_ENGINE,
                    name: str = "rulebook.md.j2") -> str:
    """The rulebook (or another book template, such as the player aid) as Markdown in the
    game's source script."""
    path = templates / game.slug / name
    if not path.is_file():
        raise DataError(f"{path}: {name.split('.')[0]} template not found")
    context = template_context(game, engine)
    # A printed table's row handed to the template is known by where tables.yaml has it, so a
    # value computed from it that fails (a "33/0") is reported there.
    rows = located_by_identity((row, table.row_where[i])
                               for name, table in game.tables.items()
                               for i, row in enumerate(context["tables"][name]) if i < len(table.row_where))
    return render_template(templates, f"{game.slug}/{name}", context, rows)


def _inline_runs(token: Any) -> tuple[Run, ...]:
    """An inline token's styled runs; raises :class:`MarkupError` for a colour span that
    cannot be read."""
    runs: list[Run] = []
    spans = _ColourSpans()
    bold = 0
    label: list[str] | None = None  # the text of an open ruling link
    for child in token.children or []:
        if child.type == "strong_open":
            bold += 1
        elif child.type == "strong_close":
            bold -= 1
        elif child.type == "link_open" and str(child.attrGet("href") or "").startswith(RULING_SCHEME):
            label = []
        elif child.type == "link_close" and label is not None:
            runs.append(Run(f"〔{''.join(label)}〕", True, True))
            label = None
        elif child.type in ("text", "code_inline"):
            if label is not None:
                label.append(child.content)
            elif child.type == "text":
                runs.extend(spans.runs(child.content, bold > 0))
            else:
                runs.append(Run(child.content, bold > 0))
        elif child.type == "softbreak":
            continue  # Chinese lines join without a space
        elif child.type == "hardbreak":
            runs.append(Run("\n", bold > 0))
    if spans.colour is not None:
        raise MarkupError(f"unclosed colour span '{{{spans.opened}|'")
    merged: list[Run] = []
    for run in runs:
        if merged and joinable(merged[-1], run):
            merged[-1] = run.with_text(merged[-1].text + run.text)
        else:
            merged.append(run)
    return _drop_spaces_between_chinese(merged)


# ``:name:`` in a book's text: the game's inline icon (card_data/<slug>/icons/), as on its cards.
_ICON_REF = re.compile(f":({ICON_NAME}):")
# A colour span's opening or closing brace, as card text writes them (pnp.data.markup).
_SPAN_TOKEN = re.compile(f"{COLOUR_OPEN.pattern}|\\}}")


class _ColourSpans:
    """The colour span open in one inline stretch of a book, ``{red|…}`` or ``{#rrggbb|…}``
    as on a card: it may hold **bold** and icons, a ``}`` with no span open is the text's own."""

    def __init__(self) -> None:
        self.colour: str | None = None
        self.opened = ""

    def runs(self, text: str, bold: bool) -> list[Run]:
        if "{" not in text and (self.colour is None or "}" not in text):
            return _icon_runs(text, bold, self.colour)
        runs: list[Run] = []
        at = 0
        for match in _SPAN_TOKEN.finditer(text):
            if match[0] == "}" and self.colour is None:
                continue
            runs.extend(_icon_runs(text[at:match.start()], bold, self.colour))
            at = match.end()
            if match[0] == "}":
                self.colour = None
            elif self.colour is not None:
                raise MarkupError(f"colour span '{{{match[1]}|' inside '{{{self.opened}|'; colour spans do not nest")
            else:
                self.colour, self.opened = span_colour(match[1], f"in '{{{match[1]}|'"), match[1]
        runs.extend(_icon_runs(text[at:], bold, self.colour))
        return runs


def _icon_runs(text: str, bold: bool, colour: str | None = None) -> list[Run]:
    """``text`` with each ``:name:`` made an icon run (the book checks the names it prints)."""
    if ":" not in text:
        return [Run(text, bold, colour=colour)] if text else []
    runs: list[Run] = []
    at = 0
    for match in _ICON_REF.finditer(text):
        if match.start() > at:
            runs.append(Run(text[at:match.start()], bold, colour=colour))
        runs.append(Run(ICON, bold, colour=colour, icon=match[1]))
        at = match.end()
    if at < len(text):
        runs.append(Run(text[at:], bold, colour=colour))
    return runs


# CJK punctuation to the unified ideographs, compatibility ideographs, full-width forms,
# and the supplementary ideograph planes; and an inline icon, set as one of them.
_CHINESE = "\u3000-\u9fff\uf900-\ufaff\uff00-\uffef\U00020000-\U0010ffff" + ICON  # an icon sits as a character
_SPACE_BETWEEN_CHINESE = re.compile(f"(?<=[{_CHINESE}]) (?=[{_CHINESE}])")


def _drop_spaces_between_chinese(runs: list[Run]) -> tuple[Run, ...]:
    """Chinese sets no spaces between characters; Markdown sources often need one around
    ``**bold**``, so a space with Chinese on both sides (even across styles) is removed."""
    text = "".join(run.text for run in runs)
    drop = {m.start() for m in _SPACE_BETWEEN_CHINESE.finditer(text)} if " " in text else set()
    out: list[Run] = []
    start = 0
    for run in runs:
        end = start + len(run.text)
        kept = run.text if not drop else "".join(
            ch for at, ch in enumerate(run.text, start) if at not in drop)
        start = end
        if not kept:
            continue
        if out and joinable(out[-1], run):
            out[-1] = run.with_text(out[-1].text + kept)
        else:
            out.append(run if run.icon is not None else run.with_text(kept))
    return tuple(out)


def parse_markdown(markdown: str, source: str = "the book") -> list[MarkdownBlock]:
    """Headings, paragraphs, bullet and numbered lists, quotes, table and figure markers;
    markup that cannot be read is a DataError naming ``source`` (the template) and the line."""
    return list(_parsed(markdown, source))


# The blocks are frozen: a book whose Markdown is as before (a card edit that reaches only its
# figures, in a process that builds again and again) takes the blocks it had. Both books of
# both scripts of a few games, and a report or sample, fit.
@lru_cache(maxsize=24)
def _parsed(markdown: str, source: str) -> tuple[MarkdownBlock, ...]:
    tokens = MarkdownIt("commonmark").parse(markdown)

    def runs_at(token: Any, line: int) -> tuple[Run, ...]:
        try:
            return _inline_runs(token)
        except MarkupError as exc:
            raise DataError(f"{source} (rendered Markdown line {line}): {exc}") from exc

    root: list[MarkdownBlock] = []
    stack: list[list[MarkdownBlock]] = [root]
    # Open lists, innermost last: (kind, start line, [(runs, marker, level)], items so far).
    list_stack: list[tuple[str, int, list[tuple[tuple[Run, ...], str, int]], list[int]]] = []
    i = 0
    while i < len(tokens):
        tok = tokens[i]
        line = (tok.map[0] + 1) if tok.map else 0
        if tok.type == "heading_open":
            level = int(tok.tag[1])
            stack[-1].append(MarkdownBlock("heading", runs_at(tokens[i + 1], line), level=level, line=line))
            i += 3
            continue
        if tok.type in ("bullet_list_open", "ordered_list_open"):
            kind = "bullets" if tok.type == "bullet_list_open" else "numbers"
            list_stack.append((kind, line, [], [0]))
        elif tok.type in ("bullet_list_close", "ordered_list_close"):
            kind, start, entries, _ = list_stack.pop()
            if list_stack:  # a nested list's items follow the parent item they belong to
                list_stack[-1][2].extend(entries)
            else:
                stack[-1].append(MarkdownBlock(
                    kind, items=tuple(e[0] for e in entries), markers=tuple(e[1] for e in entries),
                    levels=tuple(e[2] for e in entries), line=start))
        elif tok.type == "blockquote_open":
            stack.append([])
        elif tok.type == "blockquote_close":
            children = stack.pop()
            stack[-1].append(MarkdownBlock("quote", children=tuple(children), line=line))
        elif tok.type == "inline":
            runs = runs_at(tok, line)
            text = "".join(r.text for r in runs).strip()
            marker = TABLE_MARKER.fullmatch(text)
            figure = FIGURE_MARKER.fullmatch(text)
            if list_stack and tokens[i - 2].type == "list_item_open":  # an item's first paragraph
                kind, _, entries, count = list_stack[-1]
                count[0] += 1
                depth = len(list_stack) - 1
                bullet = f"{count[0]}." if kind == "numbers" else ("•" if depth == 0 else "◦")
                entries.append((runs, bullet, depth))
            elif list_stack:
                # A second paragraph of one item continues it, unmarked.
                list_stack[-1][2].append((runs, "", len(list_stack) - 1))
            elif marker:
                stack[-1].append(MarkdownBlock("table", table=marker.group(1), line=line))
            elif figure:
                stack[-1].append(MarkdownBlock("figure", figure=figure.group(1), line=line))
            elif text:
                stack[-1].append(MarkdownBlock("paragraph", runs, line=line))
        i += 1
    return tuple(root)
