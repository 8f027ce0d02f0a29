"""Compiled templates cached across processes (pnp.text.templating.SignedBytecodeCache): reused
while the template is unchanged, recompiled when it changes, never loaded unless pnp wrote it."""

from __future__ import annotations

import hashlib
import hmac
from pathlib import Path

import jinja2
import pytest

from pnp.core import diskcache
from pnp.core.errors import DataError
from pnp.text.templating import SignedBytecodeCache, markdown_environment, render_template


@pytest.fixture
def setup(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[Path, list[str]]:
    """A templates folder with one template, a private cache folder, and a list of compiles."""
    monkeypatch.setenv("PNP_CACHE_DIR", str(tmp_path / "cache"))
    templates = tmp_path / "templates"
    (templates / "game").mkdir(parents=True)
    (templates / "game" / "t.md.j2").write_text("# {{ title }}\n\n{{ n | thousands }} 張\n", encoding="utf-8")
    compiled: list[str] = []
    real = jinja2.Environment.compile

    def spy(self, source, name=None, filename=None, raw=False, defer_init=False):
        compiled.append(name)
        return real(self, source, name, filename, raw, defer_init)

    monkeypatch.setattr(jinja2.Environment, "compile", spy)
    return templates, compiled


def fresh_process() -> None:
    """What a new process starts with: no environment, so no in-memory template cache."""
    markdown_environment.cache_clear()


def render(templates: Path) -> str:
    return render_template(templates, "game/t.md.j2", {"title": "牌局", "n": 12000})


def entries(tmp_path: Path) -> list[Path]:
    return sorted((tmp_path / "cache" / SignedBytecodeCache.AREA).glob("*.jbc"))


def test_a_new_process_reuses_the_compiled_template(setup, tmp_path: Path) -> None:
    templates, compiled = setup
    fresh_process()
    first = render(templates)
    assert first == "# 牌局\n\n12,000 張\n" and compiled == ["game/t.md.j2"]
    assert len(entries(tmp_path)) == 1
    fresh_process()
    assert render(templates) == first
    assert compiled == ["game/t.md.j2"], "the second process must load, not compile"


def test_an_edited_template_is_compiled_again(setup, tmp_path: Path) -> None:
    templates, compiled = setup
    fresh_process()
    render(templates)
    (templates / "game" / "t.md.j2").write_text("## {{ title }}\n", encoding="utf-8")
    fresh_process()
    assert render(templates) == "## 牌局\n"
    assert len(compiled) == 2


def test_an_entry_pnp_did_not_sign_is_not_loaded(setup, tmp_path: Path) -> None:
    templates, compiled = setup
    fresh_process()
    render(templates)
    [entry] = entries(tmp_path)
    # Code compiled from another source, in the entry's place with the right checksum (so that
    # Jinja itself would take it) but signed with another key.
    env = markdown_environment(templates)
    source = (templates / "game" / "t.md.j2").read_text(encoding="utf-8")
    bucket = jinja2.bccache.Bucket(env, "k", env.bytecode_cache.get_source_checksum(source))
    bucket.code = jinja2.sandbox.SandboxedEnvironment().compile("PLANTED", "game/t.md.j2", "x")
    del compiled[1:]
    forged = bucket.bytecode_to_string()
    message = f"{SignedBytecodeCache.AREA}/{entry.name}\0".encode() + forged
    entry.write_bytes(hmac.new(b"k" * 32, message, hashlib.sha256).hexdigest().encode() + b"\n" + forged)
    entry.chmod(0o600)
    fresh_process()
    assert render(templates) == "# 牌局\n\n12,000 張\n"
    assert len(compiled) == 2  # refused, compiled from the template instead
    # The same bytes signed with pnp's key are taken: the signature is what refused them.
    key = (tmp_path / "cache" / diskcache.KEY_NAME).read_bytes()
    entry.write_bytes(hmac.new(key, message, hashlib.sha256).hexdigest().encode() + b"\n" + forged)
    fresh_process()
    assert render(templates) == "PLANTED"
    # With the key gone, no entry is trusted at all.
    (tmp_path / "cache" / diskcache.KEY_NAME).unlink()
    fresh_process()
    render(templates)
    assert len(compiled) == 3


def test_errors_from_a_cached_template_name_its_line(setup) -> None:
    templates, _ = setup
    (templates / "game" / "t.md.j2").write_text("one\n\n{{ missing }}\n", encoding="utf-8")
    for _ in range(2):  # compiled, then loaded from the cache
        fresh_process()
        with pytest.raises(DataError, match=r"t\.md\.j2:3: template uses something undefined"):
            render(templates)
