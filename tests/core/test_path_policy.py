"""The path policy as a property (issue 23): whatever links, ``..``, absolute paths, devices and
FIFOs a game folder (or an --out) holds, pnp reads and writes only regular files inside the
workspace, refuses the rest by name, never hangs, and never shows what lies outside.

Two levels: the one reader and the one write check (pnp.core.files, Workspace.out_file /
out_folder) over many drawn trees, in process; then every command that reads or writes, in a
subprocess with a time limit, over drawn placements of a hostile path in a real workspace."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pnp.core import files
from pnp.core.errors import DataError, PnpError
from pnp.core.workspace import Workspace

ROOT = Path(__file__).resolve().parents[2]
SECRET = "SECRET-0f3c9a-must-never-be-shown"
TIME_LIMIT_S = 60


# -- the one reader, in process ------------------------------------------------------------

# What a name in the drawn tree can be: a file or folder of its own, or a link to somewhere.
TARGETS = ("file", "folder", "fifo", "link-in-file", "link-in-folder", "link-out-file",
           "link-out-folder", "link-out-dotdot", "link-dev-zero", "link-dev-null", "link-loop",
           "link-dangling", "link-in-then-out")
NAMES = st.sampled_from(["a.yaml", "b.csv", "c", "d.md.j2"])
TREE = st.dictionaries(st.sampled_from(["card_data/g", "card_data/g/sub", "templates/g", "output"]).flatmap(
    lambda folder: NAMES.map(lambda name: f"{folder}/{name}")), st.sampled_from(TARGETS), min_size=1, max_size=6)
# How a command or a data field may name a file of the tree: as it is, through `..`, absolutely.
SPELLINGS = st.sampled_from(["plain", "dotdot-inside", "dotdot-out", "absolute"])


@contextmanager
def _sandbox() -> Iterator[tuple[Path, Path]]:
    top = Path(tempfile.mkdtemp(prefix="pnp-paths-"))
    try:
        ws, outside = top / "ws", top / "outside"
        (ws / "card_data").mkdir(parents=True)
        outside.mkdir()
        (outside / "secret.txt").write_text(SECRET, encoding="utf-8")
        (outside / "folder").mkdir()
        (outside / "folder" / "secret.txt").write_text(SECRET, encoding="utf-8")
        (ws / "inside.txt").write_text("inside\n", encoding="utf-8")
        (ws / "inside-folder").mkdir()
        (ws / "hop").symlink_to(outside / "secret.txt")
        yield ws, outside
    finally:
        shutil.rmtree(top)


def _place(ws: Path, outside: Path, rel: str, target: str) -> None:
    path = ws / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    if os.path.lexists(path):
        return  # a folder the tree already made for a deeper name
    depth = len(Path(rel).parts)  # `..` steps from path's folder up to the workspace's parent
    make = {
        "file": lambda: path.write_text("inside: ok\n", encoding="utf-8"),
        "folder": lambda: path.mkdir(),
        "fifo": lambda: os.mkfifo(path),
        "link-in-file": lambda: path.symlink_to(ws / "inside.txt"),
        "link-in-folder": lambda: path.symlink_to(ws / "inside-folder"),
        "link-out-file": lambda: path.symlink_to(outside / "secret.txt"),
        "link-out-folder": lambda: path.symlink_to(outside / "folder"),
        "link-out-dotdot": lambda: path.symlink_to(Path(*[".."] * depth) / "outside" / "secret.txt"),
        "link-dev-zero": lambda: path.symlink_to("/dev/zero"),
        "link-dev-null": lambda: path.symlink_to("/dev/null"),
        "link-loop": lambda: path.symlink_to(path),
        "link-dangling": lambda: path.symlink_to(ws / "nothing-here"),
        "link-in-then-out": lambda: path.symlink_to(ws / "hop"),
    }
    make[target]()


def _spell(ws: Path, rel: str, spelling: str) -> Path:
    parts = Path(rel).parts
    if spelling == "dotdot-inside":  # card_data/g/../g/a.yaml
        return ws.joinpath(*parts[:-1], "..", *parts[-2:])
    if spelling == "dotdot-out":  # card_data/g/../../../outside/secret.txt
        return ws.joinpath(*parts[:-1], *[".."] * len(parts), "outside", "secret.txt")
    return ws / rel if spelling == "absolute" else Path(os.path.relpath(ws / rel))


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(tree=TREE, pick=st.integers(min_value=0, max_value=5), spelling=SPELLINGS)
def test_the_one_reader_reads_only_regular_files_inside(tree: dict[str, str], pick: int, spelling: str) -> None:
    with _sandbox() as (ws, outside):
        for rel, target in sorted(tree.items()):
            _place(ws, outside, rel, target)
        rel = sorted(tree)[pick % len(tree)]
        here = Path.cwd()
        os.chdir(ws)
        try:
            path = _spell(ws, rel, spelling)
            try:
                data = files.read_bytes(path, limit=1024)
            except DataError as exc:
                # Refused, naming the file as given, never with what lies outside.
                assert exc.records[0].file, exc
                assert SECRET not in str(exc)
                return
        finally:
            os.chdir(here)
        resolved = Path(os.path.realpath(ws / rel if spelling != "dotdot-out" else path))
        assert resolved.is_relative_to(ws.resolve()), f"{path} read from {resolved}"
        assert resolved.is_file()
        assert SECRET.encode() not in data


@settings(max_examples=150, deadline=None)
@given(tree=TREE, pick=st.integers(min_value=0, max_value=5), spelling=SPELLINGS,
       as_folder=st.booleans())
def test_the_one_write_check_keeps_outputs_out_of_the_sources(tree: dict[str, str], pick: int, spelling: str,
                                                              as_folder: bool) -> None:
    with _sandbox() as (ws, outside):
        for rel, target in sorted(tree.items()):
            _place(ws, outside, rel, target)
        (ws / "templates").mkdir(exist_ok=True)
        workspace = Workspace(ws)
        rel = sorted(tree)[pick % len(tree)]
        here = Path.cwd()
        os.chdir(ws)
        try:
            out = _spell(ws, rel, spelling)
            try:
                (workspace.out_folder if as_folder else workspace.out_file)(out)
            except PnpError as exc:
                assert str(out) in str(exc) and SECRET not in str(exc)
                return
            lexical = Path(os.path.normpath(Path.cwd() / out))
        finally:
            os.chdir(here)
        target = Path(os.path.realpath(lexical))
        # Allowed: outside every source folder, a regular file or folder (or nothing yet), and
        # inside the workspace when it is named inside it (the user's own ../ path is theirs).
        for source in ("card_data", "templates", "fonts", "sheets", "pnp.toml"):
            assert not target.is_relative_to((ws / source).resolve()), f"{out} writes into {source}"
        if lexical.is_relative_to(ws):
            assert target.is_relative_to(ws.resolve()), f"{out} writes out of the workspace, to {target}"
        assert not target.exists() or target.is_file() or target.is_dir()


# -- every command that reads or writes, in a subprocess -----------------------------------

GAME = "tisigui"
YAMLS = [f"card_data/{GAME}/{name}" for name in
         ("game.yaml", "components.yaml", "tables.yaml", "glossary.yaml", "figures.yaml")]
TEMPLATE = f"templates/{GAME}/rulebook.md.j2"
# What each command reads (and so must refuse when hostile); `{out}` is the --out it is given.
COMMANDS: dict[str, tuple[list[str], list[str]]] = {
    "list": (["list"], YAMLS[:2]),
    "check": (["check", GAME], YAMLS),
    "tables-update": (["tables", GAME, "--update"], YAMLS),
    "build": (["build", GAME, "--lang", "zh-Hant"], [*YAMLS, TEMPLATE, "fonts", "output",
                                                       "output/.pnp-build.json"]),
    "sample-out": (["sample", GAME, "--out", "{out}"], [*YAMLS, "{out}"]),
    "calibrate-out": (["calibrate", "--out", "{out}"], ["{out}"]),
    "export-out": (["export", "contact", GAME, "--lang", "zh-Hant", "--out", "{out}"], [*YAMLS, "{out}"]),
}
FILE_PLACES = [*YAMLS, TEMPLATE, "output/.pnp-build.json"]
FOLDER_PLACES = ["fonts", "output"]
HOSTILE = ("link-out-abs", "link-out-dotdot", "link-secret", "link-dev-zero", "fifo")
FRIENDLY = ("link-in",)
# --out spellings: into a source (by `..`, absolutely, through a link), or the user's own place.
OUTS = {
    "into-card-data-dotdot": ("prints/../card_data/tisigui/x.out", True),
    "into-templates-absolute": ("{ws}/templates/tisigui/x.out", True),
    "over-game-yaml": ("card_data/tisigui/game.yaml", True),
    "through-link-out": ("away/x.out", True),
    "through-link-into-sources": ("sneaky/x.out", True),
    "fifo": ("pipe.out", True),
    "workspace-root-file": ("x.out", False),
    "beside-the-workspace": ("../beside.out", False),
}


def _workspace(top: Path) -> tuple[Path, Path]:
    ws, outside = top / "ws", top / "outside"
    for folder in ("card_data", "templates"):
        shutil.copytree(ROOT / folder / GAME, ws / folder / GAME)
    (ws / "output").mkdir()
    outside.mkdir()
    for rel in FILE_PLACES[:-1]:
        (outside / rel).parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(ROOT / rel, outside / rel)
    (outside / "secret.txt").write_text(SECRET + "\n", encoding="utf-8")
    (outside / "fonts").mkdir()
    shutil.copyfile(ROOT / "pnp/core/faces/PnpSansTC-Regular.ttf", outside / "fonts/PnpSansTC-Regular.ttf")
    (ws / "away").symlink_to(outside)
    (ws / "sneaky").symlink_to("card_data")
    os.mkfifo(ws / "pipe.out")
    return ws, outside


def _hostile(ws: Path, outside: Path, place: str, kind: str) -> None:
    path = ws / place
    if path.is_dir() and not path.is_symlink():
        shutil.rmtree(path)
    else:
        path.unlink(missing_ok=True)
    if kind == "fifo":
        os.mkfifo(path)
        return
    if kind == "link-in":  # a link that stays inside: fine, as if the file were there
        real = ws / "real" / place
        real.parent.mkdir(parents=True, exist_ok=True)
        if place in FOLDER_PLACES:
            real.mkdir()
        elif (ROOT / place).is_file():
            shutil.copyfile(ROOT / place, real)
        else:
            return  # the build record: none there is fine
        path.symlink_to(real)
        return
    away = {"link-out-abs": outside / place, "link-secret": outside / "secret.txt", "link-dev-zero": Path("/dev/zero"),
            "link-out-dotdot": Path(*[".."] * len(Path(place).parts)) / "outside" / place}[kind]
    if place in FOLDER_PLACES and kind not in ("link-out-abs", "link-out-dotdot"):
        away = outside
    path.symlink_to(away)


def _snapshot(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*"))
            if p.is_file() and not p.is_symlink() and not p.is_fifo()}


PLACEMENT = st.one_of(
    st.tuples(st.sampled_from(FILE_PLACES), st.sampled_from(HOSTILE + FRIENDLY)),
    st.tuples(st.sampled_from(FOLDER_PLACES), st.sampled_from(("link-out-abs", "link-out-dotdot", "link-in"))),
)


@pytest.mark.parametrize("command", sorted(COMMANDS))
@settings(max_examples=4, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(placement=PLACEMENT, out=st.sampled_from(sorted(OUTS)))
def test_every_command_keeps_to_the_workspace(command: str, placement: tuple[str, str], out: str) -> None:
    args, reads = COMMANDS[command]
    place, kind = placement
    top = Path(tempfile.mkdtemp(prefix="pnp-paths-cmd-"))
    try:
        ws, outside = _workspace(top)
        _hostile(ws, outside, place, kind)
        out_arg, out_refused = OUTS[out]
        out_arg = out_arg.replace("{ws}", str(ws))
        sources_before = {name: _snapshot(ws / name) for name in ("card_data", "templates")}
        outside_before = _snapshot(outside)
        env = {**os.environ, "PYTHONPATH": str(ROOT), "COLUMNS": "200"}
        done = subprocess.run([sys.executable, "-m", "pnp", *[a.replace("{out}", out_arg) for a in args]],
                              cwd=ws, env=env, capture_output=True, text=True, timeout=TIME_LIMIT_S,
                              stdin=subprocess.DEVNULL)
        said = done.stdout + done.stderr
        assert "Traceback (most recent call last)" not in said, said
        assert done.returncode in (0, 1, 2), said  # 2: click refused the --out (a file for a folder)
        assert SECRET not in said, said
        # Nothing outside written (the user's own ../beside.out lands beside the workspace, not in it).
        assert _snapshot(outside) == outside_before, said
        if command != "tables-update":  # --update may rewrite tables.yaml, in place, inside
            assert {name: _snapshot(ws / name) for name in sources_before} == sources_before, said
        hostile_read = kind in HOSTILE and place in reads
        hostile_out = "{out}" in reads and out_refused
        if hostile_read or hostile_out:
            assert done.returncode in (1, 2) and "Error:" in said, f"{place} as {kind}, --out {out_arg}:\n{said}"
    finally:
        shutil.rmtree(top)
