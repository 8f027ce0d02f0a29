"""pnp removes only what it can show it wrote: never a file for having a temporary's name.

Earlier versions deleted every ``.<name>.<8 chars>.tmp`` (and dead writers' ``.pnp-*`` names)
up to three folders deep in any folder they wrote to: a user's files in a folder ``--out``
named, or behind an ``output`` link. Now a file is removed only when a journal pnp wrote names
it (pnp.build.journal); these cases run the real command line.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path, PurePosixPath

import pytest

from pnp.build.journal import Entry, Journal, read_journal, recover
from tests.conftest import game_workspace

# Names like pnp's temporaries, past and present, at every depth the old scan reached.
LOOKALIKES = [".x.abcdefgh.tmp", ".components.pdf.k2j4_x9q.tmp", ".y.pnp-999999999-0123abcd.tmp",
              ".y.pnp-999999999-0123abcd.old", "a/.z.12345678.tmp", "a/b/.w.ABCDEFGH.tmp",
              "tiling_game/zh-Hant/.components.pdf.abcdefgh.tmp"]


def plant(folder: Path) -> None:
    for name in LOOKALIKES:
        path = folder / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(b"the user's own " + name.encode())


def assert_untouched(folder: Path) -> None:
    for name in LOOKALIKES:
        assert (folder / name).read_bytes() == b"the user's own " + name.encode(), name


def pnp(root: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "pnp", "--root", str(root), *args], capture_output=True,
                          text=True, timeout=300, cwd=root)


@pytest.fixture
def tisigui(tmp_path: Path) -> Path:
    return game_workspace(tmp_path, "tisigui", templates=True)


def test_output_linked_to_a_folder_of_the_users(tisigui: Path) -> None:
    stash = tisigui / "stash"
    plant(stash)
    (tisigui / "output").symlink_to("stash")
    done = pnp(tisigui, "build", "tisigui", "--lang", "zh-Hant")
    assert done.returncode == 0, done.stderr
    assert_untouched(stash)
    assert (stash / "tisigui/zh-Hant/components.pdf").is_file()
    assert not [path for path in stash.rglob(".pnp-swap.*")]


def test_sample_pdf_out_elsewhere(tisigui: Path) -> None:
    elsewhere = tisigui.parent / "elsewhere"
    plant(elsewhere)
    done = pnp(tisigui, "sample", "tisigui", "--format", "pdf", "--out", "../elsewhere/x.pdf")
    assert done.returncode == 0, done.stderr
    assert_untouched(elsewhere)
    assert (elsewhere / "x.pdf").read_bytes().startswith(b"%PDF")


def test_calibrate_out_file(tisigui: Path) -> None:
    elsewhere = tisigui.parent / "elsewhere"
    plant(elsewhere)
    done = pnp(tisigui, "calibrate", "--out", str(elsewhere / "cal.pdf"))
    assert done.returncode == 0, done.stderr
    assert_untouched(elsewhere)
    assert (elsewhere / "cal.pdf").read_bytes().startswith(b"%PDF")


def test_build_out_dir(tisigui: Path) -> None:
    prints = tisigui / "prints"
    plant(prints)
    for _ in range(2):  # the first build, and one with nothing to do (which used to tidy up)
        done = pnp(tisigui, "build", "tisigui", "--lang", "zh-Hant", "--out", "prints")
        assert done.returncode == 0, done.stderr
        assert_untouched(prints)
    assert (prints / "tisigui/zh-Hant/rulebook.pdf").is_file()


# Journals pnp did not write (a downloaded workspace may ship one): read as none, left alone.

def forge(root: Path, entries: list[dict[str, object]], tag: str = "pnp-999999999-0123abcd") -> Path:
    path = root / f".pnp-swap.{tag}.json"
    path.write_text(json.dumps({"format": "pnp-swap-journal", "tag": tag, "entries": entries}), encoding="utf-8")
    return path


@pytest.mark.parametrize("entry", [
    {"path": "../victim.txt", "new": False, "old": True},
    {"path": "/etc/victim.txt", "new": False, "old": True},
    {"path": "out/victim.txt", "new": False, "old": True},  # out/ is a link out of the root
    {"path": "victim.txt", "new": True, "old": False},  # a new file without its hash
    {"path": "victim.txt", "new": "yes", "old": False},
])
def test_a_journal_that_reaches_out_or_is_malformed_is_not_read(tmp_path: Path, entry: dict[str, object]) -> None:
    root, outside = tmp_path / "output", tmp_path / "outside"
    root.mkdir()
    outside.mkdir()
    (outside / "victim.txt").write_text("keep", encoding="utf-8")
    (tmp_path / "victim.txt").write_text("keep", encoding="utf-8")
    (root / "out").symlink_to(outside)
    journal = forge(root, [entry])
    assert read_journal(root, journal.name) is None
    assert recover(root) == []
    assert journal.exists()
    assert (outside / "victim.txt").read_text(encoding="utf-8") == "keep"
    assert (tmp_path / "victim.txt").read_text(encoding="utf-8") == "keep"


def test_a_journal_names_only_pnp_shaped_files_and_new_files_by_their_bytes(tmp_path: Path) -> None:
    """A well-formed journal not of pnp's making removes nothing: a target it calls new is
    deleted on roll-back only if it holds the bytes the journal staged, and the files it calls
    old are put back, never removed."""
    root = tmp_path / "output"
    root.mkdir()
    (root / "mine.txt").write_text("the user's", encoding="utf-8")
    (root / "kept.txt").write_text("the user's too", encoding="utf-8")
    tag = "pnp-999999999-0123abcd"
    journal = forge(root, [{"path": "mine.txt", "new": True, "old": False, "sha256": "0" * 64},
                           {"path": "kept.txt", "new": False, "old": True},
                           {"path": "missing.txt", "new": True, "old": False, "sha256": "1" * 64}], tag)
    (root / f".pnp-swap.{tag}.commit").write_bytes(b"")
    assert [item.outcome for item in recover(root)] == ["rolled back"]
    assert (root / "mine.txt").read_text(encoding="utf-8") == "the user's"
    assert (root / "kept.txt").read_text(encoding="utf-8") == "the user's too"
    assert not journal.exists()


def test_a_live_writers_journal_is_left_to_it(tmp_path: Path) -> None:
    root = tmp_path / "output"
    root.mkdir()
    tag = f"pnp-{os.getppid()}-0123abcd"  # a process that runs (pytest's parent)
    Journal(root, tag, [Entry(PurePosixPath("a.pdf"), False, True)]).write()
    assert recover(root) == []
    assert (root / f".pnp-swap.{tag}.json").exists()
