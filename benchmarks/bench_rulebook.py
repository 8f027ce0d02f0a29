"""Typeset the same rulebook text three ways, side by side in one process, and time each:

- WeasyPrint (HTML + CSS through Pango), what a designer might pick instead of pnp;
- plain reportlab Platypus (Paragraph with ``wordWrap="CJK"``);
- pnp's rulebook renderer (ICU line breaking, justification).

All three get the same blocks (headings, paragraphs, lists, quotes of one game's zh-Hant
rulebook; its tables and figures are left out because the other two have no equivalent), the
same font file from fonts/, A4 with 20 mm margins, 10.5 pt text on 17.5 pt leading. Each is run
once to warm up (imports, font loading) and then ``--repeat`` times; the median CPU time
(time.process_time) is reported with its ratio to pnp's. Each output PDF is read back with
pdfium and its lines that start with closing punctuation are counted.

Then ``pnp build all --lang all`` runs cold in a child process: CPU time (user + system) and
peak memory from resource.getrusage(RUSAGE_CHILDREN).

Run from the repo root in an environment that has WeasyPrint (see benchmarks/README.md):

    python benchmarks/bench_rulebook.py [--game tisigui] [--repeat 3] [--skip-build]
"""

from __future__ import annotations

import argparse
import ctypes
import html
import io
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from collections import defaultdict
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from pnp.build.pipeline import converter_for, load_games  # noqa: E402
from pnp.core.units import MM  # noqa: E402
from pnp.core.workspace import Workspace  # noqa: E402
from pnp.games.registry import tables_from_engine  # noqa: E402
from pnp.play.examples import book_engine  # noqa: E402
from pnp.render.glyphs import GlyphCheck  # noqa: E402
from pnp.rulebook.pdf import render_rulebook  # noqa: E402
from pnp.rulebook.source import MarkdownBlock, parse_markdown, rulebook_markdown  # noqa: E402
from pnp.text import place as textplace  # noqa: E402
from pnp.text import shrink as textshrink  # noqa: E402
from pnp.text.fonts import FACE_FILES, load_family  # noqa: E402

LANG = "zh-Hant"
CLOSING = set("，。、；：？！）」』》〉…”’")
A4 = (210 * MM, 297 * MM)


def text_blocks(blocks: list[MarkdownBlock]) -> list[MarkdownBlock]:
    """The blocks all three typesetters can set: no tables, no figures."""
    out = []
    for block in blocks:
        if block.kind in ("table", "figure"):
            continue
        if block.kind == "quote":
            block = MarkdownBlock("quote", children=tuple(text_blocks(list(block.children))), line=block.line)
        out.append(block)
    return out


# --- WeasyPrint -------------------------------------------------------------------------

def _runs_html(runs) -> str:
    return "".join(f"<strong>{html.escape(r.text)}</strong>" if r.bold else html.escape(r.text) for r in runs)


def to_html(blocks: list[MarkdownBlock]) -> str:
    parts = []
    for block in blocks:
        if block.kind == "heading":
            parts.append(f"<h{block.level}>{_runs_html(block.runs)}</h{block.level}>")
        elif block.kind == "paragraph":
            parts.append(f"<p>{_runs_html(block.runs)}</p>")
        elif block.kind in ("bullets", "numbers"):
            tag = "ul" if block.kind == "bullets" else "ol"
            items = "".join(f"<li>{_runs_html(item)}</li>" for item in block.items)
            parts.append(f"<{tag}>{items}</{tag}>")
        elif block.kind == "quote":
            parts.append(f"<blockquote>{to_html(list(block.children))}</blockquote>")
    return "\n".join(parts)


def weasyprint_css(fonts_dir: Path) -> str:
    regular, bold = FACE_FILES[LANG]
    return f"""
@font-face {{ font-family: Pnp; src: url("{(fonts_dir / regular).as_uri()}"); font-weight: normal; }}
@font-face {{ font-family: Pnp; src: url("{(fonts_dir / bold).as_uri()}"); font-weight: bold; }}
@page {{ size: A4; margin: 20mm; }}
html {{ font-family: Pnp; font-size: 10.5pt; line-height: 17.5pt; color: #231f2b; }}
p, li {{ text-align: justify; line-break: strict; margin: 0 0 4pt 0; }}
h1 {{ font-size: 22pt; line-height: 30pt; margin: 0 0 10pt 0; }}
h2 {{ font-size: 15pt; line-height: 22pt; margin: 14pt 0 6pt 0; }}
h3 {{ font-size: 12pt; line-height: 18pt; margin: 8pt 0 3pt 0; }}
blockquote {{ background: #f3eee4; margin: 0 0 4pt 0; padding: 6pt 12pt; }}
"""


def make_weasyprint(blocks: list[MarkdownBlock], fonts_dir: Path) -> Callable[[], bytes]:
    import weasyprint
    from weasyprint.text.fonts import FontConfiguration

    document = f"<html lang='zh-Hant'><body>{to_html(blocks)}</body></html>"
    css = weasyprint_css(fonts_dir)

    def run() -> bytes:
        # @font-face needs a FontConfiguration shared by the stylesheet and the rendering.
        font_config = FontConfiguration()
        sheet = weasyprint.CSS(string=css, font_config=font_config)
        return weasyprint.HTML(string=document).write_pdf(stylesheets=[sheet], font_config=font_config)

    return run


# --- plain reportlab --------------------------------------------------------------------

def make_platypus(blocks: list[MarkdownBlock], fonts) -> Callable[[], bytes]:
    from reportlab.lib.styles import ParagraphStyle
    from reportlab.platypus import ListFlowable, Paragraph, SimpleDocTemplate

    body = ParagraphStyle("body", fontName=fonts.regular.name, fontSize=10.5, leading=17.5,
                          wordWrap="CJK", spaceAfter=4, alignment=4)
    heads = {level: ParagraphStyle(f"h{level}", parent=body, fontName=fonts.bold.name, fontSize=size,
                                   leading=leading, spaceBefore=before, spaceAfter=after, alignment=0)
             for level, size, leading, before, after in ((1, 22, 30, 0, 10), (2, 15, 22, 14, 6), (3, 12, 18, 8, 3))}

    def markup(runs) -> str:
        return "".join(f"<b>{html.escape(r.text)}</b>" if r.bold else html.escape(r.text) for r in runs)

    def flow(items: list[MarkdownBlock]) -> list:
        out = []
        for block in items:
            if block.kind == "heading":
                out.append(Paragraph(markup(block.runs), heads.get(block.level, heads[3])))
            elif block.kind == "paragraph":
                out.append(Paragraph(markup(block.runs), body))
            elif block.kind in ("bullets", "numbers"):
                out.append(ListFlowable([Paragraph(markup(item), body) for item in block.items],
                                        bulletType="bullet" if block.kind == "bullets" else "1",
                                        bulletFontName=fonts.regular.name))
            elif block.kind == "quote":
                out.extend(flow(list(block.children)))
        return out

    def run() -> bytes:
        buffer = io.BytesIO()
        doc = SimpleDocTemplate(buffer, pagesize=A4, leftMargin=20 * MM, rightMargin=20 * MM,
                                topMargin=20 * MM, bottomMargin=20 * MM, invariant=1)
        doc.build(flow(blocks))
        return buffer.getvalue()

    return run


# --- pnp --------------------------------------------------------------------------------

def make_pnp(blocks: list[MarkdownBlock], game, fonts, convert) -> Callable[[], bytes]:
    def run() -> bytes:
        # time it from scratch: no break units or widths kept from the last run
        textshrink.clear_caches()
        textplace.clear_caches()
        glyphs = GlyphCheck(fonts)
        return render_rulebook(game, LANG, blocks, fonts, convert, glyphs, "bench", A4)

    return run


# --- reading the outputs back -----------------------------------------------------------

def line_starts(pdf_bytes: bytes) -> tuple[int, int, int]:
    """(pages, lines, lines whose first character is closing punctuation)."""
    import pypdfium2 as pdfium
    import pypdfium2.raw as raw

    pdf = pdfium.PdfDocument(pdf_bytes)
    lines = bad = 0
    x, y = ctypes.c_double(), ctypes.c_double()
    for number in range(len(pdf)):
        textpage = pdf[number].get_textpage()
        rows: dict[float, list[tuple[float, str]]] = defaultdict(list)
        for index in range(textpage.count_chars()):
            ch = textpage.get_text_range(index, 1)
            if not ch.strip():
                continue
            raw.FPDFText_GetCharOrigin(textpage, index, x, y)
            rows[round(y.value, 1)].append((x.value, ch))
        for chars in rows.values():
            lines += 1
            bad += min(chars)[1] in CLOSING
    return len(pdf), lines, bad


def cpu(run: Callable[[], bytes], repeat: int) -> tuple[float, bytes]:
    run()  # warm-up: imports, font loading, caches
    times, data = [], b""
    for _ in range(repeat):
        start = time.process_time()
        data = run()
        times.append(time.process_time() - start)
    return statistics.median(times), data


def cold_build() -> tuple[float, float]:
    """CPU seconds (user + system) and peak resident MiB of a cold `pnp build all --lang all`."""
    with tempfile.TemporaryDirectory() as tmp:
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        # PNP_CACHE_DIR= turns pnp's disk cache (parsed fonts, compiled templates) off: a truly cold
        # build. benchmarks/bench_build.py --shelf times it with the cache empty and filled too.
        subprocess.run([sys.executable, "-m", "pnp", "--root", str(ROOT), "build", "all", "--lang", "all",
                        "--out", tmp], check=True, capture_output=True, env={**os.environ, "PNP_CACHE_DIR": ""})
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
    seconds = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return seconds, after.ru_maxrss / 1024


def weasyprint_cpu(game: str = "tisigui", repeat: int = 3) -> tuple[float, int]:
    """WeasyPrint setting ``game``'s rulebook text, as main() does: median CPU seconds after a
    warm-up, and its pages. The anchor other benchmarks quote beside their own numbers."""
    workspace = Workspace(ROOT)
    loaded = load_games(workspace, [game], tables_from_engine)[0]
    convert = converter_for(loaded, LANG)
    blocks = text_blocks(parse_markdown(convert(rulebook_markdown(workspace, loaded, book_engine(workspace, loaded)))))
    seconds, data = cpu(make_weasyprint(blocks, workspace.fonts), repeat)
    return seconds, line_starts(data)[0]


def weasyprint_process_cpu(game: str = "tisigui", repeat: int = 3) -> list[float]:
    """WeasyPrint setting ``game``'s rulebook text in a new process each time, start-up included
    (imports, fonts): CPU seconds (user + system) of each run. This is the anchor of the
    benchmarks that time pnp commands as new processes (bench_issue25.py, bench_serve.py): both
    sides pay for their start-up, as a designer's command does."""
    workspace = Workspace(ROOT)
    loaded = load_games(workspace, [game], tables_from_engine)[0]
    blocks = text_blocks(parse_markdown(converter_for(loaded, LANG)(
        rulebook_markdown(workspace, loaded, book_engine(workspace, loaded)))))
    with tempfile.TemporaryDirectory() as scratch:
        page, sheet = Path(scratch, "text.html"), Path(scratch, "text.css")
        page.write_text(f"<html lang='zh-Hant'><body>{to_html(blocks)}</body></html>", encoding="utf-8")
        sheet.write_text(weasyprint_css(workspace.fonts), encoding="utf-8")
        script = (
            "import sys, weasyprint\n"
            "from weasyprint.text.fonts import FontConfiguration\n"
            "fonts = FontConfiguration()\n"
            "css = weasyprint.CSS(filename=sys.argv[2], font_config=fonts)\n"
            "weasyprint.HTML(filename=sys.argv[1]).write_pdf(sys.argv[3], stylesheets=[css], font_config=fonts)\n")
        seconds = []
        for _ in range(repeat):
            out = Path(scratch, "out.pdf")
            child = subprocess.Popen([sys.executable, "-c", script, str(page), str(sheet), str(out)])
            _, status, usage = os.wait4(child.pid, 0)
            if os.waitstatus_to_exitcode(status):
                raise SystemExit("WeasyPrint failed on the anchor text")
            seconds.append(usage.ru_utime + usage.ru_stime)
    return seconds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="tisigui")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--skip-build", action="store_true", help="leave out the cold `pnp build all`")
    args = parser.parse_args()

    workspace = Workspace(ROOT)
    game = load_games(workspace, [args.game], tables_from_engine)[0]
    fonts = load_family(workspace.fonts, LANG)
    convert = converter_for(game, LANG)
    blocks = text_blocks(parse_markdown(convert(rulebook_markdown(workspace, game, book_engine(workspace, game)))))
    characters = sum(len(r.text) for b in blocks for r in (*b.runs, *(r for i in b.items for r in i)))

    results = {}
    for name, run in (("WeasyPrint", make_weasyprint(blocks, workspace.fonts)),
                      ("reportlab Platypus", make_platypus(blocks, fonts)),
                      ("pnp", make_pnp(blocks, game, fonts, convert))):
        seconds, data = cpu(run, args.repeat)
        results[name] = (seconds, *line_starts(data))

    pnp_cpu = results["pnp"][0]
    print(f"{args.game} {LANG} rulebook text (tables and figures left out), about {characters:,} characters; "
          f"median of {args.repeat} runs after a warm-up\n")
    print("| typesetter | CPU (s) | × pnp | pages | lines | lines starting with closing punctuation |")
    print("|---|---:|---:|---:|---:|---:|")
    for name, (seconds, pages, lines, bad) in results.items():
        print(f"| {name} | {seconds:.3f} | {seconds / pnp_cpu:.1f} | {pages} | {lines} | {bad} |")
    weasy = results["WeasyPrint"][0]
    print(f"\npnp uses {pnp_cpu / weasy:.0%} of WeasyPrint's CPU time (target: at most 33 %).")
    if not args.skip_build:
        seconds, peak = cold_build()
        print(f"\n`pnp build all --lang all`, cold (new process, 16 PDFs): {seconds:.2f} s CPU, "
              f"peak {peak:.0f} MiB resident; {seconds / weasy:.1f}× WeasyPrint's time for the text above.")


if __name__ == "__main__":
    main()
