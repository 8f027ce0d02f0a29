"""Resolve merge conflicts of an old-layout branch into the moved tree: take the branch's side
of each conflict hunk with its module names rewritten to the new layout. Usage: remap.py FILE..."""
import importlib.util
import pathlib
import re
import sys

spec = importlib.util.spec_from_file_location("move", "wip/issue19/move.py")
move = importlib.util.module_from_spec(spec); spec.loader.exec_module(move)
MOVES = move.MOVES
olds = sorted(MOVES, key=len, reverse=True)
PAT = re.compile(r"(?<![\w.])pnp\.(" + "|".join(re.escape(o) for o in olds) + r")(?![\w])")
AFTER = [  # renames made after the move
    ("pnp.build.gameset import converter_for", "pnp.text.convert import converter_for"),
    ("pnp.build.gameset", "pnp.data.gameset"), ("pnp.build.catalog", "pnp.data.catalog"),
    ("pnp.layout.icons", "pnp.data.icons"), ("pnp.text.purity", "pnp.data.purity"),
    ("pnp.rulebook.sample", "pnp.play.sample_pdf"),
]

def _sub(m: "re.Match[str]") -> str:
    old = m.group(1)
    rest = m.string[m.end():]
    nxt = re.match(r"\.(\w+)", rest)
    if nxt and (pathlib.Path("pnp", *old.split("."), nxt.group(1) + ".py").exists()
                or pathlib.Path("pnp", *old.split("."), nxt.group(1), "__init__.py").exists()):
        return m.group(0)  # already a module of the new package
    return "pnp." + move.new_name(MOVES[old])


def remap(text: str) -> str:
    out = PAT.sub(_sub, text)
    out = re.sub(r"^([ \t]*)from pnp import ([\w, ]+?)([ \t]*#.*)?$",
                 lambda m: m.group(1) + ("\n" + m.group(1)).join(l + (m.group(3) or "") for l in move._from_lines(m.group(2))),
                 out, flags=re.M)
    for a, b in AFTER:
        out = out.replace(a, b)
    return out

def resolve(path: str) -> None:
    p = pathlib.Path(path); s = p.read_text()
    s = re.sub(r"<<<<<<< [^\n]*\n(.*?)=======\n(.*?)>>>>>>> [^\n]*\n", lambda m: remap(m.group(2)), s, flags=re.S)
    p.write_text(s)

if __name__ == "__main__":
    whole = sys.argv[1] == "--whole"
    for f in sys.argv[2 if whole else 1:]:
        if whole:
            q = pathlib.Path(f); q.write_text(remap(q.read_text()))
        else:
            resolve(f)
