"""``@record``: a frozen dataclass whose methods are made when first used.

pnp's values are frozen dataclasses. On the Python pnp supports (3.11), ``dataclass`` writes six
methods as source text for each class and compiles each, about half a millisecond a class; a
build's command imports about eighty of them, and a one-card rebuild spent a tenth of its time
there. Many of those classes are never made, compared, hashed or shown in a given run.

``@record`` lets ``dataclass`` collect the fields (``fields``, ``replace``, ``asdict`` and
pickling see a dataclass as before, and ``__dataclass_params__`` says frozen, so frozen
dataclasses may extend a record and the other way round; type checkers are told by
``dataclass_transform``) and gives the class, instead of the methods ``@dataclass(frozen=True)``
compiles:

- ``__setattr__`` and ``__delattr__`` that refuse as a frozen dataclass's do, made once as
  closures (they need no source of their own);
- ``__init__``, ``__eq__``, ``__hash__`` and ``__repr__`` that each compile, on their first
  call, the source ``dataclass`` writes for a frozen class, in the class's module as dataclass
  does (so the same arguments, defaults and factories, the same values, hash numbers and text,
  and as fast from then on), put it on the class and run it.

As with ``dataclass``, methods the class body defines itself are kept. A class that extends a
frozen dataclass (a record among them), or declares ``ClassVar`` or ``InitVar`` pseudo-fields,
is made by ``@dataclass(frozen=True)`` itself, with the three methods above still made when
first called. Until a class is first made, ``inspect.signature`` shows its ``__init__``
stand-in's ``(*args, **kwargs)``.
"""

from __future__ import annotations

import dataclasses
import inspect
import reprlib
import sys
from collections.abc import Callable
from typing import Any, TypeVar, cast, dataclass_transform

_Class = TypeVar("_Class", bound=type)


class _Factory:
    """The default a field with a ``default_factory`` shows in ``__init__``'s signature."""

    def __repr__(self) -> str:
        return "<factory>"


_FACTORY = _Factory()


@dataclass_transform(frozen_default=True, field_specifiers=(dataclasses.field, dataclasses.Field))
def record(cls: _Class) -> _Class:
    """``@dataclass(frozen=True)``, its methods made when first called (see the module)."""
    body = dict(cls.__dict__)
    made: Any
    if _made_by_dataclass(cls, body):
        made = dataclasses.dataclass(frozen=True, eq=False, repr=False)(cls)
        fields = dataclasses.fields(made)
    else:
        for name in ("__setattr__", "__delattr__"):
            if name in body:  # as dataclass says of a frozen class
                raise TypeError(f"Cannot overwrite attribute {name} in class {cls.__name__}")
        undocumented = not body.get("__doc__")
        if undocumented:  # dataclass would write one from the __init__ it does not make (in vain)
            cls.__doc__ = "written below"
        made = dataclasses.dataclass(init=False, eq=False, repr=False)(cls)
        fields = dataclasses.fields(made)
        if len(fields) != len(made.__dataclass_fields__):  # a pseudo-field the annotations hid
            raise TypeError(f"{cls.__name__}: a record's pseudo-fields (ClassVar, InitVar) must be "
                            "spelt so in its annotations")
        source = _init_source(fields, hasattr(made, "__post_init__"))  # checks the fields' order now
        if "__init__" not in body:
            made.__init__ = _on_first_call(made, "__init__", lambda: _init(made, source, fields))
        made.__setattr__, made.__delattr__ = _refusals(made, tuple(f.name for f in fields))
        if undocumented:
            made.__doc__ = made.__name__ + _shown_signature(fields)
        made.__dataclass_params__.init = made.__dataclass_params__.frozen = True
    # What the class behaves as, for dataclass's own checks of a class that extends it.
    made.__dataclass_params__.repr = made.__dataclass_params__.eq = True
    if "__repr__" not in body:
        made.__repr__ = _on_first_call(made, "__repr__", lambda: _repr(made, [f.name for f in fields if f.repr]))
    if "__eq__" not in body:
        compared = [f.name for f in fields if f.compare]
        made.__eq__ = _on_first_call(made, "__eq__", lambda: _eq(made, compared))
    # As dataclass: a __hash__ of the body's own is kept (Python sets it to None in a body that
    # defines __eq__ alone, which is no hash of its own).
    if "__hash__" not in body or (body["__hash__"] is None and "__eq__" in body):
        hashed = [f.name for f in fields if (f.compare if f.hash is None else f.hash)]
        made.__hash__ = _on_first_call(made, "__hash__", lambda: _hash(made, hashed))
    return cast(_Class, made)


def _made_by_dataclass(cls: type, body: dict[str, Any]) -> bool:
    """Whether ``cls`` extends a frozen dataclass (which dataclass lets only a frozen class do)
    or declares a pseudo-field (an ``InitVar`` is an argument of ``__init__``)."""
    if any(getattr(getattr(base, "__dataclass_params__", None), "frozen", False) for base in cls.__mro__[1:]):
        return True
    return any("InitVar" in str(kind) or "ClassVar" in str(kind) for kind in body.get("__annotations__", {}).values())


def _on_first_call(cls: type, name: str, compile_method: Callable[[], Callable[..., Any]]) -> Callable[..., Any]:
    """A stand-in for method ``name`` of ``cls`` that compiles the method when first called and
    puts it in its place (two threads calling it at once compile the same method twice)."""

    def first_call(instance: Any, /, *args: Any, **kwargs: Any) -> Any:  # a field may be named self
        method = compile_method()
        setattr(cls, name, method)
        return method(instance, *args, **kwargs)

    first_call.__name__ = name
    first_call.__qualname__ = f"{cls.__qualname__}.{name}"
    return first_call


def _refusals(cls: Any, names: tuple[str, ...]) -> tuple[Callable[..., None], Callable[..., None]]:
    """The ``__setattr__`` and ``__delattr__`` of a frozen dataclass ``cls`` with fields ``names``."""

    def __setattr__(self: Any, name: str, value: Any) -> None:
        if type(self) is cls or name in names:
            raise dataclasses.FrozenInstanceError(f"cannot assign to field {name!r}")
        super(cls, self).__setattr__(name, value)

    def __delattr__(self: Any, name: str) -> None:
        if type(self) is cls or name in names:
            raise dataclasses.FrozenInstanceError(f"cannot delete field {name!r}")
        super(cls, self).__delattr__(name)

    for method in (__setattr__, __delattr__):
        method.__qualname__ = f"{cls.__qualname__}.{method.__name__}"
    return __setattr__, __delattr__


def _compiled(cls: type, source: str, name: str, closure: dict[str, Any] | None = None) -> Callable[..., Any]:
    """Function ``name`` of ``source``, compiled as dataclass compiles its methods: in the
    module of ``cls`` (its globals, so its annotations resolve there), the values it names in
    ``closure`` handed in as the arguments of a function that makes it."""
    closure = closure or {}
    inner = "".join(f"  {line}\n" for line in source.splitlines())
    text = f"def __create_fn__({', '.join(closure)}):\n{inner}  return {name}\n"
    module = sys.modules.get(cls.__module__)
    made: dict[str, Any] = {}
    exec(text, module.__dict__ if module is not None else {}, made)  # the source is made here from field names
    method = cast(Callable[..., Any], made["__create_fn__"](**closure))
    method.__qualname__ = f"{cls.__qualname__}.{name}"
    return method


def _default(field: dataclasses.Field[Any]) -> str:
    return f"__dataclass_dflt_{field.name}__"


def _init_source(fields: tuple[dataclasses.Field[Any], ...], post_init: bool) -> str:
    """The ``__init__`` dataclass writes for a frozen class with ``fields`` (3.11's): arguments
    in order, keyword-only ones after a ``*``, each default by name and each factory's sentinel
    by ``_FACTORY``; a field outside ``__init__`` set from its factory (one with a plain default
    is left to the class attribute); each set by ``object.__setattr__`` (named once in the
    function's closure rather than looked up on ``object`` for every field: a seventh less to
    compile, a sixth less to run). Raises TypeError for a field without a default after one with."""
    me = "__dataclass_self__" if any(field.name == "self" for field in fields) else "self"
    ordered: list[str] = []
    keyword: list[str] = []
    seen_default = False
    for field in fields:
        if not field.init:
            continue
        argument = field.name
        if field.default is not dataclasses.MISSING:
            argument += f"={_default(field)}"
        elif field.default_factory is not dataclasses.MISSING:
            argument += "=__dataclass_HAS_DEFAULT_FACTORY__"
        if field.kw_only:
            keyword.append(argument)
            continue
        if seen_default and argument == field.name:
            raise TypeError(f"non-default argument {field.name!r} follows default argument")
        seen_default = seen_default or argument != field.name
        ordered.append(argument)
    lines = []
    for field in fields:
        factory = field.default_factory is not dataclasses.MISSING
        if field.init:
            value = (f"{_default(field)}() if {field.name} is __dataclass_HAS_DEFAULT_FACTORY__ else {field.name}"
                     if factory else field.name)
        elif factory:
            value = f"{_default(field)}()"
        else:
            continue
        lines.append(f"  __dataclass_set__({me},{field.name!r},{value})")
    if post_init:
        lines.append(f"  {me}.__post_init__()")
    arguments = ", ".join([me, *ordered, *(["*", *keyword] if keyword else [])])
    return f"def __init__({arguments}):\n" + ("\n".join(lines) or "  pass") + "\n"


def _init(cls: type, source: str, fields: tuple[dataclasses.Field[Any], ...]) -> Callable[..., Any]:
    closure: dict[str, Any] = {"__dataclass_set__": object.__setattr__, "__dataclass_HAS_DEFAULT_FACTORY__": _FACTORY}
    for field in fields:
        if field.default_factory is not dataclasses.MISSING:
            closure[_default(field)] = field.default_factory
        elif field.default is not dataclasses.MISSING:
            closure[_default(field)] = field.default
    method = _compiled(cls, source, "__init__", closure)
    method.__annotations__ = {**{field.name: field.type for field in fields if field.init}, "return": None}
    return method


def _shown_signature(fields: tuple[dataclasses.Field[Any], ...]) -> str:
    """``(a: 'int', b: 'str' = 'x')``: the signature dataclass writes into the docstring of a
    class that has none, as ``inspect`` shows it."""
    parameters = []
    for field in fields:
        if not field.init:
            continue
        default = (field.default if field.default is not dataclasses.MISSING
                   else _FACTORY if field.default_factory is not dataclasses.MISSING else inspect.Parameter.empty)
        kind = inspect.Parameter.KEYWORD_ONLY if field.kw_only else inspect.Parameter.POSITIONAL_OR_KEYWORD
        parameters.append(inspect.Parameter(field.name, kind, default=default, annotation=field.type))
    return str(inspect.Signature(parameters))


def _values(owner: str, names: list[str]) -> str:
    """``(owner.a,owner.b,)``: a tuple of the fields, as dataclass writes it."""
    return "(" + "".join(f"{owner}.{name}," for name in names) + ")"


def _eq(cls: type, names: list[str]) -> Callable[..., Any]:
    return _compiled(cls, "def __eq__(self, other):\n"
                          " if other.__class__ is self.__class__:\n"
                          f"  return {_values('self', names)}=={_values('other', names)}\n"
                          " return NotImplemented\n", "__eq__")


def _hash(cls: type, names: list[str]) -> Callable[..., Any]:
    return _compiled(cls, f"def __hash__(self):\n return hash({_values('self', names)})\n", "__hash__")


def _repr(cls: type, names: list[str]) -> Callable[..., Any]:
    shown = ", ".join(f"{name}={{self.{name}!r}}" for name in names)
    method = _compiled(cls, f"def __repr__(self):\n return self.__class__.__qualname__ + f\"({shown})\"\n",
                       "__repr__")
    return reprlib.recursive_repr()(method)
