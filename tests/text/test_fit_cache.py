"""Fitted text kept in the disk cache (pnp.text.fitcache): the same bytes as fitting afresh, only
changed text fitted again, and one entry per game, script, fonts and pnp."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from pnp.build.pipeline import load_games, render_game
from pnp.core import diskcache
from pnp.core.workspace import BUNDLED_FONTS, Workspace
from pnp.games.registry import tables_from_engine
from pnp.text import fitcache, shrink
from pnp.text.fonts import load_family, measure_for
from pnp.text.linetypes import Run
from tests.conftest import edit, game_workspace

OLD, NEW = "role: 找出碟仙的替身，指认正确就得分", "role: 找出碟仙的替身，指认对了就得分"


@pytest.fixture
def workspace(tmp_path: Path) -> Path:
    return game_workspace(tmp_path, "tisigui")


@pytest.fixture
def fitted(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The text of every fit worked out, not answered from the disk cache."""
    texts: list[str] = []
    real = shrink.fit_text

    def spy(runs, *args, **kwargs):
        texts.append("".join(run.text for run in runs))
        return real(runs, *args, **kwargs)

    monkeypatch.setattr(shrink, "fit_text", spy)
    return texts


def components(workspace: Path, lang: str = "zh-Hant") -> bytes:
    ws = Workspace(workspace)
    game, = load_games(ws, ["tisigui"], tables_from_engine)
    artifact, = render_game(ws, game, lang, "a4", kinds=["components"])
    return artifact.data


def test_cached_fits_draw_the_same_bytes_and_nothing_is_fitted_again(cache, workspace, fitted, monkeypatch):
    first = components(workspace)
    assert fitted and any((cache / fitcache.AREA).iterdir())
    fitted.clear()
    assert components(workspace) == first
    assert fitted == []
    monkeypatch.setenv("PNP_CACHE_DIR", "")  # no cache at all: fitted afresh, the same bytes
    assert components(workspace) == first
    assert fitted


def test_an_edit_fits_only_the_edited_text_again(cache, workspace, fitted):
    components(workspace)
    edit(workspace / "card_data/tisigui/components.yaml", OLD, NEW)
    fitted.clear()
    edited = components(workspace)
    assert fitted and all("對了" in text for text in fitted)
    fitted.clear()
    assert components(workspace) == edited
    assert fitted == []
    # The entry holds what the last rendering asked: the old text is fitted again when it is back.
    edit(workspace / "card_data/tisigui/components.yaml", NEW, OLD)
    components(workspace)
    assert fitted and all("正確" in text for text in fitted)


def test_an_entry_per_game_and_script_fonts_and_pnp(cache, monkeypatch):
    fonts = load_family(BUNDLED_FONTS, "zh-Hant")
    name = fitcache._entry_name(fonts, "tisigui/zh-Hant/components")
    assert name is not None
    assert fitcache._entry_name(fonts, "tisigui/zh-Hans/components") != name
    monkeypatch.setattr(fitcache, "pnp_fingerprint", lambda: "another pnp")
    assert fitcache._entry_name(fonts, "tisigui/zh-Hant/components") != name
    monkeypatch.undo()
    monkeypatch.setenv("PNP_CACHE_DIR", str(cache))
    real = diskcache.file_sha256
    monkeypatch.setattr(diskcache, "file_sha256", lambda path, data=None: "0" * 64 if "Bold" in path.name
                        else real(path, data))
    assert fitcache._entry_name(fonts, "tisigui/zh-Hant/components") != name


def test_a_fit_comes_back_from_json_as_it_was():
    measure = measure_for(load_family(BUNDLED_FONTS, "zh-Hant"))
    texts = ["替死鬼", "找出碟仙的替身，指認正確就得分", "ABC 123 與「碟仙」", "很長" * 40]
    for text in texts:
        for bold in (False, True):
            for box in ((20.0, 10.0), (60.5, 7.25), (3.0, 3.0)):
                fit = shrink.fit_text([Run(text, bold)], box[0] * 2.83, box[1] * 2.83, 12, 5, measure)
                back = fitcache._decode_fit(json.loads(json.dumps(fitcache._encode_fit(fit))))
                assert back == fit
                if fit is not None:
                    assert [type(n) for n in (back.size, back.leading)] == [type(n) for n in (fit.size, fit.leading)]


def test_an_unreadable_entry_is_fitted_afresh(cache, workspace, fitted):
    first = components(workspace)
    for entry in (cache / fitcache.AREA).iterdir():
        entry.write_bytes(entry.read_bytes()[:-10])  # no longer what pnp signed
    fitted.clear()
    assert components(workspace) == first
    assert fitted


@pytest.fixture
def set_afresh(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The text of every book paragraph broken into lines, not answered from the disk cache
    (a table's captions are set apart, and not kept)."""
    from types import SimpleNamespace

    from pnp.text import setting

    texts: list[str] = []

    def spy(runs, *args, **kwargs):
        texts.append("".join(run.text for run in runs))
        return setting.set_lines(runs, *args, **kwargs)

    monkeypatch.setattr(fitcache, "setting", SimpleNamespace(set_lines=spy))
    return texts


def rulebook(workspace: Path, lang: str = "zh-Hant") -> bytes:
    from pnp.rulebook import paragraph

    paragraph._SET_LINES.clear()  # the process's own memo: each call here is a new build's
    ws = Workspace(workspace)
    game, = load_games(ws, ["tisigui"], tables_from_engine)
    artifact, = render_game(ws, game, lang, "a4", kinds=["rulebook"])
    return artifact.data


def test_a_book_set_from_kept_lines_has_the_same_bytes_and_an_edit_sets_only_its_paragraph(
        cache, tmp_path, set_afresh, monkeypatch):
    workspace = game_workspace(tmp_path, "tisigui", templates=True)
    first = rulebook(workspace)
    assert set_afresh and any((cache / fitcache.AREA).iterdir())
    set_afresh.clear()
    assert rulebook(workspace) == first
    assert set_afresh == []
    template = workspace / "templates/tisigui/rulebook.md.j2"
    template.write_text(template.read_text(encoding="utf-8") + "\n多一句说明。\n", encoding="utf-8")
    edited = rulebook(workspace)
    assert edited != first
    assert set_afresh and all("多一句" in text for text in set_afresh)
    monkeypatch.setenv("PNP_CACHE_DIR", "")  # no cache at all: every paragraph set afresh, the same bytes
    set_afresh.clear()
    assert rulebook(workspace) == edited
    assert len(set_afresh) > 50


def test_a_process_that_builds_again_keeps_every_setting_in_the_disk_cache(cache, tmp_path,
                                                                           set_afresh):
    # serve and build --watch set a book again in one process, where the paragraphs' own memo
    # answers first: the entry that build leaves must still hold every setting, so the next
    # process (the memo empty) sets none afresh.
    from pnp.rulebook import paragraph

    workspace = game_workspace(tmp_path, "tisigui", templates=True)
    first = rulebook(workspace)
    ws = Workspace(workspace)
    game, = load_games(ws, ["tisigui"], tables_from_engine)
    again, = render_game(ws, game, "zh-Hant", "a4", kinds=["rulebook"])  # the memo kept
    assert again.data == first
    paragraph._SET_LINES.clear()
    set_afresh.clear()
    assert rulebook(workspace) == first
    assert set_afresh == []
