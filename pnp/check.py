"""``pnp check``: prove a game's printed material against its rules, and lint the rules.

For each game, every finding names the kind of problem, a stable code, a message and where
it was found (``file:line: field.path``, paths relative to the workspace root):

- ``table``: a printed cell in tables.yaml differs from what the engine computes (by table,
  row and column), or a printed table/row the engine does not compute;
- ``reference``: a rulebook template's ``table("x")`` / ``tables.x`` or a layout's
  ``table: x`` names a table the engine does not compute, or the rulebook no longer renders;
- ``lint``: the engine's rules lint, minus findings acknowledged in game.yaml
  ``acknowledged:`` (an acknowledgement whose code no longer occurs is reported as stale);
  markers that the rules cap only by chance are also played out in seeded simulated games;
- ``players``: game.yaml's player range differs from the range the engine plays;
- ``count``: a component's (or card design's) count in components.yaml differs from what the
  rules need (the plugin's ``requirements``), or a component the rules need is missing;
- ``purity``: converted to a script, a text holds characters only the other script uses;
- ``glyph``: converted to a script, a text holds characters its printing face lacks;
- ``data``: the game's card_data or rules parameters do not load;
- ``engine``: the game has no usable rules engine, or its fonts are unavailable.

The checks never render a PDF; they never print (the CLI does).
"""

from __future__ import annotations

import functools
import logging
import random
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from pnp import typography
from pnp.check_report import Acknowledgement, CheckFinding, CheckReport, GameReport
from pnp.counts import count_findings
from pnp.data.load import COMPONENTS_FILE, GAME_FILE, load_game
from pnp.data.model import LANGS, Game
from pnp.data.schema import COLOR, FIELD_REF
from pnp.data.textfile import read_text
from pnp.data.yamlmarks import Located, PathKey, load_yaml
from pnp.errors import DataError, PnpError
from pnp.fonts import FontFamily, load_family, missing_characters
from pnp.games.base import GamePlugin, RulesError, TableRows
from pnp.games.registry import get_game, has_game
from pnp.games.rules import located_problems, parse_path
from pnp.gameset import converter_for, resolve_games
from pnp.i18n import foreign_characters
from pnp.rulebook import rulebook_markdown, template_path
from pnp.tables import CellDiff, computed_tables, diff_tables
from pnp.workspace import Workspace

log = logging.getLogger(__name__)

# Simulated games per player count and bot mix when a lint finding says a marker supply runs
# short only in the worst case (the engine logs each round's peak use as ``peak_<kind>``).
SUPPLY_GAMES_PER_COUNT = 60
_WORST_CASE_SUFFIX = "-markers-worst-case"

def engine_tables(workspace: Workspace, name: str) -> tuple[Game, dict[str, TableRows]]:
    """One game and every table its engine computes from its rules (for ``pnp tables``)."""
    if name == "all":
        raise PnpError("pnp tables takes one game, not 'all'")
    slug = resolve_games(workspace, name)[0]
    game = load_game(workspace.game_dir(slug))
    if not has_game(slug):
        raise PnpError(f"no rules engine for game {slug!r}")
    try:
        get_game(slug)
    except (AttributeError, ImportError) as exc:
        raise PnpError(f"the rules engine for {slug!r} cannot be loaded ({exc})") from None
    return game, computed_tables(game)


def check(workspace: Workspace, name: str) -> CheckReport:
    """Check GAME or ``all``; an unknown game raises PnpError, everything else is a finding."""
    return CheckReport(tuple(check_game(workspace, slug) for slug in resolve_games(workspace, name)))


# --------------------------------------------------------------------------------------------
# One game


class _Places:
    """Makes every ``where`` relative to the workspace and finds lines in game.yaml."""

    def __init__(self, workspace: Workspace, slug: str) -> None:
        self.root = str(workspace.root.resolve()) + "/"
        self.game_dir = workspace.game_dir(slug)
        self._docs: dict[str, Located | None] = {}

    def rel(self, where: str) -> str:
        return where.replace(self.root, "")

    def doc(self, name: str) -> Located | None:
        if name not in self._docs:
            try:
                self._docs[name] = load_yaml(self.game_dir / name)
            except DataError:
                self._docs[name] = None
        return self._docs[name]

    def game_yaml(self, path: PathKey) -> str:
        doc = self.doc(GAME_FILE)
        if doc is None:
            return self.rel(str(self.game_dir / GAME_FILE))
        return self.rel(doc.where(path))

    def rules(self, field_path: str) -> str:
        """``rules.setup[2].small_rounds`` (a lint finding's ``where``) or ``setup[2]...`` (a
        RulesError problem's field) -> ``game.yaml:line: rules.setup[2].small_rounds``."""
        return self.game_yaml(("rules", *parse_path(field_path.removeprefix("rules."))))


_PROBLEM = re.compile(r"^(?P<where>.+?:\d+(?:: [^\s:]+)?): (?P<message>.*)$", re.DOTALL)


def _data_finding(problem: str, places: _Places, code: str = "invalid-data") -> CheckFinding:
    problem = places.rel(problem)
    match = _PROBLEM.match(problem)
    if match:
        return CheckFinding("data", code, match["message"], match["where"])
    return CheckFinding("data", code, problem, "")


def check_game(workspace: Workspace, slug: str) -> GameReport:
    places = _Places(workspace, slug)
    try:
        game = load_game(workspace.game_dir(slug))
    except DataError as exc:
        return GameReport(slug, tuple(_data_finding(p, places) for p in exc.problems))

    findings: list[CheckFinding] = []
    acknowledged: tuple[Acknowledgement, ...] = ()
    notes = _unverified_tables(game, places)
    engine, rules = _engine_and_rules(game, places, findings)
    computed: dict[str, Any] | None = None
    if engine is not None and rules is not None:
        computed = engine.compute_tables(rules)
        findings.extend(_table_findings(game, places))
        lint, acknowledged = _lint_findings(game, engine, places)
        findings.extend(lint)
        findings.extend(_player_findings(game, engine, rules, places))
        if engine.requirements is not None:
            findings.extend(count_findings(game, engine.requirements(rules),
                                           places.doc(COMPONENTS_FILE),
                                           places.rel(str(places.game_dir / COMPONENTS_FILE)),
                                           places.rel))
    findings.extend(_reference_findings(workspace, game, computed, places))
    findings.extend(_text_findings(workspace, game, places))
    return GameReport(slug, tuple(findings), acknowledged, notes)


def _engine_and_rules(game: Game, places: _Places,
                      findings: list[CheckFinding]) -> tuple[GamePlugin | None, Any]:
    if not has_game(game.slug):
        if not game.info.rules:
            return None, None  # a data-only game: its texts are still checked
        findings.append(CheckFinding("engine", "no-engine",
                                f"no rules engine for game {game.slug!r}: its printed tables and "
                                "rules cannot be checked", places.game_yaml(())))
        return None, None
    try:
        engine = get_game(game.slug)
    except (AttributeError, ImportError) as exc:
        findings.append(CheckFinding("engine", "engine-unavailable",
                                f"the rules engine for {game.slug!r} cannot be loaded ({exc}); its "
                                "printed tables and rules were not checked", places.game_yaml(())))
        return None, None
    try:
        rules = engine.rules_from_mapping(dict(game.info.rules), None)
    except RulesError as exc:
        # Located by the same function every command uses, then split into where and what.
        problems = located_problems(places.game_dir / GAME_FILE, exc.problems)
        findings.extend(_data_finding(problem, places, "invalid-rules") for problem in problems)
        return engine, None
    return engine, rules


def _unverified_tables(game: Game, places: _Places) -> tuple[CheckFinding, ...]:
    """A data-only game (no engine, no ``rules:``) may print tables: nothing can recompute
    them, which is said once per table without failing the check."""
    if has_game(game.slug) or game.info.rules:
        return ()
    return tuple(CheckFinding("table", "table-unverified",
                              f"table {name!r} is printed as written: {game.slug} has no rules "
                              "engine to recompute it", places.rel(table.where), {"table": name})
                 for name, table in game.tables.items())


# --------------------------------------------------------------------------------------------
# (a) printed tables against the engine


def _table_findings(game: Game, places: _Places) -> list[CheckFinding]:
    return [_diff_finding(diff, places) for diff in diff_tables(game)]


def _diff_finding(diff: CellDiff, places: _Places) -> CheckFinding:
    where = places.rel(diff.where)
    extra: dict[str, Any] = {"table": diff.table, "row": diff.row, "column": diff.column,
                             "printed": diff.printed, "computed": diff.computed}
    if diff.kind == "table-not-computed":
        return CheckFinding("table", "table-not-computed",
                       f"table {diff.table!r} is printed but the rules engine computes no such table",
                       where, {"table": diff.table})
    if diff.kind == "row-missing":
        return CheckFinding("table", "row-missing",
                       f"table {diff.table!r}, row {diff.row + 1}: not printed; the rules give "
                       f"{diff.computed!r}", where, extra)
    if diff.kind == "row-extra":
        return CheckFinding("table", "row-extra",
                       f"table {diff.table!r}, row {diff.row + 1}: printed {diff.printed!r}, but "
                       "the rules give no such row", where, extra)
    return CheckFinding("table", "cell-differs",
                   f"table {diff.table!r}, row {diff.row + 1}, column {diff.column!r}: printed "
                   f"{diff.printed!r}, the rules give {diff.computed!r}",
                   f"{where}.{diff.column}", extra)


# --------------------------------------------------------------------------------------------
# (b) tables named by the rulebook and the layouts

_TEMPLATE_TABLE = re.compile(
    r"""\btable\(\s*["']([^"']+)["']\s*\)|\btables\.([A-Za-z_]\w*)|\btables\[\s*["']([^"']+)["']\s*\]"""
)


def _reference_findings(workspace: Workspace, game: Game, computed: Mapping[str, Any] | None,
                        places: _Places) -> list[CheckFinding]:
    findings: list[CheckFinding] = []
    known = ", ".join(computed or ()) or "none"

    def unknown(name: str, user: str, where: str) -> None:
        if computed is not None and name not in computed:
            findings.append(CheckFinding("reference", "unknown-table",
                                    f"{user} table {name!r}, which the rules engine does not "
                                    f"compute (it computes: {known})", where, {"table": name}))

    source = template_path(workspace.templates, game.slug)
    if source.is_file():
        for number, line in enumerate(read_text(source).splitlines(), start=1):
            for match in _TEMPLATE_TABLE.finditer(line):
                name = next(group for group in match.groups() if group)
                unknown(name, "the rulebook uses", f"{places.rel(str(source))}:{number}")
        try:
            rulebook_markdown(workspace, game)
        except DataError as exc:
            shown = places.rel(str(source))
            for problem in exc.problems:
                finding = _data_finding(problem, places)
                message = finding.message.removeprefix(f"{shown}: ")
                findings.append(CheckFinding("reference", "rulebook-render", message,
                                        finding.where or shown))
    covered: set[tuple[int, str]] = set()  # (line, table) an element's flow mapping may span
    for layout in game.layouts.values():
        for element in layout.elements:
            if element.kind == "table":
                start = _line(element.where)
                covered.update((line, str(element.get("table"))) for line in range(start, start + 8))
                unknown(str(element.get("table")), "a layout prints",
                        places.rel(f"{element.where}.table"))
    # Other `table:` keys (e.g. a generated card's field looked up in a table), found by line.
    path = places.game_dir / COMPONENTS_FILE
    if path.is_file():
        for number, line in enumerate(read_text(path).splitlines(), start=1):
            if line.lstrip().startswith("#"):
                continue
            for match in _TABLE_KEY.finditer(line):
                if (number, match[1]) not in covered:
                    unknown(match[1], "components.yaml looks up", f"{places.rel(str(path))}:{number}")
    return findings


_TABLE_KEY = re.compile(r"""\btable:\s*["']?([A-Za-z0-9_]+)""")


def _line(where: str) -> int:
    match = re.search(r":(\d+)(?::|$)", where)
    return int(match[1]) if match else 0


# --------------------------------------------------------------------------------------------
# (c) rules lint


def _lint_findings(game: Game, engine: GamePlugin,
                   places: _Places) -> tuple[list[CheckFinding], tuple[Acknowledgement, ...]]:
    mapping = dict(game.info.rules)
    raw: list[CheckFinding] = []
    seen: set[tuple[str, str, str]] = set()
    for variant in (None, *engine.variants):
        try:
            rules = engine.rules_from_mapping(mapping, variant)
        except RulesError:
            continue  # reported with the canonical rules
        for item in engine.lint(rules):
            key = (item.code, item.where, item.message)
            if key in seen:
                continue
            seen.add(key)
            raw.append(CheckFinding("lint", item.code, item.message, places.rules(item.where),
                               {"field": item.where.removeprefix("rules.")}))
        if variant is None:
            raw = supply_simulation(engine, rules, raw, places)
    acks = {ack.code for ack in game.info.acknowledged}
    findings = [finding for finding in raw if finding.code not in acks]
    report = []
    for ack in game.info.acknowledged:
        where = places.rel(ack.where)
        covered = tuple(finding for finding in raw if finding.code == ack.code)
        report.append(Acknowledgement(ack.code, ack.reason, where, covered))
        if not covered:
            findings.append(CheckFinding("lint", "stale-acknowledgement",
                                    f"acknowledged lint finding {ack.code!r} no longer occurs; "
                                    "remove the acknowledgement", where, {"acknowledged": ack.code}))
    return findings, tuple(report)


def _same_bot(name: str, players: int) -> list[str]:
    return [name] * players


def _bot_mixes(engine: GamePlugin) -> list[tuple[str, Callable[[int], list[str]]]]:
    """(label, players -> each seat's bot): each bot of the game alone, then all of them
    seated alternately."""
    names = engine.bots
    mixes: list[tuple[str, Callable[[int], list[str]]]] = [
        (name, functools.partial(_same_bot, name)) for name in names]
    if len(names) > 1:
        mixes.append(("/".join(names), lambda players: [names[seat % len(names)]
                                                       for seat in range(players)]))
    return mixes


def supply_simulation(engine: GamePlugin, rules: Any, lint: list[CheckFinding], places: _Places,
                      games_per_count: int = SUPPLY_GAMES_PER_COUNT) -> list[CheckFinding]:
    """Play seeded games for each marker supply that only the worst case exhausts.

    For every player count and every bot mix (each bot alone, then all of them seated
    alternately), ``games_per_count`` games with seeds 1, 2, ...; a supply runs short in a
    game when a round's logged ``peak_<kind>`` exceeds it. Returns ``lint`` with the counts
    added to each worst-case finding, plus a ``<kind>-markers-short-in-simulation`` finding
    for a supply that ran short in any game.
    """
    kinds = {f.code.removesuffix(_WORST_CASE_SUFFIX): f for f in lint
             if f.code.endswith(_WORST_CASE_SUFFIX)}
    found = {kind: getattr(rules, f"{kind}_markers", None) for kind in kinds}
    supplies: dict[str, int] = {k: v for k, v in found.items() if isinstance(v, int)}
    if not supplies:
        return lint
    low, high = engine.player_range(rules)
    mixes = _bot_mixes(engine)
    games = dict.fromkeys((label for label, _ in mixes), 0)
    short = {kind: dict.fromkeys(games, 0) for kind in supplies}
    try:
        for label, seat_bots in mixes:
            for players in range(low, high + 1):
                for seed in range(1, games_per_count + 1):
                    game_log = engine.play(rules, players, random.Random(seed), seed=seed,
                                           variant=None, bots=seat_bots(players))
                    games[label] += 1
                    for kind, supply in supplies.items():
                        peak = max((r.get(f"peak_{kind}", 0) for r in game_log.get("rounds", [])),
                                   default=0)
                        short[kind][label] += peak > supply
    except (ValueError, KeyError, TypeError, AttributeError) as exc:
        return [*lint, CheckFinding("lint", "simulation-failed",
                               f"simulated games for the marker supply could not be played: {exc}",
                               places.rules(""))]
    total = sum(games.values())
    log.info("simulated %d games for the marker supply: %s", total, short)
    out: list[CheckFinding] = []
    for finding in lint:
        kind = finding.code.removesuffix(_WORST_CASE_SUFFIX)
        if finding is not kinds.get(kind) or kind not in supplies:
            out.append(finding)
            continue
        supply, ran_short = supplies[kind], sum(short[kind].values())
        by_bots = ", ".join(f"{label} bots {short[kind][label]}/{games[label]}" for label in games)
        note = (f"{supply} markers ran short in {ran_short} of {total} simulated games "
                f"({ran_short / total:.1%}; {low}–{high} players, {games_per_count} seeded games "
                f"per count and bot mix: {by_bots})")
        extra = {**finding.extra, "simulated_games": total, "ran_short": ran_short,
                 "by_bots": {label: {"games": games[label], "ran_short": short[kind][label]}
                             for label in games}}
        out.append(CheckFinding(finding.kind, finding.code, f"{finding.message}; {note}",
                           finding.where, extra))
        if ran_short:
            out.append(CheckFinding("lint", f"{kind}-markers-short-in-simulation", note,
                               finding.where, extra))
    return out


# --------------------------------------------------------------------------------------------
# (d) player range


def _player_findings(game: Game, engine: GamePlugin, rules: Any, places: _Places) -> list[CheckFinding]:
    low, high = engine.player_range(rules)
    info = game.info
    if (info.players_min, info.players_max) == (low, high):
        return []
    return [CheckFinding("players", "player-range",
                    f"game.yaml says {info.players_min}–{info.players_max} players, the rules "
                    f"engine plays {low}–{high}", places.game_yaml(("players",)),
                    {"printed": [info.players_min, info.players_max], "computed": [low, high]})]


# --------------------------------------------------------------------------------------------
# (e) script purity and (f) glyph coverage


@dataclass(frozen=True)
class TextItem:
    """A text that gets printed, in the game's source script, and the place it came from."""

    text: str
    where: str
    bold: bool = False


# Element props that are never printed as text.
_NOT_TEXT = frozenset({
    "box", "center", "r", "points", "radius", "fill", "stroke", "stroke_width", "dash", "color",
    "header_fill", "header_color", "size", "min_size", "align", "valign", "table", "symbol",
    "count", "gap", "column_widths", "bold", "rows", "background",
})


def printed_texts(game: Game) -> list[TextItem]:
    """Every text of card_data that can reach paper (field references stripped from layouts)."""
    info = game.info
    items = [TextItem(info.name.value, info.name.where, True)]
    items += [TextItem(c.value, c.where) for c in info.credits]
    for component in game.components:
        items.append(TextItem(component.name.value, component.name.where, True))
        items.append(TextItem(component.note.value, component.note.where))
        items += [TextItem(face.value, face.where, True) for face in component.faces]
        for card in component.cards:
            for value in card.fields.values():
                if not COLOR.match(value.value):
                    items.append(TextItem(value.value, value.where, True))
    for layout in game.layouts.values():
        for element in layout.elements:
            bold = bool(element.get("bold", False)) or element.kind != "text"
            for key, value in element.props.items():
                if key in _NOT_TEXT:
                    continue
                values = value if isinstance(value, list | tuple) else [value]
                for text in values:
                    if isinstance(text, str):
                        literal = FIELD_REF.sub("", text)
                        items.append(TextItem(literal, f"{element.where}.{key}", bold))
    for table in game.tables.values():
        items.append(TextItem(table.title.value, table.title.where, True))
        items += [TextItem(c.label.value, c.label.where, True) for c in table.columns]
        for row, where in zip(table.rows, table.row_where, strict=False):
            for key, value in row.items():
                if isinstance(value, str):
                    items.append(TextItem(value, f"{where}.{key}"))
    for figure in getattr(game, "figures", {}).values():
        if figure.caption is not None:
            items.append(TextItem(figure.caption.value, figure.caption.where))
        items += [TextItem(label.value, label.where) for label in figure.labels]
    return [item for item in items if item.text.strip()]


def _rulebook_texts(workspace: Workspace, game: Game, places: _Places) -> list[TextItem]:
    """The rendered rulebook Markdown line by line, each mapped to its template line."""
    source = template_path(workspace.templates, game.slug)
    if not source.is_file():
        return []
    try:
        markdown = rulebook_markdown(workspace, game)
    except DataError:
        return []  # reported as a reference finding
    template = read_text(source).splitlines()
    fragments = [_literal_fragments(line) for line in template]
    shown = places.rel(str(source))
    items = []
    previous = 0
    for number, line in enumerate(markdown.splitlines(), start=1):
        if not line.strip():
            continue
        found = _template_line(line, fragments, previous)
        if found is None:
            where = f"{shown}: rendered Markdown line {number}"
        else:
            previous = found
            where = f"{shown}:{found + 1}"
        bold = line.lstrip().startswith("#") or "**" in line
        items.append(TextItem(line, where, bold))
    return items


_JINJA = re.compile(r"\{\{.*?\}\}|\{%.*?%\}|\{#.*?#\}")


def _literal_fragments(line: str) -> list[str]:
    return [part.strip() for part in _JINJA.split(line) if part.strip()]


def _template_line(line: str, fragments: list[list[str]], start: int) -> int | None:
    """The template line the rendered ``line`` most likely came from (search on from start)."""
    def matches(index: int) -> bool:
        parts = fragments[index]
        return bool(parts) and any(len(p) >= 2 for p in parts) and all(p in line for p in parts)

    order = list(range(start, len(fragments))) + list(range(0, start))
    return next((i for i in order if matches(i)), None)


def _text_findings(workspace: Workspace, game: Game, places: _Places) -> list[CheckFinding]:
    items = [TextItem(i.text, places.rel(i.where), i.bold) for i in printed_texts(game)]
    items += _rulebook_texts(workspace, game, places)
    findings = [CheckFinding("typography", p.code, p.message, p.where, p.extra)
                for p in typography.lint((i.text, i.where) for i in items)]
    for lang in LANGS:
        convert = converter_for(game, lang)
        try:
            family: FontFamily | None = load_family(workspace.fonts, lang)
        except DataError as exc:
            family = None
            findings.extend(CheckFinding("engine", "font-unavailable", places.rel(p), "",
                                    {"lang": lang}) for p in exc.problems)
        seen: set[tuple[str, str, str]] = set()
        for item in items:
            text = convert(item.text)
            for ch in foreign_characters(text, lang):
                if ("purity", ch, item.where) in seen:
                    continue
                seen.add(("purity", ch, item.where))
                other = "Simplified" if lang == "zh-Hant" else "Traditional"
                findings.append(CheckFinding(
                    "purity", "foreign-character",
                    f"{ch!r} (U+{ord(ch):04X}) is {other}-only, in the {lang} text "
                    f"{_excerpt(text, ch)!r}", item.where,
                    {"lang": lang, "char": ch, "codepoint": f"U+{ord(ch):04X}"}))
            if family is None:
                continue
            faces = [family.regular, family.bold] if item.bold else [family.regular]
            lacking: dict[str, list[str]] = {}
            for face in faces:
                for ch in missing_characters(text, face):
                    lacking.setdefault(ch, []).append(face.name)
            for ch, names in lacking.items():
                if ("glyph", ch, item.where) in seen:
                    continue
                seen.add(("glyph", ch, item.where))
                findings.append(CheckFinding(
                    "glyph", "missing-glyph",
                    f"character {ch!r} (U+{ord(ch):04X}) is not in the font {' / '.join(names)} "
                    f"({lang}); add it to fonts/extra-chars.txt and run python "
                    "scripts/build_fonts.py, or use another character", item.where,
                    {"lang": lang, "char": ch, "codepoint": f"U+{ord(ch):04X}", "faces": names}))
    return findings


def _excerpt(text: str, ch: str, span: int = 12) -> str:
    at = text.index(ch)
    start = max(0, at - span)
    return ("…" if start else "") + text[start:at + span + 1].strip() + \
        ("…" if at + span + 1 < len(text) else "")
