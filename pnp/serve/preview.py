"""What ``pnp serve`` shows, refreshed after each save.

A refresh builds the served games incrementally (with PNG faces) into a private output root,
``output/.serve/``, so it never touches the outputs of ``pnp build``; rasterises the pages of
every PDF built there (sheets, rulebook, player aid) to small images kept in memory; then runs
``pnp check`` and plays a sample game for each game the save can have changed. The games'
balance runs (pnp.serve.balance) wait while it does, and those a save of the rules made stale
start again once it is done.

A save is shown as soon as what it changed first is built, since the designer waits for it:
the edited games' sheets in their source script are built first and shown (a version of its
own, activity "finishing", the outputs not built yet shown as being rebuilt, never as they
were), then their faces, then their books in that script, then everything else. Each step is
a build of its own outputs, recorded as any build's, so every version shows what a cold build
of the saved workspace makes, for the parts it shows. (If the rest then fails, the error is
shown above the files as they are: the first outputs of this save, the others of the last
good build.)

A save costs what it changed: only the games it can have changed are looked at again, and a
game whose files did not change is not read again (:class:`pnp.data.gameset.KeptGames`); a face
whose drawing is as before keeps its PNG (:class:`pnp.render.png.FaceRasters`); a PDF whose
bytes changed has its pages drawn again, but a page whose pixels are as before keeps its image
and its address, so the browser fetches only the pages that changed.

A step that fails keeps what it showed last (the build writes all or nothing, so the files of
the last good build stay) and its error is shown above it until a later save fixes it.
"""

from __future__ import annotations

import dataclasses
import datetime
import hashlib
import io
import logging
import threading
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pnp.core.errors import PnpError
from pnp.core.records import record
from pnp.core.workspace import Workspace
from pnp.data.gameset import KeptGames
from pnp.games.registry import tables_from_engine
from pnp.serve.balance import GAMES, BalanceLab
from pnp.serve.markdown import markdown_html
from pnp.serve.views import Checked, Document, Face, FaceGroup, GameView, Script, State

if TYPE_CHECKING:
    from PIL import Image

    from pnp.data.model import Game
    from pnp.render.png import FaceRasters

log = logging.getLogger(__name__)

FOLDER = ".serve"  # under the workspace's output/
SHEET_DPI = 36  # a thumbnail of a whole sheet
PAGE_DPI = 54  # a rulebook page, readable when clicked


def _documents_of_kinds() -> dict[str, str]:
    """The documents of one game and script, file name to title, in the order shown: the build's
    output kinds that are one titled file. Any other PDF follows by name."""
    from pnp.build.kinds import BUILD_KINDS

    return {kind.files: kind.title for kind in BUILD_KINDS if kind.single_file and kind.title}


@record
class PageImage:
    """One rasterised page: its key (Preview.page; named by its pixels, so an unchanged page
    keeps its address), a digest of its pixels and its PNG."""

    key: str
    pixels: str
    png: bytes


@record
class PageImages:
    """A PDF's pages as images, and the digest of the PDF they were drawn from."""

    stamp: str
    pages: tuple[PageImage, ...]


@dataclass
class _Memory:
    """What a refresh keeps for the next one."""

    views: dict[str, GameView] = field(default_factory=dict)
    checks: dict[str, Checked] = field(default_factory=dict)
    samples: dict[str, tuple[tuple[str, str], ...]] = field(default_factory=dict)
    sample_notes: dict[str, str] = field(default_factory=dict)
    errors: dict[tuple[str, str], str] = field(default_factory=dict)  # (step, slug) -> text
    pending: set[str] = field(default_factory=set)  # games whose check and sample are owed
    documents: dict[tuple[str, str, str], PageImages] = field(default_factory=dict)  # by (slug, lang, PDF name)


def _digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()[:16]


class Preview:
    """The served games' preview; ``refresh`` runs in one thread, readers in any."""

    def __init__(self, workspace: Workspace, game: str = "all", lang: str = "all", paper: str = "a4",
                 folder: Path | None = None, balance_games: int = GAMES,
                 published: Callable[[State], None] | None = None) -> None:
        """``published`` is called (in the refreshing thread) with each state as it is
        published, before the refresh goes on."""
        from pnp.build.pipeline import resolve_games, resolve_langs

        resolve_games(workspace, game)  # an unknown game is an error now, not on the page
        self.workspace = workspace
        self.game = game
        self.langs = resolve_langs(lang)
        self.lang = lang
        self.paper = paper
        self.root = folder if folder is not None else workspace.output_folder() / FOLDER
        from pnp.render.png import FaceRasters  # reportlab loads when the preview builds

        self._memory = _Memory()
        self._published = published
        self.rasters: FaceRasters = FaceRasters()  # its counts say what the last build drew
        self.games = KeptGames(tables_from_engine)
        self.pages_drawn = 0  # page images encoded by the last refresh: what a save cost
        self._pages: dict[str, bytes] = {}
        self._state = State()
        self._lock = threading.Lock()
        self._changed = threading.Condition(self._lock)
        self.balance = BalanceLab(workspace, self._slugs, balance_games)

    # ----------------------------------------------------------------------------------------
    # Reading (HTTP threads)

    @property
    def state(self) -> State:
        return self._state

    def page(self, key: str) -> bytes | None:
        return self._pages.get(key)

    def file(self, relative: str) -> Path | None:
        """A file of the build root named by a URL path, or None: nothing outside the root, no
        hidden file (the build record), no symlink out."""
        if not relative or "\x00" in relative or "\\" in relative:
            return None
        parts = relative.split("/")
        if any(part in ("", ".", "..") or part.startswith(".") for part in parts):
            return None
        root = self.root.resolve()
        target = (root / Path(*parts)).resolve()
        if not target.is_relative_to(root) or not target.is_file():
            return None
        return target

    def wait(self, version: int, timeout: float) -> State:
        """The state once its version differs from ``version`` (or after ``timeout`` s)."""
        with self._changed:
            self._changed.wait_for(lambda: self._state.version != version, timeout=timeout)
            return self._state

    def _publish(self, **changes: Any) -> None:
        with self._changed:
            self._state = dataclasses.replace(self._state, version=self._state.version + 1, **changes)
            self._changed.notify_all()
        if self._published is not None:
            self._published(self._state)

    # ----------------------------------------------------------------------------------------
    # Refreshing (one thread)

    def refresh(self, changed: Sequence[str] = ()) -> State:
        """Rebuild after ``changed`` (workspace-relative paths; empty: the first build) and
        publish the new state. A broken save never raises: its error is in the state."""
        from pnp.serve.watch import affected_games

        started = datetime.datetime.now(datetime.UTC)
        memory = self._memory
        slugs = self._slugs()
        memory.pending |= set(affected_games(changed, slugs) if changed else slugs)
        self._publish(activity="rebuilding", changed=tuple(changed))
        self.balance.hold(changed)
        try:
            built = self._build(slugs)
            if built:
                self._publish(**self._shown(slugs), activity="checking")
                for slug in sorted(memory.pending & set(slugs)):
                    self._check(slug)
                    self._sample(slug)
                memory.pending.clear()
        except Exception as exc:  # a bug must not stop the preview: show it, keep serving
            log.exception("the preview could not be refreshed")
            memory.errors[("internal", "")] = f"internal error (the terminal has the details): {exc!r}"
        finally:
            self.balance.release()
        seconds = (datetime.datetime.now(datetime.UTC) - started).total_seconds()
        self._publish(**self._shown(slugs), activity="", seconds=seconds,
                      finished=datetime.datetime.now(datetime.UTC).strftime("%H:%M:%S UTC"))
        memory.errors.pop(("internal", ""), None)
        return self._state

    def _slugs(self) -> list[str]:
        from pnp.build.pipeline import resolve_games

        try:
            return resolve_games(self.workspace, self.game)
        except PnpError:  # the served game's folder is gone for now: the build says so
            return [self.game] if self.game != "all" else []

    def _build(self, slugs: list[str]) -> bool:
        from pnp.build.pipeline import build
        from pnp.render.png import reusing

        memory = self._memory
        errors = memory.errors
        # The outputs of a game the saves since the last good build cannot have changed are
        # as they were: its view stands.
        looked_at = [slug for slug in slugs if slug in memory.pending or slug not in memory.views]
        self.pages_drawn = 0
        with reusing(self.rasters):
            shown_early = self._first_steps(slugs, looked_at)
            try:
                build(self.workspace, self.game, self.lang, self.paper, out=self.root, png=True, kept=self.games)
                games = self.games.load(self.workspace, looked_at)
            except PnpError as exc:
                errors[("build", "")] = exc.as_printed()
                # The build reads what check and sample read: their older errors about these
                # games are out of date, and they run again once the build is good.
                for step, slug in list(errors):
                    if step in ("check", "sample") and slug in self._memory.pending:
                        del errors[(step, slug)]
                if shown_early:  # nothing is being built any more: show the files as they are
                    self._view(slugs, shown_early, None)
                return False
        errors.pop(("build", ""), None)
        self._view(slugs, games, None)
        return True

    def _first_steps(self, slugs: list[str], looked_at: list[str]) -> list[Game]:
        """Build and show what the designer looks at first, before the rest: the edited games'
        sheets in their source script, then their faces, then their books in it; the games
        whose views show only these (none when no step showed anything). A step that fails is
        left to the whole build, which says everything that is wrong at once."""
        from pnp.build.kinds import BUILD_KINDS, COMPONENTS, PNG
        from pnp.build.outputs import Output
        from pnp.build.pipeline import check_out, make
        from pnp.core.choices import canonical_paper

        paper = canonical_paper(self.paper)
        if paper is None or not looked_at:
            return []  # the whole build says what is wrong with the paper
        try:
            games = self.games.load(self.workspace, looked_at)
            root = check_out(self.workspace, self.root)
        except PnpError:
            return []
        firsts = {game.slug: game.info.source_lang if game.info.source_lang in self.langs else self.langs[0]
                  for game in games}
        # The sheets first: one PDF, drawn small; a layout edit redraws every face of its cards,
        # and their 300 dpi PNGs take longer.
        sheets = [Output(slug, lang, COMPONENTS) for slug, lang in firsts.items()]
        faces = [Output(slug, lang, PNG) for slug, lang in firsts.items()]
        books = [Output(slug, lang, kind) for slug, lang in firsts.items()
                 for kind in BUILD_KINDS if kind not in (PNG, COMPONENTS)]
        done: set[tuple[str, str, str]] = set()
        # A version of its own only for a step that shows something new: an output built again
        # with the bytes it had (a template edit that changes no page) is no news.
        shown = _files_shown(self._memory.views.values())
        partial = False
        for step in (sheets, faces, books):
            try:
                report = make(self.workspace, root, step, paper, kept=self.games)
            except PnpError:
                break
            done |= {(output.slug, output.lang, output.kind.name) for output in step}
            if any(outcome.status == "rebuilt" for outcome in report.outcomes):
                self._view(slugs, games, done)
                partial = True
                now = _files_shown(self._memory.views[slug] for slug in firsts)
                if now - shown:
                    shown |= now
                    self._publish(**self._shown(slugs), activity="finishing")
        return games if partial else []

    def _view(self, slugs: list[str], games: list[Game], done: set[tuple[str, str, str]] | None) -> None:
        """The views of ``games`` from the files built: all of them (``done`` None), or only
        the outputs in ``done`` (slug, script, kind), the others shown as being rebuilt."""
        memory = self._memory
        looked_at = {game.slug for game in games}
        documents = {key: images for key, images in memory.documents.items()
                     if key[0] in slugs and (key[0] not in looked_at or done is not None)}
        for game in games:
            scripts = []
            for lang in self.langs:
                folder = self.root / game.slug / lang
                faces_done = done is None or (game.slug, lang, "png") in done
                scripts.append(Script(lang, _face_groups(game, folder, lang) if faces_done else (),
                                      self._documents(game.slug, lang, folder, documents, done),
                                      pending=not faces_done))
            memory.views[game.slug] = GameView(game.slug, game.info.name.value, game.info.source_lang,
                                               tuple(scripts))
        memory.documents = documents  # a PDF no longer built takes its pages with it

    def _shown(self, slugs: list[str]) -> dict[str, Any]:
        memory = self._memory
        games = tuple(dataclasses.replace(memory.views[slug], check=memory.checks.get(slug),
                                          samples=memory.samples.get(slug, ()),
                                          sample_note=memory.sample_notes.get(slug, ""))
                      for slug in slugs if slug in memory.views)
        self._pages = {page.key: page.png for (slug, lang, _), images in memory.documents.items()
                       if slug in slugs and lang in self.langs for page in images.pages}
        return {"games": games, "errors": tuple(memory.errors.values())}

    def _documents(self, slug: str, lang: str, folder: Path, fresh: dict[tuple[str, str, str], PageImages],
                   done: set[tuple[str, str, str]] | None = None) -> tuple[Document, ...]:
        """The PDFs of one game and script; pages are rasterised again only when a PDF changed,
        and encoded again only when their pixels did. With ``done``, a PDF whose output is not
        in it is shown as being rebuilt."""
        from pnp.build.kinds import BUILD_KINDS, COMPONENTS

        titles = _documents_of_kinds()
        kinds = {kind.files: kind.name for kind in BUILD_KINDS if kind.single_file}
        order = list(titles)
        pdfs = sorted(folder.glob("*.pdf"),
                      key=lambda p: (order.index(p.name) if p.name in order else len(order), p.name))
        documents = []
        for pdf in pdfs:
            if done is not None and (slug, lang, kinds.get(pdf.name, "")) not in done:
                documents.append(Document(titles.get(pdf.name, pdf.stem), f"{slug}/{lang}/{pdf.name}", "", (),
                                          pending=True))
                continue
            data = pdf.read_bytes()
            stamp = _digest(data)
            key = (slug, lang, pdf.name)
            cached = self._memory.documents.get(key)
            if cached is None or cached.stamp != stamp:
                dpi = SHEET_DPI if pdf.name == COMPONENTS.files else PAGE_DPI
                cached = self._page_images(f"{slug}/{lang}/{pdf.stem}", data, stamp, dpi, cached)
            fresh[key] = cached
            documents.append(Document(titles.get(pdf.name, pdf.stem), f"{slug}/{lang}/{pdf.name}", stamp,
                                      tuple(page.key for page in cached.pages)))
        return tuple(documents)

    def _page_images(self, name: str, pdf: bytes, stamp: str, dpi: int, before: PageImages | None) -> PageImages:
        """The pages of ``pdf`` drawn at ``dpi``; a page with the pixels of one of ``before``
        takes its image (PDFium draws a page in a few milliseconds, PNG encoding takes longer)."""
        from pnp.render.raster import pdf_pages  # PDFium loads only when the preview shows pages

        known = {page.pixels: page for page in before.pages} if before is not None else {}
        pages = []
        drawn = 0
        for image in pdf_pages(pdf, dpi):
            pixels = hashlib.sha256(f"{image.size}".encode() + image.tobytes()).hexdigest()[:16]
            page = known.get(pixels)
            if page is None:
                page = known[pixels] = PageImage(f"{name}-{pixels}.png", pixels, _preview_png(image))
                drawn += 1
            pages.append(page)
        log.info("preview of %s.pdf: %d of %d pages drawn again", name, drawn, len(pages))
        self.pages_drawn += drawn
        return PageImages(stamp, tuple(pages))

    def _check(self, slug: str) -> None:
        from pnp.check.proof import check

        try:
            report = check(self.workspace, slug, self.games)
        except PnpError as exc:
            self._memory.errors[("check", slug)] = f"pnp check {slug}: {exc.as_printed()}"
            return
        self._memory.errors.pop(("check", slug), None)
        self._memory.checks[slug] = Checked(report.ok, report.text())

    def _sample(self, slug: str) -> None:
        from pnp.play import narrate

        memory = self._memory
        try:
            narrate.plugin(slug)
        except PnpError as exc:  # a game without a rules engine (a new one) has no sample games
            memory.sample_notes[slug] = exc.format_message()
            return
        try:
            # The game the build read, kept while its files are as they were: not read again.
            (game,) = self.games.load(self.workspace, [slug])
            played = narrate.play_sample(self.workspace, slug, game=game)
            samples = tuple((lang, markdown_html(narrate.narration(self.workspace, played, lang)))
                            for lang in self.langs)
        except PnpError as exc:
            memory.errors[("sample", slug)] = f"pnp sample {slug}: {exc.as_printed()}"
            return
        memory.errors.pop(("sample", slug), None)
        memory.sample_notes.pop(slug, None)
        memory.samples[slug] = samples


def _files_shown(views: Iterable[GameView]) -> set[tuple[str, str]]:
    """The faces and PDFs the views show, each with its stamp."""
    views = list(views)
    return {(face.path, face.stamp) for view in views for script in view.scripts for group in script.groups
            for face in group.faces} | \
        {(document.path, document.stamp) for view in views for script in view.scripts
         for document in script.documents if not document.pending}


def _preview_png(image: Image.Image) -> bytes:
    """A page image for the browser only: quick to encode (zlib's fastest level; the preview
    is never printed, so no colour profile)."""
    out = io.BytesIO()
    image.save(out, format="PNG", compress_level=1)
    return out.getvalue()


def _face_groups(game: Game, folder: Path, lang: str) -> tuple[FaceGroup, ...]:
    """The PNG faces the build wrote, grouped by component in the data's order, each card's
    front before its back, a face the whole deck shares (its back) last."""
    from pnp.build.kinds import PNG
    from pnp.build.pipeline import converter_for

    convert = converter_for(game, lang)
    files = sorted(folder.glob(PNG.files))
    # The longest id first: a component "deck" must not take "deck-extra"'s files.
    components = sorted(game.components, key=lambda c: len(c.id), reverse=True)
    grouped: dict[str, list[tuple[tuple[int, int], Face]]] = {}
    for file in files:
        owner = next((c for c in components if file.stem.startswith(c.id + "-")), None)
        rest = file.stem[len(owner.id) + 1:] if owner else file.stem
        card, _, side = rest.rpartition("-")
        cards = [c.id for c in owner.cards] if owner else []
        index = cards.index(card) if card in cards else len(cards)
        if not card:
            label = f"{side} (every card)"
        else:
            label = f"{card} (back)" if side == "back" else card
        data = file.read_bytes()
        face = Face((file.relative_to(folder.parent.parent)).as_posix(), label, _digest(data))
        grouped.setdefault(owner.id if owner else "", []).append(((index, side == "back"), face))
    groups = []
    for component in game.components:
        if component.id in grouped:
            faces = tuple(face for _, face in sorted(grouped.pop(component.id), key=lambda item: item[0]))
            groups.append(FaceGroup(f"{convert(component.name.value)} ({component.id})", faces))
    for leftover in grouped.values():
        groups.append(FaceGroup("other faces", tuple(face for _, face in leftover)))
    return tuple(groups)
