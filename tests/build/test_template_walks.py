"""The templates a book reads, found by a walk kept in the disk cache (pnp.build.templatewalk
template_files): taken again only while nothing it looked at changed; any edit, file added,
removed or newly named, and any entry that is damaged or not pnp's, walks again."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest

from pnp.build import templatewalk
from pnp.build.templatewalk import WALKS_AREA, template_files
from pnp.core import diskcache, files


@pytest.fixture
def reads(monkeypatch: pytest.MonkeyPatch, cache: Path) -> list[Path]:
    """Every template file read while a test runs; every stamp counts as settled, so a walk
    is kept at once."""
    monkeypatch.setattr(diskcache, "RACY_NS", 0)
    read: list[Path] = []
    reading = files.read_bytes

    def noting(path: Path, **options: object) -> bytes:
        read.append(path)
        return reading(path, **options)  # type: ignore[arg-type]

    monkeypatch.setattr(files, "read_bytes", noting)
    return read


def _templates(root: Path) -> Path:
    """Game a's book includes a shared part and a part no file is written for yet; its aid
    includes nothing."""
    templates = root / "templates"
    (templates / "a").mkdir(parents=True)
    (templates / "shared").mkdir()
    (templates / "a" / "rulebook.md.j2").write_text(
        "# 規則\n{% include 'shared/part.md.j2' %}\n{% include 'shared/later.md.j2' ignore missing %}\n",
        encoding="utf-8")
    (templates / "a" / "aid.md.j2").write_text("速查\n", encoding="utf-8")
    (templates / "shared" / "part.md.j2").write_text("共用段落\n", encoding="utf-8")
    (templates / "shared" / "other.md.j2").write_text("無關\n", encoding="utf-8")
    return templates


def _names(found: list[Path], templates: Path) -> list[str]:
    return [path.relative_to(templates).as_posix() for path in found]


BOOK = ["a/aid.md.j2", "a/rulebook.md.j2", "shared/part.md.j2"]


def test_a_walk_is_taken_again_while_nothing_it_read_changed(tmp_path: Path, reads: list[Path]) -> None:
    templates = _templates(tmp_path)
    assert _names(template_files(templates, "a"), templates) == BOOK
    assert _names(template_files(templates, "a", "aid.md.j2"), templates) == ["a/aid.md.j2"]
    assert len(reads) == 4
    assert _names(template_files(templates, "a"), templates) == BOOK
    assert _names(template_files(templates, "a", "aid.md.j2"), templates) == ["a/aid.md.j2"]
    assert len(reads) == 4  # nothing read again


def _edit(path: Path, text: str) -> None:
    path.write_text(text, encoding="utf-8")


@pytest.mark.parametrize("change, expected", [
    ("a part now includes another", [*BOOK, "shared/other.md.j2"]),
    ("the part named but missing is written", [*BOOK, "shared/later.md.j2"]),
    ("a file added to the game's folder", ["a/aid.md.j2", "a/notes.md.j2", "a/rulebook.md.j2", "shared/part.md.j2"]),
    ("the shared part removed", ["a/aid.md.j2", "a/rulebook.md.j2"]),
    ("the book's include taken out", ["a/aid.md.j2", "a/rulebook.md.j2"]),
    ("the same size, another time", BOOK),
])
def test_any_change_to_what_the_walk_looked_at_walks_again(tmp_path: Path, reads: list[Path], change: str,
                                                          expected: list[str]) -> None:
    templates = _templates(tmp_path)
    assert _names(template_files(templates, "a"), templates) == BOOK
    before = len(reads)
    if change == "a part now includes another":
        _edit(templates / "shared" / "part.md.j2", "{% include 'shared/other.md.j2' %}\n")
    elif change == "the part named but missing is written":
        _edit(templates / "shared" / "later.md.j2", "後來\n")
    elif change == "a file added to the game's folder":
        _edit(templates / "a" / "notes.md.j2", "筆記\n")
    elif change == "the shared part removed":
        (templates / "shared" / "part.md.j2").unlink()
    elif change == "the book's include taken out":
        _edit(templates / "a" / "rulebook.md.j2", "# 規則\n")
    else:  # same bytes count, mtime put back: the change time still tells
        part = templates / "shared" / "part.md.j2"
        times = part.stat()
        _edit(part, "另一段落\n")
        os.utime(part, ns=(times.st_atime_ns, times.st_mtime_ns))
    assert _names(template_files(templates, "a"), templates) == sorted(expected)
    assert len(reads) > before  # walked again
    # ... and the new walk is kept in turn.
    again = len(reads)
    assert _names(template_files(templates, "a"), templates) == sorted(expected)
    assert len(reads) == again


def test_a_walk_over_a_file_written_just_now_is_not_kept(tmp_path: Path, cache: Path) -> None:
    templates = _templates(tmp_path)  # every file written in the last moments: none settled
    template_files(templates, "a")
    assert not (cache / WALKS_AREA).exists() or not any((cache / WALKS_AREA).iterdir())


def _entry(templates: Path) -> tuple[str, Path]:
    name = templatewalk._walk_name(templates, "a", None)
    assert name is not None
    return name, diskcache.root() / WALKS_AREA / name  # type: ignore[operator]


@pytest.mark.parametrize("damage", ["found a file it never read", "not JSON", "a stamp of text", "a field missing",
                                    "truncated", "another game's entry", "signed with another key"])
def test_a_damaged_or_foreign_walk_is_walked_again(tmp_path: Path, reads: list[Path], damage: str) -> None:
    templates = _templates(tmp_path)
    template_files(templates, "a")
    template_files(templates, "b")  # a game with no templates: an entry of its own
    name, path = _entry(templates)
    doc = json.loads(diskcache.read(WALKS_AREA, name, 1 << 20) or b"")
    if damage == "found a file it never read":
        doc["found"].append(str(templates / "shared" / "other.md.j2"))
        diskcache.write(WALKS_AREA, name, json.dumps(doc).encode())
    elif damage == "not JSON":
        diskcache.write(WALKS_AREA, name, b"{\"found\": [")
    elif damage == "a stamp of text":
        doc["read"][0][1] = "size"
        diskcache.write(WALKS_AREA, name, json.dumps(doc).encode())
    elif damage == "a field missing":
        del doc["absent"]
        diskcache.write(WALKS_AREA, name, json.dumps(doc).encode())
    elif damage == "truncated":
        path.write_bytes(path.read_bytes()[:-10])
    elif damage == "another game's entry":
        other = templatewalk._walk_name(templates, "b", None)
        shutil.copyfile(path.parent / str(other), path)
    else:
        path.write_bytes(b"0" * 64 + b"\n" + path.read_bytes().partition(b"\n")[2])
    before = len(reads)
    assert _names(template_files(templates, "a"), templates) == BOOK
    assert len(reads) == before + 3  # the game's two templates and the shared part read again
