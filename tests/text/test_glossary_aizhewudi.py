"""Golden terms for 愛者無敵's glossary (card_data/aizhewudi/glossary.yaml), both directions.

The game's source is zh-Hant, so the direction that matters at build time is tw2s. The
glossary is read as data and checked against plain OpenCC, so the traps that justify each
pinned pair are proved here, not just asserted in a comment.
"""

from __future__ import annotations

import opencc
import pytest

from pnp.data.model import GlossaryTerm
from pnp.text.convert import make_converter
from tests.text.glossary_support import assert_pair_both_ways, assert_well_formed, glossary_terms

# zh-Hant -> zh-Hans, written by hand.
GOLDEN = {
    # traps
    "紀錄": "记录",
    "專案": "项目",
    "列印": "打印",
    "塑膠花": "塑料花",
    "三心兩意": "三心二意",
    "對摺": "对折",
    "邱比特": "邱比特",
    # core words
    "愛者無敵": "爱者无敌",
    "搶婚喔！！！先搶先贏！": "抢婚喔！！！先抢先赢！",
    "嫁給我吧！！！": "嫁给我吧！！！",
    "搶婚": "抢婚",
    "嫁給我吧": "嫁给我吧",
    "逃婚": "逃婚",
    "被愛標記": "被爱标记",
    "花心標記": "花心标记",
    "被愛": "被爱",
    "花心": "花心",
    "花心蘿蔔": "花心萝卜",
    "證婚人": "证婚人",
    "證婚人步驟卡": "证婚人步骤卡",
    "鈔票": "钞票",
    "基金": "基金",
    "愛情基金": "爱情基金",
    "分錢": "分钱",
    "角色牌": "角色牌",
    "行動牌": "行动牌",
    "能力牌": "能力牌",
    "紙花": "纸花",
    "輪次板": "轮次板",
    "輪次標記": "轮次标记",
    "瞄準": "瞄准",
    "退縮": "退缩",
    "出局": "出局",
    "教堂東主": "教堂东主",
    "花店老闆": "花店老板",
    "未成年": "未成年",
    "公主": "公主",
    "千面人": "千面人",
    "女王": "女王",
    "新郎不是你": "新郎不是你",
    "花花公子": "花花公子",
    "強盜理論": "强盗理论",
    "視而不見": "视而不见",
}

# Pairs plain tw2s would get wrong: the reason each is in the glossary.
TW2S_TRAPS = {"專案": "专案", "列印": "列印", "塑膠花": "塑胶花", "三心兩意": "三心两意", "紀錄": "纪录"}


@pytest.fixture(scope="module")
def terms() -> list[dict[str, str]]:
    return glossary_terms("aizhewudi")


def test_entries_are_well_formed_and_unambiguous(terms):
    assert_well_formed(terms)


def test_every_glossary_term_has_a_golden_pair(terms):
    assert {t["zh-Hant"] for t in terms} == set(GOLDEN)


@pytest.mark.parametrize(("hant", "hans"), sorted(GOLDEN.items()))
def test_golden_term_both_ways(terms, hant, hans):
    assert_pair_both_ways(terms, hant=hant, hans=hans)


def test_plain_opencc_falls_into_the_traps_the_glossary_pins(terms):
    tw2s = opencc.OpenCC("tw2s")
    for hant, wrong in TW2S_TRAPS.items():
        assert tw2s.convert(hant) == wrong
        assert GOLDEN[hant] != wrong
    # In a sentence: Taiwan vocabulary survives character conversion untouched.
    assert tw2s.convert("請用雙面列印") == "请用双面列印"
    # The phrase-level config reads 比特 as "bit" and makes Cupid 邱位元.
    assert opencc.OpenCC("s2twp").convert("邱比特") == "邱位元"
    pinned = {(t["zh-Hant"], t["zh-Hans"]) for t in terms}
    assert {("專案", "项目"), ("列印", "打印"), ("三心兩意", "三心二意"),
            ("邱比特", "邱比特")} <= pinned


def test_plain_tw2s_agrees_with_the_other_pins():
    tw2s = opencc.OpenCC("tw2s")
    for hant, hans in GOLDEN.items():
        if hant not in TW2S_TRAPS:
            assert tw2s.convert(hant) == hans


def test_the_build_converter_applies_the_glossary(terms):
    glossary = [GlossaryTerm(t["zh-Hans"], t["zh-Hant"], "glossary") for t in terms]
    to_hans = make_converter("zh-Hant", "zh-Hans", glossary)
    assert to_hans("行動牌、鈔票和能力牌請用雙面列印。") == "行动牌、钞票和能力牌请用双面打印。"
    assert to_hans("沒有塑膠花也沒關係") == "没有塑料花也没关系"
    assert to_hans("9. 三心兩意") == "9. 三心二意"
    assert to_hans("由 pnp 專案重新撰寫") == "由 pnp 项目重新撰写"
    assert to_hans("大家齊喊「花心蘿蔔！」") == "大家齐喊“花心萝卜！”"
    assert to_hans("打出「搶婚喔！！！先搶先贏！」的人") == "打出“抢婚喔！！！先抢先赢！”的人"
