"""What one published version of ``pnp serve``'s preview shows: the games, each script's faces
and documents, the check and the sample game, and what the preview is doing. Frozen records the
refresh (preview.py) publishes and the page (page.py) renders."""

from __future__ import annotations

from pnp.core.records import record


@record
class Face:
    path: str  # relative to the preview's build root
    label: str
    stamp: str  # a digest of the file: a new face is a new URL


@record
class FaceGroup:
    title: str
    faces: tuple[Face, ...]


@record
class Document:
    title: str
    path: str  # the PDF, relative to the build root
    stamp: str
    pages: tuple[str, ...]  # keys of the page images (Preview.page)
    pending: bool = False  # being built again after a save: no page is shown


@record
class Script:
    lang: str
    groups: tuple[FaceGroup, ...]
    documents: tuple[Document, ...]
    pending: bool = False  # its faces are being built again after a save: none is shown


@record
class Checked:
    ok: bool
    text: str


@record
class GameView:
    slug: str
    title: str
    title_lang: str  # the game's source script, the title's
    scripts: tuple[Script, ...]
    check: Checked | None = None
    samples: tuple[tuple[str, str], ...] = ()  # (lang, HTML of the narration)
    sample_note: str = ""  # why there is no sample game


@record
class State:
    """One published state of the preview; a new ``version`` whenever what is shown changes."""

    version: int = 0
    # What the preview is doing now: "starting", "rebuilding", "finishing" (the first outputs
    # of a save are shown, the others are being built), "checking"; "" when it waits for a save.
    activity: str = "starting"
    games: tuple[GameView, ...] = ()
    errors: tuple[str, ...] = ()
    changed: tuple[str, ...] = ()
    seconds: float = 0.0
    finished: str = ""  # UTC time of the last finished refresh
