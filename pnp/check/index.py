"""Hands: a deck the players hold fanned must show each card's index in the corner a fan shows.

A player holding eight cards spread in one hand sees the top-left corner of each and nothing
else; a card whose corner is blank, or shows what another card shows, cannot be found in the
hand without pulling the cards out one by one. The decks held so are those the game's rules
deal into hands (the plugin's ``supply.hands``) and those components.yaml marks ``held_in_hand:
true``. The front layout of each declares its index region (``index: [x, y, width, height]``)
and :func:`index_findings` proves, card by card, what can be proved from the data (of
any other front that declares an index too):

- ``no-index``: the front declares no index;
- ``index-outside-corner``: the region reaches beyond the corner a fan shows
  (:data:`pnp.data.spec.FAN_CORNER`);
- ``index-empty``: on some card nothing is printed inside the region (a text that is empty
  on that card, no icons, no element at all);
- ``index-not-turned``: an element of the index is not drawn ``turn: both``, so the bottom-right
  corner (the top-left of a card held the other way up) lacks it;
- ``index-ambiguous``: two cards that differ show the same index (the same texts, symbols,
  icon counts and colours).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from pnp.check.report import CheckFinding
from pnp.data.layouts import brief, substitute
from pnp.data.model import Card, Component, Element, Game, Layout
from pnp.data.schema import resolve_coord
from pnp.data.spec import FAN_CORNER

# What an index is made of; shapes (rect, circle, line) may frame it but tell no card apart.
_CONTENT = ("text", "boxes", "symbol", "icons")
# Properties that say what an index element shows.
_SHOWS = ("text", "labels", "symbol", "count", "color", "fill", "stroke", "bold", "size")
_EPS = 1e-6


def hand_decks(game: Game, by_rules: Mapping[str, str]) -> list[tuple[Component, str]]:
    """Every component held in hand, with why: the rules' reason, else components.yaml's mark."""
    decks = []
    for component in game.components:
        if component.id in by_rules:
            decks.append((component, f"the rules deal it into hands: {by_rules[component.id]}"))
        elif component.held_in_hand:
            decks.append((component, "components.yaml marks it held_in_hand"))
    return decks


def index_findings(game: Game, by_rules: Mapping[str, str], rel: Callable[[str], str]) -> list[CheckFinding]:
    """The findings about every hand deck's index, and about any other front that declares
    one (an index is held to the same rules wherever it is declared)."""
    findings: list[CheckFinding] = []
    hands = {component.id: why for component, why in hand_decks(game, by_rules)}
    for component in game.components:
        if component.front is None or component.front not in game.layouts:
            continue  # a net or a broken reference: reported when the data loads
        layout = game.layouts[component.front]
        extra = {"component": component.id, "layout": layout.id}
        named = f"component {component.id!r} ({component.name.value})"
        if component.id in hands:
            held = f"{named} is held in hand ({hands[component.id]})"
        elif layout.index is not None:
            held = f"{named} declares an index on its front"
        else:
            continue
        if layout.index is None:
            findings.append(CheckFinding(
                "hand", "no-index",
                f"{held}, but its front layout {layout.id!r} declares no index: a fanned hand shows only "
                "the top-left corner of each card; add `index: [x, y, width, height]` around a short mark "
                "there (drawn `turn: both`)", rel(layout.where), extra))
            continue
        findings.extend(_corner_findings(component, layout, held, rel, extra))
        findings.extend(_card_findings(component, layout, held, rel, extra))
    return findings


def _box(box: Any, card: Card) -> tuple[float, float, float, float]:
    x, y, w, h = box
    width, height = card.size
    left, top = resolve_coord(x, width), resolve_coord(y, height)
    return left, top, left + resolve_coord(w, width), top + resolve_coord(h, height)


def _inside(inner: tuple[float, float, float, float], outer: tuple[float, float, float, float]) -> bool:
    return (inner[0] >= outer[0] - _EPS and inner[1] >= outer[1] - _EPS
            and inner[2] <= outer[2] + _EPS and inner[3] <= outer[3] + _EPS)


def _corner_findings(component: Component, layout: Layout, held: str, rel: Callable[[str], str],
                     extra: dict[str, Any]) -> list[CheckFinding]:
    assert layout.index is not None
    for card in component.cards:
        width, height = card.size
        corner = (0.0, 0.0, width * FAN_CORNER[0], height * FAN_CORNER[1])
        index = _box(layout.index, card)
        if not _inside(index, corner):
            return [CheckFinding(
                "hand", "index-outside-corner",
                f"{held}: the index [{index[0]:g}, {index[1]:g}, {index[2] - index[0]:g}, "
                f"{index[3] - index[1]:g}] mm of layout {layout.id!r} reaches beyond the corner a fanned "
                f"hand shows on card {card.id!r} (the left {corner[2]:.3g} mm and the top {corner[3]:.3g} mm "
                f"of its {width:g}×{height:g} mm face)", rel(layout.index_where), extra)]
    return []


def _shows(element: Element, card: Card) -> bool:
    """Whether the element prints something on this card."""
    if element.kind == "text":
        return bool(substitute(str(element.get("text")), card).strip())
    if element.kind == "boxes":
        return any(substitute(str(label), card).strip() for label in element.get("labels"))
    if element.kind == "icons":
        count = element.get("count")
        return int(count if isinstance(count, int) else substitute(str(count), card).strip() or 0) > 0
    return True


def _shown(value: Any, card: Card) -> Any:
    if isinstance(value, str):
        return substitute(value, card)
    if isinstance(value, list | tuple):
        return tuple(_shown(item, card) for item in value)
    if isinstance(value, Mapping):
        return tuple(sorted((key, _shown(item, card)) for key, item in value.items()))
    return value


def _signature(elements: list[Element], card: Card) -> tuple[Any, ...]:
    """What the index's elements show on this card, as plain values."""
    return tuple((e.kind, tuple((key, _shown(e.get(key), card)) for key in _SHOWS if e.get(key) is not None))
                 for e in elements)


def _face(layout: Layout, card: Card) -> tuple[Any, ...]:
    """Everything the face shows on this card: two cards that differ in nothing are one design."""
    return (substitute(layout.background, card),
            *((e.kind, tuple((key, _shown(value, card)) for key, value in sorted(e.props.items())))
              for e in layout.elements))


def _card_findings(component: Component, layout: Layout, held: str, rel: Callable[[str], str],
                   extra: dict[str, Any]) -> list[CheckFinding]:
    assert layout.index is not None
    findings: list[CheckFinding] = []
    empty: list[str] = []
    unturned: list[str] = []  # where each element of the index not drawn turned is
    # Cards by the index they show, one per distinct face.
    alike: dict[tuple[Any, ...], dict[tuple[Any, ...], Card]] = {}
    for card in component.cards:
        index = _box(layout.index, card)
        parts = [e for e in layout.elements if e.kind in _CONTENT and "box" in e.props
                 and _inside(_box(e.get("box"), card), index)]
        showing = [e for e in parts if _shows(e, card)]
        if not showing:
            empty.append(card.id)
            continue
        for element in showing:
            if element.get("turn") != "both" and element.where not in unturned:
                unturned.append(element.where)
        alike.setdefault(_signature(showing, card), {}).setdefault(_face(layout, card), card)
    if empty:
        more = f" (and {len(empty) - 1} more: {brief(empty[1:])})" if len(empty) > 1 else ""
        findings.append(CheckFinding(
            "hand", "index-empty",
            f"{held}: nothing is printed inside the index of layout {layout.id!r} on card {empty[0]!r}{more}; "
            "put a short mark there that tells the card apart", rel(layout.index_where),
            {**extra, "cards": empty}))
    for where in unturned:
        findings.append(CheckFinding(
            "hand", "index-not-turned",
            f"{held}: this part of the index of layout {layout.id!r} is not drawn `turn: both`, so a card "
            "held the other way up does not show it in its corner", rel(where), extra))
    for faces in alike.values():
        if len(faces) < 2:
            continue
        cards = [card.id for card in faces.values()]
        named = ", ".join(repr(c) for c in cards[:4]) + (f" and {len(cards) - 4} more" if len(cards) > 4 else "")
        findings.append(CheckFinding(
            "hand", "index-ambiguous",
            f"{held}: cards {named} differ but show the same index in layout {layout.id!r}, so a fanned "
            "hand cannot tell them apart", rel(layout.index_where), {**extra, "cards": cards}))
    return findings
