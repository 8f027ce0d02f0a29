"""``pnp new SLUG``: a small game that builds and checks at once, to start a design from.

The scaffold is data only — a deck, a token, a score pad, a printed table of the set-up by
player count (tables.yaml, printed in the rulebook) and a rulebook template — so ``pnp build``
and ``pnp check`` succeed before any Python is written. Without a rules engine ``pnp check``
cannot prove the printed table: it says so in a note, and checks everything else. Both
folders are made beside their final place and renamed in, so a failure leaves nothing behind.
"""

from __future__ import annotations

import datetime
import os
import re
import shutil
import tempfile
from pathlib import Path

from pnp.core.errors import PnpError
from pnp.core.workspace import Workspace

SLUG = re.compile(r"^[a-z][a-z0-9_]{0,39}$")
RESERVED = frozenset({"all"})  # `pnp build all` means every game

GAME_YAML = """\
# {slug}: made by `pnp new`. Text in this folder is written in Traditional Chinese
# (source_lang); the zh-Hans edition is converted from it. Change anything: `pnp build {slug}`
# reports every problem with its file, line and field.
slug: {slug}
name: 新遊戲
source_lang: zh-Hant
version: "0.1"
date: "{date}"
players: {{min: 2, max: 4, common: 3}}
minutes: 15–20
age: 8+
credits:
  - 設計：（你的名字）
# Digits typed into printed text, each with why it is not a rule: `pnp check` reports any other
# (literal-number); numbers that follow from the rules belong in templates as variables.
literal_numbers:
  - {{file: components.yaml, field: "layouts.marker_face", reason: "each score marker is worth one point"}}
  - {{file: components.yaml, field: "layouts.scorepad", reason: "the score pad's round columns"}}
"""

COMPONENTS_YAML = """\
# Components: sizes in mm (or a preset such as poker); coordinates in mm from the top-left of
# the trim, or a percentage of it. Keep text 3 mm inside the trim. Every field a layout names
# in braces ({{title}}) must be set on each card. See docs/layout-vocabulary.md.
components:
  - id: cards
    name: 行動牌
    note: 三種行動，各數張
    size: poker
    front: card_front
    back: card_back
    cards:
      - {{id: move, count: 6, fields: {{title: 前進, text: 把你的標記往前移一格。, color: "#2f6f9f"}}}}
      - {{id: swap, count: 4, fields: {{title: 交換, text: 和一位玩家交換一張手牌。, color: "#3f8f5f"}}}}
      - {{id: score, count: 2, fields: {{title: 得分, text: 拿一個分數標記。, color: "#b8862f"}}}}

  - id: marker
    name: 分數標記
    note: 圓形，兩面相同
    shape: round
    size: [22, 22]
    front: marker_face
    back: marker_face
    count: 12

  - id: scorepad
    name: 計分表
    note: 每局記下每人的分數
    size: [100, 140]
    front: scorepad
    count: 1

layouts:
  card_front:
    background: "#fbf8f1"
    elements:
      - {{type: rect, box: [3.5, 3.5, 56, 81], radius: 3, stroke: "{{color}}", stroke_width: 0.8}}
      - {{type: rect, box: [3.5, 3.5, 56, 18], radius: 3, fill: "{{color}}"}}
      - {{type: text, box: [6, 6, 51, 13], text: "{{title}}", size: 20pt, min_size: 12pt, bold: true,
         color: "#ffffff", align: center, valign: middle}}
      - {{type: text, box: [7, 30, 49, 40], text: "{{text}}", size: 11pt, min_size: 8pt,
         color: "#222222", align: center, valign: middle}}

  card_back:
    background: "#27324a"
    elements:
      - {{type: rect, box: [3.5, 3.5, 56, 81], radius: 3, stroke: "#e8d9b0", stroke_width: 0.6}}
      - {{type: circle, center: [31.5, 44], r: 16, stroke: "#e8d9b0", stroke_width: 1}}
      - {{type: text, box: [8, 36, 47, 16], text: 新遊戲, size: 16pt, min_size: 10pt, bold: true,
         color: "#e8d9b0", align: center, valign: middle}}

  marker_face:
    background: "#b8862f"
    elements:
      - {{type: circle, center: ["50%", "50%"], r: 8, stroke: "#ffffff", stroke_width: 0.6}}
      - {{type: text, box: [5, 6, 12, 10], text: "1", size: 14pt, min_size: 8pt, bold: true,
         color: "#ffffff", align: center, valign: middle}}

  scorepad:
    background: "#ffffff"
    elements:
      - {{type: text, box: [6, 6, 88, 10], text: 新遊戲　計分表, size: 16pt, min_size: 10pt, bold: true,
         color: "#27324a", align: center, valign: middle}}
      - type: grid
        box: [6, 20, 88, 112]
        rows: 7
        columns: [玩家, 第 1 局, 第 2 局, 第 3 局, 合計]
        row_labels: [甲, 乙, 丙, 丁, 戊, 己, 庚]
        column_widths: [1.2, 1, 1, 1, 1]
        size: 9pt
        min_size: 7pt
        header_fill: "#27324a"
        header_color: "#ffffff"
"""

TABLES_YAML = """\
# Printed tables: literal values, exactly as printed; the rulebook prints this one with
# {{{{ table("setup") }}}} (never type its numbers into the text). Until the game has a rules
# engine (README: "how to add a game", step 5) `pnp check` cannot recompute these rows and
# notes them as unverified; with one, it proves every cell.
tables:
  setup:
    title: 開局設定
    columns:
      - {{key: players, label: 人數}}
      - {{key: hand, label: 每人手牌}}
      - {{key: markers, label: 分數標記}}
    rows:
      - {{players: 2, hand: 4, markers: 8}}
      - {{players: 3, hand: 3, markers: 10}}
      - {{players: 4, hand: 3, markers: 12}}
"""

RULEBOOK = """\
{{#- {slug} rulebook, in the game's source script (zh-Hant); the zh-Hans edition is converted
    from it. Markdown: # headings, - lists, **bold**. Numbers about the game come from
    game.yaml (game.players_min and so on), so they never go stale. -#}}
{{%- set minutes = game.minutes | replace("–", "～") -%}}
# {{{{ game.name }}}}

**{{{{ game.players_min }}}}～{{{{ game.players_max }}}} 人 · 約 {{{{ minutes }}}} 分鐘 · {{{{ game.age }}}}**

## 配件

{{% for c in components %}}
- {{{{ c.name }}}}（{{{{ c.count }}}}）：{{{{ c.note }}}}
{{% endfor %}}

## 準備

洗勻行動牌，依人數發給每人手牌，其餘牌面朝下放成牌堆。依人數取出分數標記，放在桌子中央；多的標記收回盒中。

{{{{ table("setup") }}}}

## 進行

從最年輕的玩家開始，依順時針方向輪流。輪到你時，打出一張手牌並照著牌上的文字做，然後從牌堆補一張牌。

## 結束

牌堆抽完時遊戲結束。在計分表寫下每人的分數，分數標記最多的玩家獲勝。
"""


def check_slug(workspace: Workspace, slug: str) -> None:
    if not SLUG.match(slug) or slug in RESERVED:
        raise PnpError(f"{slug!r} is not a usable game name: use 1–40 lower-case letters, digits and _, "
                       "starting with a letter (e.g. my_game); 'all' is taken by `pnp build all`")
    for folder in (workspace.card_data / slug, workspace.templates / slug):
        if folder.exists() or folder.is_symlink():
            raise PnpError(f"{folder}: already exists; pnp new never overwrites a game (pick another name)")


def scaffold(workspace: Workspace, slug: str, today: datetime.date | None = None) -> list[Path]:
    """Write card_data/<slug>/ and templates/<slug>/; return the files written."""
    check_slug(workspace, slug)
    date = (today or datetime.date.today()).isoformat()
    plan = {
        workspace.card_data / slug: {"game.yaml": GAME_YAML.format(slug=slug, date=date),
                                     "components.yaml": COMPONENTS_YAML.format(),
                                     "tables.yaml": TABLES_YAML.format()},
        workspace.templates / slug: {"rulebook.md.j2": RULEBOOK.format(slug=slug)},
    }
    staged: list[tuple[Path, Path]] = []
    renamed: list[Path] = []
    written: list[Path] = []
    mask = os.umask(0)
    os.umask(mask)
    try:
        for target, files in plan.items():
            target.parent.mkdir(parents=True, exist_ok=True)
            stage = Path(tempfile.mkdtemp(prefix=f".{slug}.new-", dir=target.parent))
            os.chmod(stage, 0o777 & ~mask)
            staged.append((stage, target))
            for name, text in files.items():
                (stage / name).write_text(text, encoding="utf-8")
                written.append(target / name)
        for stage, target in staged:
            os.rename(stage, target)
            renamed.append(target)
    except OSError as exc:
        for stage, _ in staged:
            shutil.rmtree(stage, ignore_errors=True)
        for target in renamed:
            shutil.rmtree(target, ignore_errors=True)
        raise PnpError(f"cannot create the game {slug!r}: {exc.strerror or exc}") from None
    return written
