"""The balance report as one self-contained HTML page (``pnp simulate --format html``): the
charts inline as SVG, the figures in tables, the flags on top, the JSON report embedded
(``<script type="application/json" id="report">``) for a reader who wants the numbers."""

from __future__ import annotations

import json
from collections.abc import Mapping
from html import escape
from typing import Any

from pnp.play.charts import report_charts, svg

STYLE = """body{font-family:system-ui,sans-serif;margin:2em;color:#222;max-width:1100px}
h1{font-size:1.4em}h2{font-size:1.15em;margin-top:2em}table{border-collapse:collapse;margin:.5em 0}
td,th{border-bottom:1px solid #ddd;padding:2px 8px;text-align:right}th:first-child,td:first-child{text-align:left}
.flags li{margin:.3em 0}.charts{display:flex;flex-wrap:wrap;gap:12px}svg.chart{border:1px solid #eee}"""


def _fig(f: Mapping[str, Any], percent: bool = False) -> str:
    if f["value"] is None:
        return "n/a"
    def show(v: float) -> str:
        return f"{v:.1%}" if percent else f"{v:.2f}"

    return show(f["value"]) + ("" if f["low"] is None else f" <small>({show(f['low'])}–{show(f['high'])})</small>")


def _table(section: Mapping[str, Any]) -> str:
    rows = [f"<tr><td>length: {escape(k)}</td><td>{_fig(f)}</td></tr>" for k, f in section["length"].items()]
    rows += [f"<tr><td>score: {k}</td><td>{_fig(section['scores'][k])}</td></tr>"
             for k in ("all", "winning", "spread") if k in section["scores"]]
    rows += [f"<tr><td>wins: seat {i}</td><td>{_fig(f, True)}</td></tr>"
             for i, f in enumerate(section["wins"]["by_seat"], 1)]
    rows += [f"<tr><td>wins: role {escape(role)}</td><td>{_fig(f, True)}</td></tr>"
             for role, f in section["wins"].get("by_role", {}).items()]
    rows += [f"<tr><td>end: {escape(k)}</td><td>{_fig(v['share'], True)}</td></tr>"
             for k, v in section["ends"].items()]
    rows += [f"<tr><td>{group}: {escape(k)}</td><td>{_fig(f)}</td></tr>"
             for group in ("roles", "supply") for k, f in section[group].items()]
    return "<table><tr><th>figure</th><th>value (95 % CI)</th></tr>" + "".join(rows) + "</table>"


def balance_html(data: Mapping[str, Any]) -> str:
    charts = report_charts(data)
    by_section: dict[str, list[str]] = {}
    overview: list[str] = []
    for chart in charts:
        owner = chart.name.rsplit("-", 1)[-1]
        (by_section.setdefault(owner, []) if owner.isdigit() else overview).append(svg(chart))
    title = f"{data['game']}: balance report"
    flags = "".join(f"<li>{escape(f)}</li>" for f in data["flags"]) or "<li>nothing significant at 95 %</li>"
    methods = "".join(f"<li>{escape(k)}: {escape(v)}</li>" for k, v in data["methods"].items())
    parts = [
        "<!DOCTYPE html>", '<html lang="en"><head><meta charset="utf-8">',
        f"<title>{escape(title)}</title><style>{STYLE}</style></head><body>",
        f"<h1>{escape(title)}</h1>",
        f"<p>{len(data['settings'])} settings × {data['games']:,} games each, {escape(data['bots'])} bots, "
        f"seeds {data['seeds']['first']}–{data['seeds']['last']} (the same for every setting).</p>",
        f'<h2>Significant</h2><ul class="flags">{flags}</ul>',
        f'<div class="charts">{"".join(overview)}</div>',
    ]
    for section in data["settings"]:
        parts.append(f'<section id="setting-{section["id"]}"><h2>{escape(section["label"])}</h2>')
        parts.append(_table(section))
        parts.append(f'<div class="charts">{"".join(by_section.get(str(section["id"]), []))}</div></section>')
    parts.append(f"<h2>Methods</h2><ul>{methods}</ul>")
    embedded = json.dumps(data, ensure_ascii=False).replace("</", "<\\/")
    parts.append(f'<script type="application/json" id="report">{embedded}</script>')
    parts.append("</body></html>")
    return "\n".join(parts) + "\n"
