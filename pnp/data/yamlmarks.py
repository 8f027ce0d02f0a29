"""YAML loading that remembers where every value came from (file and line).

Validation reports problems as ``file:line: field.path: message``; PyYAML keeps marks only
on nodes, so the node tree is walked once and each value's line is stored by its path.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from pnp.errors import DataError

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
        shown = display_path(self.file)
        return f"{shown}:{line}: {format_path(path)}" if path else f"{shown}:{line}"


def display_path(file: Path) -> Path:
    """A file as the user would type it: relative to the current folder when inside it."""
    try:
        return file.resolve().relative_to(Path.cwd())
    except ValueError:
        return file


def format_path(path: PathKey) -> str:
    out = ""
    for part in path:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out or "(top)"


class _StrictLoader(yaml.SafeLoader):
    """SafeLoader that rejects duplicate keys, which PyYAML otherwise silently overwrites."""


def _load_nodes(text: str, file: Path) -> yaml.Node | None:
    try:
        return yaml.compose(text, Loader=_StrictLoader)
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line = mark.line + 1 if mark else 1
        reason = exc.problem or str(exc)
        raise DataError(f"{display_path(file)}:{line}: malformed YAML: {reason}") from None
    except yaml.YAMLError as exc:
        raise DataError(f"{display_path(file)}: malformed YAML: {exc}") from None


def _to_python(node: yaml.Node, path: PathKey, lines: dict[PathKey, int],
               problems: list[str], file: Path) -> Any:
    lines[path] = node.start_mark.line + 1
    if isinstance(node, yaml.MappingNode):
        result: dict[str, Any] = {}
        for key_node, value_node in node.value:
            if not isinstance(key_node, yaml.ScalarNode):
                problems.append(f"{file}:{key_node.start_mark.line + 1}: mapping keys must be plain")
                continue
            key = key_node.value
            if key in result:
                problems.append(
                    f"{file}:{key_node.start_mark.line + 1}: "
                    f"{format_path((*path, key))}: duplicate key {key!r}"
                )
                continue
            result[key] = _to_python(value_node, (*path, key), lines, problems, file)
            lines[(*path, key)] = key_node.start_mark.line + 1
        return result
    if isinstance(node, yaml.SequenceNode):
        return [
            _to_python(item, (*path, index), lines, problems, file)
            for index, item in enumerate(node.value)
        ]
    return _StrictLoader("").construct_object(node, deep=True)


def load_yaml(file: Path) -> Located:
    """Load one YAML file; malformed YAML or duplicate keys raise DataError naming the line."""
    try:
        text = file.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise DataError(f"{file}: file not found") from None
    except UnicodeDecodeError as exc:
        raise DataError(f"{file}: not UTF-8 text ({exc.reason} at byte {exc.start})") from None
    node = _load_nodes(text, file)
    lines: dict[PathKey, int] = {}
    problems: list[str] = []
    value = {} if node is None else _to_python(node, (), lines, problems, file)
    if problems:
        raise DataError(problems)
    return Located(file, value, lines)
