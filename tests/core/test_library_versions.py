"""The library versions in pnp's fingerprint (pnp.core.fingerprint.library_versions): what
importlib.metadata reads, kept in the disk cache until a package is installed, upgraded or
removed."""

from __future__ import annotations

from importlib import metadata
from pathlib import Path

import pytest

from pnp.core import fingerprint


def _expected() -> dict[str, str]:
    versions = {}
    for lib in fingerprint.LIBRARIES:
        try:
            versions[lib] = metadata.version(lib)
        except metadata.PackageNotFoundError:
            versions[lib] = fingerprint.ABSENT
    return versions


def _no_lookups(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    looked: list[str] = []
    real = metadata.version

    def spy(name: str) -> str:
        looked.append(name)
        return real(name)

    monkeypatch.setattr(metadata, "version", spy)
    return looked


def test_the_versions_importlib_metadata_reads_then_from_the_cache(cache: Path,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    expected = _expected()
    assert fingerprint.library_versions() == expected
    looked = _no_lookups(monkeypatch)
    assert fingerprint.library_versions() == expected
    assert looked == []


def test_an_install_or_upgrade_is_seen(cache: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    fingerprint.library_versions()
    site = tmp_path / "site"
    site.mkdir()
    monkeypatch.syspath_prepend(str(site))

    def install(version: str) -> None:
        for old in site.glob("reportlab-*"):
            (old / "METADATA").unlink()
            old.rmdir()
        info = site / f"reportlab-{version}.dist-info"
        info.mkdir()
        (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: reportlab\nVersion: {version}\n")

    install("99.0")
    assert fingerprint.library_versions()["reportlab"] == "99.0"
    install("99.1")
    assert fingerprint.library_versions()["reportlab"] == "99.1"
    for old in site.glob("reportlab-*"):
        (old / "METADATA").unlink()
        old.rmdir()
    assert fingerprint.library_versions() == _expected()


def test_without_a_cache(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PNP_CACHE_DIR", "")
    assert fingerprint.library_versions() == _expected()
