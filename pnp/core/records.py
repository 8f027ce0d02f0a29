"""``@record``: a frozen dataclass whose comparison, hash and repr are compiled when first used.

pnp's values are frozen dataclasses. On the Python pnp supports (3.11), ``dataclass`` writes six
methods as source text for each class and compiles each, about half a millisecond a class; a
build's command imports about eighty of them, and a one-card rebuild spent a tenth of its time
there. Most of those classes are never compared, hashed or shown in a given run. ``@record``
lets ``dataclass`` make the three methods a frozen class needs from the start (its
``__init__`` and the ``__setattr__``/``__delattr__`` that refuse assignment) and gives it
``__eq__``, ``__hash__`` and ``__repr__`` that each compile, on their first call, the method
``@dataclass(frozen=True)`` would have made (the same source, so the same values, hash numbers
and text, and as fast from then on), put it on the class and run it. ``dataclasses.fields``,
``replace``, ``asdict`` and pickling see a dataclass as before; type checkers are told by
``dataclass_transform``.
"""

from __future__ import annotations

import dataclasses
import reprlib
from collections.abc import Callable
from typing import Any, TypeVar, cast, dataclass_transform

_Class = TypeVar("_Class", bound=type)


@dataclass_transform(frozen_default=True, field_specifiers=(dataclasses.field, dataclasses.Field))
def record(cls: _Class) -> _Class:
    """``@dataclass(frozen=True)``, with ``__eq__``, ``__hash__`` and ``__repr__`` compiled when
    first called (see the module). As there, methods the class body defines itself are kept."""
    body = dict(cls.__dict__)
    made: Any = dataclasses.dataclass(frozen=True, eq=False, repr=False)(cls)
    fields = dataclasses.fields(made)
    compared = [f.name for f in fields if f.compare]
    if "__repr__" not in body:
        made.__repr__ = _on_first_call(made, "__repr__", lambda: _repr([f.name for f in fields if f.repr]))
    if "__eq__" not in body:
        made.__eq__ = _on_first_call(made, "__eq__", lambda: _eq(compared))
    # As dataclass: a __hash__ of the body's own is kept (Python sets it to None in a body that
    # defines __eq__ alone, which is no hash of its own).
    if "__hash__" not in body or (body["__hash__"] is None and "__eq__" in body):
        hashed = [f.name for f in fields if (f.compare if f.hash is None else f.hash)]
        made.__hash__ = _on_first_call(made, "__hash__", lambda: _hash(hashed))
    return cast(_Class, made)


def _on_first_call(cls: type, name: str, compile_method: Callable[[], Callable[..., Any]]) -> Callable[..., Any]:
    """A stand-in for method ``name`` of ``cls`` that compiles the method when first called and
    puts it in its place (two threads calling it at once compile the same method twice)."""

    def first_call(self: Any, *args: Any) -> Any:
        method = compile_method()
        method.__qualname__ = f"{cls.__qualname__}.{name}"
        setattr(cls, name, method)
        return method(self, *args)

    first_call.__name__ = name
    first_call.__qualname__ = f"{cls.__qualname__}.{name}"
    return first_call


def _compiled(source: str, name: str) -> Callable[..., Any]:
    scope: dict[str, Any] = {}
    exec(source, {}, scope)  # noqa: S102 - the source is made here from a class's field names
    return cast(Callable[..., Any], scope[name])


def _values(owner: str, names: list[str]) -> str:
    """``(owner.a,owner.b,)``: a tuple of the fields, as dataclass writes it."""
    return "(" + "".join(f"{owner}.{name}," for name in names) + ")"


def _eq(names: list[str]) -> Callable[..., Any]:
    return _compiled("def __eq__(self, other):\n"
                     " if other.__class__ is self.__class__:\n"
                     f"  return {_values('self', names)}=={_values('other', names)}\n"
                     " return NotImplemented\n", "__eq__")


def _hash(names: list[str]) -> Callable[..., Any]:
    return _compiled(f"def __hash__(self):\n return hash({_values('self', names)})\n", "__hash__")


def _repr(names: list[str]) -> Callable[..., Any]:
    shown = ", ".join(f"{name}={{self.{name}!r}}" for name in names)
    method = _compiled(f"def __repr__(self):\n return self.__class__.__qualname__ + f\"({shown})\"\n", "__repr__")
    return reprlib.recursive_repr()(method)
