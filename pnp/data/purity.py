"""Script purity of a game's source text: a zh-Hant game's own words hold no Simplified-only
character (and the other way round), unless game.yaml lists it under ``script_exceptions``.

Conversion only runs from the source script to the other one, so a stray character of the
other script in the source would be printed as it is in the source-script edition.
"""

from __future__ import annotations

from collections.abc import Iterator

from pnp.core.problems import Problem, problem_at
from pnp.data.model import Game, Text
from pnp.data.scripts import foreign_characters


def source_texts(game: Game) -> Iterator[Text]:
    """Every piece of printed text written in the game's source script, with its place."""
    yield game.info.name
    yield from game.info.credits
    for component in game.components:
        yield component.name
        yield component.note
        yield from component.faces
        for card in component.cards:
            yield from card.fields.values()
    for layout in game.layouts.values():
        for element in layout.elements:
            for key, value in element.props.items():
                items = value if isinstance(value, list | tuple) else [value]
                for item in items:
                    if isinstance(item, str):
                        yield Text(item, element.where.child(key))
    for table in game.tables.values():
        yield table.title
        for column in table.columns:
            yield column.label
        for row, where in zip(table.rows, table.row_where, strict=True):
            for value in row.values():
                if isinstance(value, str):
                    yield Text(value, where)
    for figure in game.figures.values():
        if figure.caption is not None:
            yield figure.caption
        yield from figure.labels


def purity_problems(game: Game) -> list[Problem]:
    """One located problem per text holding characters of the other script."""
    lang = game.info.source_lang
    other = "Simplified" if lang == "zh-Hant" else "Traditional"
    problems: list[Problem] = []
    seen: set[tuple[str, str]] = set()
    for text in source_texts(game):
        chars = [ch for ch in foreign_characters(text.value, lang) if ch not in game.info.script_exceptions]
        if not chars or (text.where, "".join(chars)) in seen:
            continue
        seen.add((text.where, "".join(chars)))
        listed = ", ".join(f"{ch!r} (U+{ord(ch):04X})" for ch in chars)
        problems.append(problem_at(text.where, f"{listed} {'is' if len(chars) == 1 else 'are'} {other}-only, in "
                        f"{lang} source text {text.value[:30]!r}; write the {lang} form, or list the "
                        "character under script_exceptions in game.yaml with the reason"))
    return problems
