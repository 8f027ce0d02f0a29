"""Golden terms for 誰是牛頭王 SP's glossary (card_data/niutouwang/glossary.yaml), both directions.

Independent of pnp's conversion module: it reads the glossary as data and checks the traps
that justify it against plain OpenCC. The game's source is zh-Hant, so the build converts
with tw2s; every pair must also hold the other way (s2tw), as in every game's glossary.
"""

from __future__ import annotations

import opencc
import pytest

from tests.text.glossary_support import assert_pair_both_ways, assert_well_formed, glossary_terms

# zh-Hant (the source) -> zh-Hans, written by hand.
GOLDEN = {
    "紀錄": "记录",
    "誰是牛頭王": "谁是牛头王",
    "牛頭": "牛头",
    "牛頭數": "牛头数",
    "扣分": "扣分",
    "基數": "基数",
    "挨打": "挨打",
    "挨": "挨",
    "配對打法": "配对打法",
    "座位號": "座位号",
    "第六張": "第六张",
    "數字牌": "数字牌",
    "參考卡": "参考卡",
    "計分表": "计分表",
    "只": "只",
    "擺": "摆",
    "裡": "里",
    "拚命": "拼命",
    "報紙捲": "报纸卷",
    "台灣": "台湾",
    "部落格": "博客",
}


@pytest.fixture(scope="module")
def terms() -> list[dict[str, str]]:
    return glossary_terms("niutouwang")


def test_entries_are_well_formed_and_unambiguous(terms):
    assert_well_formed(terms)


def test_golden_covers_the_glossary(terms):
    assert {t["zh-Hant"] for t in terms} == set(GOLDEN)


@pytest.mark.parametrize(("hant", "hans"), sorted(GOLDEN.items()))
def test_golden_term_both_ways(terms, hant, hans):
    assert_pair_both_ways(terms, hant=hant, hans=hans)


def test_plain_s2tw_falls_into_the_traps_the_glossary_pins(terms):
    s2tw = opencc.OpenCC("s2tw")
    # 牛只 is read as 牛隻 "cattle": "the bulls can only…" becomes "the cattle can…".
    assert s2tw.convert("通道里的牛只能照号码排") == "通道里的牛隻能照號碼排"
    assert s2tw.convert("每列最多只能放五张") == "每列最多隻能放五張"
    # …and the same sentence keeps 里 "mile" where 裡 "inside" was meant.
    assert "通道里" in s2tw.convert("通道里的牛")
    # 挨打 comes back as the variant 捱打; 摆 as 襬 "hem"; 拼命 loses Taiwan's 拚.
    assert s2tw.convert("人人都要挨打") == "人人都要捱打"
    assert s2tw.convert("由上往下摆在桌子中央") == "由上往下襬在桌子中央"
    assert s2tw.convert("拼命少收牛头") == "拼命少收牛頭"
    assert s2tw.convert("报纸卷") == "報紙卷"
    assert s2tw.convert("台湾") == "臺灣"
    pinned = {(t["zh-Hans"], t["zh-Hant"]) for t in terms}
    assert {("只", "只"), ("里", "裡"), ("挨", "挨"), ("摆", "擺")} <= pinned


def test_plain_tw2s_needs_the_glossary_only_for_vocabulary():
    tw2s = opencc.OpenCC("tw2s")
    # A variant-level config changes characters, never words: the blog stays 部落格, and a
    # game record comes out as 纪录 (a feat), not the 记录 the mainland writes.
    assert tw2s.convert("部落格") == "部落格"
    assert tw2s.convert("對局紀錄") == "对局纪录"
    for hant, hans in GOLDEN.items():
        if hant not in ("部落格", "紀錄"):
            assert tw2s.convert(hant) == hans


def test_the_pinned_words_survive_a_sentence_both_ways(terms):
    """Cut at the glossary terms (longest first), convert the rest: the pnp way, by hand."""
    def convert(text: str, config: str, pairs: dict[str, str]) -> str:
        cc = opencc.OpenCC(config)
        keys = sorted(pairs, key=len, reverse=True)
        out, pending, i = [], 0, 0
        while i < len(text):
            hit = next((k for k in keys if text.startswith(k, i)), None)
            if hit is None:
                i += 1
                continue
            out += [cc.convert(text[pending:i]), pairs[hit]]
            i += len(hit)
            pending = i
        return "".join(out) + cc.convert(text[pending:])

    to_hans = {t["zh-Hant"]: t["zh-Hans"] for t in terms}
    to_hant = {t["zh-Hans"]: t["zh-Hant"] for t in terms}
    hant = "通道裡的牛只能照號碼排，扣分最少的人挨打最多下，由上往下擺好。"
    hans = "通道里的牛只能照号码排，扣分最少的人挨打最多下，由上往下摆好。"
    assert convert(hant, "tw2s", to_hans) == hans
    assert convert(hans, "s2tw", to_hant) == hant
