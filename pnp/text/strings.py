"""The tool's own words printed on sheets and rulebooks, in both scripts.

Game text comes from card_data in one source script; these few labels belong to pnp itself,
so they are written once per script here and covered by the script-purity tests.
"""

from __future__ import annotations

STRINGS: dict[str, dict[str, str]] = {
    "zh-Hant": {
        "front": "正面",
        "back": "背面",
        "sheet": "第 {number} 張，共 {total} 張",
        "version": "版本 {version}（{date}）",
        "ruler": "50 mm（量一量：不是 50 mm 請用實際大小重印）",
        "no_backs": "本張沒有背面內容，雙面列印時保持空白",
        "page": "第 {number} 頁",
        "sep": "・",
        "list_sep": "、",
        "table_caption": "表 {number}　{title}",
        "figure_caption": "圖 {number}　{caption}",
        "aid": "玩家速查卡",
        "ruling": "本版補充",
    },
    "zh-Hans": {
        "front": "正面",
        "back": "背面",
        "sheet": "第 {number} 张，共 {total} 张",
        "version": "版本 {version}（{date}）",
        "ruler": "50 mm（量一量：不是 50 mm 请用实际大小重印）",
        "no_backs": "本张没有背面内容，双面打印时保持空白",
        "page": "第 {number} 页",
        "sep": "・",
        "list_sep": "、",
        "table_caption": "表 {number}　{title}",
        "figure_caption": "图 {number}　{caption}",
        "aid": "玩家速查卡",
        "ruling": "本版补充",
    },
}


def ui(lang: str, key: str, **values: object) -> str:
    return STRINGS[lang][key].format(**values)
