"""Typographic lint of printed Chinese text: half-width punctuation and range notation.

Chinese text takes full-width punctuation (！？，；：); a half-width "!" or "?" touching a
Chinese character looks like a typing slip on paper. A game's ranges ("3～6 人") use one
notation throughout: a book that writes "3～6 人" on one page and "2–10 人" on another reads
as two hands. Pure functions over (text, where) pairs; pnp check turns the problems into
findings.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

from pnp.core.records import record

# Half-width marks that have a full-width form Chinese text should use instead.
FULL_WIDTH = {"!": "！", "?": "？", ",": "，", ";": "；", ":": "："}
_CJK = r"\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\U00020000-\U0002ffff"
# A run of half-width marks with a Chinese character right before or right after it.
_HALF_WIDTH = re.compile(rf"(?<=[{_CJK}])[!?,;:]+|[!?,;:]+(?=[{_CJK}])")
# Ranges of numbers or letters ("3～6", "A–J", "1~3"); a hyphen-minus is left alone, since
# dates and identifiers (2026-11-29) use it, and so is the minus sign of arithmetic.
RANGE_MARKS = "～~–—"
_RANGE = re.compile(rf"(?<![\w.])(\d+|[A-Z])\s?([{RANGE_MARKS}])\s?(\d+|[A-Z])(?![\w.])")
_NAMES = {"～": "full-width tilde ～", "~": "half-width tilde ~", "–": "en dash –", "—": "em dash —"}


@record
class Problem:
    code: str
    message: str
    where: str
    extra: dict[str, Any]


def _excerpt(text: str, start: int, end: int, span: int = 10) -> str:
    left = max(0, start - span)
    right = min(len(text), end + span)
    return ("…" if left else "") + text[left:right].strip() + ("…" if right < len(text) else "")


def half_width_punctuation(text: str, where: str) -> list[Problem]:
    """Half-width ! ? , ; : touching a Chinese character."""
    problems = []
    for match in _HALF_WIDTH.finditer(text):
        marks = match.group()
        wanted = "".join(FULL_WIDTH[m] for m in marks)
        problems.append(Problem(
            "half-width-punctuation",
            f"half-width {marks!r} inside Chinese text {_excerpt(text, match.start(), match.end())!r}; "
            f"write {wanted!r}", where, {"text": marks, "replacement": wanted}))
    return problems


def ranges(text: str) -> list[tuple[str, str]]:
    """(mark, the range as written) for every numeric or letter range in ``text``."""
    return [(m.group(2), m.group()) for m in _RANGE.finditer(text)]


def mixed_ranges(items: Iterable[tuple[str, str]]) -> list[Problem]:
    """One problem per range written in a notation other than the game's usual one."""
    found: list[tuple[str, str, str]] = []  # (mark, range, where)
    for text, where in items:
        found += [(mark, written, where) for mark, written in ranges(text)]
    counts: dict[str, int] = {}
    for mark, _, _ in found:
        counts[mark] = counts.get(mark, 0) + 1
    if len(counts) < 2:
        return []
    # The notation used most is the house style; ties go to the full-width tilde.
    usual = max(counts, key=lambda m: (counts[m], m == "～"))
    problems = []
    seen: set[tuple[str, str]] = set()
    for mark, written, where in found:
        if mark == usual or (written, where) in seen:
            continue
        seen.add((written, where))
        problems.append(Problem(
            "mixed-range-notation",
            f"range {written!r} uses the {_NAMES[mark]}, but this game writes ranges with the "
            f"{_NAMES[usual]} ({counts[usual]} times); use one notation", where,
            {"range": written, "mark": mark, "usual": usual}))
    return problems


def lint(items: Iterable[tuple[str, str]]) -> list[Problem]:
    """Every typographic problem of a game's printed texts, given as (text, where) pairs."""
    items = list(items)
    problems = [p for text, where in items for p in half_width_punctuation(text, where)]
    return problems + mixed_ranges(items)
