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
writing a log costs about what building the dicts by hand did.
"""

from __future__ import annotations

import dataclasses
import sys
import types
import typing
from collections.abc import Callable
from typing import Any

_KEY = "pnp.json_key"
_OMIT_NONE = "pnp.omit_none"

Convert = Callable[[Any], Any]


def key(name: str) -> Any:
    """A field written under the JSON key ``name`` (for keys that are not Python names)."""
    return dataclasses.field(metadata={_KEY: name})


def omitted_when_none(name: str | None = None) -> Any:
    """An optional field (default None) left out of the JSON object when None."""
    metadata: dict[str, Any] = {_OMIT_NONE: True}
    if name is not None:
        metadata[_KEY] = name
    return dataclasses.field(default=None, metadata=metadata)


def to_json(value: Any) -> Any:
    """Plain JSON values for ``value``: dataclasses, tuples, lists and dicts all the way down."""
    return _generic(value)


def to_json_object(event: Any) -> dict[str, Any]:
    """``to_json`` of one event (a dataclass instance): a whole game's log, say."""
    if not dataclasses.is_dataclass(event) or isinstance(event, type):
        raise TypeError(f"expected an event dataclass, got {type(event).__name__}")
    result: dict[str, Any] = _writer(type(event))(event)
    return result


# One writer function per event class, generated from its fields the first time it is
# written: a log holds thousands of events, and a loop over fields per event costs several
# times what the plain dict display below does.
_WRITERS: dict[type, Convert] = {}


def _writer(cls: type) -> Convert:
    writer = _WRITERS.get(cls)
    if writer is None:
        writer = _WRITERS[cls] = _make_writer(cls)
    return writer


def _make_writer(cls: type) -> Convert:
    module = sys.modules.get(cls.__module__)
    hints = typing.get_type_hints(cls, vars(module) if module else None)
    namespace: dict[str, Any] = {}
    leading: list[str] = []  # the fields up to the first optional one, in one dict display
    lines: list[str] = []  # the rest, one statement each, so the keys keep the field order
    for i, f in enumerate(dataclasses.fields(cls)):
        name = f.metadata.get(_KEY, f.name)
        convert = _converter(hints[f.name])
        if convert is None:
            value = f"v.{f.name}"
        else:
            namespace[f"c{i}"] = convert
            value = f"(None if v.{f.name} is None else c{i}(v.{f.name}))"
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


def _converter(hint: Any) -> Convert | None:
    """How to write a value of type ``hint``; None means it is written as it is."""
    if hint in _PLAIN:
        return None
    origin = typing.get_origin(hint)
    args = typing.get_args(hint)
    if origin is typing.Literal:
        return None
    if origin in (typing.Union, types.UnionType):
        inner = [a for a in args if a is not type(None)]
        if len(inner) == 1:
            return _converter(inner[0])  # None is handled before converting
        return _generic if any(_converter(a) is not None for a in inner) else None
    if origin in (tuple, list) and args:
        item = args[0]
        if (origin is list or (len(args) == 2 and args[1] is Ellipsis)) and item in _PLAIN:
            return list
        if origin is tuple and args[-1] is not Ellipsis:
            return _generic  # a fixed-length tuple of mixed types
        inner_convert = _converter(item)
        if inner_convert is None:
            return list
        if inner_convert is list:
            return lambda v: [list(x) for x in v]
        return lambda v: [inner_convert(x) for x in v]
    if isinstance(hint, type) and dataclasses.is_dataclass(hint):
        return _writer(hint)
    return _generic
