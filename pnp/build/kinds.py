"""The build's own output kinds, per game and script: the component sheets, the rulebook, the
player aid and (on request) a PNG of every card face; and how each is rendered.

The rulebook and the player aid are rendered from the same sources (the game as the books see
it, its Markdown, the glyph check of the template): a build's :class:`RenderJob` memo keeps
them, so the second book of a game reuses what the first made.
"""

from __future__ import annotations

import dataclasses
import logging
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from pnp.build.manifest import noting_game, rulebook_view
from pnp.build.outputs import BOOK_DATA, SHEET_OPTIONS, Artifact, OutputKind, Render, Rendered, RenderJob
from pnp.core.errors import BuildError, DataError, FontError
from pnp.core.records import record
from pnp.core.workspace import Workspace
from pnp.text.convert import converter_for

if TYPE_CHECKING:
    from pnp.data.model import Game
    from pnp.data.sheettemplate import SheetTemplate
    from pnp.layout.template_plan import TemplateShare
    from pnp.render.glyphs import GlyphCheck
    from pnp.text.convert import Converter
    from pnp.text.fonts import FontFamily

log = logging.getLogger(__name__)

RULEBOOK_TEMPLATE = "rulebook.md.j2"
AID_TEMPLATE = "aid.md.j2"


@record
class SheetOptions:
    """How component sheets are imposed and printed, beyond the paper size."""

    gutter: float = 0.0  # mm between card trims: 0 butts cards on shared cut lines, 6 keeps each its bleed
    back_offset: tuple[float, float] = (0.0, 0.0)  # mm right and down: undoes a duplex shift
    ink: str = "full"  # "saver": dark fills print as light tints (pnp.render.ink)
    # The sheet template to fill, by name (--sheet, or `sheet` in pnp.toml), and where that
    # name was given, for messages ("--sheet" or "pnp.toml:3"); each game finds its own file
    # (pnp.core.workspace.Workspace.sheet_template), read by :func:`sheet_templates`.
    sheet: str | None = None
    origin: str = "--sheet"
    # The template read for one game (pnp.data.sheettemplate.SheetTemplate): set on each
    # game's render job, filled before the imposition with every piece its slots take.
    template: SheetTemplate | None = None


DEFAULT_SHEET = SheetOptions()


def sheet_templates(workspace: Workspace, sheet: SheetOptions, slugs: Sequence[str]) -> dict[str, SheetTemplate]:
    """Each game's sheet template, when one is named: its own card_data/<slug>/sheets/NAME.yaml,
    else the workspace's sheets/NAME.yaml, else the shipped one; each file read and checked
    once, before anything is rendered."""
    if sheet.sheet is None:
        return {}
    from pnp.data.sheettemplate import load_sheet_template

    name = sheet.sheet.strip().lower()
    read: dict[Path, SheetTemplate] = {}
    found = {}
    for slug in slugs:
        file = workspace.sheet_template(sheet.sheet, slug, sheet.origin)
        if file not in read:
            read[file] = load_sheet_template(name, file)
        found[slug] = read[file]
    return found


def template_shares(games: Mapping[str, Game], templates: Mapping[str, SheetTemplate], paper: str,
                    sheet: SheetOptions) -> list[tuple[str, TemplateShare]]:
    """For each game with a template, which of its pieces the template takes and which go on
    computed sheets (the same in both scripts)."""
    if not templates:
        return []  # the usual build: no template, and none of the planning below imported
    from pnp.layout.presets import sheet_spec
    from pnp.layout.template_plan import template_paper, template_share
    from pnp.render.sheets import pieces_for

    spec = dataclasses.replace(sheet_spec(paper), card_gutter=sheet.gutter)
    shares = []
    for slug, game in games.items():
        template = templates.get(slug)
        if template is not None:
            pieces = pieces_for(game, template_paper(template, spec))
            shares.append((slug, template_share(pieces, template)))
    return shares


def _check_template_glyphs(workspace: Workspace, game: Game, convert: Converter,
                           glyphs: GlyphCheck) -> None:
    """Check the template line by line, so a missing glyph is reported with its line."""
    from pnp.data.textfile import read_text
    from pnp.rulebook.source import template_path

    path = template_path(workspace.templates, game.slug)
    if not path.is_file():
        return
    for number, line in enumerate(read_text(path).splitlines(), start=1):
        text = convert(line)
        where = f"{path}:{number}"
        heading = line.lstrip().startswith("#")
        family = glyphs.fonts.role("title") if heading else None  # headings print in the title's face
        glyphs.check(text, False, where, family)
        if "**" in line or heading:
            glyphs.check(text, True, where, family)


A4_AREA = 210.0 * 297.0  # mm²: the sheet the player aid is written to fit, both sides


def aid_sheets(page: tuple[float, float]) -> int:
    """How many sheets (both sides) the player aid may take on a page of ``page`` points: one
    on A4 or anything near it, more on a small paper in proportion (two on A5), so an aid
    that fits A4 fits every paper pnp takes."""
    from pnp.core.units import MM

    return max(1, round(A4_AREA / (page[0] / MM * page[1] / MM)))


def has_rulebook(workspace: Workspace, slug: str) -> bool:
    return (workspace.templates / slug / RULEBOOK_TEMPLATE).is_file()


@record
class BookSources:
    """A game's books as Markdown in its source script (None: no such template) and what
    stops them printing (the tool words found in the two, as :func:`pnp.check.tool_words.
    tool_word_problems` words them). All of it is the same for both scripts: a build makes it
    once a game (:func:`_book_sources`)."""

    rulebook: str | None
    aid: str | None
    tool_words: tuple[str, ...]


def render_game(workspace: Workspace, game: Game, lang: str, paper: str, png: bool = False,
                kinds: Sequence[str] | None = None, sheet: SheetOptions = DEFAULT_SHEET,
                sources: BookSources | None = None) -> list[Artifact]:
    """Render ``kinds`` (default: components, rulebook, aid, and png if asked) of one game in
    one script; paths are relative to the output root. A game without a rulebook template has
    no rulebook, one without an aid template no aid. ``sources`` are the books' Markdown when
    the caller has made them already (made here otherwise)."""
    from pnp.core.units import MM
    from pnp.layout.impose import ImposeError
    from pnp.layout.presets import sheet_spec
    from pnp.render.glyphs import GlyphCheck
    from pnp.text.fontchoice import game_fonts

    if kinds is None:
        kinds = ("components", "rulebook", "aid", "png") if png else ("components", "rulebook", "aid")
    spec = dataclasses.replace(sheet_spec(paper), card_gutter=sheet.gutter)
    fonts = game_fonts(workspace, lang, game.info.fonts)
    convert = converter_for(game, lang)
    glyphs = GlyphCheck(fonts)
    base = Path(game.slug) / lang
    artifacts: list[Artifact] = []
    if "components" in kinds:
        from pnp.render.facecache import kept_faces
        from pnp.render.sheets import render_components
        from pnp.render.streamcache import kept_streams
        from pnp.text.fitcache import remembered
        from pnp.text.subsetcache import kept_subsets

        try:
            # A card edit re-renders these sheets: every label but the edited ones fits as before.
            with remembered(fonts, f"{game.slug}/{lang}/components"), kept_subsets(f"{base}/components"), \
                    kept_faces(f"{base}/components"), kept_streams(f"{base}/components"):
                components = render_components(game, lang, spec, fonts, convert, glyphs, sheet.back_offset,
                                               sheet.ink, sheet.template)
        except ImposeError as exc:
            raise BuildError(str(exc)) from None
        artifacts.append(Artifact(base / "components.pdf", components.data))
        log.info("rendered %s %s components: %d sheets", game.slug, lang, components.sheets)
    if "png" in kinds:
        from pnp.render.png import render_face_pngs  # PDFium loads only when PNGs are asked for

        artifacts += [Artifact(base / "png" / name, data)
                      for name, data in render_face_pngs(game, fonts, convert, glyphs).items()]
    # pnp.rulebook.source (Jinja, markdown-it, the engines of worked examples) is imported only when
    # a book is rendered: a card edit re-renders components alone.
    books = [kind for kind in ("rulebook", "aid") if kind in kinds]
    if "rulebook" in books and not has_rulebook(workspace, game.slug):
        books.remove("rulebook")
    if books:
        _check_template_glyphs(workspace, game, convert, glyphs)
        if not glyphs.missing:
            page = (spec.width * MM, spec.height * MM)
            if sources is None:
                sources = _book_sources(workspace, game, books)
            artifacts += _render_books(workspace, game, lang, paper, books, convert, glyphs, fonts, page, sources)
    if glyphs.missing:
        raise FontError(glyphs.problems)
    if glyphs.overflows:
        raise BuildError(glyphs.overflows)
    return artifacts


def _book_markdown(workspace: Workspace, game: Game, book: str) -> str | None:
    """One book's Markdown in the game's source script (None for a game without its template)."""
    from pnp.play.examples import book_engine
    from pnp.rulebook.source import aid_markdown, rulebook_markdown

    if book == "rulebook":
        return rulebook_markdown(workspace, game, book_engine(workspace, game)) \
            if has_rulebook(workspace, game.slug) else None
    return aid_markdown(workspace, game, book_engine(workspace, game))


def _book_sources(workspace: Workspace, game: Game, books: Sequence[str],
                  made: Mapping[str, str | None] | None = None) -> BookSources:
    """The books' Markdown and their tool words. A book in ``books`` that fails to render
    stops the build; the other one is read for its tool words only when it renders, as
    ``pnp check`` reads it (its own render reports its failure). ``made``: Markdown the
    caller has already, by book."""
    # A book is refused for the tool words of both: the checks load only when a book is made.
    from pnp.check.tool_words import tool_word_problems

    markdown: dict[str, str | None] = dict(made or {})
    for book in ("rulebook", "aid"):
        if book in markdown:
            continue
        try:
            markdown[book] = _book_markdown(workspace, game, book)
        except DataError:
            if book in books:
                raise
            markdown[book] = None
    rulebook, aid = markdown["rulebook"], markdown["aid"]
    return BookSources(rulebook, aid, tuple(tool_word_problems(workspace, game, rulebook, aid)))


def _render_books(workspace: Workspace, game: Game, lang: str, paper: str, books: Sequence[str],
                  convert: Converter, glyphs: GlyphCheck, fonts: FontFamily, page: tuple[float, float],
                  sources: BookSources) -> list[Artifact]:
    from pnp.render.facecache import kept_faces
    from pnp.rulebook.aid import render_aid
    from pnp.rulebook.pdf import render_rulebook
    from pnp.rulebook.source import parse_markdown, template_path
    from pnp.text.fitcache import remembered
    from pnp.text.subsetcache import kept_subsets

    base = Path(game.slug) / lang
    artifacts = []
    # A book that talks about the tool is not printed (pnp check reports the same).
    if sources.tool_words:
        raise BuildError(list(sources.tool_words))
    markdown, aid = sources.rulebook, sources.aid if "aid" in books else None
    if "rulebook" in books:
        assert markdown is not None
        source = str(template_path(workspace.templates, game.slug))
        blocks = parse_markdown(convert(markdown), source)
        # The cards a figure shows are drawn by the components' code; a card edit draws the
        # edited faces again and replays the rest, as the sheets do.
        with remembered(fonts, f"{base}/rulebook"), kept_subsets(f"{base}/rulebook"), \
                kept_faces(f"{base}/rulebook"):
            rulebook = render_rulebook(game, lang, blocks, fonts, convert, glyphs, source, page)
        artifacts.append(Artifact(base / "rulebook.pdf", rulebook))
    if aid is not None:
        where = workspace.templates / game.slug / AID_TEMPLATE
        with remembered(fonts, f"{base}/aid"), kept_subsets(f"{base}/aid"), kept_faces(f"{base}/aid"):
            data, pages = render_aid(game, lang, parse_markdown(convert(aid), str(where)), fonts, convert, glyphs,
                                     str(where), page)
        sheets = aid_sheets(page)
        if pages > 2 * sheets:
            room = "one sheet" if sheets == 1 else f"{sheets} sheets"
            raise BuildError(f"{where}: the player aid runs to {pages} pages ({lang}, {paper}); "
                             f"it must fit {room}, both sides: shorten it")
        artifacts.append(Artifact(base / "aid.pdf", data))
    return artifacts


def _relative(job: RenderJob, artifacts: list[Artifact]) -> tuple[Artifact, ...]:
    base = Path(job.loaded_game.slug) / job.lang
    return tuple(Artifact(artifact.path.relative_to(base), artifact.data) for artifact in artifacts)


def _render_sheets(job: RenderJob) -> Rendered:
    return Rendered(_relative(job, render_game(job.workspace, job.loaded_game, job.lang, job.paper,
                                               kinds=["components"], sheet=job.sheet)))


def _render_faces(job: RenderJob) -> Rendered:
    return Rendered(_relative(job, render_game(job.workspace, job.loaded_game, job.lang, job.paper, kinds=["png"])))


def _shared_sources(job: RenderJob, kind: str) -> tuple[BookSources, frozenset[str]]:
    """The game's book sources and the card fields making them read, made once a game in a
    build (the same for both scripts): each book's Markdown from a copy of the game that notes
    the fields read, then the tool words of the two. Only the book being rendered fails the
    render when its Markdown does (see :func:`_book_sources`)."""
    game = job.loaded_game
    markdown: dict[str, str | None] = {}
    read: set[str] = set()
    for book in ("rulebook", "aid"):
        key = ("markdown", game.slug, book)
        made = job.memo.get(key)
        if made is None:
            noted, seen = noting_game(game)
            try:
                made = job.memo[key] = (_book_markdown(job.workspace, noted, book), frozenset(seen))
            except DataError:
                if book == kind:
                    raise
                made = (None, frozenset(seen))
        assert isinstance(made, tuple)
        markdown[book], fields = made
        read |= fields
    made_key = ("book-sources", game.slug, tuple(book for book, text in markdown.items() if text is not None))
    sources = job.memo.get(made_key)
    if sources is None:
        sources = job.memo[made_key] = _book_sources(job.workspace, game, (kind,), markdown)
    assert isinstance(sources, BookSources)
    return sources, frozenset(read)


def _render_book(kind: str) -> Render:
    """A book's render: from a copy of the game that notes the card fields read, so the record
    can tell later whether a card edit reaches the book. Each book is refused for the tool
    words of both, so each reads the fields of both books' Markdown."""

    def render(job: RenderJob) -> Rendered:
        game = job.loaded_game
        slug = game.slug
        sources, sources_read = _shared_sources(job, kind)
        noted, seen = noting_game(game)
        artifacts = render_game(job.workspace, noted, job.lang, job.paper, kinds=[kind], sources=sources)
        read = frozenset(seen | sources_read)
        view = job.memo.get(("view", slug, read))
        if view is None:
            view = job.memo[("view", slug, read)] = rulebook_view(game, read)
        return Rendered(_relative(job, artifacts), tuple(sorted(read)), view)

    return render


COMPONENTS = OutputKind("components", "components.pdf", _render_sheets, options=SHEET_OPTIONS, title="Sheets")
RULEBOOK = OutputKind("rulebook", "rulebook.pdf", _render_book("rulebook"), data=BOOK_DATA, templates="*",
                      options=("paper",), needs=(RULEBOOK_TEMPLATE,), title="Rulebook")
# The aid reads the game as the rulebook does and is typeset like it, but from its own template.
AID = OutputKind("aid", "aid.pdf", _render_book("aid"), data=BOOK_DATA, templates=AID_TEMPLATE,
                 options=("paper",), needs=(AID_TEMPLATE,), title="Player aid")
# Faces do not depend on the paper or on how sheets are imposed.
PNG = OutputKind("png", "png/*.png", _render_faces, on_request=True)

BUILD_KINDS = (COMPONENTS, RULEBOOK, AID, PNG)
