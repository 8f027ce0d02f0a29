"""Golden terms for 替死鬼's glossary (card_data/tisigui/glossary.yaml), both directions.

Independent of pnp's conversion module: it reads the glossary as data and checks the traps
that justify it against plain OpenCC.
"""

from __future__ import annotations

import opencc
import pytest

from tests.text.glossary_support import assert_pair_both_ways, assert_well_formed, glossary_terms

# zh-Hans -> zh-Hant, written by hand.
GOLDEN = {
    "替死鬼": "替死鬼",
    "大局": "大局",
    "小局": "小局",
    "大局值": "大局值",
    "大局骰": "大局骰",
    "小局骰": "小局骰",
    "碟仙": "碟仙",
    "碟子": "碟子",
    "替身": "替身",
    "遮蔽板": "遮蔽板",
    "是非板": "是非板",
    "身份牌": "身份牌",
    "问题标记": "問題標記",
    "分数标记": "分數標記",
    "小方块": "小方塊",
    "号码格": "號碼格",
    "起始玩家": "起始玩家",
    "指认": "指認",
    "确认": "確認",
    "局限": "局限",
    "一周": "一周",
    "最多只": "最多只",
    "折成": "摺成",
    "折好": "摺好",
    "对折": "對摺",
    "pnp 项目": "pnp 專案",
    "重新制作": "重新製作",
    "纸制": "紙製",
    "阿杰": "阿杰",
}


@pytest.fixture(scope="module")
def terms() -> list[dict[str, str]]:
    return glossary_terms("tisigui")


def test_entries_are_well_formed_and_unambiguous(terms):
    assert_well_formed(terms)


@pytest.mark.parametrize(("hans", "hant"), sorted(GOLDEN.items()))
def test_golden_term_both_ways(terms, hans, hant):
    assert_pair_both_ways(terms, hant=hant, hans=hans)


def test_plain_s2tw_falls_into_the_traps_the_glossary_pins(terms):
    s2tw = opencc.OpenCC("s2tw")
    # 局 (a round) + 限 (limited to) is read as 局限 "limitation" and becomes 侷限.
    assert s2tw.convert("每局限用两个问题标记") == "每侷限用兩個問題標記"
    assert s2tw.convert("每个大局限用") == "每個大侷限用"
    # 一周 (once around the table) is read as a week.
    assert s2tw.convert("绕桌一周") == "繞桌一週"
    # 多只 is read as "many (animals)".
    assert s2tw.convert("替身最多只有一个") == "替身最多隻有一個"
    # Folding comes out in two forms: 摺好 but 折成.
    assert s2tw.convert("剪下、折好") == "剪下、摺好"
    assert s2tw.convert("沿虚线折成立牌") == "沿虛線折成立牌"
    # 重新制 is a phrase of s2tw's, so 制作 (to make) stays 制作 after 重新.
    assert s2tw.convert("每次重新制作规则书") == "每次重新制作規則書"
    # A project is 專案 in Taiwan; s2tw keeps 項目 ("item").
    assert s2tw.convert("由 pnp 项目重新撰写") == "由 pnp 項目重新撰寫"
    pinned = {(t["zh-Hans"], t["zh-Hant"]) for t in terms}
    assert {("局限", "局限"), ("大局", "大局"), ("一周", "一周"), ("折成", "摺成"), ("重新制作", "重新製作")} <= pinned


# Terms whose Taiwan form is a different word, not a different script: plain tw2s cannot bring
# them back, so only the glossary (checked both ways above) carries them.
WORD_CHANGES = {"pnp 项目": "pnp 专案"}


def test_plain_tw2s_brings_the_pinned_forms_back():
    tw2s = opencc.OpenCC("tw2s")
    for hans, hant in GOLDEN.items():
        assert tw2s.convert(hant) == WORD_CHANGES.get(hans, hans)
