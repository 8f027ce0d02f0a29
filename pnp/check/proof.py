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
- ``hand``: a deck held in hand (the plugin's ``hands``, or ``held_in_hand: true``) whose front
  shows no index in the corner a fanned hand shows (:mod:`pnp.check.index`);
- ``purity``: converted to a script, a text holds characters only the other script uses;
- ``glyph``: converted to a script, a text holds characters its printing face lacks;
- ``book``: a printed text (rulebook, aid, card data) holds a word about the tool rather than
  the game (:mod:`pnp.check.bookwords`), or game.yaml allows a passage no text holds any more;
- ``data``: the game's card_data or rules parameters do not load;
- ``engine``: the game has no usable rules engine, or its fonts are unavailable.

The checks never render a PDF; they never print (the CLI does).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from pnp.check.bookwords import ToolWordHit, ToolWordReport, find_tool_words
from pnp.check.conversion import PrintedText, conversion_findings
from pnp.check.counts import count_findings
from pnp.check.index import index_findings
from pnp.check.lint import SUPPLY_GAMES_PER_COUNT, bot_mixes, lint_findings, supply_simulation
from pnp.check.literals import FLOAT_NUMBER, TEMPLATES, data_literals, literal_findings, template_literals
from pnp.check.report import Acknowledgement, CheckFinding, CheckReport, GameReport
from pnp.check.tables import CellDiff, column_diffs, computed_tables, diff_tables
from pnp.core.choices import LANGS
from pnp.core.errors import DataError, PnpError
from pnp.core.problems import Problem
from pnp.core.workspace import Workspace
from pnp.data.fieldpaths import located_problems, parse_path
from pnp.data.gameset import resolve_games
from pnp.data.load import COMPONENTS_FILE, FIGURES_FILE, GAME_FILE, GLOSSARY_FILE, TABLES_FILE, load_game
from pnp.data.model import Game
from pnp.data.schema import COLOR, FIELD_REF
from pnp.data.scripts import foreign_characters
from pnp.data.textfile import read_text
from pnp.data.yamlmarks import Located, PathKey, load_yaml
from pnp.games.base import GamePlugin, RulesError, TableRows
from pnp.games.registry import get_game, has_game, tables_from_engine
from pnp.play.examples import book_engine
from pnp.rulebook.source import AID_TEMPLATE, aid_markdown, marks_as_printed, rulebook_markdown, template_path
from pnp.text import typography
from pnp.text.convert import converter_for
from pnp.text.fonts import FontFamily, load_family, missing_characters

# Re-exported: tests and benchmarks reach the lint's simulation through pnp.check.proof.
__all__ = ["SUPPLY_GAMES_PER_COUNT", "CheckFinding", "bot_mixes", "check", "check_game",
           "engine_tables", "printed_texts", "supply_simulation"]


def engine_tables(workspace: Workspace, name: str) -> tuple[Game, dict[str, TableRows]]:
    """One game and every table its engine computes from its rules (for ``pnp tables``)."""
    if name == "all":
        raise PnpError("pnp tables takes one game, not 'all'")
    slug = resolve_games(workspace, name)[0]
    game = load_game(workspace.game_dir(slug), tables_from_engine)
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


    def problem(self, problem: Problem) -> Problem:
        """``problem`` with its file (and any path its message names) relative to the workspace."""
        return replace(problem, file=None if problem.file is None else self.rel(problem.file),
                       message=self.rel(problem.message))


def _data_finding(problem: Problem, places: _Places, code: str = "invalid-data") -> CheckFinding:
    return CheckFinding.of("data", code, places.problem(problem))


def check_game(workspace: Workspace, slug: str) -> GameReport:
    places = _Places(workspace, slug)
    try:
        game = load_game(workspace.game_dir(slug), tables_from_engine)
    except DataError as exc:
        return GameReport(slug, tuple(_data_finding(p, places) for p in exc.records))

    findings: list[CheckFinding] = []
    acknowledged: tuple[Acknowledgement, ...] = ()
    notes = _unverified_tables(game, places)
    engine, rules = _engine_and_rules(game, places, findings)
    computed: dict[str, Any] | None = None
    hands: Mapping[str, str] = {}
    if engine is not None and rules is not None:
        # The canonical rules' tables and each printed variant table, from its variant's rules.
        computed = computed_tables(game)
        findings.extend(_table_findings(game, places))
        converters = [converter_for(game, lang) for lang in LANGS]
        findings.extend(_diff_finding(diff, places)
                        for diff in column_diffs(game, engine.table_columns, computed, converters))
        lint, acknowledged = lint_findings(game, engine, places)
        findings.extend(lint)
        findings.extend(_player_findings(game, engine, rules, places))
        if engine.requirements is not None:
            findings.extend(count_findings(game, engine.requirements(rules),
                                           places.doc(COMPONENTS_FILE),
                                           places.rel(str(places.game_dir / COMPONENTS_FILE)),
                                           places.rel))
        if engine.hands is not None:
            hands = engine.hands(rules)
    findings.extend(index_findings(game, hands, places.rel))
    findings.extend(_reference_findings(workspace, game, computed, places))
    findings.extend(_text_findings(workspace, game, places))
    findings.extend(_literal_findings(workspace, game, places))
    findings.extend(_tool_word_findings(workspace, game, places))
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
        # Located by the same function every command uses.
        problems = located_problems(places.game_dir / GAME_FILE, exc.records)
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
    if diff.kind == "label-differs":
        return CheckFinding("table", "label-differs",
                            f"table {diff.table!r}, column {diff.column!r}: the heading "
                            f"{diff.printed!r} is not the engine's {diff.computed!r} for that column "
                            "(pnp tables --update writes the engine's headings)", where, extra)
    if diff.kind == "column-unknown":
        return CheckFinding("table", "column-unknown",
                            f"table {diff.table!r}: column {diff.column!r} is printed, but the rules "
                            "engine declares no such column", where, extra)
    if diff.kind == "column-missing":
        return CheckFinding("table", "column-missing",
                            f"table {diff.table!r}: the engine's column {diff.column!r} "
                            f"({diff.computed}) is not printed", where, extra)
    if diff.kind == "not-integer":
        return CheckFinding("data", "not-integer",
                            f"table {diff.table!r}, row {diff.row + 1}, column {diff.column!r}: "
                            f"{diff.printed!r} is not a whole number, and the column holds whole "
                            f"numbers{_whole(diff.printed)}", f"{where}.{diff.column}", extra)
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


def _whole(value: Any) -> str:
    if isinstance(value, float) and value.is_integer():
        return f" (write {int(value)}, not {value})"
    return ""


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
            rulebook_markdown(workspace, game, book_engine(workspace, game))
        except DataError as exc:
            shown = places.rel(str(source))
            for problem in exc.records:
                problem = places.problem(problem)
                if not problem.place:
                    problem = problem.at(shown)
                findings.append(CheckFinding.of("reference", "rulebook-render", problem))
    covered: set[tuple[int, str]] = set()  # (line, table) an element's flow mapping may span
    for layout in game.layouts.values():
        for element in layout.elements:
            if element.kind == "table":
                start = element.where.line or 0
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


def _rulebook_texts(workspace: Workspace, game: Game, places: _Places, markdown: str | None = None,
                    name: str = "rulebook.md.j2") -> list[TextItem]:
    """The rendered rulebook (or ``name``, such as the aid) Markdown line by line, each mapped
    to its template line; ``markdown`` when the caller has rendered it already."""
    source = workspace.templates / game.slug / name
    if not source.is_file():
        return []
    if markdown is None:
        try:
            engine = book_engine(workspace, game)
            markdown = (rulebook_markdown(workspace, game, engine) if name == "rulebook.md.j2"
                        else aid_markdown(workspace, game, engine) or "")
        except DataError:
            return []  # reported as a reference finding
    return _template_texts(source, markdown, places)


def _template_texts(source: Path, markdown: str, places: _Places) -> list[TextItem]:
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
    items += _book_texts(workspace, game, places)
    findings = [CheckFinding("typography", p.code, p.message, p.where, p.extra)
                for p in typography.lint((i.text, i.where) for i in items)]
    findings += conversion_findings(game, [PrintedText(i.text, i.where) for i in items],
                                    places.rel(str(places.game_dir / GLOSSARY_FILE)), places.rel)
    for item in items:  # a float where a whole number belongs, whatever produced it
        for match in FLOAT_NUMBER.finditer(item.text):
            findings.append(CheckFinding(
                "literal", "float-number",
                f"{match[0]!r} in {_excerpt(item.text, match[0][0], 12)!r} prints a whole number "
                "as a decimal: the value behind it is a float where an integer belongs",
                item.where, {"number": match[0]}))
    for lang in LANGS:
        convert = converter_for(game, lang)
        try:
            family: FontFamily | None = load_family(workspace.fonts, lang)
        except DataError as exc:
            family = None
            findings.extend(CheckFinding("engine", "font-unavailable", places.rel(str(p)), "",
                                         {"lang": lang}, places.problem(p)) for p in exc.records)
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


# --------------------------------------------------------------------------------------------
# (f) words about the tool


def _book_texts(workspace: Workspace, game: Game, places: _Places, rulebook: str | None = None,
                aid: str | None = None, cards: bool = True) -> list[TextItem]:
    """Every text a player reads: the data's printed texts (only the credits without
    ``cards``), the rulebook and the aid as they print (a ruling mark as its label)."""
    data = printed_texts(game) if cards else [TextItem(c.value, c.where) for c in game.info.credits]
    items = [TextItem(i.text, places.rel(i.where), i.bold) for i in data]
    for markdown, name in ((rulebook, "rulebook.md.j2"), (aid, AID_TEMPLATE)):
        items += [TextItem(marks_as_printed(i.text), i.where, i.bold)
                  for i in _rulebook_texts(workspace, game, places, markdown, name)]
    return items


def _tool_words(workspace: Workspace, game: Game, places: _Places, rulebook: str | None = None,
                aid: str | None = None, cards: bool = True) -> ToolWordReport:
    variants = get_game(game.slug).variants if has_game(game.slug) else ()
    items = _book_texts(workspace, game, places, rulebook, aid, cards)
    report = find_tool_words(((i.text, i.where) for i in items), game.info.tool_words, variants)
    # A credit line prints in the rulebook too: it is reported once, at its game.yaml line.
    seen: set[tuple[str, str]] = set()
    hits = []
    for hit in report.hits:
        if (hit.word, hit.excerpt) not in seen:
            seen.add((hit.word, hit.excerpt))
            hits.append(hit)
    return ToolWordReport(tuple(hits), report.unused)


def _tool_word_findings(workspace: Workspace, game: Game, places: _Places) -> list[CheckFinding]:
    report = _tool_words(workspace, game, places)
    findings = [CheckFinding("book", "tool-word", _tool_word_message(hit), hit.where,
                             {"word": hit.word, "text": hit.excerpt}) for hit in report.hits]
    if _books_render(workspace, game):  # else the allowed passage may only be out of sight
        findings += [CheckFinding("book", "unused-tool-word-allow",
                                  f"tool_words.allow {allowed.text!r} matches no printed text any "
                                  "more; remove it", places.rel(allowed.where), {"text": allowed.text})
                     for allowed in report.unused]
    return findings


def _books_render(workspace: Workspace, game: Game) -> bool:
    """Whether the game has a rulebook and it and the aid render (a failure is reported as a
    reference finding); a card-data copy without its templates has no books to hold a passage."""
    if not template_path(workspace.templates, game.slug).is_file():
        return False
    try:
        engine = book_engine(workspace, game)
        rulebook_markdown(workspace, game, engine)
        aid_markdown(workspace, game, engine)
    except DataError:
        return False
    return True


def _tool_word_message(hit: ToolWordHit) -> str:
    return (f"{hit.word!r} in {hit.excerpt!r} talks about the tool, not the game: a player's book "
            "never does (reword it, or allow the passage in game.yaml tool_words.allow with the reason)")


def tool_word_problems(workspace: Workspace, game: Game, rulebook: str | None,
                       aid: str | None) -> list[str]:
    """What stops a build: each tool word in the given rulebook and aid Markdown, as
    ``where: message`` (paths relative to the workspace), a credit line placed at game.yaml.
    Card texts are pnp check's: reading them here would make every card edit re-render the
    rulebook (pnp/build/manifest.py records the card fields a rulebook reads)."""
    places = _Places(workspace, game.slug)
    return [f"{hit.where}: {_tool_word_message(hit)}"
            for hit in _tool_words(workspace, game, places, rulebook, aid, cards=False).hits]


# --------------------------------------------------------------------------------------------
# (g) typed numbers


def _literal_findings(workspace: Workspace, game: Game, places: _Places) -> list[CheckFinding]:
    docs = {name: places.doc(name) for name in (GAME_FILE, COMPONENTS_FILE, TABLES_FILE, FIGURES_FILE)}
    literals = data_literals(docs, places.rel)
    literals += template_literals(workspace.templates, game.slug, places.rel)
    files = {name: places.game_dir / name for name in docs}
    files.update({name: workspace.templates / game.slug / name for name in TEMPLATES})
    return literal_findings(game, literals, files, places.rel)
