"""What a table needs from the books and aids, read back from the built PDFs: the things a
book asks players to bring are in its component list and set-up; a term is defined where it
is first used; the plate answers in one wording; each aid carries a whole turn in type that
can be read across the table."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import yaml
from pypdf import PdfReader

from pnp.games.registry import tables_from_engine
from tests.conftest import ROOT
from tests.pdfprobe import text

PAPERS = ("a4", "letter")
LANGS = ("zh-Hant", "zh-Hans")
FOOT = 12 * 72 / 25.4  # points: the aid's foot line (game, version) sits below its 12 mm margin


def _flat(path: Path) -> str:
    """The text of a PDF without its line breaks and spaces, so that a phrase broken over two
    lines reads whole whatever spaces the reader puts round a digit or a bold run; the
    phrases looked for are written without spaces too."""
    return re.sub(r"\s+", "", text(path))


def _section(book: str, start: str, end: str) -> str:
    """The text from heading ``start`` up to heading ``end``."""
    begin = book.index(start)
    return book[begin:book.index(end, begin)]


def _rules(slug: str) -> dict:
    return yaml.safe_load((ROOT / "card_data" / slug / "game.yaml").read_text(encoding="utf-8"))["rules"]


def _weighted(path: Path) -> list[tuple[str, bool]]:
    """Every string the pages draw, in order, with whether it is set in the bold face."""
    found: list[tuple[str, bool]] = []
    for page in PdfReader(path).pages:
        def visit(chunk, cm, tm, font, size):  # noqa: ANN001 - pypdf's visitor
            if chunk.strip():
                found.append((chunk, font is not None and "Bold" in str(font.get("/BaseFont", ""))))
        page.extract_text(visitor_text=visit)
    return found


# --- 愛者無敵: pen and paper --------------------------------------------------------------------

PEN = {"zh-Hant": "紙和筆", "zh-Hans": "纸和笔"}


@pytest.mark.parametrize("lang", LANGS)
def test_aizhewudi_lists_the_pen_and_paper_its_abilities_need(built_books, lang):
    """The advanced rules have players note the money an ability card gives 「用紙筆」, but
    neither the component list nor the set-up said to bring any."""
    book = _flat(built_books / "a4" / "aizhewudi" / lang / "rulebook.pdf")
    hant = lang == "zh-Hant"
    assert "能力牌給的錢" in book if hant else "能力牌给的钱" in book  # the book does ask for them
    components = _section(book, "內容物" if hant else "内容物", "各配件的用途" if hant else "各配件的用途")
    assert PEN[lang] in components
    setup = _section(book, "遊戲準備" if hant else "游戏准备", "一輪的流程" if hant else "一轮的流程")
    assert PEN[lang] in setup
    advanced = _section(book, "準備與通則" if hant else "准备与通则", "各張能力牌" if hant else "各张能力牌")
    assert PEN[lang] in advanced
    aid = _flat(built_books / "a4" / "aizhewudi" / lang / "aid.pdf")
    assert PEN[lang] in aid


# --- 替死鬼: 確認 defined before it is used; one way the plate answers ----------------------------

CONFIRMED = {"zh-Hant": "確認", "zh-Hans": "确认"}
NAMING = {"zh-Hant": "指認", "zh-Hans": "指认"}


@pytest.mark.parametrize("lang", LANGS)
def test_tisigui_defines_confirmed_where_it_first_uses_it(built_books, lang):
    """The overview said 「被確認的替身越少，碟仙得分越高」 pages before the scoring section
    said what confirming is. The first 確認 of the book is now its definition: the term set
    in bold (the book's mark of a term being introduced), in a sentence saying that a correct
    naming makes it."""
    runs = _weighted(built_books / "a4" / "tisigui" / lang / "rulebook.pdf")
    joined = "".join(chunk for chunk, _ in runs)
    bold = [weight for chunk, weight in runs for _ in chunk]
    first = joined.index(CONFIRMED[lang])
    assert all(bold[first:first + len(CONFIRMED[lang])]), joined[first - 40:first + 10]
    sentence = re.split(r"[。！？]", joined[:first])[-1]
    assert NAMING[lang] in sentence, sentence


# The answer is the plate stopping on O or X; the ghost never "pushes it to O" or "points the
# arrow at X" in one place and "stops it on O" in another.
OTHER_WORDINGS = re.compile(r"(推到|推向|指向|指着|指著)(O|X|[“「][是否][”」])")


@pytest.mark.parametrize("lang", LANGS)
def test_tisigui_says_how_the_plate_answers_one_way(built_books, lang):
    for name in ("rulebook.pdf", "aid.pdf"):
        flat = _flat(built_books / "a4" / "tisigui" / lang / name)
        assert not OTHER_WORDINGS.findall(flat), (name, OTHER_WORDINGS.findall(flat))
        assert "停在O（是）或X（否）" in flat, name
        assert "停在O" in flat.replace("停在O（是）或X（否）", ""), name
        assert "停在X" in flat.replace("停在O（是）或X（否）", ""), name


# --- The aids ---------------------------------------------------------------------------------


def _sizes_and_lines(path: Path) -> tuple[list[float], list[tuple[float, float]], float, float]:
    """The type sizes of every string the aid's page draws above its foot line, where each
    of those strings starts (x, y), and the page's width and height, in points."""
    page = PdfReader(path).pages[0]
    sizes: list[float] = []
    starts: list[tuple[float, float]] = []

    def visit(chunk, cm, tm, font, size):  # noqa: ANN001 - pypdf's visitor
        x, y = tm[4] * cm[0] + cm[4], tm[5] * cm[3] + cm[5]
        if chunk.strip() and y > FOOT:
            sizes.append(size * tm[0] * cm[0])
            starts.append((x, y))

    page.extract_text(visitor_text=visit)
    return sizes, starts, float(page.mediabox.width), float(page.mediabox.height)


@pytest.mark.parametrize("paper", PAPERS)
@pytest.mark.parametrize("lang", LANGS)
def test_tisigui_aid_carries_a_whole_turn_and_uses_its_sheet(built_books, lang, paper):
    """The aid listed rules in eight lines without the order of play, in two columns that
    ended halfway down the sheet. It now takes a big round in the order it is played (deal,
    choose, small rounds clockwise from the start player, a turn's steps, scoring, the end
    roll) and fills its sheet."""
    path = built_books / paper / "tisigui" / lang / "aid.pdf"
    flat = _flat(path)
    order = ["发身份牌", "选替身", "从起始玩家开始，按顺时针方向每人一个回合", "小局骰往下转1",
             "打出一个问题标记", "碟子停在O（是）或X（否）", "得“小局骰数字×指认人数”", "起始玩家掷小局骰"]
    if lang == "zh-Hant":
        order = ["發身份牌", "選替身", "從起始玩家開始，按順時針方向每人一個回合", "小局骰往下轉1",
                 "打出一個問題標記", "碟子停在O（是）或X（否）", "得「小局骰數字×指認人數」", "起始玩家擲小局骰"]
    where = [flat.find(step) for step in order]
    assert -1 not in where and where == sorted(where), dict(zip(order, where, strict=True))
    assert f"最多打出{_rules('tisigui')['actions_per_turn']['max']}个".replace(
        "个", "個" if lang == "zh-Hant" else "个") in flat
    _, starts, width, height = _sizes_and_lines(path)
    assert len(PdfReader(path).pages) == 1
    for column in ([y for x, y in starts if x < width / 2], [y for x, y in starts if x >= width / 2]):
        assert column and min(column) < height / 4, (min(column, default=None), height)


def _ability_names() -> list[str]:
    data = yaml.safe_load((ROOT / "card_data" / "aizhewudi" / "components.yaml").read_text(encoding="utf-8"))
    ability = next(c for c in data["components"] if c["id"] == "ability")
    return [card["fields"]["name"] for card in ability["cards"]]


@pytest.mark.parametrize("paper", PAPERS)
@pytest.mark.parametrize("lang", LANGS)
def test_aizhewudi_aid_is_9_pt_or_more_with_the_knock_out_rule_and_every_ability(built_books, lang, paper):
    """The aid was set in 8.5 pt on half a sheet, said only 「被愛標記拿滿 3 個立刻出局」 of
    going out, and left the ability cards out."""
    from pnp.data.load import load_game
    from pnp.text.convert import converter_for

    path = built_books / paper / "aizhewudi" / lang / "aid.pdf"
    sizes, _, _, _ = _sizes_and_lines(path)
    assert sizes and min(sizes) >= 9 - 1e-6, sorted(set(round(s, 2) for s in sizes))[:5]
    convert = converter_for(load_game(ROOT / "card_data" / "aizhewudi", tables_from_engine), lang)
    flat = _flat(path)
    rules = _rules("aizhewudi")
    for rule in (f"被愛標記拿滿{rules['eliminated_at']}個立刻出局",
                 "第 5 步的搶婚全部生效後檢查一次，第 6 步的嫁給我吧全部生效後再檢查一次",
                 "第 5 步出局的人，第 6 步什麼也不做",
                 "他分到的鈔票作廢",
                 "只剩 1 人時遊戲立刻結束"):
        assert convert(rule).replace(" ", "") in flat, rule
    for number, name in enumerate(_ability_names(), start=1):
        assert f"{number}.{convert(name)}（" in flat, name


@pytest.mark.parametrize("paper", PAPERS)
@pytest.mark.parametrize("lang", LANGS)
def test_wurenshenghuan_aid_defines_known_alive_above_its_table(built_books, lang, paper):
    """The aid's day table is read by 已知存活 (characters known alive), which the aid never
    said the meaning of."""
    flat = _flat(built_books / paper / "wurenshenghuan" / lang / "aid.pdf")
    term = "已知存活："
    caption = "白天行動上限" if lang == "zh-Hant" else "白天行动上限"
    assert term in flat and flat.index(term) < flat.index(caption)
    definition = flat[flat.index(term):flat.index(caption)]
    face_up = ("翻成背面", "詐死") if lang == "zh-Hant" else ("翻成背面", "诈死")
    assert all(word in definition for word in face_up), definition
