"""YAML loading that remembers where every value came from (file and line).

Validation reports problems as ``file:line: field.path: message``; PyYAML keeps marks only
on nodes, so the node tree is walked once and each value's line is stored by its path.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Any

import yaml

from pnp.core.errors import DataError
from pnp.data.textfile import read_text, shown

PathKey = tuple[str | int, ...]


@dataclass(frozen=True)
class Located:
    """A loaded YAML document with the line of every value, keyed by its path."""

    file: Path
    value: Any
    lines: dict[PathKey, int] = field(default_factory=dict)

    def where(self, path: PathKey) -> str:
        """``file:line: a.b[2].c`` for a path, falling back to the nearest known parent."""
        probe = path
        while probe and probe not in self.lines:
            probe = probe[:-1]
        line = self.lines.get(probe, 1)
        shown = self.shown_file
        return f"{shown}:{line}: {format_path(path)}" if path else f"{shown}:{line}"

    @cached_property
    def shown_file(self) -> Path:
        """The file as messages name it (relative to the current folder when inside it), worked
        out once: every text of a game keeps its place, and resolving the path each time was
        two fifths of loading one (wurenshenghuan: 32 → 19 ms)."""
        return display_path(self.file)


display_path = shown


def format_path(path: PathKey) -> str:
    out = ""
    for part in path:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out or "(top)"


# Only YAML's plain types: a game folder is data, so a tag that would build a Python object
# (``!!python/object``) or an unknown local tag is refused instead of constructed.
PLAIN_TAGS = frozenset(
    f"tag:yaml.org,2002:{name}"
    for name in ("str", "int", "float", "bool", "null", "map", "seq", "timestamp", "binary")
)
# Limits that keep a hostile file from hanging a build: an alias bomb expands nine-fold per
# level, so the budget counts values after expansion; real card data stays far below both.
MAX_VALUES = 200_000
MAX_DEPTH = 64

try:  # libyaml's parser is several times faster; the pure-Python one gives the same nodes
    _Parser: type = yaml.CSafeLoader
except AttributeError:  # pragma: no cover - wheels without libyaml
    _Parser = yaml.SafeLoader

_SCALARS = yaml.SafeLoader("")


class _Budget:
    def __init__(self) -> None:
        self.values = 0


def _load_nodes(text: str, file: Path) -> yaml.Node | None:
    try:
        return yaml.compose(text, Loader=_Parser)
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line = mark.line + 1 if mark else 1
        reason = exc.problem or str(exc)
        raise DataError(f"{display_path(file)}:{line}: malformed YAML: {reason}") from None
    except yaml.YAMLError as exc:
        raise DataError(f"{display_path(file)}: malformed YAML: {exc}") from None
    except RecursionError:
        raise DataError(f"{display_path(file)}: nested too deeply (at most {MAX_DEPTH} levels)") from None


class _Refused(Exception):
    def __init__(self, message: str) -> None:
        self.message = message


def _to_python(node: yaml.Node, path: PathKey, lines: dict[PathKey, int],
               problems: list[str], file: Path, budget: _Budget) -> Any:
    line = node.start_mark.line + 1
    where = f"{file}:{line}"  # ``file`` arrives already shown relative to the current folder
    budget.values += 1
    if budget.values > MAX_VALUES:
        raise _Refused(f"{where}: {format_path(path)}: more than {MAX_VALUES:,} values once aliases "
                       "are expanded (an alias bomb?); pnp stops here")
    if len(path) > MAX_DEPTH:
        raise _Refused(f"{where}: {format_path(path)}: nested more than {MAX_DEPTH} levels deep "
                       "(or an alias that contains itself)")
    if node.tag not in PLAIN_TAGS:
        problems.append(f"{where}: {format_path(path)}: the tag {node.tag!r} is not allowed; game "
                        "files hold plain YAML values only (text, numbers, true/false, lists, mappings)")
        return None
    lines[path] = line
    if isinstance(node, yaml.MappingNode):
        result: dict[str, Any] = {}
        for key_node, value_node in node.value:
            if not isinstance(key_node, yaml.ScalarNode) or key_node.tag not in PLAIN_TAGS:
                problems.append(f"{file}:{key_node.start_mark.line + 1}: mapping keys must be plain")
                continue
            key = key_node.value
            if key == "<<":
                problems.append(f"{file}:{key_node.start_mark.line + 1}: "
                                f"{format_path(path)}: merge keys (<<) are not supported; write the keys out")
                continue
            if key in result:
                problems.append(
                    f"{file}:{key_node.start_mark.line + 1}: "
                    f"{format_path((*path, key))}: duplicate key {key!r}"
                )
                continue
            result[key] = _to_python(value_node, (*path, key), lines, problems, file, budget)
            lines[(*path, key)] = key_node.start_mark.line + 1
        return result
    if isinstance(node, yaml.SequenceNode):
        return [
            _to_python(item, (*path, index), lines, problems, file, budget)
            for index, item in enumerate(node.value)
        ]
    try:
        return _SCALARS.construct_object(node, deep=True)
    except (yaml.YAMLError, ValueError, OverflowError) as exc:
        problems.append(f"{where}: {format_path(path)}: {node.value!r} is not a valid value ({exc})")
        return None


def load_yaml(file: Path) -> Located:
    """Load one YAML file; malformed YAML or duplicate keys raise DataError naming the line."""
    text = read_text(file)
    node = _load_nodes(text, file)
    lines: dict[PathKey, int] = {}
    problems: list[str] = []
    try:
        value = {} if node is None else _to_python(node, (), lines, problems, display_path(file), _Budget())
    except _Refused as refused:
        raise DataError(refused.message) from None
    except RecursionError:
        raise DataError(f"{display_path(file)}: nested too deeply (at most {MAX_DEPTH} levels)") from None
    if problems:
        raise DataError(problems)
    return Located(file, value, lines)
