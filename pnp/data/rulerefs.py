"""Numbers in card text that come from the rules: ``{rules.path}`` in a component's note, a
card's field or a layout's text is replaced, when the game loads, by that value of game.yaml's ``rules:``.

``{rules.fickle_penalty:money}`` prints ``$5,000``, ``{rules.fickle_penalty:thousands}``
``5,000``, and ``{rules.ability_bonuses.playboy}`` reaches into a mapping (``[0]`` into a
list). ``{rules.row_limit-1}`` prints the value less one (``+N`` / ``-N`` after the path), for
the numbers a rule implies, such as the five cards before a sixth, and
``{rules.bills[2].value/rules.bills[0].value}`` how many times one whole number goes into
another (an error unless it goes exactly). Only keys written in
game.yaml are known here (the data layer imports no engine), so a reference to a key the
designer left to the engine's default is an error naming the text.

Counts come from components.yaml itself: ``{count.identity}`` prints how many pieces a
component has and ``{count.identity/human}`` how many copies of one card, so a note never
repeats a count that ``pnp check`` compares with the rules; ``{card.score/score-50.value}``
prints a card's field as components.yaml writes it, so a note naming a card's value cannot
disagree with the card. A figure's row label may total a card field over the row's cards:
``{sum.heads} 頭``.

A grid's ``rows`` may be such a reference too (``'{rules.days}'``: a record sheet with a row per
day of the game), and its ``row_labels`` one text for every row, ``{row}`` standing for the
row's number (``'第 {row} 天'``); they become the number and the list of labels here. So does
a label range's ``count`` (``{count: '{rules.players.max}', label: '{n}'}``: a label per seat,
:mod:`pnp.data.labelranges`), and a row label list's one label holding ``{row}`` becomes a
label for every row the others leave.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from pnp.core.limits import MAX_GRID_ROWS
from pnp.core.problems import Place, Problem, problem_at
from pnp.data.labelranges import expand, fill_rows, has_ranges, is_range, spread
from pnp.data.model import Card, Component, Element, Figure, Layout, Text, frozen_mapping
from pnp.data.propchecks import ROW_NUMBER
from pnp.data.refsyntax import CARD_REF, COUNT_REF, RULES_REF, SUM_REF
from pnp.data.spec import ELEMENTS, RANGED_TYPES

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


def _counts(components: tuple[Component, ...]) -> dict[str, int]:
    """``component`` and ``component/card`` to the number of pieces components.yaml prints."""
    found: dict[str, int] = {}
    for component in components:
        found[component.id] = component.count
        for card in component.cards:
            found[f"{component.id}/{card.id}"] = card.count
    return found


def _fields(components: tuple[Component, ...]) -> dict[str, str]:
    """``component/card.field`` to the field's text as components.yaml writes it."""
    return {f"{component.id}/{card.id}.{name}": value.value
            for component in components for card in component.cards
            for name, value in card.fields.items()}


def _may_refer(value: str) -> bool:
    """Whether ``value`` holds the start of a rules, count or card reference."""
    return "{rules." in value or "{count." in value or "{card." in value


def resolve(text: Text, rules: Mapping[str, Any], problems: list[Problem],
            counts: Mapping[str, int] | None = None,
            fields: Mapping[str, str] | None = None) -> Text:
    """``text`` with every rules (count, card field) reference replaced; a bad one is added to
    problems."""
    if not _may_refer(text.value):
        return text

    def single(match: re.Match[str], path: str) -> tuple[bool, Any]:
        """(True, the value at ``path``), or (False, None) and a problem when it is absent or no
        single value."""
        try:
            found = _lookup(rules, path)
        except KeyError:
            problems.append(problem_at(text.where, f"{match[0]}: game.yaml's rules: has no {path!r}"))
            return False, None
        if isinstance(found, Mapping | list | tuple):
            problems.append(problem_at(text.where, f"{match[0]}: rules.{path} is not a single value"))
            return False, None
        return True, found

    def whole(value: Any) -> bool:
        return isinstance(value, int) and not isinstance(value, bool)

    def value(match: re.Match[str]) -> str:
        ok, found = single(match, match[1])
        if not ok:
            return match[0]
        if match[2]:
            ok, divisor = single(match, match[2])
            if not ok:
                return match[0]
            if not (whole(found) and whole(divisor)) or divisor == 0 or found % divisor:
                problems.append(problem_at(text.where, f"{match[0]}: rules.{match[1]} ({found!r}) is not a "
                                f"whole multiple of rules.{match[2]} ({divisor!r})"))
                return match[0]
            found //= divisor
        if match[3]:
            if not whole(found):
                problems.append(problem_at(text.where, f"{match[0]}: rules.{match[1]} is {found!r}, "
                                "not a whole number to add to"))
                return match[0]
            found += int(match[3])
        return _format(found, match[4])

    def count(match: re.Match[str]) -> str:
        key = match[1] if match[2] is None else f"{match[1]}/{match[2]}"
        if counts is None or key not in counts:
            known = ", ".join(sorted(counts or ())) or "none"
            problems.append(problem_at(text.where, f"{match[0]}: components.yaml has no "
                            f"{'card' if match[2] else 'component'} {key!r} (known: {known})"))
            return match[0]
        return str(counts[key])

    def card(match: re.Match[str]) -> str:
        key = f"{match[1]}/{match[2]}.{match[3]}"
        if fields is None or key not in fields:
            problems.append(problem_at(text.where, f"{match[0]}: components.yaml has no card {match[2]!r} "
                            f"with a field {match[3]!r} in component {match[1]!r}"))
            return match[0]
        return fields[key]

    resolved = COUNT_REF.sub(count, RULES_REF.sub(value, text.value))
    return Text(CARD_REF.sub(card, resolved), text.where)


def resolve_components(components: tuple[Component, ...], rules: Mapping[str, Any],
                       problems: list[Problem]) -> tuple[Component, ...]:
    """Components with the rules, count and card references of their notes and card fields
    resolved (a card reference reads the field as written, before any resolving)."""
    counts = _counts(components)
    fields = _fields(components)

    def card(c: Card) -> Card:
        return replace(c, fields=frozen_mapping(
            {k: resolve(v, rules, problems, counts, fields) for k, v in c.fields.items()}))

    return tuple(replace(component, note=resolve(component.note, rules, problems, counts, fields),
                         cards=tuple(card(c) for c in component.cards))
                 for component in components)


def resolve_layouts(layouts: Mapping[str, Layout], rules: Mapping[str, Any],
                    problems: list[Problem], components: tuple[Component, ...] = ()) -> dict[str, Layout]:
    """Layouts with the rules and count references of their text props resolved (in lists and
    label ranges too), label ranges printed as their labels, and grids sized."""
    counts = _counts(components)

    def prop(value: Any, where: Place, keys: tuple[str | int, ...]) -> Any:
        # The place of a text is made only for one that refers to something: most do not, and
        # the places of every prop were four fifths of resolving a game's layouts (5 ms of 6).
        if isinstance(value, str):
            return resolve(Text(value, where.child(*keys)), rules, problems, counts).value \
                if _may_refer(value) else value
        if isinstance(value, list):
            return [prop(item, where, (*keys, i)) for i, item in enumerate(value)]
        if isinstance(value, Mapping):
            return {key: prop(item, where, (*keys, key)) for key, item in value.items()}
        return value

    def element(e: Element) -> Element:
        props = {k: prop(v, e.where, (k,)) for k, v in e.props.items()}
        spans = _label_ranges(e, props, problems)
        if e.kind == "grid" and spans is not None:
            _grid_rows(e, props, problems)
            widths = props.get("column_widths")
            if "columns" in spans and isinstance(widths, list):
                props["column_widths"] = spread(widths, spans["columns"])
        return replace(e, props=frozen_mapping(props))

    return {name: replace(layout, elements=tuple(element(e) for e in layout.elements))
            for name, layout in layouts.items()}


def _label_ranges(e: Element, props: dict[str, Any], problems: list[Problem]) -> dict[str, list[int]] | None:
    """Each label list's ranges printed as their labels, ``{n}`` numbering them from 1; per
    list, how many labels each written item became. None when a range's count is no number
    (a problem is added, or resolve() added one for a reference that did not resolve)."""
    spans: dict[str, list[int]] = {}
    for spec in ELEMENTS[e.kind].props:
        items = props.get(spec.name)
        if spec.type not in RANGED_TYPES or not isinstance(items, list) or not has_ranges(items):
            continue
        limit = spec.max_items or MAX_GRID_ROWS
        found: list[int] = []
        for i, item in enumerate(items):
            if not is_range(item):
                continue
            count = item["count"]
            if isinstance(count, str):
                count = _resolved_count(count, e.get(spec.name)[i]["count"], e.where.child(spec.name, i, "count"),
                                        "labels", limit, problems)
                if count is None:
                    return None
            found.append(count)
        labels, spans[spec.name] = expand(items, found)
        if len(labels) > limit:
            problems.append(e.where.child(spec.name).problem(
                f"{len(labels)} labels once its ranges are counted, more than the limit of {limit} for this field"))
            return None
        props[spec.name] = labels
    return spans


def _resolved_count(value: str, written: Any, at: Place, what: str, limit: int,
                    problems: list[Problem]) -> int | None:
    """A count written as a reference (``written``), once resolved to ``value``: a whole number
    from 1 to ``limit``, or None, with a problem added (resolve() has reported a reference
    that did not resolve)."""
    if "{" in value:
        return None
    if not value.strip().isdigit() or not 1 <= int(value) <= limit:
        problems.append(at.problem(f"{written} gives {value!r}, not a whole number of {what} from 1 to {limit}"))
        return None
    return int(value)


def _grid_rows(e: Element, props: dict[str, Any], problems: list[Problem]) -> None:
    """A grid's ``rows`` given by a reference becomes the number it resolved to, and its row
    labels one per row: one text for every row, or the list's one label holding ``{row}`` for
    every row the others leave, ``{row}`` numbering those rows from 1."""
    rows = props["rows"]
    if isinstance(rows, str):
        rows = _resolved_count(rows, e.get("rows"), e.where.child("rows"), "rows", MAX_GRID_ROWS, problems)
        if rows is None:
            return
        props["rows"] = rows
    labels = props.get("row_labels")
    if isinstance(labels, str):
        props["row_labels"] = [labels.replace(ROW_NUMBER, str(n)) for n in range(1, rows + 1)]
    elif labels is not None:
        fitted = fill_rows(labels, rows)
        if isinstance(fitted, str):
            given = [f"rows: {e.get('rows')}"] if isinstance(e.get("rows"), str) else []
            if has_ranges(e.get("row_labels")):
                given.append("its ranges counted")
            problems.append(e.where.child("row_labels").problem(fitted + (f" ({'; '.join(given)})" if given else "")))
        else:
            props["row_labels"] = fitted


def resolve_figures(figures: Mapping[str, Figure], components: tuple[Component, ...],
                    rules: Mapping[str, Any], problems: list[Problem]) -> dict[str, Figure]:
    """Figures with their captions' references and their row labels' ``{sum.field}`` resolved:
    a row label that totals the row's cards can never disagree with the faces it stands by."""
    counts = _counts(components)
    cards = {(component.id, card.id): card for component in components for card in component.cards}

    def label(figure: Figure, row: tuple[str, ...], text: Text) -> Text:
        def total(match: re.Match[str]) -> str:
            values = []
            for card_id in row:
                card = cards.get((figure.component, card_id))
                if card is None:
                    return match[0]  # a card the figure names wrongly: reported where it is named
                field = card.fields.get(match[1])
                if field is None or not field.value.strip().lstrip("-").isdigit():
                    problems.append(problem_at(text.where, f"{match[0]}: card {card_id!r} has no whole "
                                    f"number in field {match[1]!r}"))
                    return match[0]
                values.append(int(field.value))
            return str(sum(values))

        return resolve(Text(SUM_REF.sub(total, text.value), text.where), rules, problems, counts)

    out: dict[str, Figure] = {}
    for name, figure in figures.items():
        caption = None if figure.caption is None else resolve(figure.caption, rules, problems, counts)
        if figure.table is not None:  # one label per seat: no row of cards to total
            labels = tuple(resolve(text, rules, problems, counts) for text in figure.labels)
        else:  # no labels or one per row (the reader refuses anything else)
            labels = tuple(label(figure, row, text)
                           for row, text in zip(figure.rows, figure.labels, strict=False))
        out[name] = replace(figure, caption=caption, labels=labels)
    return out
