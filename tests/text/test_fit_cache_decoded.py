"""An entry of the fit cache read back by the process that wrote or read it is not decoded
again, and answers as the decoded JSON does; an entry changed on disk is decoded afresh."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from pnp.core.workspace import BUNDLED_FONTS
from pnp.text import fitcache
from pnp.text.fonts import load_family, measure_for
from pnp.text.linetypes import Run

TEXTS = ("找出碟仙的替身，指认正确就得分", "只有自己回合的提问可以说谎")


def _fit_all(fonts: Any) -> list[Any]:
    measure = measure_for(fonts)
    fitcache.set_lines([Run(TEXTS[0])], 40.0, 9.0, measure)
    return [fitcache.fit_text([Run(text)], 30.0, 12.0, 9.0, 5.0, measure) for text in TEXTS]


def test_an_entry_written_or_read_before_is_not_decoded_again(cache: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(fitcache, "_DECODED", type(fitcache._DECODED)())
    fonts = load_family(BUNDLED_FONTS, "zh-Hans")
    with fitcache.remembered(fonts, "test/decoded"):
        fresh = _fit_all(fonts)
    decoded: list[int] = []
    decode = fitcache._decode_fit

    def counted(value: Any) -> Any:
        decoded.append(1)
        return decode(value)

    monkeypatch.setattr(fitcache, "_decode_fit", counted)
    name = fitcache._entry_name(fonts, "test/decoded")
    assert name is not None
    kept_fits, kept_lines = fitcache._load(name)
    assert not decoded, "the entry this process stored is read back without decoding"
    assert list(kept_fits.values()) == fresh

    monkeypatch.setattr(fitcache, "_DECODED", type(fitcache._DECODED)())
    decoded_fits, decoded_lines = fitcache._load(name)
    assert len(decoded) == len(TEXTS)
    assert (decoded_fits, decoded_lines) == (kept_fits, kept_lines), "what the memo answers is what the JSON decodes to"
    assert len(decoded_lines) == 1
    decoded.clear()
    assert fitcache._load(name)[0] == decoded_fits
    assert not decoded, "an entry decoded once is not decoded again"

    entry, = (cache / fitcache.AREA).iterdir()
    entry.write_bytes(entry.read_bytes()[:-10])  # not what pnp signed: read as no entry
    assert fitcache._load(name) == ({}, {})
