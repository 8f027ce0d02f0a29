"""Deflated content streams kept in the disk cache (pnp.render.streamcache): the PDF is the one
reportlab writes on its own, a stream the entry holds is not deflated again, an edit undone finds
its streams, and a damaged or foreign entry is ignored."""

from __future__ import annotations

import base64
import io
import os
import re
import shutil
import subprocess
import sys
import zlib
from pathlib import Path

import pytest
from reportlab.pdfgen.canvas import Canvas

from pnp.core import diskcache
from pnp.render import streamcache
from pnp.render.streamcache import deflate_through_entry, kept_streams
from pnp.text import reportlab_fonts
from pnp.text.reportlab_fonts import deflated_entry_name
from tests.conftest import ROOT, edit

WHAT = "a/zh-Hant/components"


@pytest.fixture
def deflated(monkeypatch: pytest.MonkeyPatch) -> list[bytes]:
    """The content of every stream the entry did not hold (deflated afresh), in order."""
    calls: list[bytes] = []
    real = reportlab_fonts.deflate

    def spy(data: bytes) -> bytes:
        calls.append(data)
        return real(data)

    monkeypatch.setattr("pnp.render.streamcache.deflate", spy)
    return calls


def _pdf(words: list[str], kept: bool = True) -> bytes:
    """A page per word, each placing a form that prints the word, and a form no page places."""
    buffer = io.BytesIO()
    canvas = Canvas(buffer, invariant=1, pageCompression=1)
    for index, word in enumerate(words):
        canvas.beginForm(f"face-{index}", 0, 0, 200, 50)
        canvas.drawString(10, 10, word)
        canvas.rect(5, 5, 190, 40)
        canvas.endForm()
    canvas.beginForm("unused", 0, 0, 10, 10)
    canvas.circle(5, 5, 4)
    canvas.endForm()
    for index in range(len(words)):
        canvas.doForm(f"face-{index}")
        canvas.drawString(72, 720, f"page {index}")
        canvas.showPage()
    if kept:
        deflate_through_entry(canvas)
    canvas.save()
    return buffer.getvalue()


def _streams(pdf: bytes) -> list[bytes]:
    """Every stream of ``pdf`` as it reads inflated (reportlab's streams: ASCII85, then deflate)."""
    return [zlib.decompress(base64.a85decode(body.removesuffix(b"~>")))
            for body in re.findall(rb"\nstream\n(.*?)endstream\n", pdf, re.S)]


WORDS = ["alpha", "beta", "gamma"]


def test_the_pdf_is_reportlabs_own_and_a_stream_kept_is_not_deflated_again(cache: Path, deflated: list[bytes]) -> None:
    plain = _pdf(WORDS, kept=False)
    assert len(_streams(plain)) == 2 * len(WORDS) + 1  # a page and a form per word, the unused form
    with kept_streams(WHAT):
        assert _pdf(WORDS) == plain
    assert len(deflated) == 2 * len(WORDS) + 1 and any((cache / streamcache.AREA).iterdir())
    deflated.clear()
    with kept_streams(WHAT):
        assert _pdf(WORDS) == plain
    assert deflated == []
    with kept_streams("another/zh-Hant/components"):  # another document's entry holds none
        assert _pdf(WORDS) == plain
    assert len(deflated) == 2 * len(WORDS) + 1


def test_an_edit_deflates_its_own_streams_and_an_edit_undone_none(cache: Path, deflated: list[bytes]) -> None:
    with kept_streams(WHAT):
        _pdf(WORDS)
    edited = ["alpha", "BETA", "gamma"]
    deflated.clear()
    with kept_streams(WHAT):
        assert _pdf(edited) == _pdf(edited, kept=False)
    assert len(deflated) == 1 and b"(BETA) Tj" in deflated[0], "the edited form alone"
    deflated.clear()
    with kept_streams(WHAT):
        assert _pdf(WORDS) == _pdf(WORDS, kept=False)
    assert deflated == [], "the streams of the rendering before last are still in the entry"


def test_the_entry_keeps_the_last_rendering_and_at_most_as_many_bytes_again_of_earlier_ones(cache: Path) -> None:
    renderings = (["one", "two"], ["three", "four"], ["five", "six"])
    for words in renderings:
        with kept_streams(WHAT):
            _pdf(words)
    name = deflated_entry_name(streamcache.AREA, streamcache.FORMAT, WHAT)
    assert name is not None
    kept = {zlib.decompress(value): len(value) for value in streamcache._load(name).values()}
    last = set(_streams(_pdf(renderings[-1], kept=False)))
    assert last <= set(kept)
    last_bytes = sum(len(zlib.compress(stream)) for stream in last)
    assert last_bytes < sum(kept.values()) <= 2 * last_bytes


@pytest.mark.parametrize("damage", ["truncated", "foreign", "lengths"])
def test_a_damaged_or_foreign_entry_is_ignored(cache: Path, deflated: list[bytes], damage: str) -> None:
    plain = _pdf(WORDS, kept=False)
    with kept_streams(WHAT):
        _pdf(WORDS)
    name = deflated_entry_name(streamcache.AREA, streamcache.FORMAT, WHAT)
    assert name is not None
    path = cache / streamcache.AREA / name
    if damage == "truncated":
        path.write_bytes(path.read_bytes()[:-10])
    elif damage == "foreign":  # another document's genuine entry copied over this one
        with kept_streams("other/zh-Hant/components"):
            _pdf(["other"])
        other = deflated_entry_name(streamcache.AREA, streamcache.FORMAT, "other/zh-Hant/components")
        assert other is not None
        shutil.copyfile(cache / streamcache.AREA / other, path)
    else:  # signed by pnp, but its lengths do not add up: read as nothing
        payload = diskcache.read(streamcache.AREA, name, 1 << 20)
        assert payload is not None
        head, _, body = payload.partition(b"\n")
        diskcache.write(streamcache.AREA, name, head + b"\n" + body + b"extra")
        assert streamcache._load(name) == {}
    deflated.clear()
    with kept_streams(WHAT):
        assert _pdf(WORDS) == plain
    assert len(deflated) == 2 * len(WORDS) + 1


def test_with_the_cache_turned_off_nothing_is_kept(cache: Path, monkeypatch: pytest.MonkeyPatch,
                                                  deflated: list[bytes]) -> None:
    monkeypatch.setenv("PNP_CACHE_DIR", "")
    plain = _pdf(WORDS, kept=False)
    for _ in range(2):
        deflated.clear()
        with kept_streams(WHAT):
            assert _pdf(WORDS) == plain
        assert deflated == []  # deflate_through_entry did nothing: reportlab deflated on its own
    assert not cache.exists()


def test_an_ability_edit_and_its_undo_in_new_processes_write_a_cold_builds_bytes(tmp_path: Path) -> None:
    """What the issue's ability edit does: builds in new processes, the disk cache on, each
    writing the components a build with no cache at all writes of the same cards."""
    workspace = tmp_path / "ws"
    for part in ("card_data", "templates"):
        shutil.copytree(ROOT / part / "aizhewudi", workspace / part / "aizhewudi")
    cards = workspace / "card_data" / "aizhewudi" / "components.yaml"

    def build(out: str, cache: str) -> dict[str, bytes]:
        env = {**os.environ, "PNP_CACHE_DIR": cache}
        subprocess.run([sys.executable, "-m", "pnp", "--root", str(workspace), "build", "aizhewudi", "--lang",
                        "all", "--out", str(tmp_path / out)], check=True, env=env, cwd=ROOT, capture_output=True)
        return {lang: (tmp_path / out / "aizhewudi" / lang / "components.pdf").read_bytes()
                for lang in ("zh-Hant", "zh-Hans")}

    folder = str(tmp_path / "cache")
    first = previous = build("kept", folder)
    for step, (old, new) in enumerate([("必須亮出這張牌", "必須翻開這張牌"), ("必須翻開這張牌", "必須亮出這張牌")]):
        edit(cards, old, new)
        after = build("kept", folder)
        assert after == build(f"plain{step}", ""), f"edit {step + 1}"
        assert after != previous
        previous = after
    assert previous == first, "the edit undone"
    assert any((tmp_path / "cache" / streamcache.AREA).iterdir())
