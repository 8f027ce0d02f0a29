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
  rules need (the plugin's ``supply.requirements``), or a component the rules need is missing;
- ``hand``: a deck held in hand (the plugin's ``supply.hands``, or ``held_in_hand: true``) whose front
  shows no index in the corner a fanned hand shows (:mod:`pnp.check.index`);
- ``purity``: converted to a script, a text holds characters only the other script uses;
- ``glyph``: converted to a script, a text holds characters its printing face lacks;
- ``book``: a printed text (rulebook, aid, card data) holds a word about the tool rather than
  the game (:mod:`pnp.check.bookwords`), or game.yaml allows a passage no text holds any more;
- ``image``: a picture prints below 150 dpi at its size on the card, or stops short of the
  bleed where its layout says it reaches it (:mod:`pnp.check.image_findings`);
- ``data``: the game's card_data or rules parameters do not load;
- ``engine``: the game has no usable rules engine, or its fonts are unavailable, or (a game
  written to the engine kit) its code breaks the kit's contract in a few seeded games of
  random play, or shows a seat what a redeal for that seat changes
  (:mod:`pnp.games.kit.conformance`);

The checks never render a PDF; they never print (the CLI does). This module runs them for a
game and holds the engine-level ones (players, and tables for a game with no engine); each
other concern is its own module: :mod:`pnp.check.table_findings`, :mod:`pnp.check.lint`,
:mod:`pnp.check.counts`, :mod:`pnp.check.index`, :mod:`pnp.check.text_findings`,
:mod:`pnp.check.tool_words` and :mod:`pnp.check.literals`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pnp.check.counts import count_findings
from pnp.check.image_findings import image_findings
from pnp.check.index import index_findings
from pnp.check.lint import SUPPLY_GAMES_PER_COUNT, bot_mixes, lint_findings, supply_simulation
from pnp.check.literal_marks import literal_findings
from pnp.check.literals import TEMPLATES, data_literals, template_literals
from pnp.check.places import GamePlaces
from pnp.check.report import Acknowledgement, CheckFinding, CheckReport, GameReport
from pnp.check.table_findings import diff_finding, reference_findings, table_findings
from pnp.check.tables import column_diffs, computed_tables
from pnp.check.text_findings import text_findings
from pnp.check.tool_words import tool_word_findings
from pnp.core.choices import LANGS
from pnp.core.errors import DataError, PnpError
from pnp.core.problems import Problem
from pnp.core.workspace import Workspace
from pnp.data.fieldpaths import located_problems
from pnp.data.gameset import KeptGames, resolve_games
from pnp.data.load import COMPONENTS_FILE, FIGURES_FILE, GAME_FILE, TABLES_FILE, load_game
from pnp.data.model import Game
from pnp.games.base import GameCodeError, GamePlugin, GameUnavailable, RulesError, TableRows
from pnp.games.kit.conformance import breaches, where_defined
from pnp.games.registry import get_game, has_game, installed_slugs, tables_from_engine
from pnp.text.convert import converter_for

# Re-exported: tests and benchmarks reach the lint's simulation through pnp.check.proof.
__all__ = ["SUPPLY_GAMES_PER_COUNT", "CheckFinding", "bot_mixes", "check", "check_game",
           "engine_tables", "supply_simulation"]


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
    except GameUnavailable as exc:
        raise PnpError(f"the rules engine for {slug!r} cannot be loaded ({exc})") from None
    return game, computed_tables(game)


def check(workspace: Workspace, name: str, kept: KeptGames | None = None) -> CheckReport:
    """Check GAME or ``all``; an unknown game raises PnpError, everything else is a finding.
    ``kept`` keeps the games loaded (a process that checks again after every save)."""
    return CheckReport(tuple(check_game(workspace, slug, kept) for slug in resolve_games(workspace, name)))


# --------------------------------------------------------------------------------------------
# One game


def _data_finding(problem: Problem, places: GamePlaces, code: str = "invalid-data") -> CheckFinding:
    return CheckFinding.of("data", code, places.problem(problem))


def check_game(workspace: Workspace, slug: str, kept: KeptGames | None = None) -> GameReport:
    places = GamePlaces(workspace, slug)
    try:
        game = kept.load(workspace, [slug])[0] if kept is not None \
            else load_game(workspace.game_dir(slug), tables_from_engine)
    except DataError as exc:
        return GameReport(slug, tuple(_data_finding(p, places) for p in exc.records))

    findings: list[CheckFinding] = []
    acknowledged: tuple[Acknowledgement, ...] = ()
    notes = _unverified_tables(game, places)
    engine, rules = _engine_and_rules(game, places, findings)
    computed: dict[str, Any] | None = None
    hands: Mapping[str, str] = {}
    if engine is not None and rules is not None:
        # A kit game's code answers every engine call below: a mistake in it is a finding.
        try:
            # The canonical rules' tables and each printed variant table, from its variant's rules.
            computed = computed_tables(game)
            findings.extend(table_findings(game, places))
            converters = [converter_for(game, lang) for lang in LANGS]
            findings.extend(diff_finding(diff, places)
                            for diff in column_diffs(game, engine.tables.columns, computed, converters))
            lint, acknowledged = lint_findings(game, engine, places)
            findings.extend(lint)
            findings.extend(_player_findings(game, engine, rules, places))
            if engine.supply.requirements is not None:
                findings.extend(count_findings(game, engine.supply.requirements(rules),
                                               places.doc(COMPONENTS_FILE),
                                               places.rel(str(places.game_dir / COMPONENTS_FILE)),
                                               places.rel))
            if engine.supply.hands is not None:
                hands = engine.supply.hands(rules)
            findings.extend(_contract_findings(engine, rules, places))
        except GameCodeError as exc:
            findings.append(_game_code_finding(engine, exc.method, exc.problem, places))
    findings.extend(index_findings(game, hands, places.rel))
    findings.extend(image_findings(game, places.rel))
    findings.extend(reference_findings(workspace, game, computed, places))
    findings.extend(text_findings(workspace, game, places))
    findings.extend(_literal_findings(workspace, game, places))
    findings.extend(tool_word_findings(workspace, game, places))
    return GameReport(slug, tuple(findings), acknowledged, notes)


def _engine_and_rules(game: Game, places: GamePlaces,
                      findings: list[CheckFinding]) -> tuple[GamePlugin | None, Any]:
    if not has_game(game.slug):
        if not game.info.rules:
            return None, None  # a data-only game: its texts are still checked
        installed = installed_slugs()
        # A designer's package registered under another name is the likeliest cause.
        hint = (f" (installed packages register: {', '.join(installed)}; the entry point's name "
                "must be the game's slug)") if installed else ""
        findings.append(CheckFinding("engine", "no-engine",
                                f"no rules engine for game {game.slug!r}: its printed tables and "
                                f"rules cannot be checked{hint}", places.game_yaml(())))
        return None, None
    try:
        engine = get_game(game.slug)
    except GameUnavailable as exc:
        findings.append(CheckFinding("engine", "engine-unavailable",
                                f"the rules engine for {game.slug!r} cannot be loaded ({exc}); its "
                                "printed tables and rules were not checked", places.game_yaml(())))
        return None, None
    try:
        rules = engine.rules.read(dict(game.info.rules), None)
    except GameCodeError as exc:
        findings.append(_game_code_finding(engine, exc.method, exc.problem, places))
        return engine, None
    except RulesError as exc:
        # Located by the same function every command uses.
        problems = located_problems(places.game_dir / GAME_FILE, exc.records)
        findings.extend(_data_finding(problem, places, "invalid-rules") for problem in problems)
        return engine, None
    return engine, rules


def _game_code_finding(engine: GamePlugin, method: str, problem: str,
                       places: GamePlaces) -> CheckFinding:
    where = where_defined(engine.play.kit, method) if engine.play.kit is not None else ""
    return CheckFinding("engine", "game-code", f"{method}: {problem}", places.rel(where),
                        {"method": method})


def _contract_findings(engine: GamePlugin, rules: Any, places: GamePlaces) -> list[CheckFinding]:
    """A few seeded games of random play with every call of the game's code held to the kit's
    contract, and its observations to what each seat may know (pnp.games.kit.conformance)."""
    if engine.play.kit is None:
        return []
    return [_game_code_finding(engine, breach.method, breach.text().removeprefix(f"{breach.method}: "),
                               places)
            for breach in breaches(engine.play.kit, rules, engine.play.playable_counts(rules))]


def _unverified_tables(game: Game, places: GamePlaces) -> tuple[CheckFinding, ...]:
    """A data-only game (no engine, no ``rules:``) may print tables: nothing can recompute
    them, which is said once per table without failing the check."""
    if has_game(game.slug) or game.info.rules:
        return ()
    return tuple(CheckFinding("table", "table-unverified",
                              f"table {name!r} is printed as written: {game.slug} has no rules "
                              "engine to recompute it", places.rel(table.where), {"table": name})
                 for name, table in game.tables.items())


# --------------------------------------------------------------------------------------------
# The player range


def _player_findings(game: Game, engine: GamePlugin, rules: Any, places: GamePlaces) -> list[CheckFinding]:
    low, high = engine.play.player_range(rules)
    info = game.info
    if (info.players_min, info.players_max) == (low, high):
        return []
    return [CheckFinding("players", "player-range",
                    f"game.yaml says {info.players_min}–{info.players_max} players, the rules "
                    f"engine plays {low}–{high}", places.game_yaml(("players",)),
                    {"printed": [info.players_min, info.players_max], "computed": [low, high]})]


# --------------------------------------------------------------------------------------------
# Typed numbers


def _literal_findings(workspace: Workspace, game: Game, places: GamePlaces) -> list[CheckFinding]:
    docs = {name: places.doc(name) for name in (GAME_FILE, COMPONENTS_FILE, TABLES_FILE, FIGURES_FILE)}
    literals = data_literals(docs, places.rel)
    literals += template_literals(workspace.templates, game.slug, places.rel)
    files = {name: places.game_dir / name for name in docs}
    files.update({name: workspace.templates / game.slug / name for name in TEMPLATES})
    return literal_findings(game, literals, files, places.rel)
