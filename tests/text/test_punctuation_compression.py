"""Adjacent full-width punctuation closes up in the rulebook (JIS X 4051 / clreq punctuation
compression), read back from the built PDFs: in 」， ）。 」： and the like the first mark is set
half width, so the second follows half an em after it instead of a whole em (plus whatever
justification added). Before, every such pair showed a half-em hole between the two marks."""

from __future__ import annotations

from pathlib import Path

import pytest

from pnp.build.pipeline import build
from pnp.core.workspace import Workspace
from tests.text.test_justification import BODY_SIZE, body_lines

ROOT = Path(__file__).resolve().parents[2]
BRACKETS = "）」』》〉”"  # closing brackets and quotes: ink on the left, a half em blank on the right
CLOSING = "，。、；：" + BRACKETS
OPENING = "「『（《〈“"
UNTOUCHED = "？！"  # keep their space (squeezed, they crowd the next sentence)


GAMES = ("tisigui", "wurenshenghuan")  # between them, every kind of pair in both scripts


@pytest.fixture(scope="module")
def rulebooks(tmp_path_factory) -> dict[str, list[Path]]:
    out = tmp_path_factory.mktemp("compressed")
    workspace = Workspace(ROOT)
    for game in GAMES:
        build(workspace, game, "all", "a4", out)
    return {lang: [out / game / lang / "rulebook.pdf" for game in GAMES] for lang in ("zh-Hant", "zh-Hans")}


def steps(paths: list[Path]) -> list[tuple[str, float]]:
    """(two adjacent characters of a body line, how far apart their glyphs are in ems)."""
    out = []
    for path in paths:
        for _, _, chars in body_lines(path):
            for (x1, a), (x2, b) in zip(chars, chars[1:], strict=False):
                out.append((a + b, (x2 - x1) / BODY_SIZE))
    return out


def check_compressed(paths: list[Path]) -> int:
    """Asserts every closing bracket followed by a closing or opening mark is set half width
    (a line that squeezes its punctuation to hold one more character may take a little of the
    second mark's blank as well), and returns how many pairs are exactly half an em apart."""
    exact = 0
    for pair, step in steps(paths):
        if pair[0] in BRACKETS and (pair[1] in CLOSING or pair[1] in OPENING):
            assert 0.3 <= step <= 0.55, (paths, pair, step)  # 》 has 0.47 em to give
            exact += step == pytest.approx(0.5, abs=1e-3)
    return exact


@pytest.mark.parametrize("lang", ["zh-Hant", "zh-Hans"])
def test_a_closing_bracket_before_another_mark_is_set_half_width(rulebooks, lang):
    # 」， 」。 」： ）， ）。 ）、 …: a whole em apart before, and more on a justified line.
    assert check_compressed(rulebooks[lang]) >= 10


def test_a_stop_before_a_bracket_closes_up_by_its_blank_side(rulebooks):
    # zh-Hans sets 。，、：； to the left of the em: 。」 closes up by half an em; zh-Hant centres
    # them, so the stop has only its right quarter em to give (。」 three quarters apart). Before
    # an opening bracket the bracket's blank left half gives the rest: ，「 half an em apart.
    for lang, closing in (("zh-Hans", 0.5), ("zh-Hant", 0.75)):
        for after, expected in ((BRACKETS, closing), (OPENING, 0.5)):
            pairs = [step for pair, step in steps(rulebooks[lang]) if pair[0] in "，。、；：" and pair[1] in after]
            assert pairs, (lang, after)
            assert all(expected - 0.25 <= step <= expected + 0.01 for step in pairs), (lang, after, pairs)
            assert any(step == pytest.approx(expected, abs=0.01) for step in pairs), (lang, after, pairs)


def test_other_characters_keep_their_whole_em(rulebooks):
    # Nothing else closes up: ？」 keeps its space, and so does every pair of characters without
    # a compressible mark (a justified line only ever spaces them further apart).
    for lang, paths in rulebooks.items():
        pairs = steps(paths)
        plain = [(pair, step) for pair, step in pairs
                 if not set(pair) & set(CLOSING + OPENING)
                 and all("\u3400" <= ch <= "\u9fff" for ch in pair)]
        assert len(plain) > 1000
        assert all(step >= 1 - 1e-3 for _, step in plain), \
            (lang, [(pair, round(step, 3)) for pair, step in plain if step < 1 - 1e-3][:5])
        kept = [step for pair, step in pairs if pair[0] in UNTOUCHED and pair[1] in BRACKETS]
        assert kept and all(step >= 1 - 1e-3 for step in kept), (lang, kept)
