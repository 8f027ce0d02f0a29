"""Typed event logs: an engine's events are frozen dataclasses, written out as the JSON that
docs/sample-and-simulate.md fixes.

``to_json`` turns an event (and every event nested in it) into plain JSON values: a
dataclass becomes an object with one key per field, in field order; tuples and lists become
lists; a ``dict`` keeps its keys. Two field options cover what the JSON contract needs and a
Python name cannot say: ``key("from")`` writes a field under another name (a keyword, say),
and ``omitted_when_none()`` leaves a field out of the object when it is None (events of one
kind whose extras differ).

How each field is converted is worked out once per class from its type hints (an ``int``
field is copied, a ``tuple[int, ...]`` becomes a list without looking at its items), so
writing a log costs about what building the dicts by hand did. ``fast_init`` makes building
the events themselves cheaper (a game builds hundreds).
"""

from __future__ import annotations

import dataclasses
import sys
import types
import typing
from collections.abc import Callable
from typing import Any, TypeVar

_KEY = "pnp.json_key"
_OMIT_NONE = "pnp.omit_none"

Convert = Callable[[Any], Any]
T = TypeVar("T")


def key(name: str) -> Any:
    """A field written under the JSON key ``name`` (for keys that are not Python names)."""
    return dataclasses.field(metadata={_KEY: name})


def omitted_when_none(name: str | None = None) -> Any:
    """An optional field (default None) left out of the JSON object when None."""
    metadata: dict[str, Any] = {_OMIT_NONE: True}
    if name is not None:
        metadata[_KEY] = name
    return dataclasses.field(default=None, metadata=metadata)


def fast_init(cls: type[T]) -> type[T]:
    """Give a frozen, slotted event dataclass an ``__init__`` that fills its slots directly.

    The ``__init__`` dataclasses writes for a frozen class goes through ``object.__setattr__``
    field by field; setting each slot through its descriptor takes about 40 % fewer
    instructions, which counts for the thousands of events a simulation builds. Use it above
    ``@dataclass(frozen=True, slots=True)``; fields may have plain defaults, not factories.
    """
    fields = dataclasses.fields(cls)  # type: ignore[arg-type]
    if "__slots__" not in vars(cls) or any(
            f.default_factory is not dataclasses.MISSING or not f.init for f in fields):
        raise TypeError(f"{cls.__name__}: fast_init needs slots and no field factories")
    namespace: dict[str, Any] = {}
    params: list[str] = []
    body: list[str] = []
    for i, f in enumerate(fields):
        namespace[f"set{i}"] = getattr(cls, f.name).__set__
        if f.default is dataclasses.MISSING:
            params.append(f.name)
        else:
            namespace[f"default{i}"] = f.default
            params.append(f"{f.name}=default{i}")
        body.append(f"    set{i}(self, {f.name})")
    source = f"def __init__(self, {', '.join(params)}):\n" + "\n".join(body or ["    pass"])
    exec(source + "\n", namespace)  # noqa: S102 - the source is built from field names above
    init = namespace["__init__"]
    init.__qualname__ = f"{cls.__qualname__}.__init__"
    setattr(cls, "__init__", init)  # noqa: B010 - replacing the generated method on purpose
    return cls


def to_json(value: Any) -> Any:
    """Plain JSON values for ``value``: dataclasses, tuples, lists and dicts all the way down."""
    return _generic(value)


def to_json_object(event: Any) -> dict[str, Any]:
    """``to_json`` of one event (a dataclass instance): a whole game's log, say."""
    if not dataclasses.is_dataclass(event) or isinstance(event, type):
        raise TypeError(f"expected an event dataclass, got {type(event).__name__}")
    result: dict[str, Any] = _writer(type(event))(event)
    return result


# One writer function per event class, generated from its fields and their types the first
# time it is written (as dataclasses generates __init__): a log holds thousands of events,
# and a loop over fields per event costs several times what a plain dict display does.
_WRITERS: dict[type, Convert] = {}


def _writer(cls: type) -> Convert:
    writer = _WRITERS.get(cls)
    if writer is None:
        writer = _WRITERS[cls] = _make_writer(cls)
    return writer


def _make_writer(cls: type) -> Convert:
    hints = _hints(cls)
    namespace: dict[str, Any] = {"_generic": _generic}
    leading: list[str] = []  # the fields up to the first optional one, in one dict display
    lines: list[str] = []  # the rest, one statement each, so the keys keep the field order
    for f in dataclasses.fields(cls):
        name = f.metadata.get(_KEY, f.name)
        value = _expression(hints[f.name], f"v.{f.name}", namespace, 0)
        if f.metadata.get(_OMIT_NONE):
            lines.append(f"    if v.{f.name} is not None:\n        out[{name!r}] = {value}")
        elif lines:
            lines.append(f"    out[{name!r}] = {value}")
        else:
            leading.append(f"{name!r}: {value}")
    source = "def write(v):\n    out = {" + ", ".join(leading) + "}\n"
    source += "".join(line + "\n" for line in lines) + "    return out\n"
    exec(source, namespace)  # noqa: S102 - the source is built from field names above
    writer: Convert = namespace["write"]
    return writer


def _generic(value: Any) -> Any:
    if isinstance(value, (str, int, float, bool)) or value is None:
        return value
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return _writer(type(value))(value)
    if isinstance(value, (tuple, list)):
        return [_generic(v) for v in value]
    if isinstance(value, dict):
        return {k: _generic(v) for k, v in value.items()}
    raise TypeError(f"cannot write {type(value).__name__} to an event log")


_PLAIN = (int, str, bool, float, type(None))


def _expression(hint: Any, expr: str, namespace: dict[str, Any], depth: int) -> str:
    """Python source writing ``expr``, a value of type ``hint``, as JSON values."""
    if hint in _PLAIN:
        return expr
    origin = typing.get_origin(hint)
    args = typing.get_args(hint)
    if origin is typing.Literal:
        return expr
    if origin in (typing.Union, types.UnionType):
        inner = [a for a in args if a is not type(None)]
        if len(inner) == 1:
            written = _expression(inner[0], expr, namespace, depth)
            if written == expr or len(inner) == len(args):
                return written
            return f"(None if {expr} is None else {written})"
        if all(_expression(a, expr, namespace, depth) == expr for a in inner):
            return expr
        return f"_generic({expr})"
    if origin in (tuple, list) and args:
        if origin is tuple and not (len(args) == 2 and args[1] is Ellipsis):
            return f"_generic({expr})"  # a fixed-length tuple of mixed types
        item = f"x{depth}"
        written = _expression(args[0], item, namespace, depth + 1)
        # The same lists, built with fewer interpreter steps: a display instead of a call to
        # list, and a tuple of plain tuples (rows of cards) by map instead of a comprehension.
        if written == item:
            return f"[*{expr}]"
        if written == f"[*{item}]":
            return f"list(map(list, {expr}))"
        return f"[{written} for {item} in {expr}]"
    if isinstance(hint, type) and dataclasses.is_dataclass(hint):
        fields = dataclasses.fields(hint)
        if depth < 6 and not any(f.metadata.get(_OMIT_NONE) for f in fields):
            # A dict display in place: a turn's placements are written without a call each
            # (the depth bounds the source, and a class that nests itself).
            hints = _hints(hint)
            items = [f"{f.metadata.get(_KEY, f.name)!r}: "
                     + _expression(hints[f.name], f"{expr}.{f.name}", namespace, depth + 1)
                     for f in fields]
            return "{" + ", ".join(items) + "}"
        name = f"w{len(namespace)}"
        namespace[name] = _writer(hint)
        return f"{name}({expr})"
    return f"_generic({expr})"


def _hints(cls: type) -> dict[str, Any]:
    module = sys.modules.get(cls.__module__)
    return typing.get_type_hints(cls, vars(module) if module else None)
