"""YAML loading that remembers where every value came from (file and line).

Validation reports problems as ``file:line: field.path: message``; PyYAML keeps marks only
on nodes, so the node tree is walked once and each value's line is stored by its path.
"""

from __future__ import annotations

from dataclasses import field
from functools import cached_property
from pathlib import Path
from typing import Any

import yaml

from pnp.core.errors import DataError
from pnp.core.limits import MAX_NUMBER_CHARS, MAX_SCALAR_CHARS
from pnp.core.problems import PathKey, Place, Problem, format_path
from pnp.core.records import record
from pnp.data.textchars import CONTROL, control_message
from pnp.data.textfile import read_text, shown

__all__ = ["Located", "PathKey", "display_path", "format_path", "load_yaml"]


@record
class Located:
    """A loaded YAML document with the line of every value, keyed by its path."""

    file: Path
    value: Any
    lines: dict[PathKey, int] = field(default_factory=dict)

    def where(self, path: PathKey) -> Place:
        """``file:line: a.b[2].c`` for a path, its line that of the nearest known parent."""
        return Place(str(self.shown_file), self.line(path), path)

    def line(self, path: PathKey) -> int:
        """The line of the value at ``path``, or of its nearest known parent."""
        probe = path
        while probe and probe not in self.lines:
            probe = probe[:-1]
        return self.lines.get(probe, 1)

    def problem(self, path: PathKey, message: str, code: str | None = None) -> Problem:
        """A problem with the value at ``path``, placed on its line."""
        return self.where(path).problem(message, code)

    @cached_property
    def shown_file(self) -> Path:
        """The file as messages name it (relative to the current folder when inside it), worked
        out once: every text of a game keeps its place, and resolving the path each time was
        two fifths of loading one (wurenshenghuan: 32 → 19 ms)."""
        return display_path(self.file)


display_path = shown


# Only YAML's plain types: a game folder is data, so a tag that would build a Python object
# (``!!python/object``) or an unknown local tag is refused instead of constructed.
PLAIN_TAGS = frozenset(
    f"tag:yaml.org,2002:{name}"
    for name in ("str", "int", "float", "bool", "null", "map", "seq", "timestamp", "binary")
)
_MAP, _SEQ = "tag:yaml.org,2002:map", "tag:yaml.org,2002:seq"
_STR = "tag:yaml.org,2002:str"
_NUMBERS = frozenset({"tag:yaml.org,2002:int", "tag:yaml.org,2002:float"})
# Limits that keep a hostile file from hanging a build: an alias bomb expands nine-fold per
# level, so the budget counts values after expansion; real card data stays far below both.
MAX_VALUES = 200_000
MAX_DEPTH = 64

try:  # libyaml's parser is several times faster; the pure-Python one gives the same nodes
    _Parser: type = yaml.CSafeLoader
except AttributeError:  # pragma: no cover - wheels without libyaml
    _Parser = yaml.SafeLoader


class _Budget:
    def __init__(self) -> None:
        # PyYAML's constructor remembers every node it built, and every node it failed on, for
        # as long as it lives: one per file, dropped with it. (One shared by every load kept
        # each loaded file's nodes for good, and a long `pnp build --watch` or `pnp serve` grew
        # by every save.)
        self.scalars = yaml.SafeLoader("")
        self.values = 0
        self.collections: set[int] = set()  # the lists and mappings met, by identity
        self.aliased = False  # one was met twice: an alias repeats a node, YAML text cannot


def _load_nodes(text: str, file: Path) -> yaml.Node | None:
    try:
        return yaml.compose(text, Loader=_Parser)
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line = mark.line + 1 if mark else 1
        reason = exc.problem or str(exc)
        raise DataError(Problem(f"malformed YAML: {reason}", str(display_path(file)), line,
                                code="malformed-yaml")) from None
    except yaml.reader.ReaderError as exc:
        # A character YAML refuses (NUL, other controls) carries an offset, not a line mark:
        # libyaml's counts UTF-8 bytes, PyYAML's own characters.
        before = (text.encode("utf-8")[:exc.position].decode("utf-8", "ignore")
                  if _Parser is not yaml.SafeLoader else text[:exc.position])
        line = before.count("\n") + 1
        column = len(before) - (before.rfind("\n") + 1) + 1
        code = exc.character if isinstance(exc.character, int) else ord(exc.character)
        raise DataError(Problem(f"malformed YAML: character U+{code:04X} at column {column}: "
                                "control characters are not allowed; remove it",
                                str(display_path(file)), line, code="malformed-yaml")) from None
    except yaml.YAMLError as exc:
        raise DataError(Problem(f"malformed YAML: {exc}", str(display_path(file)), code="malformed-yaml")) from None
    except RecursionError:
        raise DataError(_too_deep(file)) from None


def _too_deep(file: Path) -> Problem:
    return Problem(f"nested too deeply (at most {MAX_DEPTH} levels)", str(display_path(file)), code="too-deep")


class _Refused(Exception):
    def __init__(self, problem: Problem) -> None:
        self.problem = problem


def _to_python(node: yaml.Node, path: PathKey, lines: dict[PathKey, int],
               problems: list[Problem], file: Path, budget: _Budget) -> Any:
    line = node.start_mark.line + 1
    shown_file = str(file)  # ``file`` arrives already shown relative to the current folder
    budget.values += 1
    if isinstance(node, yaml.CollectionNode):
        # Met twice, a list or mapping was repeated by an alias.
        budget.aliased = budget.aliased or id(node) in budget.collections
        budget.collections.add(id(node))
    if budget.values > MAX_VALUES:
        what = "values once aliases are expanded (an alias bomb?)" if budget.aliased else \
            "values in one file (the most pnp reads from one; split the file)"
        raise _Refused(_at(shown_file, line, path, f"more than {MAX_VALUES:,} {what}; pnp stops here",
                           "too-many-values"))
    if len(path) > MAX_DEPTH:
        raise _Refused(_at(shown_file, line, path, f"nested more than {MAX_DEPTH} levels deep (or an alias "
                           "that contains itself)", "too-deep"))
    tag = node.tag
    if tag == _STR and type(node) is yaml.ScalarNode:
        # Most values are text without a fault: taken at once; a faulty one goes the long way.
        text = node.value
        if len(text) <= MAX_SCALAR_CHARS and CONTROL.search(text) is None:
            lines[path] = line
            return text
    if tag not in PLAIN_TAGS:
        problems.append(_at(shown_file, line, path, f"the tag {tag!r} is not allowed; game files hold plain YAML "
                            "values only (text, numbers, true/false, lists, mappings)", "yaml-tag"))
        return None
    unfit = _unfit_tag(node)
    if unfit:
        problems.append(_at(shown_file, line, path, unfit, "yaml-tag"))
        return None
    lines[path] = line
    if isinstance(node, yaml.MappingNode):
        result: dict[str, Any] = {}
        for key_node, value_node in node.value:
            if not isinstance(key_node, yaml.ScalarNode) or key_node.tag not in PLAIN_TAGS:
                problems.append(Problem("mapping keys must be plain", shown_file, key_node.start_mark.line + 1,
                                        code="yaml-key"))
                continue
            key = key_node.value
            key_line = key_node.start_mark.line + 1
            bad_key = _text_problem(key)
            if bad_key:
                problems.append(_at(shown_file, key_line, path, f"a key: {bad_key}", "yaml-key"))
                continue
            if key == "<<":
                problems.append(_at(shown_file, key_line, path, "merge keys (<<) are not supported; write "
                                    "the keys out", "yaml-merge-key"))
                continue
            inner = (*path, key)
            if key in result:
                problems.append(_at(shown_file, key_line, inner, f"duplicate key {key!r}", "duplicate-key"))
                continue
            result[key] = _to_python(value_node, inner, lines, problems, file, budget)
            lines[inner] = key_line
        return result
    if isinstance(node, yaml.SequenceNode):
        return [
            _to_python(item, (*path, index), lines, problems, file, budget)
            for index, item in enumerate(node.value)
        ]
    refused = _scalar_problem(node)
    if refused:
        problems.append(_at(shown_file, line, path, refused, "yaml-value"))
        return None
    if tag == _STR:
        return node.value  # what the constructor returns for text, without its dispatch
    try:
        return budget.scalars.construct_object(node, deep=True)
    except Exception as exc:  # noqa: BLE001 - see below
        # PyYAML's constructors trust that an explicit tag fits its text: ``!!bool maybe`` is a
        # KeyError, ``!!timestamp nope`` an AttributeError, ``!!int ""`` an IndexError, bad
        # base64 a binascii.Error, ``2026-13-45`` a ValueError. Whatever one raises, the value
        # is at fault, not pnp. Only a ValueError's own words say something to a designer.
        expected = _EXPECTED.get(_tag_name(tag), "a plain value")
        why = f" ({exc})" if isinstance(exc, ValueError | OverflowError) and str(exc) else ""
        problems.append(_at(shown_file, line, path, f"{_shorten(node.value)!r} cannot be read as "
                            f"!!{_tag_name(tag)}: expected {expected}{why}", "yaml-value"))
        return None


def _at(file: str, line: int, path: PathKey, message: str, code: str) -> Problem:
    return Problem(message, file, line, path=path, code=code)


_EXPECTED = {"bool": "true or false", "int": "a whole number such as 12", "float": "a number such as 1.5",
             "timestamp": "a real date such as 2026-11-29 (or a date and time)", "binary": "base64 text"}


def _tag_name(tag: str) -> str:
    return tag.rsplit(":", 1)[-1]


def _shorten(text: str) -> str:
    return text if len(text) <= 60 else text[:57] + "…"


def _unfit_tag(node: yaml.Node) -> str | None:
    """Why a node's tag does not fit its kind (``!!str`` on a mapping, ``!!map`` on a word), or None."""
    if isinstance(node, yaml.MappingNode):
        wanted, kind = _MAP, "a mapping"
    elif isinstance(node, yaml.SequenceNode):
        wanted, kind = _SEQ, "a list"
    else:
        wanted, kind = "", "a single value"
    if node.tag == wanted or (not wanted and node.tag not in (_MAP, _SEQ)):
        return None
    return f"the tag !!{_tag_name(node.tag)} does not fit {kind}; remove the tag"


def _text_problem(text: str) -> str | None:
    """Why a YAML text may not be any value of a game: too long, or a control character."""
    if len(text) > MAX_SCALAR_CHARS:
        return (f"a value of {len(text):,} characters is longer than any pnp reads "
                f"(at most {MAX_SCALAR_CHARS:,}; each text field has its own, smaller limit)")
    return control_message(text)


def _scalar_problem(node: yaml.Node) -> str | None:
    """Why a scalar is refused before it is constructed: checked on its text, so that neither a
    7 MB line nor a number of a million digits reaches PyYAML's constructors."""
    if node.tag in _NUMBERS and len(node.value) > MAX_NUMBER_CHARS:
        return (f"a number written with {len(node.value):,} characters; pnp reads numbers of at most "
                f"{MAX_NUMBER_CHARS} characters (quote it if it is text)")
    return _text_problem(node.value)


def load_yaml(file: Path) -> Located:
    """Load one YAML file; malformed YAML or duplicate keys raise DataError naming the line."""
    text = read_text(file)
    node = _load_nodes(text, file)
    lines: dict[PathKey, int] = {}
    problems: list[Problem] = []
    try:
        value = {} if node is None else _to_python(node, (), lines, problems, display_path(file), _Budget())
    except _Refused as refused:
        raise DataError(refused.problem) from None
    except RecursionError:
        raise DataError(_too_deep(file)) from None
    if problems:
        raise DataError(problems)
    return Located(file, value, lines)
