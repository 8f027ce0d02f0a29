"""Words about the tool in a player's book.

A rulebook, an aid and a card talk to the players at the table; how the book was made (a
tool, a project, a computer replaying the example, the engine's name for a variant) is none
of their business. :data:`TOOL_WORDS` lists such words; a game adds its own in game.yaml
``tool_words: {forbid: [...]}`` and excuses a passage that must print one with
``tool_words: {allow: [{text: ..., reason: ...}]}``. The names of the game's variants as the
engine knows them (``classic``, ``official``) are forbidden too: a book names a variant in
words. ``pnp check`` reports each hit as a ``book`` finding (``tool-word``) with the template
line or data field, and ``pnp build`` refuses to print a book that holds one.

Words are matched with both the text and the word folded to Simplified (Traditional to
Simplified is many to one: 製 and 制 both fold to 制), so one list covers both scripts whatever
the conversion made of a phrase, and with spaces left out (「pnp 專案」 and 「pnp專案」 are one phrase); Latin words
ignore case, and a variant's name counts only as a whole word.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence
from functools import lru_cache

from pnp.core.records import record
from pnp.data.model import AllowedText, ToolWords
from pnp.text.convert import make_converter

# Words and phrases about the tool (either script: the check folds both to Simplified).
TOOL_WORDS: tuple[str, ...] = (
    "本工具",
    "本專案",
    "pnp專案",
    "pnp項目",
    "pnp製作",
    "電腦",
    "程式",
    "規則引擎",
    "製作規則書",
    "重打一遍",
    "規則裁定",
    "rulings.md",
    "docs/",
)


@record
class ToolWordHit:
    word: str  # as listed (or the variant's name)
    excerpt: str  # the text around it, as written
    where: str


@record
class ToolWordReport:
    hits: tuple[ToolWordHit, ...]
    unused: tuple[AllowedText, ...]  # allowed passages no text holds any more


@lru_cache(maxsize=1)
def _fold_script() -> Callable[[str], str]:
    return make_converter("zh-Hant", "zh-Hans")


def _fold(text: str) -> tuple[str, list[int]]:
    """``text`` folded for matching, and for each folded character its index in ``text``.
    The conversion maps character to character here (tw2s at the variant level keeps lengths)."""
    converted = _fold_script()(text)
    if len(converted) != len(text):  # never for the variant-level tables; be safe anyway
        converted = text
    kept = [(ch, i) for i, ch in enumerate(converted.lower()) if ch != " "]
    return "".join(ch for ch, _ in kept), [i for _, i in kept]


def _excerpt(text: str, start: int, end: int, span: int = 12) -> str:
    left, right = max(0, start - span), min(len(text), end + span)
    return ("…" if left else "") + text[left:right].strip() + ("…" if right < len(text) else "")


def find_tool_words(texts: Iterable[tuple[str, str]], words: ToolWords,
                    variants: Sequence[str] = ()) -> ToolWordReport:
    """Every tool word in ``texts`` ((text, where) pairs) outside an allowed passage."""
    listed = [(word, _fold(word)[0]) for word in (*TOOL_WORDS, *words.forbid) if word.strip()]
    names = [(name, re.compile(rf"(?<![a-z0-9_]){re.escape(name.lower())}(?![a-z0-9_])"))
             for name in variants]
    allowed = [(a, _fold(a.text)[0]) for a in words.allow]
    used: set[int] = set()
    hits: list[ToolWordHit] = []
    for text, where in texts:
        folded, index = _fold(text)
        excused: list[tuple[int, int]] = []
        for number, (_, passage) in enumerate(allowed):
            for match in re.finditer(re.escape(passage), folded) if passage else ():
                excused.append((match.start(), match.end()))
                used.add(number)
        spans = [(word, m.start(), m.end()) for word, pattern in listed
                 for m in re.finditer(re.escape(pattern), folded)]
        spans += [(name, m.start(), m.end()) for name, pattern in names for m in pattern.finditer(folded)]
        for word, start, end in sorted(spans, key=lambda s: s[1]):
            if any(a <= start and end <= b for a, b in excused):
                continue
            hits.append(ToolWordHit(word, _excerpt(text, index[start], index[end - 1] + 1), where))
    unused = tuple(a for number, (a, _) in enumerate(allowed) if number not in used)
    return ToolWordReport(tuple(hits), unused)
