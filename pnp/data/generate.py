"""Generated cards: a component's ``generate:`` block makes one card per number of a range,
its fields from templates over {n}, printed-table lookups, lookups in the tables the rules
engine computes (``{computed: ...}``) and maps of other fields."""

from __future__ import annotations

import re
from typing import Any

from pnp.core.limits import MAX_COPIES, MAX_GENERATE
from pnp.data.computed import Computed, Unavailable
from pnp.data.model import (
    Card,
    PrintedTable,
    Text,
    frozen_mapping,
)
from pnp.data.schema import (
    IDENT,
    Reader,
    describe,
)
from pnp.data.yamlmarks import PathKey

_GENERATE_KEYS = ("range", "id", "count", "fields")
_N_REF = re.compile(r"\{([^{}]*)\}")


def _n_template(r: Reader, value: Any, path: PathKey) -> str | None:
    """A generate template; None (and a problem) unless its only placeholder is {n}."""
    if isinstance(value, bool) or not isinstance(value, str | int | float):
        r.fail(path, f"expected text (a template over {{n}}), a lookup or a map, got {describe(value)}")
        return None
    text = str(value)
    unknown = [ref for ref in _N_REF.findall(text) if ref != "n"]
    if unknown:
        r.fail(path, f"unknown placeholder {{{unknown[0]}}} (generate templates know only {{n}}; "
                     "use {field: ..., map: ...} to derive one field from another)")
        return None
    return text


def generate_cards(r: Reader, raw: Any, path: PathKey, size: tuple[float, float],
                    tables: dict[str, PrintedTable], computed: Computed | None = None) -> list[Card]:
    """The cards of a ``generate:`` block: one per n in the range, fields from templates,
    printed-table lookups, the engine's computed tables and maps of other fields."""
    spec = r.mapping(raw, path, _GENERATE_KEYS, required=("range", "id"))
    if not spec:
        return []
    numbers = _numbers(r, spec, path)
    id_template = _n_template(r, spec.get("id", ""), (*path, "id")) if "id" in spec else None
    if id_template is not None and len(numbers) > 1 and "{n}" not in id_template:
        r.fail((*path, "id"), f"the id template {id_template!r} needs {{n}}, or every card gets the same id")
        id_template = None
    count = r.integer(spec, "count", path, default=1, minimum=1, maximum=MAX_COPIES)
    fields_raw, rules = _field_rules(r, spec, path, tables, computed)
    if id_template is None or len(rules) != len(fields_raw) \
            or any(rule[0] == "map" and rule[1] not in rules for rule in rules.values()):
        return []

    where = r.where(path)
    cards = []
    for n in numbers:
        card_id = id_template.replace("{n}", str(n))
        if not IDENT.fullmatch(card_id):
            r.fail((*path, "id"), f"generated card id {card_id!r} is not a lower-case identifier")
            continue
        fields = _card_fields(r, path, rules, tables, n, card_id)
        if len(fields) == len(rules):
            cards.append(Card(card_id, count, frozen_mapping(fields), size, f"{where} (card {card_id!r})"))
    return cards


def _numbers(r: Reader, spec: dict[str, Any], path: PathKey) -> list[int]:
    """The block's range as the list of its numbers (empty, with a problem, if it is wrong)."""
    bounds = spec.get("range")
    if (isinstance(bounds, list) and len(bounds) == 2
            and all(isinstance(b, int) and not isinstance(b, bool) for b in bounds)):
        low, high = bounds
        if low > high:
            r.fail((*path, "range"), f"the first number ({low}) is greater than the last ({high})")
        elif high - low + 1 > MAX_GENERATE:
            r.fail((*path, "range"), f"{high - low + 1} cards is more than the {MAX_GENERATE} one "
                                     "generate block may make")
        else:
            return list(range(low, high + 1))
    elif "range" in spec:
        r.fail((*path, "range"), f"expected [first, last], two whole numbers, got {bounds!r}")
    return []


# How one generated field is made: ("text", template) | ("lookup", table, key, value) |
# ("computed", {n: value}) | ("map", field, {value: result}).
FieldRule = tuple[Any, ...]


def _field_rules(r: Reader, spec: dict[str, Any], path: PathKey, tables: dict[str, PrintedTable],
                 computed: Computed | None) -> tuple[dict[str, Any], dict[str, FieldRule]]:
    """(the fields as written, the rule of each one written well); maps run last so they can
    read any other field."""
    rules: dict[str, FieldRule] = {}
    fields_raw = spec.get("fields", {})
    fields_raw = r.mapping(fields_raw, (*path, "fields"),
                           allowed=fields_raw if isinstance(fields_raw, dict) else ())
    for key, value in fields_raw.items():
        fpath = (*path, "fields", key)
        rule: FieldRule | None
        if not isinstance(value, dict):
            template = _n_template(r, value, fpath)
            rule = None if template is None else ("text", template)
        elif "table" in value:
            rule = _lookup_rule(r, value, fpath, tables)
        elif "computed" in value:
            rule = _computed_rule(r, value, fpath, computed)
        elif "map" in value or "field" in value:
            rule = _map_rule(r, value, fpath)
        else:
            r.fail(fpath, "expected a template over {n}, a lookup {table: ..., key: ..., value: ...} "
                          "or {computed: ..., key: ..., value: ...}, or a map "
                          f"{{field: ..., map: {{...}}}}, got {describe(value)}")
            rule = None
        if rule is not None:
            rules[key] = rule
    for key, rule in rules.items():
        if rule[0] == "map" and rule[1] not in fields_raw:
            r.fail((*path, "fields", key, "field"),
                   f"unknown field {rule[1]!r} (generated fields: {', '.join(fields_raw) or 'none'})")
    return fields_raw, rules


def _card_fields(r: Reader, path: PathKey, rules: dict[str, FieldRule], tables: dict[str, PrintedTable],
                 n: int, card_id: str) -> dict[str, Text]:
    """Card ``n``'s fields, each made by its rule (maps after the others); a field whose
    rule finds nothing for ``n`` is left out, with a problem."""
    fields: dict[str, Text] = {}
    for key, rule in rules.items():
        fpath = (*path, "fields", key)
        if rule[0] == "text":
            fields[key] = Text(rule[1].replace("{n}", str(n)), r.where(fpath))
        elif rule[0] == "lookup":
            _, name, column, value = rule
            table = tables[name]
            hit = next((i for i, row in enumerate(table.rows) if str(row.get(column)) == str(n)), None)
            if hit is None:
                r.fail(fpath, f"card {card_id!r}: printed table {name!r} has no row whose "
                              f"{column!r} is {n}")
                continue
            if value not in table.rows[hit]:
                continue  # the row lacks the column: reported with tables.yaml
            fields[key] = Text(str(table.rows[hit][value]), table.row_where[hit])
        elif rule[0] == "computed":
            if n not in rule[1]:
                r.fail(fpath, f"card {card_id!r}: the rules engine's table has no row for {n}")
                continue
            fields[key] = Text(rule[1][n], r.where(fpath))
    for key, rule in rules.items():
        if rule[0] != "map":
            continue
        fpath = (*path, "fields", key)
        _, source, mapping = rule
        if source not in fields:
            continue  # its own problem (a lookup miss) was reported
        found = fields[source].value
        if found not in mapping:
            r.fail(fpath, f"card {card_id!r}: {source} = {found!r} is not in the map "
                          f"(it maps: {', '.join(mapping) or 'nothing'})")
            continue
        fields[key] = Text(mapping[found], r.where((*fpath, "map", found)))
    return fields


def _lookup_rule(r: Reader, value: dict[str, Any], path: PathKey,
                 tables: dict[str, PrintedTable]) -> FieldRule | None:
    spec = r.mapping(value, path, ("table", "key", "value"), required=("table", "key", "value"))
    if len(spec) != 3 or not all(isinstance(v, str) for v in spec.values()):
        if len(spec) == 3:
            r.fail(path, "table, key and value must be names")
        return None
    name, key, column = spec["table"], spec["key"], spec["value"]
    if name not in tables:
        r.fail((*path, "table"), f"unknown table {name!r} (tables.yaml defines: {', '.join(tables) or 'none'})")
        return None
    keys = [c.key for c in tables[name].columns]
    ok = True
    for prop, col in (("key", key), ("value", column)):
        if col not in keys:
            r.fail((*path, prop), f"table {name!r} has no column {col!r} (columns: {', '.join(keys)})")
            ok = False
    return ("lookup", name, key, column) if ok else None


def _computed_rule(r: Reader, value: dict[str, Any], path: PathKey,
                   computed: Computed | None) -> FieldRule | None:
    spec = r.mapping(value, path, ("computed", "key", "value"), required=("computed", "key", "value"))
    if len(spec) != 3 or not all(isinstance(v, str) for v in spec.values()):
        if len(spec) == 3:
            r.fail(path, "computed, key and value must be names")
        return None
    name, key, column = spec["computed"], spec["key"], spec["value"]
    found = computed() if computed is not None else Unavailable("no rules engine is known here")
    if isinstance(found, Unavailable):
        r.fail((*path, "computed"), f"the rules engine's table {name!r} is not available: "
                                    f"{found.reason}")
        for problem in found.located:
            if problem not in r.problems.items:
                r.problems.add_raw(problem)
        return None
    if name not in found:
        r.fail((*path, "computed"), f"the rules engine computes no table {name!r} "
                                    f"(it computes: {', '.join(found) or 'none'})")
        return None
    rows = found[name]
    columns = list(rows[0]) if rows else []
    ok = True
    for prop, col in (("key", key), ("value", column)):
        if col not in columns:
            r.fail((*path, prop), f"the rules engine's table {name!r} has no column {col!r} "
                                  f"(columns: {', '.join(columns) or 'none'})")
            ok = False
    if not ok:
        return None
    by_n: dict[int, str] = {}
    for row in rows:
        n = row.get(key)
        if isinstance(n, int) and not isinstance(n, bool):
            by_n[n] = str(row.get(column))
    return ("computed", by_n)


def _map_rule(r: Reader, value: dict[str, Any], path: PathKey) -> FieldRule | None:
    spec = r.mapping(value, path, ("field", "map"), required=("field", "map"))
    if len(spec) != 2:
        return None
    source = spec["field"]
    if not isinstance(source, str):
        r.fail((*path, "field"), f"expected a field name, got {describe(source)}")
        return None
    mapping = spec["map"]
    if not isinstance(mapping, dict) or not mapping:
        r.fail((*path, "map"), f"expected a mapping of values to results, got {describe(mapping)}")
        return None
    out: dict[str, str] = {}
    for key, result in mapping.items():
        if isinstance(result, bool) or not isinstance(result, str | int | float):
            r.fail((*path, "map", key), f"expected text, got {describe(result)}")
            continue
        out[str(key)] = str(result)
    return ("map", source, out) if len(out) == len(mapping) else None
