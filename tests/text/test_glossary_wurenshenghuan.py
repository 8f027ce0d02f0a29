"""Golden terms for 無人生還's glossary (card_data/wurenshenghuan/glossary.yaml), both directions.

Independent of pnp's conversion module: it reads the glossary as data and checks the traps
that justify it against plain OpenCC. The game's source is zh-Hant (Taiwan usage), so the
build converts with tw2s; the pairs must also hold the other way round.
"""

from __future__ import annotations

import opencc
import pytest

from tests.text.glossary_support import assert_pair_both_ways, assert_well_formed, glossary_terms

# zh-Hant -> zh-Hans, written by hand.
GOLDEN = {
    # Taiwan words the Simplified edition must not keep.
    "身分": "身份",
    "身分卡": "身份卡",
    "列印": "打印",
    "紀錄": "记录",
    "紀錄表": "记录表",
    "專案": "项目",
    "阿嘉莎·克莉絲蒂": "阿加莎·克里斯蒂",
    # The game and its core words.
    "無人生還": "无人生还",
    "兇手": "凶手",
    "凶器": "凶器",
    "殺人": "杀人",
    "嫁禍": "嫁祸",
    "盤查": "盘查",
    "囚禁": "囚禁",
    "詐死": "诈死",
    "將計就計": "将计就计",
    "已知存活": "已知存活",
    "遇害": "遇害",
    "角色卡": "角色卡",
    "物品卡": "物品卡",
    "牌庫": "牌库",
    "猜測紙條": "猜测纸条",
    "鑰匙": "钥匙",
    "看板": "看板",
    # Weapons W1..W10.
    "毒酒": "毒酒",
    "安眠藥": "安眠药",
    "短棍": "短棍",
    "斧頭": "斧头",
    "針筒": "针筒",
    "手槍": "手枪",
    "大理石鐘": "大理石钟",
    "繩索": "绳索",
    "匕首": "匕首",
    "燭台": "烛台",
    # Characters A–J.
    "溫法官": "温法官",
    "柯老師": "柯老师",
    "龍先生": "龙先生",
    "白女士": "白女士",
    "麥將軍": "麦将军",
    "安醫師": "安医师",
    "馬少爺": "马少爷",
    "卜探長": "卜探长",
    "羅管家": "罗管家",
    "羅太太": "罗太太",
}

# Pairs where plain OpenCC tw2s keeps Taiwan usage (or the Taiwan transliteration) and the
# glossary has to step in: what tw2s alone gives.
TW2S_TRAPS = {
    "身分": "身分",
    "身分卡": "身分卡",
    "列印": "列印",
    "紀錄": "纪录",
    "紀錄表": "纪录表",
    "專案": "专案",
    "阿嘉莎·克莉絲蒂": "阿嘉莎·克莉丝蒂",
}


@pytest.fixture(scope="module")
def terms() -> list[dict[str, str]]:
    return glossary_terms("wurenshenghuan")


def test_entries_are_well_formed_and_unambiguous(terms):
    assert_well_formed(terms)


@pytest.mark.parametrize(("hant", "hans"), sorted(GOLDEN.items()))
def test_golden_term_both_ways(terms, hant, hans):
    assert_pair_both_ways(terms, hant=hant, hans=hans)


def test_every_glossary_term_has_a_golden_entry(terms):
    assert {t["zh-Hant"]: t["zh-Hans"] for t in terms} == GOLDEN


@pytest.mark.parametrize(("hant", "plain"), sorted(TW2S_TRAPS.items()))
def test_plain_tw2s_falls_into_the_traps_the_glossary_pins(hant, plain):
    assert opencc.OpenCC("tw2s").convert(hant) == plain
    assert plain != GOLDEN[hant]


# The way back: where plain s2tw picks the wrong one of several Traditional characters for
# one Simplified character (钟 = 鐘 clock / 鍾; 台 = 台 / 臺; 凶 = 凶 / 兇), or keeps mainland
# usage. What s2tw alone gives.
S2TW_TRAPS = {
    "大理石钟": "大理石鍾",
    "烛台": "燭臺",
    "凶器": "兇器",
    "身份": "身份",
    "身份卡": "身份卡",
    "打印": "打印",
    "记录": "記錄",
    "记录表": "記錄表",
    "项目": "項目",
    "阿加莎·克里斯蒂": "阿加莎·克里斯蒂",
}


@pytest.mark.parametrize(("hans", "plain"), sorted(S2TW_TRAPS.items()))
def test_plain_s2tw_falls_into_the_traps_the_glossary_pins(hans, plain):
    assert opencc.OpenCC("s2tw").convert(hans) == plain
    assert {v: k for k, v in GOLDEN.items()}[hans] != plain


def test_plain_opencc_agrees_on_the_other_terms():
    tw2s, s2tw = opencc.OpenCC("tw2s"), opencc.OpenCC("s2tw")
    for hant, hans in GOLDEN.items():
        if hant not in TW2S_TRAPS:
            assert tw2s.convert(hant) == hans, hant
        if hans not in S2TW_TRAPS:
            assert s2tw.convert(hans) == hant, hans


def test_glossary_makes_the_converter_right_in_running_text(terms):
    from pnp.data.model import GlossaryTerm
    from pnp.text.convert import make_converter

    glossary = [GlossaryTerm(t["zh-Hans"], t["zh-Hant"], "glossary.yaml") for t in terms]
    convert = make_converter("zh-Hant", "zh-Hans", glossary)
    assert convert("每人抽一張身分卡，兇手也要拿。") == "每人抽一张身份卡，凶手也要拿。"
    assert convert("請用雙面列印，紀錄表只有正面。") == "请用双面打印，记录表只有正面。"
    assert convert("由 pnp 專案重新撰寫") == "由 pnp 项目重新撰写"
    assert convert("改編自阿嘉莎·克莉絲蒂 1939 年的推理小說") == "改编自阿加莎·克里斯蒂 1939 年的推理小说"
    assert convert("活著的角色每次翻 1 張；把它們記在紀錄表上，之後回想。") == \
        "活着的角色每次翻 1 张；把它们记在记录表上，之后回想。"
