"""pnp's cache folder reads back only what pnp signed, in files only its user may write, under
the key the folder holds now (a process remembers the key while its file is unchanged)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from pnp.core import diskcache


@pytest.fixture
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "cache"
    monkeypatch.setenv("PNP_CACHE_DIR", str(folder))
    return folder


def test_an_entry_comes_back_as_written(cache: Path) -> None:
    diskcache.write("area", "name", b"payload\nwith lines")
    assert diskcache.read("area", "name", 100) == b"payload\nwith lines"
    assert diskcache.read("area", "name", 5) is None  # larger than the caller takes
    assert diskcache.read("area", "other", 100) is None


def test_a_new_key_refuses_the_entries_signed_with_the_old_one(cache: Path) -> None:
    diskcache.write("area", "name", b"payload")
    assert diskcache.read("area", "name", 100) == b"payload"  # the key is remembered now
    key = cache / diskcache.KEY_NAME
    key.unlink()
    assert diskcache.read("area", "name", 100) is None
    key.write_bytes(os.urandom(32))  # another key of the same size in the same place
    key.chmod(0o600)
    assert diskcache.read("area", "name", 100) is None
    diskcache.write("area", "name", b"again")
    assert diskcache.read("area", "name", 100) == b"again"


def test_a_key_or_entry_others_may_write_or_that_is_no_plain_file_is_not_trusted(cache: Path) -> None:
    diskcache.write("area", "name", b"payload")
    entry = cache / "area" / "name"
    entry.chmod(0o620)
    assert diskcache.read("area", "name", 100) is None
    entry.chmod(0o600)
    key = cache / diskcache.KEY_NAME
    key.chmod(0o660)
    assert diskcache.read("area", "name", 100) is None
    key.chmod(0o600)
    assert diskcache.read("area", "name", 100) == b"payload"
    entry.rename(cache / "area" / "real")
    (cache / "area" / "name").symlink_to(cache / "area" / "real")
    assert diskcache.read("area", "name", 100) is None
    (cache / "area" / "name").unlink()
    (cache / "area" / "name").mkdir()
    assert diskcache.read("area", "name", 100) is None


def test_a_remembered_key_is_read_again_once_its_file_changes(cache: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # Every file taken as settled, so the key is remembered at once (else only keys written
    # two seconds before are).
    monkeypatch.setattr(diskcache, "RACY_NS", -(10 ** 18))
    diskcache.write("area", "name", b"payload")
    reads: list[Path] = []
    real = Path.read_bytes

    def counted(path: Path) -> bytes:
        reads.append(path)
        return real(path)

    monkeypatch.setattr(Path, "read_bytes", counted)
    for _ in range(3):
        assert diskcache.read("area", "name", 100) == b"payload"
    assert reads.count(cache / diskcache.KEY_NAME) <= 1  # remembered
    key = cache / diskcache.KEY_NAME
    before = key.stat().st_mtime_ns
    key.unlink()
    key.write_bytes(os.urandom(32))
    key.chmod(0o600)
    os.utime(key, ns=(before + 10 ** 9, before + 10 ** 9))  # another mtime even on a coarse clock
    assert diskcache.read("area", "name", 100) is None  # the new key, read again, refuses it
