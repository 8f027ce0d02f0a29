"""After merging an old-layout branch: tests hand the engines to the loader and the books.
Idempotent: only calls with the old arity are rewritten. Usage: fix_tests.py FILE..."""
import pathlib
import re
import sys

ARG = r"[^(),]*(?:\([^()]*\))?[^(),]*"
def fix(text: str) -> str:
    out = re.sub(r"(?<![\w.])load_game\((" + ARG + r")\)", r"load_game(\1, tables_from_engine)", text)
    out = re.sub(r"(?<![\w.])load_games\((" + ARG + r"),\s*(" + ARG + r")\)", r"load_games(\1, \2, tables_from_engine)", out)
    for fn in ("rulebook_markdown", "aid_markdown"):
        out = re.sub(r"(?<![\w.])" + fn + r"\((" + ARG + r"),\s*(" + ARG + r")\)",
                     lambda m: f"{fn}({m.group(1)}, {m.group(2)}, book_engine({m.group(1)}, {m.group(2)}))", out)
    def need(name: str, line: str) -> None:
        nonlocal out
        if re.search(r"\b" + name + r"\b", out) and not re.search(r"import[^\n]*\b" + name + r"\b", out):
            m = re.search(r"^(from pnp\.[^\n]*|import [^\n]*)$", out, re.M)
            out = out[:m.start()] + line + "\n" + out[m.start():]
    need("tables_from_engine", "from pnp.games.registry import tables_from_engine")
    need("book_engine", "from pnp.play.examples import book_engine")
    return out
for f in sys.argv[1:]:
    p = pathlib.Path(f); s = p.read_text(); n = fix(s)
    if n != s:
        p.write_text(n); print("fixed", f)
