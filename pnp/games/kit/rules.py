"""Rules as a frozen dataclass read from game.yaml's ``rules:``, with located errors.

A kit game declares its rules as a frozen dataclass whose fields have defaults (the rulings)
and, for numbers, a range (``bounded``); :func:`read_rules` reads a designer's mapping into
it through the same ``Params`` reader the shipped engines use, so every problem names its
field and comes back placed at its line in game.yaml. A variant is data: a mapping under
``rules.variants.<name>`` laid over the rules, the same meaning in every game.
"""

from __future__ import annotations

import dataclasses
import typing
from collections.abc import Mapping
from typing import Any, TypeVar

from pnp.games.base import GameCodeError, RulesError
from pnp.games.params import Params, field_problem, raise_problems

R = TypeVar("R")
VARIANTS_KEY = "variants"


def bounded(default: int, minimum: int, maximum: int) -> Any:
    """A whole-number rules field with its default and its allowed range."""
    return dataclasses.field(default=default, metadata={"range": (minimum, maximum)})


def read_rules(cls: type[R], mapping: Mapping[str, Any], variant: str | None = None) -> R:
    """``cls`` from ``mapping`` (missing keys take the defaults); RulesError with every problem."""
    mapping = with_variant(mapping, variant)
    reader = Params(mapping)
    hints = typing.get_type_hints(cls)
    values: dict[str, Any] = {}
    for f in dataclasses.fields(cls):  # type: ignore[arg-type]
        kind = hints[f.name]
        low, high = f.metadata.get("range", (None, None))
        if kind is bool:
            values[f.name] = reader.boolean(f.name, f.default)  # type: ignore[arg-type]
        elif kind is int:
            values[f.name] = reader.integer(f.name, f.default,  # type: ignore[arg-type]
                                            minimum=low, maximum=high)
        elif kind == tuple[int, ...]:
            values[f.name] = reader.integer_list(f.name, f.default,  # type: ignore[arg-type]
                                                 minimum=low, maximum=high)
        else:
            raise GameCodeError("rules", f"expected each field of {cls.__name__} to be int, "
                                "bool or tuple[int, ...], got "
                                f"{f.name}: {getattr(kind, '__name__', kind)}")
    reader.finish(allowed=[f.name for f in dataclasses.fields(cls)])  # type: ignore[arg-type]
    raise_problems(reader.problems)
    return cls(**values)


def declared_variants(mapping: Mapping[str, Any]) -> tuple[str, ...]:
    """The variants a rules mapping declares under ``variants:``, in the order written."""
    variants = mapping.get(VARIANTS_KEY)
    return tuple(str(name) for name in variants) if isinstance(variants, Mapping) else ()


def with_variant(mapping: Mapping[str, Any], variant: str | None) -> Mapping[str, Any]:
    """The rules with variant ``variant``'s mapping laid over them (and no variants key)."""
    base = {k: v for k, v in mapping.items() if k != VARIANTS_KEY}
    if variant is None:
        return base
    variants = mapping.get(VARIANTS_KEY)
    overlay = variants.get(variant) if isinstance(variants, Mapping) else None
    if not isinstance(overlay, Mapping):
        raise RulesError([field_problem(f"{VARIANTS_KEY}.{variant}", "no such variant in the rules")])
    return {**base, **overlay}
