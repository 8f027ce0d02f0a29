"""Label ranges: one item of a layout's label list standing for a run of numbered labels.

In a ``boxes`` element's ``labels`` and a ``grid``'s ``columns`` and ``row_labels``, an item
may be a range, ``{count: '{rules.players.max}', label: '{n}'}``: as many labels as ``count``
says, ``{n}`` in ``label`` numbering them from 1. ``count`` is a whole number or one
``{rules.…}`` / ``{count.…}`` reference, resolved when the game loads
(:mod:`pnp.data.rulerefs`), so a strip of seat boxes or a score pad's seat columns follow the
rules' largest table. Labels written around a range stay as written: ``[座位, {count: …,
label: '{n}'}]`` is a seat column's heading and then one column per seat.

A grid's ``column_widths`` gives one width per column *as written*: a range's width is each of
its columns' width, so ``[1.6, 1]`` goes with ``[座位, {count: …, label: '{n}'}]`` whatever the
count.

A grid's ``row_labels`` list may also hold one label with ``{row}``: it is printed on every
row the other labels leave, ``{row}`` counting those rows from 1 (``[姓名, 第 {row} 局, 合計]``
on 14 rows: a name row, 第 1 局 to 第 12 局, a total row).

This module checks the written form and expands it; the references are resolved by
:mod:`pnp.data.rulerefs`, which calls :func:`expand` and :func:`fill_rows`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from pnp.data.propchecks import ROW_NUMBER, Bounds, SpecContext, is_number_reference, text_item_check

RANGE_KEYS = ("count", "label")
# A range's label: {n} is the label's number in the range, from 1.
RANGE_NUMBER = "{n}"
EXAMPLE = "{count: '{rules.players.max}', label: '{n}'}"


def is_range(item: Any) -> bool:
    return isinstance(item, Mapping)


def has_ranges(items: Any) -> bool:
    return isinstance(items, list) and any(is_range(item) for item in items)


def typed_count(item: Mapping[str, Any]) -> int | None:
    """A range's count when it is typed (a whole number), None when it is a reference."""
    count = item.get("count")
    return count if isinstance(count, int) and not isinstance(count, bool) else None


def typed_total(items: Sequence[Any]) -> int | None:
    """How many labels a list prints once its ranges are counted; None while a range's count
    is a reference (known once the game's rules resolve it)."""
    total = 0
    for item in items:
        if is_range(item):
            count = typed_count(item)
            if count is None:
                return None
            total += count
        else:
            total += 1
    return total


def range_error(item: Mapping[str, Any], index: int, limit: int | None) -> str | None:
    """Why range ``item`` (the list's item ``index``, from 0) is malformed, or None."""
    at = f"[{index}]: a range {EXAMPLE}"
    unknown = [str(key) for key in item if key not in RANGE_KEYS]
    if unknown:
        return f"{at} takes only count and label, got {', '.join(map(repr, unknown))}"
    missing = [key for key in RANGE_KEYS if key not in item]
    if missing:
        return f"{at} needs {' and '.join(missing)}"
    count, label = item["count"], item["label"]
    whole = typed_count(item) is not None
    if not (whole or is_number_reference(count)):
        return (f"[{index}].count: expected a whole number of labels from 1 to {limit}, or one "
                f"{{rules.…}} or {{count.…}} reference giving it, got {count!r}")
    if whole and not 1 <= count <= (limit or count):
        return f"[{index}].count: must be from 1 to {limit} (the limit for this field), got {count}"
    message = text_item_check(label)
    if message:
        return f"[{index}].label: {message}"
    if ROW_NUMBER in str(label):
        return (f"[{index}].label: a range numbers its labels with {RANGE_NUMBER}, not "
                f"{ROW_NUMBER}, got {label!r}")
    return None


def _list_error(value: Any, prop: Bounds, what: str) -> str | None:
    """A list of label texts and ranges, within the field's limit of items once counted."""
    if not isinstance(value, list):
        return f"expected {what}, got {value!r}"
    for index, item in enumerate(value):
        message = range_error(item, index, prop.max_items) if is_range(item) else text_item_check(item)
        if message:
            return message
    total = typed_total(value)
    if total is not None and prop.max_items is not None and total > prop.max_items:
        counted = " once its ranges are counted" if has_ranges(value) else ""
        return f"at most {prop.max_items} items (the limit for this field), got {total}{counted}"
    return None


def labels_check(value: Any, prop: Bounds, ctx: SpecContext) -> str | None:
    return _list_error(value, prop, f"a list of labels (an item may be a range {EXAMPLE})")


def row_labels_check(value: Any, prop: Bounds, ctx: SpecContext) -> str | None:
    if isinstance(value, str):
        if ROW_NUMBER not in value:
            return (f"one text for every row must hold {ROW_NUMBER} (the row's number); "
                    f"give a list for labels of their own, got {value!r}")
        return text_item_check(value)
    message = _list_error(value, prop, f"a list of labels, or one text holding {ROW_NUMBER}")
    if message:
        return message
    numbered = numbered_rows([item for item in value if not is_range(item)])
    if len(numbered) > 1:
        return (f"only one row label may hold {ROW_NUMBER} (it is printed on every row the "
                f"others leave), got {len(numbered)}")
    return None


def expand(items: Sequence[Any], counts: Sequence[int]) -> tuple[list[str], list[int]]:
    """The labels of ``items`` with each range printed ``counts[i]`` times (``counts`` has one
    entry per range, in order), ``{n}`` its number from 1; and how many labels each written
    item became (for the widths written one per item)."""
    labels: list[str] = []
    spans: list[int] = []
    ranges = iter(counts)
    for item in items:
        if is_range(item):
            count = next(ranges)
            label = str(item["label"])
            labels += [label.replace(RANGE_NUMBER, str(n)) for n in range(1, count + 1)]
            spans.append(count)
        else:
            labels.append(str(item))
            spans.append(1)
    return labels, spans


def spread(widths: Sequence[Any], spans: Sequence[int]) -> list[Any]:
    """Widths written one per item, one per printed column: a range's width repeated."""
    return [width for width, span in zip(widths, spans, strict=True) for _ in range(span)]


def numbered_rows(labels: Sequence[str]) -> list[int]:
    """The positions of the labels holding ``{row}``."""
    return [i for i, label in enumerate(labels) if ROW_NUMBER in label]


def fill_rows(labels: Sequence[str], rows: int) -> list[str] | str:
    """One label per row: a list's one label holding ``{row}`` is printed on every row the
    others leave, ``{row}`` numbering those rows from 1; else why the labels do not fit."""
    numbered = numbered_rows(labels)
    if not numbered:
        if len(labels) != rows:
            return f"{len(labels)} row labels for {rows} rows"
        return list(labels)
    at = numbered[0]
    others = len(labels) - 1
    if others >= rows:
        return (f"{others} row labels besides {labels[at]!r} leave it no row of the {rows}; "
                "add rows or drop a label")
    repeated = [labels[at].replace(ROW_NUMBER, str(n)) for n in range(1, rows - others + 1)]
    return [*labels[:at], *repeated, *labels[at + 1:]]
