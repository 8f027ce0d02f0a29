"""pnp's fingerprint of its own sources (pnp.core.fingerprint.source_fingerprint): the SHA-256 of
every source file, kept in the disk cache under the files' stamps, which must never answer for
sources that changed."""

from __future__ import annotations

import hashlib
import os
import time
from pathlib import Path

import pytest

from pnp import __version__
from pnp.core import diskcache, fingerprint


def _by_hand(package: Path) -> str:
    """The fingerprint as its definition states it, worked without the module's code."""
    digest = hashlib.sha256(__version__.encode())
    for relative in sorted(["a.py", "sub/b.py", "profile.icc"], key=lambda name: Path(name).parts):
        digest.update(relative.encode() + b"\0" + (package / relative).read_bytes() + b"\0")
    versions = fingerprint.library_versions()
    for lib in fingerprint.LIBRARIES:
        digest.update(f"{lib}={versions[lib]}\n".encode())
    return digest.hexdigest()


@pytest.fixture
def package(tmp_path: Path) -> Path:
    folder = tmp_path / "pkg"
    (folder / "sub").mkdir(parents=True)
    (folder / "a.py").write_text("A = 1\n")
    (folder / "sub" / "b.py").write_text("B = 2\n")
    (folder / "profile.icc").write_bytes(b"\x00\x01colour")
    (folder / "notes.txt").write_text("not a source\n")
    return folder


@pytest.fixture
def trusting(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every stamp counts as settled, so the first answer is kept at once (as it is for an
    installation older than a few seconds)."""
    monkeypatch.setattr(diskcache, "RACY_NS", 0)


def _entries(cache: Path) -> list[Path]:
    area = cache / fingerprint.FINGERPRINT_AREA
    return sorted(area.iterdir()) if area.is_dir() else []


def test_the_hash_of_the_sources_alone_with_and_without_the_cache(
        package: Path, cache: Path, trusting: None, monkeypatch: pytest.MonkeyPatch) -> None:
    expected = _by_hand(package)
    assert fingerprint.source_fingerprint(package) == expected
    assert len(_entries(cache)) == 1
    assert fingerprint.source_fingerprint(package) == expected  # now from the entry
    (package / "notes.txt").write_text("changed, but no source\n")
    assert fingerprint.source_fingerprint(package) == expected
    monkeypatch.setenv("PNP_CACHE_DIR", "")
    assert fingerprint.source_fingerprint(package) == expected


def test_a_kept_answer_is_what_is_read_back(package: Path, cache: Path, trusting: None) -> None:
    fingerprint.source_fingerprint(package)
    entry, = _entries(cache)
    planted = "f" * 64
    diskcache.write(fingerprint.FINGERPRINT_AREA, entry.name, planted.encode())
    # The stamps did not change: the entry answers (what pnp itself wrote there is trusted).
    assert fingerprint.source_fingerprint(package) == planted


def _rewrite_keeping_mtime(path: Path, data: bytes) -> None:
    """Write ``data`` (as long as what is there) in place and set the mtime back, as an editor
    or ``touch -d`` can; wait first until the clock has moved past the file's ctime, so the
    kernel's coarse timestamps cannot hide the change."""
    before = path.stat()
    assert len(data) == before.st_size
    deadline = time.monotonic() + 5
    while time.time_ns() <= before.st_ctime_ns + 20_000_000 and time.monotonic() < deadline:
        time.sleep(0.01)
    with path.open("r+b") as handle:
        handle.write(data)
    os.utime(path, ns=(before.st_atime_ns, before.st_mtime_ns))
    after = path.stat()
    assert (after.st_size, after.st_mtime_ns, after.st_ino) == (before.st_size, before.st_mtime_ns, before.st_ino)


def test_a_source_edited_with_its_mtime_set_back_changes_it(package: Path, cache: Path, trusting: None) -> None:
    first = fingerprint.source_fingerprint(package)
    _rewrite_keeping_mtime(package / "sub" / "b.py", b"B = 3\n")
    second = fingerprint.source_fingerprint(package)
    assert second != first
    assert second == _by_hand(package)


def test_a_source_added_or_removed_changes_it(package: Path, cache: Path, trusting: None) -> None:
    first = fingerprint.source_fingerprint(package)
    (package / "sub" / "c.py").write_text("")
    assert fingerprint.source_fingerprint(package) != first
    (package / "sub" / "c.py").unlink()
    assert fingerprint.source_fingerprint(package) == first


def test_sources_changed_moments_ago_are_hashed_every_time(package: Path, cache: Path) -> None:
    # Just written: the stamps could still change unseen, so no entry is kept.
    assert fingerprint.source_fingerprint(package) == _by_hand(package)
    assert _entries(cache) == []
