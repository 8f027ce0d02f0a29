"""The game model: frozen dataclasses built from validated card_data.

Every piece of text keeps where it came from (``Text.where``) so that a glyph the font
lacks, or a string too long for its box, can be reported against its file, line and field.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

LANGS = ("zh-Hant", "zh-Hans")


@dataclass(frozen=True)
class Text:
    """A string of the game's source language and the place it was written."""

    value: str
    where: str

    def __str__(self) -> str:
        return self.value


@dataclass(frozen=True)
class Element:
    """One drawing instruction of a face layout; ``props`` are already validated."""

    kind: str
    props: Mapping[str, Any]
    where: str

    def get(self, key: str, default: Any = None) -> Any:
        return self.props.get(key, default)


@dataclass(frozen=True)
class Layout:
    id: str
    background: str
    elements: tuple[Element, ...]
    where: str


@dataclass(frozen=True)
class Card:
    """One distinct face design of a component, printed ``count`` times."""

    id: str
    count: int
    fields: Mapping[str, Text]
    size: tuple[float, float]  # trim width, height in mm
    where: str


@dataclass(frozen=True)
class Component:
    id: str
    name: Text
    note: Text
    shape: str  # rect | round | fold | d6_net | d4_net
    front: str | None
    back: str | None
    inner: str | None  # the second panel of a fold
    cards: tuple[Card, ...]
    faces: tuple[Text, ...] = ()
    net_style: Mapping[str, str] = field(default_factory=lambda: MappingProxyType({}))
    where: str = ""

    @property
    def count(self) -> int:
        return sum(card.count for card in self.cards)

    @property
    def double_sided(self) -> bool:
        return self.back is not None


@dataclass(frozen=True)
class Column:
    key: str
    label: Text


@dataclass(frozen=True)
class PrintedTable:
    """A table exactly as printed; ``rows`` are literal values, checked by ``pnp check``."""

    name: str
    title: Text
    columns: tuple[Column, ...]
    rows: tuple[Mapping[str, Any], ...]
    where: str
    row_where: tuple[str, ...] = ()
    pivot: tuple[str, str, str] | None = None  # (down, across, value) column keys for display


@dataclass(frozen=True)
class GlossaryTerm:
    hans: str
    hant: str
    where: str


@dataclass(frozen=True)
class Acknowledged:
    """A rules-lint finding the designer has reviewed and accepts, with the reason why."""

    code: str
    reason: str
    where: str


@dataclass(frozen=True)
class GameInfo:
    slug: str
    name: Text
    source_lang: str
    version: str
    date: str
    players_min: int
    players_max: int
    players_common: int
    minutes: str
    age: str
    credits: tuple[Text, ...]
    rules: Mapping[str, Any]
    where: str
    acknowledged: tuple[Acknowledged, ...] = ()


@dataclass(frozen=True)
class Game:
    info: GameInfo
    components: tuple[Component, ...]
    layouts: Mapping[str, Layout]
    tables: Mapping[str, PrintedTable]
    glossary: tuple[GlossaryTerm, ...]

    @property
    def slug(self) -> str:
        return self.info.slug

    def component(self, component_id: str) -> Component:
        for component in self.components:
            if component.id == component_id:
                return component
        raise KeyError(component_id)


def frozen_mapping(mapping: Mapping[str, Any]) -> Mapping[str, Any]:
    return MappingProxyType(dict(mapping))
