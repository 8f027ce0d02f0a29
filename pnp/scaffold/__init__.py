"""``pnp new SLUG``: a small game that builds and checks at once, to start a design from, and
the workspace to hold it when there is none yet.

The scaffold is data only (``files/<source script>/``, installed with pnp) — a deck, a token, a
score pad, a printed table of the set-up by player count (tables.yaml, printed in the rulebook)
and a rulebook template — so ``pnp build`` and ``pnp check`` succeed before any Python is
written. Without a rules engine ``pnp check`` cannot prove the printed table: it says so in a
note, and checks everything else.

With ``engine=True`` the game is the engine-kit tutorial's 密函 instead (``files/kit/``): its
data, and a Python distribution in ``engines/<slug>/`` holding its rules engine and the
``pnp.games`` entry point that registers it. The game folder is data and pnp never imports
code from a workspace: the engine plays once the designer installs that folder (``pip install
-e``), and then ``pnp check`` passes as it stands.

Each folder is made beside its final place and renamed in, and what a failed run made is
removed again, so a failure leaves nothing behind.
"""

from __future__ import annotations

import datetime
import os
import re
import shutil
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

from pnp.core.choices import LANGS
from pnp.core.errors import PnpError
from pnp.core.records import record
from pnp.core.workspace import Workspace

SLUG = re.compile(r"^[a-z][a-z0-9_]{0,39}$")
RESERVED = frozenset({"all"})  # `pnp build all` means every game
FILES = Path(__file__).resolve().parent / "files"
KIT_FILES = FILES / "kit"
GAME_FILES = ("game.yaml", "components.yaml", "tables.yaml")
TEMPLATE_FILES = ("rulebook.md.j2",)
ENGINES = "engines"  # the workspace folder `pnp new --engine` writes engine distributions into
CONFIG_FILE = "pnp.toml"
GITIGNORE = ".gitignore"
GITIGNORE_HEADER = "# What pnp builds (made again by `pnp build`; never edit it by hand)\n"


@dataclass
class _Made:
    """What this run created so far, removed again if a later step fails."""

    folders: list[Path] = field(default_factory=list)
    files: list[Path] = field(default_factory=list)
    restore: dict[Path, str] = field(default_factory=dict)  # a file this run changed -> its old text

    def undo(self) -> None:
        for path, text in self.restore.items():
            path.write_text(text, encoding="utf-8")
        for path in reversed(self.files):
            path.unlink(missing_ok=True)
        for folder in reversed(self.folders):
            shutil.rmtree(folder, ignore_errors=True)


@record
class Started:
    """What ``pnp new`` did: the game's files, and the workspace files it made or changed."""

    workspace: Workspace
    created_workspace: bool  # card_data/ was made here: there was no workspace
    written: tuple[Path, ...]  # the game's files
    workspace_files: tuple[Path, ...]  # folders and files made or changed outside the game


def engine_folder(workspace: Workspace, slug: str) -> Path:
    """Where ``pnp new --engine`` writes the game's engine distribution."""
    return workspace.root / ENGINES / slug


def engine_module(slug: str) -> str:
    """The engine's module name: prefixed, so that a slug such as ``random`` cannot shadow a
    module of Python's own."""
    return f"pnp_{slug}"


def check_slug(workspace: Workspace, slug: str, engine: bool = False) -> None:
    if slug in RESERVED:
        raise PnpError(f"{slug!r} is not a usable game name: commands read it as every game "
                       "(`pnp build all`); choose another (e.g. my_game)")
    if not SLUG.fullmatch(slug):
        raise PnpError(f"{slug!r} is not a usable game name: use 1–40 lower-case letters, digits and _, "
                       "starting with a letter (e.g. my_game)")
    folders = [workspace.card_data / slug, workspace.templates / slug]
    if engine:
        folders.append(engine_folder(workspace, slug))
    for folder in folders:
        if folder.exists() or folder.is_symlink():
            raise PnpError(f"{folder}: already exists; pnp new never overwrites a game (pick another name)")


def _check_links(workspace: Workspace, engine: bool = False) -> None:
    """Refuse a card_data/, templates/, .gitignore (or, writing an engine, engines/) that is a
    link out of the workspace: pnp new would write through it into another folder."""
    paths = [(workspace.card_data, "card_data/"), (workspace.templates, "templates/"),
             (workspace.root / GITIGNORE, GITIGNORE)]
    if engine:
        paths.append((workspace.root / ENGINES, f"{ENGINES}/"))
    for path, what in paths:
        if path.is_symlink():
            workspace.contained(path, f"the workspace's {what} (a link)")


def _check_source_lang(source_lang: str) -> None:
    if source_lang not in LANGS:
        raise PnpError(f"source script {source_lang!r}: expected one of {', '.join(LANGS)}")


def _scaffold_text(source: Path, slug: str, date: str) -> str:
    text = source.read_text(encoding="utf-8")
    return text.replace("__SLUG__", slug).replace("__DATE__", date)


def _plan(workspace: Workspace, slug: str, source_lang: str, engine: bool) -> dict[Path, dict[str, Path]]:
    """Each folder to write, with each file's name there and the scaffold file it is made from."""
    data = (KIT_FILES if engine else FILES) / source_lang
    plan = {workspace.card_data / slug: {name: data / name for name in GAME_FILES},
            workspace.templates / slug: {name: data / name for name in TEMPLATE_FILES}}
    if engine:
        code = KIT_FILES / "engine"
        plan[engine_folder(workspace, slug)] = {
            "pyproject.toml": code / "pyproject.toml", f"{engine_module(slug)}.py": code / "game.py",
            GITIGNORE: code / "gitignore"}  # stored without its dot: package data skips dot files
    return plan


def scaffold(workspace: Workspace, slug: str, today: datetime.date | None = None,
             source_lang: str = "zh-Hant", engine: bool = False) -> list[Path]:
    """Write card_data/<slug>/ and templates/<slug>/ with the game's text in ``source_lang``
    (and engines/<slug>/ with ``engine``); return the files written."""
    check_slug(workspace, slug, engine)
    _check_source_lang(source_lang)
    _check_links(workspace, engine)
    made = _Made()
    try:
        return _write_game(workspace, slug, source_lang, today, made, engine)
    except OSError as exc:
        made.undo()
        raise PnpError(f"cannot create the game {slug!r}: {exc.strerror or exc}") from None


def _write_game(workspace: Workspace, slug: str, source_lang: str, today: datetime.date | None,
                made: _Made, engine: bool = False) -> list[Path]:
    date = (today or datetime.date.today()).isoformat()
    plan = _plan(workspace, slug, source_lang, engine)
    staged: list[tuple[Path, Path]] = []
    written: list[Path] = []
    mask = os.umask(0)
    os.umask(mask)
    try:
        for target, names in plan.items():
            if not target.parent.is_dir():
                target.parent.mkdir(parents=True)
                made.folders.append(target.parent)
            stage = Path(tempfile.mkdtemp(prefix=f".{slug}.new-", dir=target.parent))
            os.chmod(stage, 0o777 & ~mask)
            staged.append((stage, target))
            for name, source in names.items():
                (stage / name).write_text(_scaffold_text(source, slug, date), encoding="utf-8")
                written.append(target / name)
        for stage, target in staged:
            os.rename(stage, target)
            made.folders.append(target)
    finally:
        for stage, _ in staged:
            shutil.rmtree(stage, ignore_errors=True)  # gone already where it was renamed
    return written


def _check_new_workspace(root: Path) -> None:
    """Refuse a folder a workspace cannot be started in, before anything is written."""
    if not root.is_dir():
        raise PnpError(f"{root}: no such folder; create it first (pnp new starts a workspace in an "
                       "existing folder)")
    for name in ("card_data", "templates"):
        path = root / name
        if path.is_symlink() and not path.exists():
            raise PnpError(f"{path}: a broken link; pnp keeps games in a {name}/ folder: remove it first")
        if path.exists() and not path.is_dir():
            raise PnpError(f"{path}: a file, not a folder; pnp keeps games in a {name}/ folder: "
                           "rename or remove the file first")
    config = root / CONFIG_FILE
    if (config.exists() or config.is_symlink()) and not config.is_file():
        raise PnpError(f"{config}: not a file; pnp reads its settings from a {CONFIG_FILE} file there")


def _ignore_lines(root: Path, out_folders: list[Path]) -> list[str]:
    lines = []
    for folder in out_folders:
        resolved = folder.resolve()
        if resolved.is_relative_to(root.resolve()) and resolved != root.resolve():
            lines.append("/" + resolved.relative_to(root.resolve()).as_posix() + "/")
    return lines


def _ignore_outputs(root: Path, out_folders: list[Path], made: _Made) -> Path | None:
    """Add each output folder to the workspace's .gitignore (made if missing); the file, if it
    changed."""
    path = root / GITIGNORE
    old = path.read_text(encoding="utf-8") if path.is_file() else None
    if path.exists() and old is None:
        raise PnpError(f"{path}: not a file; pnp adds its output folders to a {GITIGNORE} file there")
    present = {line.strip() for line in (old or "").splitlines()}
    missing = [line for line in _ignore_lines(root, out_folders)
               if line not in present and line.rstrip("/") not in present and line.lstrip("/") not in present]
    if not missing:
        return None
    text = (old if old is not None else "") or ""
    if text and not text.endswith("\n"):
        text += "\n"
    text += ("" if old else GITIGNORE_HEADER) + "".join(line + "\n" for line in missing)
    if old is None:
        made.files.append(path)
    else:
        made.restore[path] = old
    path.write_text(text, encoding="utf-8")
    return path


def start(root: Path, slug: str, source_lang: str = "zh-Hant", out_folders: list[Path] | None = None,
          today: datetime.date | None = None, engine: bool = False) -> Started:
    """``pnp new``: add the game to the workspace at ``root`` or, when ``root`` holds none,
    start one there first (card_data/, templates/, pnp.toml, .gitignore). ``out_folders`` are
    where this workspace's outputs go (output/, pnp.toml's ``out``): each is git-ignored. With
    ``engine``, the game is the engine kit's starter and its engine (module docstring)."""
    workspace = Workspace(root)
    created = not workspace.card_data.is_dir()
    if created:
        _check_new_workspace(root)
    check_slug(workspace, slug, engine)
    _check_source_lang(source_lang)
    _check_links(workspace, engine)
    made = _Made()
    changed: list[Path] = []
    try:
        if created:
            for folder in (workspace.card_data, workspace.templates):
                if not folder.is_dir():
                    folder.mkdir()
                    made.folders.append(folder)
                    changed.append(folder)
            config = root / CONFIG_FILE
            if not config.exists():
                config.write_text((FILES / "workspace" / CONFIG_FILE).read_text(encoding="utf-8"),
                                  encoding="utf-8")
                made.files.append(config)
                changed.append(config)
        written = _write_game(workspace, slug, source_lang, today, made, engine)
        ignored = _ignore_outputs(root, out_folders or [workspace.output], made)
    except OSError as exc:
        made.undo()
        what = f"a workspace in {root}" if created else f"the game {slug!r}"
        raise PnpError(f"cannot create {what}: {exc.strerror or exc}") from None
    except PnpError:
        made.undo()
        raise
    return Started(workspace, created, tuple(written), tuple(changed + ([ignored] if ignored else [])))
