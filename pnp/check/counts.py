"""Component counts against the rules: the ``count`` findings of ``pnp check``.

A game's plugin says what its rules need of each component (``GamePlugin.supply``'s ``requirements``);
this module compares that with the counts components.yaml prints and locates every
difference at the ``count`` line (or the card, or the ``generate`` block) of components.yaml.
"""

from __future__ import annotations

import fnmatch
import re
from collections.abc import Callable, Mapping
from typing import Any

from pnp.check.report import CheckFinding
from pnp.data.layouts import substitute
from pnp.data.model import Component, Game
from pnp.data.schema import FIELD_REF
from pnp.data.yamlmarks import Located, PathKey
from pnp.games.base import Requirement


def count_findings(game: Game, requirements: Mapping[str, Requirement], doc: Located | None,
                   where_default: str, rel: Callable[[str], str]) -> list[CheckFinding]:
    """One finding per component or card design whose count differs from the rules' need,
    and one per card requirement that matches no card of a printed component (a component
    that is not printed at all is the designer's choice and not reported). A card named by its own
    key is left out of the wildcard keys of its component (the most specific key wins)."""
    components = {component.id: component for component in game.components}
    places = _Lines(doc, where_default, rel)
    findings: list[CheckFinding] = []
    for key, need in requirements.items():
        if "#" in key:
            findings.extend(_icon_findings(game, key, need, rel))
            continue
        component_id, _, pattern = key.partition("/")
        component = components.get(component_id)
        if component is None:
            # Not printed at all (players bring their own, or a test game prints a subset):
            # nothing printed can contradict the rules.
            continue
        if not pattern:
            if component.count != need.count:
                findings.append(_differs(key, component.count, need,
                                         places.component_count(component)))
            continue
        matched = [card for card in component.cards if fnmatch.fnmatchcase(card.id, pattern)
                   and (pattern == card.id or f"{component_id}/{card.id}" not in requirements)]
        if not matched:
            findings.append(CheckFinding(
                "count", "card-missing",
                f"the rules need {need.count} of card {key!r} ({need.why}), but component "
                f"{component_id!r} has no card matching {pattern!r}", places.component(component_id),
                {"component": component_id, "card": pattern, "computed": need.count}))
        for card in matched:
            if card.count != need.count:
                findings.append(_differs(f"{component_id}/{card.id}", card.count, need,
                                         places.card_count(component, card.id)))
    return findings


def _icon_findings(game: Game, key: str, need: Requirement,
                   rel: Callable[[str], str]) -> list[CheckFinding]:
    """One finding per icons element (of the key's symbol, on the component's faces) whose
    icons differ from the rules for some card (without ``per_card``: in total), placed at the
    field the count shows when the count is a field (``count: "{heads}"``), else at the
    element's ``count``."""
    component_id, _, symbol = key.partition("#")
    component = next((c for c in game.components if c.id == component_id), None)
    if component is None:
        return []
    faces = [game.layouts[name] for name in (component.front, component.back, component.inner)
             if name is not None and name in game.layouts]
    elements = [element for layout in faces for element in layout.elements
                if element.kind == "icons" and element.get("symbol") == symbol]
    if not elements:
        return [CheckFinding("count", "icons-missing",
                             f"the rules need {need.count} {symbol!r} icons on {component_id!r} "
                             f"({need.why}), but its faces draw none", rel(component.where),
                             {"item": key, "printed": 0, "computed": need.count})]
    findings: list[CheckFinding] = []
    seen: set[str] = set()
    for element in elements:
        raw = element.get("count")
        field = FIELD_ONLY.fullmatch(raw) if isinstance(raw, str) else None
        total = 0
        wrong: list[tuple[str, int, int, str]] = []
        for card in component.cards:
            shown = raw if isinstance(raw, int) else int(substitute(str(raw), card).strip())
            total += shown * card.count
            wanted = None if need.per_card is None else need.per_card.get(card.id, 0)
            if wanted is not None and shown != wanted:
                source = card.fields[field[1]].where if field and field[1] in card.fields \
                    else f"{element.where}.count"
                wrong.append((card.id, shown, wanted, source))
        if need.per_card is None and total != need.count:
            # Only a total is known: the finding belongs to the element's count.
            wrong.append(("", total, need.count, f"{element.where}.count"))
        if not wrong:
            continue
        where = rel(wrong[0][3])
        if where in seen:
            continue
        seen.add(where)
        listed = "; ".join(f"{card_id} shows {shown}, the rules give {wanted}"
                           for card_id, shown, wanted, _ in wrong[:3] if card_id)
        more = f" (and {len(wrong) - 3} more cards)" if len(wrong) > 3 else ""
        findings.append(CheckFinding(
            "count", "icons-differ",
            f"{key}: the faces print {total} {symbol!r} icons in {element.where.split(': ')[-1]}, "
            f"the rules need {need.count} ({need.why}){': ' + listed if listed else ''}{more}", where,
            {"item": key, "printed": total, "computed": need.count}))
    return findings


def _differs(what: str, printed: int, need: Requirement, where: str) -> CheckFinding:
    return CheckFinding("count", "count-differs",
                   f"{what}: components.yaml prints {printed}, the rules need {need.count} "
                   f"({need.why})", where, {"item": what, "printed": printed,
                                            "computed": need.count})


FIELD_ONLY = re.compile(r"\s*" + FIELD_REF.pattern + r"\s*")


class _Lines:
    """Lines of components.yaml for a component's or a card's count."""

    def __init__(self, doc: Located | None, default: str, rel: Callable[[str], str]) -> None:
        self.doc = doc
        self.default = default
        self.rel = rel

    def _raw_components(self) -> list[Any]:
        value = self.doc.value if self.doc is not None else None
        found = value.get("components") if isinstance(value, dict) else None
        return found if isinstance(found, list) else []

    def _index(self, component_id: str) -> int | None:
        for index, raw in enumerate(self._raw_components()):
            if isinstance(raw, dict) and raw.get("id") == component_id:
                return index
        return None

    def _where(self, path: PathKey) -> str:
        return self.rel(self.doc.where(path)) if self.doc is not None else self.default

    def component(self, component_id: str) -> str:
        index = self._index(component_id)
        return self._where(("components",) if index is None else ("components", index))

    def component_count(self, component: Component) -> str:
        index = self._index(component.id)
        if index is None:
            return self.default
        raw = self._raw_components()[index]
        if "generate" in raw:
            return self._where(("components", index, "generate", "range"))
        if "cards" in raw:
            return self._where(("components", index, "cards"))
        return self._where(("components", index, "count"))

    def card_count(self, component: Component, card_id: str) -> str:
        index = self._index(component.id)
        if index is None:
            return self.default
        raw = self._raw_components()[index]
        cards = raw.get("cards")
        if isinstance(cards, list):
            for number, card in enumerate(cards):
                if isinstance(card, dict) and card.get("id") == card_id:
                    return self._where(("components", index, "cards", number, "count"))
        if "generate" in raw:
            return self._where(("components", index, "generate"))
        return self._where(("components", index, "count"))
