"""game.yaml ``literal_numbers:`` against the typed numbers :mod:`pnp.check.literals` found.

A mark covers digits by their words (``text:``), a range of lines (``from:``/``until:``), a
YAML path (``field:``), a component and card by id (``component:``, ``card:``), each limited
to a ``file:`` when one is named. Every typed number no mark covers is a ``literal-number``
finding. A mark is an acknowledgement, and one that covers nothing is reported as a stale
acknowledgement is: ``unknown-literal-mark`` when it names a component or card the game does
not have (a typo, or a card since renamed), ``stale-literal-mark`` when what it names has no
typed number any more. Either way nothing it was meant for is silently left unmarked.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import field
from pathlib import Path

from pnp.check.literals import Literal
from pnp.check.report import CheckFinding
from pnp.core.records import record
from pnp.data.model import Game, LiteralMark
from pnp.data.textfile import read_text

# A field path that names a component by id where the path counts positions: what a designer
# writes first ("components.deck.cards", "components[deck]"), which matches nothing.
_ID_IN_PATH = re.compile(r"^components(?:\.|\[)([a-z0-9][a-z0-9_-]*)\]?(?:[.\[]|$)")
_LISTED_IDS = 12  # ids a finding lists before "…": enough to spot a typo, short enough to read


@record
class _Texts:
    """Each file's lines, for a mark's ``from:``/``until:`` range."""

    lines: Mapping[str, list[str]]
    ranges: dict[tuple[str, str, str], tuple[int, int] | None] = field(default_factory=dict)

    def range_of(self, mark: LiteralMark, name: str) -> tuple[int, int] | None:
        key = (mark.start, mark.until, name)
        if key not in self.ranges:
            self.ranges[key] = self._range(mark, name)
        return self.ranges[key]

    def _range(self, mark: LiteralMark, name: str) -> tuple[int, int] | None:
        lines = self.lines.get(name, [])
        first = next((i for i, line in enumerate(lines, 1) if mark.start in line), None)
        if first is None:
            return None
        last = next((i for i, line in enumerate(lines, 1)
                     if i > first and mark.until and mark.until in line), len(lines) + 1)
        return first, last


def _covers(mark: LiteralMark, literal: Literal, texts: _Texts) -> bool:
    if mark.file and mark.file != literal.name:
        return False
    if mark.component and mark.component != literal.component:
        return False
    if mark.card and mark.card != literal.card:
        return False
    if mark.field and not (literal.field == mark.field or
                           literal.field.startswith((f"{mark.field}.", f"{mark.field}["))):
        return False
    if mark.start:
        span = texts.range_of(mark, literal.name)
        return span is not None and span[0] <= literal.line < span[1]
    if not mark.text:
        return True
    at = literal.source.find(mark.text)
    while at >= 0:
        if at <= literal.start and literal.end <= at + len(mark.text):
            return True
        at = literal.source.find(mark.text, at + 1)
    return False


def literal_findings(game: Game, literals: list[Literal], files: Mapping[str, Path],
                     rel: Callable[[str], str]) -> list[CheckFinding]:
    """One finding per unmarked literal, and one per mark that covers none."""
    texts = _Texts({name: read_text(path).splitlines() for name, path in files.items()
                    if path.is_file()})
    marks = game.info.literal_numbers
    used = [False] * len(marks)
    # A game with no rules yet has nothing to refer to: marking is its one way out.
    remedy = ("refer to the rules instead, or mark it in game.yaml literal_numbers with the reason"
              if game.info.rules else "mark it in game.yaml literal_numbers with the reason; once the "
              "game has rules, refer to them instead")
    findings: list[CheckFinding] = []
    for literal in literals:
        covering = [i for i, mark in enumerate(marks) if _covers(mark, literal, texts)]
        for i in covering:
            used[i] = True
        if covering:
            continue
        excerpt = _excerpt(literal.source, literal.start, literal.end)
        findings.append(CheckFinding(
            "literal", "literal-number",
            f"{literal.number!r} in {excerpt!r} is typed, not derived from the rules ({remedy})",
            literal.where, {"number": literal.number, "file": literal.name}))
    for mark, was_used in zip(marks, used, strict=True):
        unknown = _unknown_target(game, mark)
        if unknown:
            findings.append(CheckFinding(
                "literal", "unknown-literal-mark", unknown, rel(mark.where),
                {"component": mark.component, "card": mark.card}))
            continue
        # A mark on a file this workspace lacks (a game folder checked without its templates)
        # has nothing to cover, and nothing to be stale against; a name no file of a game can
        # have (a typo) is reported like a stale mark.
        absent = mark.file in files and mark.file not in texts.lines
        if not was_used and not absent:
            findings.append(CheckFinding(
                "literal", "stale-literal-mark", _stale_message(game, mark), rel(mark.where),
                {"text": mark.text, "from": mark.start, "file": mark.file,
                 "component": mark.component, "card": mark.card}))
    return findings


def _unknown_target(game: Game, mark: LiteralMark) -> str:
    """What is wrong with the component or card a mark names, or "" when the game has both."""
    if not mark.component:
        return ""
    components = {component.id: component for component in game.components}
    if mark.component not in components:
        return (f"literal_numbers mark names component {mark.component!r}, which components.yaml "
                f"does not have (its components: {_listed(components)})")
    cards = {card.id for card in components[mark.component].cards}
    if mark.card and mark.card not in cards:
        return (f"literal_numbers mark names card {mark.card!r} of component {mark.component!r}, "
                f"which has no such card (its cards: {_listed(cards)})")
    return ""


def _listed(ids: Mapping[str, object] | set[str]) -> str:
    names = sorted(ids) if isinstance(ids, set) else list(ids)
    shown = ", ".join(names[:_LISTED_IDS]) + (", …" if len(names) > _LISTED_IDS else "")
    return shown or "none"


def _stale_message(game: Game, mark: LiteralMark) -> str:
    what = (f"text {mark.text!r}" if mark.text else f"lines from {mark.start!r}"
            if mark.start else f"field {mark.field}" if mark.field else "every typed number")
    if mark.card:
        what += f" of card {mark.card!r} of component {mark.component!r}"
    elif mark.component:
        what += f" of component {mark.component!r}"
    message = (f"literal_numbers mark for {what}{' in ' + mark.file if mark.file else ''} covers "
               "no typed number any more; remove it")
    named = _ID_IN_PATH.match(mark.field)
    if named and named[1] in {component.id for component in game.components}:
        # The path names a component by id: it can never match, and "remove it" would be wrong.
        message = (f"literal_numbers mark's field {mark.field!r} covers nothing: a field path counts "
                   f"components by position (components[0], components[1], …); to name component "
                   f"{named[1]!r} by its id, write `component: {named[1]}` (and `card:` a card's id)")
    return message


def _excerpt(text: str, start: int, end: int, span: int = 14) -> str:
    left = max(0, start - span)
    right = min(len(text), end + span)
    return ("…" if left else "") + text[left:right].strip() + ("…" if right < len(text) else "")
