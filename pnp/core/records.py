"""``@record``: a frozen dataclass whose comparison, hash and repr are shared, not generated.

pnp's values are frozen dataclasses. On the Python pnp supports (3.11), ``dataclass`` writes six
methods as source text for each class and compiles each: about half a millisecond a class, and a
build's command imports about eighty of them (a fifth of a small edit's rebuild went to starting
up). ``@record`` lets ``dataclass`` write the three a frozen class needs made for it (its
``__init__`` and the ``__setattr__``/``__delattr__`` that refuse assignment) and gives it the
other three from one definition each, reading the fields through ``operator.attrgetter``:
equality, hash and repr are those ``@dataclass(frozen=True)`` makes (the same values, the same
hash numbers, the same text). ``dataclasses.fields``, ``replace``, ``asdict`` and pickling see a
dataclass as before; type checkers are told by ``dataclass_transform``.
"""

from __future__ import annotations

import dataclasses
import reprlib
from collections.abc import Callable
from operator import attrgetter
from typing import Any, TypeVar, cast, dataclass_transform

_Class = TypeVar("_Class", bound=type)


@dataclass_transform(frozen_default=True, field_specifiers=(dataclasses.field, dataclasses.Field))
def record(cls: _Class) -> _Class:
    """``@dataclass(frozen=True)``, with ``__eq__``, ``__hash__`` and ``__repr__`` shared (see the
    module). As there, methods the class body defines itself are kept."""
    body = dict(cls.__dict__)
    made: Any = dataclasses.dataclass(frozen=True, eq=False, repr=False)(cls)
    fields = dataclasses.fields(made)
    compared = _values([f.name for f in fields if f.compare])
    hashed = _values([f.name for f in fields if (f.compare if f.hash is None else f.hash)])
    shown = tuple((f.name, attrgetter(f.name)) for f in fields if f.repr)
    if "__repr__" not in body:
        made.__repr__ = _repr(shown)
    if "__eq__" not in body:
        made.__eq__ = _eq(compared)
    # As dataclass: a __hash__ of the body's own is kept (Python sets it to None in a body that
    # defines __eq__ alone, which is no hash of its own).
    if "__hash__" not in body or (body["__hash__"] is None and "__eq__" in body):
        made.__hash__ = _hash(hashed)
    return cast(_Class, made)


def _values(names: list[str]) -> Callable[[Any], tuple[Any, ...]]:
    """A function giving an instance's values of ``names`` as a tuple (attrgetter gives a bare
    value for one name: a tuple is what dataclass compares and hashes)."""
    if len(names) > 1:
        return attrgetter(*names)
    if names:
        one = attrgetter(names[0])
        return lambda self: (one(self),)
    return lambda self: ()


def _eq(values: Callable[[Any], tuple[Any, ...]]) -> Callable[[Any, Any], Any]:
    def __eq__(self: Any, other: Any) -> Any:
        if other.__class__ is self.__class__:
            return values(self) == values(other)
        return NotImplemented

    return __eq__


def _hash(values: Callable[[Any], tuple[Any, ...]]) -> Callable[[Any], int]:
    def __hash__(self: Any) -> int:
        return hash(values(self))

    return __hash__


def _repr(shown: tuple[tuple[str, Callable[[Any], Any]], ...]) -> Callable[[Any], str]:
    @reprlib.recursive_repr()
    def __repr__(self: Any) -> str:
        inner = ", ".join(f"{name}={value(self)!r}" for name, value in shown)
        return f"{self.__class__.__qualname__}({inner})"

    return __repr__
