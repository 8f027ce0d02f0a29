"""Read card_data/<slug>/ into a Game, validating everything and failing once with all problems.

Each file has its reader (gameinfo, printedtables, glossary, components, figures); this module
reads the files, calls the readers in the order their cross-references need, resolves the rules
references, and checks the faces against their layouts and the texts' scripts across them all."""

from __future__ import annotations

from pathlib import Path

from pnp.core.errors import DataError
from pnp.core.problems import Problem
from pnp.data.components import read_components
from pnp.data.computed import TableSource, no_engine
from pnp.data.figures import read_figures
from pnp.data.gameinfo import read_game_info
from pnp.data.glossary import read_glossary
from pnp.data.iconfiles import read_icons
from pnp.data.images import read_images
from pnp.data.layouts import check_component_layouts
from pnp.data.model import Game, frozen_mapping
from pnp.data.printedtables import read_tables
from pnp.data.purity import purity_problems
from pnp.data.rulerefs import resolve_components, resolve_figures, resolve_layouts
from pnp.data.schema import Problems, Reader
from pnp.data.yamlmarks import Located, load_yaml

GAME_FILE = "game.yaml"
COMPONENTS_FILE = "components.yaml"
TABLES_FILE = "tables.yaml"
GLOSSARY_FILE = "glossary.yaml"
FIGURES_FILE = "figures.yaml"


def load_game(game_dir: Path, tables_of: TableSource = no_engine) -> Game:
    """Load and validate one game; raise DataError listing every problem found."""
    problems = Problems()
    docs: dict[str, Located] = {}
    for name in (GAME_FILE, COMPONENTS_FILE, TABLES_FILE, GLOSSARY_FILE, FIGURES_FILE):
        path = game_dir / name
        # Anything by the name but a missing file is read, so a FIFO, a device, a folder or a link
        # out is refused as what it is (pnp.core.files) rather than skipped or "not found".
        if not path.exists() and not path.is_symlink():
            if name in (GAME_FILE, COMPONENTS_FILE):
                problems.add_raw(Problem("file not found", str(path), code="file-not-found"))
            continue
        try:
            docs[name] = load_yaml(path)
        except DataError as exc:
            problems.items.extend(exc.records)
    if problems:
        raise DataError(problems.items)

    info = read_game_info(Reader(docs[GAME_FILE], problems), game_dir.name)
    tables = read_tables(Reader(docs[TABLES_FILE], problems)) if TABLES_FILE in docs else {}
    glossary, reviewed = read_glossary(Reader(docs[GLOSSARY_FILE], problems)) if GLOSSARY_FILE in docs else ((), ())
    # Computed only if a generated card quotes the engine's tables ({computed: ...}).
    computed = tables_of(info.slug, info.rules, game_dir / GAME_FILE)
    components, layouts, symbols, incomplete = read_components(Reader(docs[COMPONENTS_FILE], problems),
                                                               tables, computed)
    figures = read_figures(Reader(docs[FIGURES_FILE], problems), components, incomplete) \
        if FIGURES_FILE in docs else {}
    components = resolve_components(components, info.rules, problems.items)
    layouts = resolve_layouts(layouts, info.rules, problems.items, components)
    # Faces are checked against their layouts once the rules references are resolved, so that a
    # field such as an icon count may quote the rules.
    icons = read_icons(game_dir, problems.items)
    for component in components:
        check_component_layouts(Reader(docs[COMPONENTS_FILE], problems), component, layouts, symbols,
                                frozenset(icons))
    images = read_images(Reader(docs[COMPONENTS_FILE], problems), components, layouts, game_dir)
    figures = resolve_figures(figures, components, info.rules, problems.items)
    if problems:
        raise DataError(problems.items)
    game = Game(info, components, frozen_mapping(layouts), frozen_mapping(tables), glossary,
                frozen_mapping(symbols), frozen_mapping(figures), reviewed, frozen_mapping(icons),
                frozen_mapping(images))
    impure = purity_problems(game)
    if impure:
        raise DataError(impure)
    return game
