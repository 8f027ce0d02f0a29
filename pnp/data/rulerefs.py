"""Numbers in card text that come from the rules: ``{rules.path}`` in a component's note, a
card's field or a layout's text is replaced, when the game loads, by that value of game.yaml's ``rules:``.

``{rules.fickle_penalty:money}`` prints ``$5,000``, ``{rules.fickle_penalty:thousands}``
``5,000``, and ``{rules.ability_bonuses.playboy}`` reaches into a mapping (``[0]`` into a
list). Only keys written in game.yaml are known here (the data layer imports no engine), so a
reference to a key the designer left to the engine's default is an error naming the text.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from pnp.data.model import Card, Component, Element, Layout, Text, frozen_mapping

RULES_REF = re.compile(r"\{rules\.([A-Za-z_][\w.\[\]]*)(?::(money|thousands))?\}")
_PART = re.compile(r"([^.\[\]]+)|\[(\d+)\]")


def _lookup(rules: Mapping[str, Any], path: str) -> Any:
    value: Any = rules
    for name, index in _PART.findall(path):
        if index:
            if not isinstance(value, list | tuple) or int(index) >= len(value):
                raise KeyError(path)
            value = value[int(index)]
        elif isinstance(value, Mapping) and name in value:
            value = value[name]
        else:
            raise KeyError(path)
    return value


def _format(value: Any, style: str | None) -> str:
    if style and isinstance(value, int) and not isinstance(value, bool):
        return f"${value:,}" if style == "money" else f"{value:,}"
    return str(value)


def resolve(text: Text, rules: Mapping[str, Any], problems: list[str]) -> Text:
    """``text`` with every rules reference replaced; a bad reference is added to problems."""
    if "{rules." not in text.value:
        return text

    def value(match: re.Match[str]) -> str:
        try:
            found = _lookup(rules, match[1])
        except KeyError:
            problems.append(f"{text.where}: {match[0]}: game.yaml's rules: has no {match[1]!r}")
            return match[0]
        if isinstance(found, Mapping | list | tuple):
            problems.append(f"{text.where}: {match[0]}: rules.{match[1]} is not a single value")
            return match[0]
        return _format(found, match[2])

    return Text(RULES_REF.sub(value, text.value), text.where)


def resolve_components(components: tuple[Component, ...], rules: Mapping[str, Any],
                       problems: list[str]) -> tuple[Component, ...]:
    """Components with the rules references of their notes and card fields resolved."""

    def card(c: Card) -> Card:
        return replace(c, fields=frozen_mapping(
            {k: resolve(v, rules, problems) for k, v in c.fields.items()}))

    return tuple(replace(component, note=resolve(component.note, rules, problems),
                         cards=tuple(card(c) for c in component.cards))
                 for component in components)


def resolve_layouts(layouts: Mapping[str, Layout], rules: Mapping[str, Any],
                    problems: list[str]) -> dict[str, Layout]:
    """Layouts with the rules references of their text props resolved."""

    def prop(value: Any, where: str) -> Any:
        if isinstance(value, str):
            return resolve(Text(value, where), rules, problems).value
        return value

    def element(e: Element) -> Element:
        return replace(e, props=frozen_mapping(
            {k: prop(v, f"{e.where}.{k}") for k, v in e.props.items()}))

    return {name: replace(layout, elements=tuple(element(e) for e in layout.elements))
            for name, layout in layouts.items()}
