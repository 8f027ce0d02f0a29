"""The ``book`` findings of ``pnp check`` and the build's refusal: words about the tool in print.

:mod:`pnp.check.bookwords` says which words talk about the tool and finds them in a text; this
module looks for them in everything a player reads (the rulebook and aid as they print, and
the card data), reports each hit once and, when the books render, each ``tool_words.allow``
passage no text holds any more. ``pnp build`` asks ``tool_word_problems`` about the books it
is about to print, so a book is refused for the same words ``pnp check`` reports.
"""

from __future__ import annotations

from pnp.check.bookwords import ToolWordHit, ToolWordReport, find_tool_words
from pnp.check.places import GamePlaces
from pnp.check.printed import book_texts
from pnp.check.report import CheckFinding
from pnp.core.errors import DataError
from pnp.core.workspace import Workspace
from pnp.data.model import Game
from pnp.games.registry import get_game, has_game
from pnp.play.examples import book_engine
from pnp.rulebook.source import aid_markdown, rulebook_markdown, template_path


def _tool_words(workspace: Workspace, game: Game, places: GamePlaces, rulebook: str | None = None,
                aid: str | None = None, cards: bool = True) -> ToolWordReport:
    variants = get_game(game.slug).rules.variant_names(game.info.rules) if has_game(game.slug) else ()
    items = book_texts(workspace, game, places, rulebook, aid, cards)
    report = find_tool_words(((i.text, i.where) for i in items), game.info.tool_words, variants)
    # A credit line prints in the rulebook too: it is reported once, at its game.yaml line.
    seen: set[tuple[str, str]] = set()
    hits = []
    for hit in report.hits:
        if (hit.word, hit.excerpt) not in seen:
            seen.add((hit.word, hit.excerpt))
            hits.append(hit)
    return ToolWordReport(tuple(hits), report.unused)


def tool_word_findings(workspace: Workspace, game: Game, places: GamePlaces) -> list[CheckFinding]:
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
    places = GamePlaces(workspace, game.slug)
    return [f"{hit.where}: {_tool_word_message(hit)}"
            for hit in _tool_words(workspace, game, places, rulebook, aid, cards=False).hits]
