"""Defaults a designer repeats, kept in ``pnp.toml`` (or ``[tool.pnp]`` of ``pyproject.toml``)
at the workspace root and handed to click as each command's defaults.

```toml
paper = "letter"          # build, calibrate, export tuckbox, sample --format pdf, serve:
                          # a name (any case: a4, letter, a3, a5, b5, b4, legal, tabloid) or "200x280" (mm)
lang = "zh-Hant"          # build, export and serve: zh-Hant, zh-Hans or all
out = "prints"            # where build, export, calibrate and sample --format pdf write,
                          # instead of output/ (a folder inside the workspace)
back_offset = "1,-0.5"    # build and calibrate, mm (or [1, -0.5])
gutter = 6                # build --gutter, mm: 0 (the default) butts cards on shared cut lines
ink = "saver"             # build --ink: saver (light tints for a home printer) or full
sheet = "poker-3x3-a4"    # build --sheet: the sheet template every game's cards fill (a game's
                          # own card_data/<slug>/sheets/NAME.yaml, else sheets/NAME.yaml, else shipped)
port = 8800               # serve --port
```

An option given on the command line always wins. A bad value is an error naming the file,
line and key, so a typo cannot silently change every build.
"""

from __future__ import annotations

import math
import re
from pathlib import Path
from typing import Any

from pnp.core.choices import INKS, canonical_lang, canonical_paper, lang_names, paper_names
from pnp.core.errors import DataError, PnpError
from pnp.core.units import parse_offset
from pnp.data.textfile import read_text, shown

CONFIG_FILE = "pnp.toml"
PYPROJECT = "pyproject.toml"
MAX_GUTTER = 30.0
SOURCES = ("card_data", "templates", "fonts")  # never an output folder

# key -> the commands (and their option names) it sets the default of
TARGETS: dict[str, tuple[tuple[str, str], ...]] = {
    "paper": (("build", "paper"), ("calibrate", "paper"), ("export", "paper"), ("sample", "paper"),
              ("serve", "paper")),
    "lang": (("build", "lang"), ("export", "lang"), ("serve", "lang")),
    "out": (("build", "out"),),
    "back_offset": (("build", "back_offset"), ("calibrate", "back_offset")),
    "gutter": (("build", "gutter"),),
    "ink": (("build", "ink"),),
    "sheet": (("build", "sheet_name"),),
    "port": (("serve", "port"),),
}


def _line_of(text: str, key: str, table: str | None) -> int:
    """The line a key is set on (within ``[table]`` when given), for error messages."""
    in_table = table is None
    for number, line in enumerate(text.splitlines(), start=1):
        header = re.match(r"^\s*\[([^\]]+)\]", line)
        if header:
            in_table = table is not None and header.group(1).strip() == table
            continue
        if in_table and re.match(rf"^\s*{re.escape(key)}\s*=", line):
            return number
    return 1


def _validate(key: str, value: Any, root: Path) -> tuple[Any, str | None]:
    """The value click should get, or a problem."""
    if key == "paper":
        found = canonical_paper(value) if isinstance(value, str) else None
        if found is not None:
            return found, None
        return None, f"expected {paper_names()}, got {value!r}"
    if key == "lang":
        found = canonical_lang(value, allow_all=True) if isinstance(value, str) else None
        if found is not None:
            return found, None
        return None, f"expected one of {lang_names(allow_all=True)}, got {value!r}"
    if key == "out":
        if not isinstance(value, str) or not value.strip():
            return None, f"expected a folder inside the workspace, got {value!r}"
        if any(ord(ch) < 0x20 or ord(ch) == 0x7F for ch in value):
            return None, f"{value!r} holds a control character; give a plain folder name (e.g. \"prints\")"
        if ".git" in Path(value).parts:
            return None, f"{value!r} is inside .git/, git's own folder; give a folder of its own (e.g. \"prints\")"
        folder = (root / value).resolve()
        if Path(value).is_absolute() or not folder.is_relative_to(root.resolve()):
            return None, f"{value!r} leaves the workspace; give a folder inside it (e.g. \"prints\")"
        if folder == root.resolve() or any(folder.is_relative_to((root / name).resolve())
                                           for name in SOURCES):
            return None, (f"{value!r} would mix outputs with the game's sources; give a folder of "
                          "its own (e.g. \"prints\")")
        if folder.exists() and not folder.is_dir():
            return None, f"{value!r} is a file, not a folder; give a folder for the outputs (e.g. \"prints\")"
        return folder, None
    if key == "back_offset":
        if isinstance(value, list) and len(value) == 2 and all(
                isinstance(v, int | float) and not isinstance(v, bool) for v in value):
            value = f"{value[0]},{value[1]}"
        if not isinstance(value, str):
            return None, f"expected \"X,Y\" or [X, Y] in mm, got {value!r}"
        try:
            parse_offset(value)
        except PnpError as exc:
            return None, exc.message
        return value, None
    if key == "gutter":
        if isinstance(value, int | float) and not isinstance(value, bool) and math.isfinite(value) \
                and 0 <= value <= MAX_GUTTER:
            return float(value), None
        return None, f"expected a gap in mm from 0 to {MAX_GUTTER:g}, got {value!r}"
    if key == "ink":
        if isinstance(value, str) and value.lower() in INKS:
            return value.lower(), None
        return None, f"expected one of {', '.join(INKS)}, got {value!r}"
    if key == "sheet":
        return _sheet(value, root)
    if key == "port":
        if isinstance(value, int) and not isinstance(value, bool) and 1024 <= value <= 65535:
            return value, None
        return None, f"expected a port number from 1024 to 65535, got {value!r}"
    raise AssertionError(key)


def _sheet(value: Any, root: Path) -> tuple[Any, str | None]:
    """A sheet template some game of the workspace can use: a game's own, the workspace's or
    a shipped one (which file a game gets is settled when it is built)."""
    from pnp.core.workspace import SHEET_NAME, Workspace

    known = Workspace(root).sheet_names()
    if not isinstance(value, str) or not SHEET_NAME.fullmatch(value.strip().lower()):
        return None, (f"expected a sheet template's name (letters, digits, - and _), got {value!r}; "
                      f"known: {', '.join(known)}")
    if value.strip().lower() not in known:
        return None, (f"no sheet template {value!r}: not in sheets/ or any card_data/<game>/sheets/, and none "
                      f"ships with pnp; known: {', '.join(known)}")
    return value.strip().lower(), None


def setting_origin(root: Path, key: str) -> str:
    """Where pnp.toml (or pyproject.toml's [tool.pnp]) sets ``key``: ``pnp.toml:3``."""
    file, table = root / CONFIG_FILE, None
    if not file.is_file():
        file, table = root / PYPROJECT, "tool.pnp"
    line = _line_of(read_text(file), key, table) if file.is_file() else 1
    return f"{shown(file)}:{line}: {table + '.' if table else ''}{key}"


def load_settings(root: Path) -> tuple[dict[str, Any], Path | None]:
    """The validated settings of the workspace at ``root`` and the file they came from."""
    file = root / CONFIG_FILE
    table: str | None = None
    if not file.is_file():
        file = root / PYPROJECT
        table = "tool.pnp"
        if not file.is_file():
            return {}, None
    text = read_text(file)
    where = shown(file)
    import tomllib  # only when the workspace has a settings file

    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        match = re.search(r"line (\d+)", str(exc))
        line = match.group(1) if match else "1"
        raise DataError(f"{where}:{line}: malformed TOML: {str(exc).split(' (at')[0]}") from None
    if table is not None:
        tool = data.get("tool", {})
        settings = tool.get("pnp") if isinstance(tool, dict) else None
        if settings is None:
            return {}, None
        if not isinstance(settings, dict):
            raise DataError(f"{where}: tool.pnp: expected a table of settings")
    else:
        settings = data
    problems, values = [], {}
    for key, value in settings.items():
        line = _line_of(text, key, table)
        name = f"{table}.{key}" if table else key
        if key not in TARGETS:
            problems.append(f"{where}:{line}: {name}: unknown setting (expected one of: {', '.join(TARGETS)})")
            continue
        checked, problem = _validate(key, value, root)
        if problem:
            problems.append(f"{where}:{line}: {name}: {problem}")
        else:
            values[key] = checked
    if problems:
        raise DataError(problems)
    return values, file


def default_map(root: Path) -> dict[str, dict[str, Any]]:
    """click's ``default_map`` for the workspace at ``root``: command -> option -> default."""
    settings, _ = load_settings(root)
    defaults: dict[str, dict[str, Any]] = {}
    for key, value in settings.items():
        for command, option in TARGETS[key]:
            defaults.setdefault(command, {})[option] = value
    return defaults
