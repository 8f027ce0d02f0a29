"""The balance report typeset like the rulebook (``pnp simulate --format pdf``): the game's
book fonts, page furniture and glyph checks, the figures as tables and the charts of
pnp.play.charts drawn as vectors with the same shapes the HTML report shows as SVG."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from reportlab.graphics.shapes import Circle, Drawing, Line, Rect, String
from reportlab.lib.colors import HexColor
from reportlab.platypus import Flowable, Spacer

from pnp.core.errors import BuildError, FontError
from pnp.core.units import MM
from pnp.core.workspace import Workspace
from pnp.layout.presets import sheet_spec
from pnp.play.charts import Chart, report_charts
from pnp.play.narrate import load_game_data
from pnp.render.glyphs import GlyphCheck
from pnp.rulebook.pdf import render_rulebook
from pnp.rulebook.source import MarkdownBlock, parse_markdown
from pnp.rulebook.story import StoryBuilder, build_story
from pnp.text.fontchoice import game_fonts

SOURCE = "pnp/play/balance_pdf.py: the balance report"


def _colour(value: str) -> Any:
    return None if value == "none" else HexColor(value)


def drawing(chart: Chart, font: str, scale: float) -> Drawing:
    """The chart's shapes in reportlab's coordinates (y up), scaled to the text width."""
    d = Drawing(chart.width * scale, chart.height * scale)
    flip = chart.height

    def y(value: float) -> float:
        return (flip - value) * scale

    d.add(String(52 * scale, y(12), chart.title, fontName=font, fontSize=11 * scale))
    for m in chart.marks:
        if m.kind == "rect":
            d.add(Rect(m.x * scale, y(m.y + max(0.0, m.h)), m.w * scale, max(0.0, m.h) * scale,
                       fillColor=_colour(m.fill), strokeColor=None))
        elif m.kind == "line":
            d.add(Line(m.x * scale, y(m.y), m.w * scale, y(m.h), strokeColor=_colour(m.stroke),
                       strokeWidth=0.6 * scale, strokeDashArray=[4, 3] if m.dash else None))
        elif m.kind == "circle":
            d.add(Circle(m.x * scale, y(m.y), m.w * scale, fillColor=_colour(m.fill), strokeColor=None))
        else:
            d.add(String(m.x * scale, y(m.y), m.text, fontName=font, fontSize=m.size * scale,
                         fillColor=_colour(m.fill), textAnchor=m.anchor))
    return d


def _cell(f: Mapping[str, Any], percent: bool = False) -> str:
    if f["value"] is None:
        return "n/a"
    def show(v: float) -> str:
        return f"{v * 100:.1f} %" if percent else f"{v:.2f}"

    return show(f["value"]) + ("" if f["low"] is None else f" ({show(f['low'])} – {show(f['high'])})")


def section_markdown(section: Mapping[str, Any]) -> str:
    rows = [(f"length: {k}", _cell(f)) for k, f in section["length"].items()]
    rows += [(f"score: {k}", _cell(section["scores"][k])) for k in ("all", "winning", "spread")
             if k in section["scores"]]
    rows += [(f"wins: seat {i}", _cell(f, True)) for i, f in enumerate(section["wins"]["by_seat"], 1)]
    rows += [(f"wins: role {role}", _cell(f, True))
             for role, f in section["wins"].get("by_role", {}).items()]
    rows += [(f"end: {k}", _cell(v["share"], True)) for k, v in section["ends"].items()]
    rows += [(f"{g}: {k}", _cell(f)) for g in ("roles", "supply") for k, f in section[g].items()]
    # The book's tables are card_data's printed tables: the figures are a list, one a line.
    listed = "\n".join(f"- {name.replace('_', ' ')}: **{value}**" for name, value in rows)
    return f"## {section['label'].replace('_', ' ')}\n\nEach figure with its 95 % interval.\n\n{listed}\n"


def report_markdown(data: Mapping[str, Any]) -> str:
    flags = "\n".join(f"- {f}" for f in data["flags"]) or "- nothing significant at 95 %"
    methods = "\n".join(f"- {k.replace('_', ' ')}: {v}" for k, v in data["methods"].items())
    return (f"# {data['game']}: balance report\n\n{len(data['settings'])} settings, "
            f"{data['games']:,} games each, {data['bots']} bots, seeds {data['seeds']['first']}–"
            f"{data['seeds']['last']} (the same for every setting).\n\n## Significant\n\n{flags}\n\n"
            f"## Methods\n\n{methods}\n").replace("_", " ")


def balance_pdf(workspace: Workspace, data: Mapping[str, Any], lang: str | None = None,
                paper: str = "a4") -> bytes:
    game = load_game_data(workspace, data["game"])
    lang = lang or game.info.source_lang
    spec = sheet_spec(paper)
    fonts = game_fonts(workspace, lang, game.info.fonts)
    glyphs = GlyphCheck(fonts)
    charts = report_charts(data)
    by_owner: dict[str, list[Chart]] = {}
    for chart in charts:
        owner = chart.name.rsplit("-", 1)[-1]
        by_owner.setdefault(owner if owner.isdigit() else "overview", []).append(chart)

    def story(builder: StoryBuilder, blocks: Sequence[MarkdownBlock]) -> list[Flowable]:
        scale = min(1.0, builder.text_width / charts[0].width) if charts else 1.0

        def drawn(owner: str) -> list[Flowable]:
            out: list[Flowable] = []
            for chart in by_owner.get(owner, []):
                glyphs.check(" ".join(m.text for m in chart.marks if m.kind == "text") + chart.title, False, SOURCE)
                out += [drawing(chart, fonts.regular.name, scale), Spacer(1, 4 * MM)]
            return out

        flow = build_story(builder, blocks) + drawn("overview")
        for section in data["settings"]:
            flow += build_story(builder, parse_markdown(section_markdown(section), SOURCE))
            flow += drawn(str(section["id"]))
        return flow

    pdf = render_rulebook(game, lang, parse_markdown(report_markdown(data), SOURCE), fonts,
                          lambda text: text, glyphs, SOURCE, (spec.width * MM, spec.height * MM), story)
    if glyphs.missing:
        raise FontError(glyphs.problems)
    if glyphs.overflows:
        raise BuildError(glyphs.overflows)
    return pdf
