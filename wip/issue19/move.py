"""Move pnp's modules into packages by stage and rewrite every reference (run at repo root)."""
import pathlib
import re
import subprocess

MOVES = {  # old dotted (under pnp.) -> new dotted (under pnp.)
 # core
 "errors": "core.errors", "units": "core.units", "workspace": "core.workspace", "diskcache": "core.diskcache",
 "data.limits": "core.limits",
 # text
 "i18n": "text.convert", "linebreaks": "text.linebreaks", "textlayout": "text.setting",
 "textplace": "text.place", "typography": "text.typography", "fonts": "text.fonts",
 "fontcache": "text.fontcache", "fitcache": "text.fitcache", "templating": "text.templating",
 "strings": "text.strings", "data.purity": "text.purity",
 # rulebook
 "rulebook": "rulebook.source", "render.rulebook_pdf": "rulebook.pdf", "render.rulebook_tables": "rulebook.tables",
 "render.rulebook_style": "rulebook.style", "render.flow": "rulebook.flow", "render.aid_pdf": "rulebook.aid",
 "render.table_figure": "rulebook.table_figure", "sample_pdf": "rulebook.sample",
 # render
 "facepix": "render.facepix",
 # build
 "build": "build.pipeline", "manifest": "build.manifest", "staging": "build.staging",
 "gameset": "build.gameset", "catalog": "build.catalog",
 # check
 "check": "check.proof", "check_lint": "check.lint", "check_literals": "check.literals",
 "check_report": "check.report", "bookwords": "check.bookwords", "check_conversion": "check.conversion", "check_index": "check.index", "counts": "check.counts", "tables": "check.tables",
 # play
 "narrate": "play.narrate", "simulate": "play.simulate", "worked_example": "play.examples",
 "calc": "games.calculators",
 # export
 "export": "export.exports", "tuckbox": "export.tuckbox", "calibrate": "export.calibrate",
 # cli
 "progress": "cli.progress", "config": "cli.config",
 # scaffold
 "scaffold": "scaffold.__init__",
 # generic games names
 "games.rules": "games.ruleset",
 "cli.rules": "cli.proof",
}
PKG_DOCS = {
 "core": "Foundations every layer shares: the error root, units, the workspace, the disk cache, limits.",
 "text": "Chinese text: script conversion, line breaking, setting and fitting, fonts, templates.",
 "rulebook": "Rulebooks, player aids and sample transcripts: Markdown to typeset PDF.",
 "build": "The build pipeline: which games, what each output is built from, staged all-or-nothing writes.",
 "check": "``pnp check`` and ``pnp tables``: printed matter proved against the rules, and the rules linted.",
 "play": "Playing games: sample transcripts, simulations, the rulebooks' worked examples.",
 "export": "Exports for the tools around a playtest: Tabletop Simulator, print shops, contact sheets, tuck boxes, calibration.",
 "scaffold": "``pnp new``: a small working game to start a design from.",
}

def path_of(dotted: str) -> pathlib.Path:
    if dotted.endswith(".__init__"):
        return pathlib.Path("pnp", *dotted.split(".")[:-1], "__init__.py")
    return pathlib.Path("pnp", *dotted.split(".")).with_suffix(".py")

def new_name(dotted: str) -> str:
    return dotted[:-len(".__init__")] if dotted.endswith(".__init__") else dotted

def main() -> None:
    for pkg, doc in PKG_DOCS.items():
        init = pathlib.Path("pnp", pkg, "__init__.py")
        if pkg == "scaffold":
            continue
        init.parent.mkdir(exist_ok=True)
        if not init.exists():
            init.write_text(f'"""{doc}"""\n', encoding="utf-8")
            subprocess.run(["git", "add", str(init)], check=True)
    for old, new in MOVES.items():
        src, dst = path_of(old), path_of(new)
        dst.parent.mkdir(parents=True, exist_ok=True)
        subprocess.run(["git", "mv", str(src), str(dst)], check=True)
    # one pass over every text file: longest old names first, each occurrence rewritten once
    olds = sorted(MOVES, key=len, reverse=True)
    pat = re.compile(r"(?<![\w.])pnp\.(" + "|".join(re.escape(o) for o in olds) + r")(?![\w])")
    slash = re.compile(r"(?<![\w/.])pnp/(" + "|".join(re.escape(o.replace(".", "/")) for o in olds) + r")(\.py)?(?![\w])")
    files = subprocess.run(["git", "ls-files"], capture_output=True, text=True, check=True).stdout.split()
    for f in files:
        p = pathlib.Path(f)
        if p.suffix not in {".py", ".md", ".toml", ".cfg", ".ini", ".txt", ".yaml", ".j2", ".json"} and p.name != "run":
            continue
        try:
            text = p.read_text(encoding="utf-8")
        except (UnicodeDecodeError, FileNotFoundError):
            continue
        new = pat.sub(lambda m: "pnp." + new_name(MOVES[m.group(1)]), text)
        def sl(m):
            tgt = MOVES[m.group(1).replace("/", ".")]
            if tgt.endswith(".__init__"):
                return "pnp/" + new_name(tgt).replace(".", "/") + "/"
            return "pnp/" + tgt.replace(".", "/") + (m.group(2) or "")
        new = slash.sub(sl, new)
        # `from pnp import a, b` where a module moved
        new = re.sub(r"^([ \t]*)from pnp import ([\w, ]+?)([ \t]*#.*)?$",
                     lambda m: m.group(1) + ("\n" + m.group(1)).join(
                         line + (m.group(3) or "") for line in _from_lines(m.group(2))), new, flags=re.M)
        if new != text:
            p.write_text(new, encoding="utf-8")

def _from_lines(spec: str) -> list[str]:
    names = [n.strip() for n in spec.split(",")]
    out, keep = [], []
    for n in names:
        base, _, alias = n.partition(" as ")
        if base in MOVES:
            tgt = new_name(MOVES[base])
            pkg, _, mod = tgt.rpartition(".")
            asname = alias or base
            out.append(f"from pnp.{pkg} import {mod}" + (f" as {asname}" if asname != mod else ""))
        else:
            keep.append(n)
    if keep:
        out.insert(0, "from pnp import " + ", ".join(keep))
    return out

if __name__ == "__main__":
    main()
