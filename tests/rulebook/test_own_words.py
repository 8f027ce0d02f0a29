"""The project's texts are written in its own words: no run of nine Chinese characters in a
rulebook, narration or card text is taken from the forum posts the games were prepared from.

The posts live outside the repository (../shared/seeds beside it, as on the developers'
machines and in CI); without them the test has nothing to compare and is skipped.
"""

from __future__ import annotations

import opencc
import pytest

from tests.conftest import ROOT

SEEDS = ROOT.parent / "shared" / "seeds"
RUN = 9  # Chinese characters; shorter runs are game terms and stock phrases
SOURCES = {
    "tisigui": ["tisigui-rev2-zh-Hans.txt", "tisigui-classic-zh-Hant.txt"],
    "wurenshenghuan": ["wurenshenghuan-zh-Hant.txt"],
    "niutouwang": ["niutouwang-sp-zh-Hant.txt"],
    "aizhewudi": ["aizhewudi-zh-Hant.txt"],
}
# Names may be quoted: the designer's forum name appears in the credits on purpose.
NAMES = ("所谓温暖人间没有鬼",)
_T2S = opencc.OpenCC("t2s")


def _han(text: str) -> str:
    """Only the Chinese characters, in one script, so wording is compared, not punctuation."""
    han = "".join(ch for ch in _T2S.convert(text) if "\u4e00" <= ch <= "\u9fff")
    for name in NAMES:
        han = han.replace(name, "|")
    return han


def _project_texts(slug: str) -> str:
    files = [ROOT / "templates" / slug / "rulebook.md.j2", ROOT / "templates" / slug / "narration.md.j2",
             *sorted((ROOT / "card_data" / slug).glob("*.yaml"))]
    return "".join(path.read_text(encoding="utf-8") for path in files if path.is_file())


@pytest.mark.skipif(not SEEDS.is_dir(), reason="the source posts (../shared/seeds) are not here")
@pytest.mark.parametrize("slug", sorted(SOURCES))
def test_no_sentence_is_copied_from_the_source_posts(slug):
    ours = _han(_project_texts(slug))
    for name in SOURCES[slug]:
        theirs = _han((SEEDS / name).read_text(encoding="utf-8"))
        runs = {theirs[i:i + RUN] for i in range(len(theirs) - RUN + 1)}
        copied = sorted({ours[i:i + RUN] for i in range(len(ours) - RUN + 1)} & runs)
        assert copied == [], f"{slug}: text shared with {name}: {copied}"
