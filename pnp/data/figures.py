"""figures.yaml read into Figures: rows of a component's cards drawn in the rulebook, with
labels and a card height, checked against the components read before them; a figure with
seats is a table figure, read by table_figures.py."""

from __future__ import annotations

from pnp.core.limits import MAX_FIGURE_CARD_MM
from pnp.data.layouts import brief
from pnp.data.model import Component, Figure, Text
from pnp.data.plaintext import located_text
from pnp.data.schema import IDENT, Reader
from pnp.data.table_figures import read_table_figure
from pnp.data.yamlmarks import PathKey

_FIGURE_KEYS = ("caption", "component", "side", "rows", "labels", "card_height")
FIGURE_CARD_HEIGHT = 25.0  # mm, when a figure does not say


def read_figures(r: Reader, components: tuple[Component, ...], incomplete: set[str]) -> dict[str, Figure]:
    """figures.yaml, by name; a card missing from a component in ``incomplete`` is not reported
    again (reading its cards already failed)."""
    top = r.mapping(r.doc.value, (), ("figures",), required=("figures",))
    raw = top.get("figures", {})
    raw = r.mapping(raw, ("figures",), allowed=raw if isinstance(raw, dict) else ())
    by_id = {c.id: c for c in components}
    figures: dict[str, Figure] = {}
    for name, body in raw.items():
        path: PathKey = ("figures", name)
        if not IDENT.fullmatch(name):
            r.fail(path, f"figure name {name!r} is not a lower-case identifier")
            continue
        if isinstance(body, dict) and "seats" in body:
            caption = located_text(r, body, "caption", path) if "caption" in body else None
            table = read_table_figure(r, name, body, path, by_id, incomplete, caption)
            if table is not None:
                figures[name] = table
            continue
        body = r.mapping(body, path, _FIGURE_KEYS, required=("component", "rows"))
        if not body:
            continue
        ok = True
        cid = r.string(body, "component", path)
        component = by_id.get(cid)
        if component is None and "component" in body:
            r.fail((*path, "component"), f"unknown component {cid!r} (components: {', '.join(by_id) or 'none'})")
            ok = False
        side = r.string(body, "side", path, default="front")
        if side not in ("front", "back"):
            r.fail((*path, "side"), f"expected front or back, got {side!r}")
            ok = False
        elif side == "back" and component is not None and component.back is None:
            r.fail((*path, "side"), f"component {cid!r} has no back")
            ok = False
        card_ids = {card.id for card in component.cards} if component else set()
        rows: list[tuple[str, ...]] = []
        for i, row in enumerate(r.sequence(body.get("rows", []), (*path, "rows"))):
            ids = r.sequence(row, (*path, "rows", i))
            if not ids:
                r.fail((*path, "rows", i), "a row needs at least one card")
                ok = False
            for j, card_id in enumerate(ids):
                if component is not None and str(card_id) not in card_ids and cid not in incomplete:
                    r.fail((*path, "rows", i, j), f"component {cid!r} has no card {card_id!r}"
                                                  f" (cards: {brief(sorted(card_ids))})")
                    ok = False
            rows.append(tuple(str(card_id) for card_id in ids))
        if "rows" in body and isinstance(body["rows"], list) and not rows:
            r.fail((*path, "rows"), "a figure needs at least one row")
            ok = False
        labels: tuple[Text, ...] = ()
        if "labels" in body:
            raw_labels = r.sequence(body["labels"], (*path, "labels"))
            labels = tuple(Text(str(v), r.where((*path, "labels", i))) for i, v in enumerate(raw_labels))
            if len(labels) != len(rows):
                r.fail((*path, "labels"), f"{len(labels)} labels for {len(rows)} rows (one per row)")
                ok = False
        height = FIGURE_CARD_HEIGHT
        if "card_height" in body:
            height = r.number(body["card_height"], (*path, "card_height"), minimum=5,
                              maximum=MAX_FIGURE_CARD_MM)
        caption = located_text(r, body, "caption", path) if "caption" in body else None
        if ok and component is not None:
            figures[name] = Figure(name, caption, cid, side, tuple(rows), labels, height, r.where(path))
    return figures
