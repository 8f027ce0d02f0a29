"""One-source script conversion (zh-Hans <-> zh-Hant) and script-purity checks.

The game's glossary is applied first: text is cut at glossary terms (longest match wins),
the terms are written as the glossary says, and only the stretches between them go through
OpenCC's variant-level config (s2tw / tw2s). This keeps game words such as 大局 out of
OpenCC's phrase tables (每局限用 would otherwise become 每侷限用).

OpenCC picks the form of a character that converts by context (制/製, 只/隻, 后/後) from the
longest phrase of its tables that matches, and that phrase may reach across two words: in
重新制作 it matches 重新制 and prints 重新制作, where the word 制作 alone is 製作.
:meth:`Converter.readings` converts a text whole and word by word (ICU's dictionary words) and
names each word the two read differently, for ``pnp check`` to report.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from functools import cache, cached_property, lru_cache
from typing import TYPE_CHECKING, Any

from pnp.core.choices import LANGS
from pnp.core.records import record
from pnp.data.model import Game, GlossaryTerm
from pnp.text.linebreaks import word_offsets

if TYPE_CHECKING:
    from pnp.text.readings import Readings

_CONFIGS = {("zh-Hans", "zh-Hant"): "s2tw", ("zh-Hant", "zh-Hans"): "tw2s"}
# Taiwan writes corner brackets where the mainland writes curly quotes; OpenCC leaves both.
_QUOTES = {
    ("zh-Hans", "zh-Hant"): str.maketrans("“”‘’", "「」『』"),
    ("zh-Hant", "zh-Hans"): str.maketrans("「」『』", "“”‘’"),
}


@cache
def _converter(config: str) -> Any:
    import opencc  # its dictionaries load only when a text is first converted

    return opencc.OpenCC(config)


@record
class Converter:
    """Converts text from a game's source script into a target script."""

    source: str
    target: str
    terms: tuple[tuple[str, str], ...]  # (source form, target form), longest source first

    @cached_property
    def _pattern(self) -> re.Pattern[str] | None:
        # Alternatives in longest-first order make the regex take the longest term at a spot.
        if not self.terms:
            return None
        return re.compile("|".join(re.escape(src) for src, _ in self.terms))

    @cached_property
    def _targets(self) -> dict[str, str]:
        return dict(self.terms)

    @cached_property
    def _memo(self) -> dict[str, str]:
        # The same strings come back many times a build (a label on every card of a deck, the
        # sheet furniture, table headers): each is converted once per converter.
        return {}

    def __call__(self, text: str) -> str:
        if self.source == self.target or not text:
            return text
        memo = self._memo
        done = memo.get(text)
        if done is None:
            if len(memo) >= 100_000:  # a long-lived process (pnp serve, --watch)
                memo.clear()
            done = memo[text] = self._convert(text)
        return done

    def _pieces(self, text: str) -> Iterator[tuple[int, str, str | None]]:
        """(offset, piece, its glossary form) for each glossary term of ``text`` and (offset,
        stretch, None) for each stretch between terms, in order."""
        position = 0
        if self._pattern is not None:
            for match in self._pattern.finditer(text):
                yield position, text[position:match.start()], None
                yield match.start(), match.group(), self._targets[match.group()]
                position = match.end()
        yield position, text[position:], None

    def _convert(self, text: str) -> str:
        config = _converter(_CONFIGS[(self.source, self.target)])
        out = [config.convert(piece) if pinned is None else pinned for _, piece, pinned in self._pieces(text)]
        return "".join(out).translate(_QUOTES[(self.source, self.target)])

    @cached_property
    def _word_memo(self) -> dict[str, str]:
        return {}

    def _word(self, word: str) -> str:
        memo = self._word_memo
        done = memo.get(word)
        if done is None:
            if len(memo) >= 100_000:
                memo.clear()
            done = memo[word] = _converter(_CONFIGS[(self.source, self.target)]).convert(word)
        return done

    def readings(self, text: str) -> Readings:
        """``text`` converted whole and word by word, the glossary applied first in both.

        The words are ICU's, cut in each stretch between glossary terms; a glossary term is one
        word, so pinning a phrase settles both readings. A word whose two readings differ is
        listed: OpenCC matched a phrase reaching into it from a neighbour (重新制 of 重新制作).
        A stretch whose conversion changes its length (no shipped table does) is listed whole.
        """
        from pnp.text.readings import Readings, WordReading  # the check's, not a build's

        if self.source == self.target or not text:
            return Readings(text, text, ())
        config = _converter(_CONFIGS[(self.source, self.target)])
        whole: list[str] = []
        words: list[str] = []
        differing: list[WordReading] = []
        for offset, piece, pinned in self._pieces(text):
            if pinned is not None:
                whole.append(pinned)
                words.append(pinned)
                continue
            converted = config.convert(piece)
            start = 0
            alone: list[str] = []
            for end in word_offsets(piece):
                alone.append(self._word(piece[start:end]))
                if len(converted) == len(piece) and converted[start:end] != alone[-1]:
                    differing.append(WordReading(offset + start, offset + end, converted[start:end], alone[-1]))
                start = end
            by_words = "".join(alone)
            if len(converted) != len(piece) and converted != by_words:
                differing.append(WordReading(offset, offset + len(piece), converted, by_words))
            whole.append(converted)
            words.append(by_words)
        quotes = _QUOTES[(self.source, self.target)]
        return Readings("".join(whole).translate(quotes), "".join(words).translate(quotes), tuple(differing))


def make_converter(source: str, target: str, glossary: Iterable[GlossaryTerm] = ()) -> Converter:
    if source not in LANGS or target not in LANGS:
        raise ValueError(f"unknown language: {source!r} -> {target!r} (expected {LANGS})")
    pairs: dict[str, str] = {}
    for term in glossary:
        src, dst = (term.hans, term.hant) if source == "zh-Hans" else (term.hant, term.hans)
        pairs.setdefault(src, dst)
    ordered = tuple(sorted(pairs.items(), key=lambda kv: (-len(kv[0]), kv[0])))
    return _shared_converter(source, target, ordered)


@lru_cache(maxsize=32)
def _shared_converter(source: str, target: str, terms: tuple[tuple[str, str], ...]) -> Converter:
    """One converter for each script pair and glossary, so its memo of converted strings
    serves every output of a build (the sheets and the book of a script convert the same card
    text) and every build of a process that builds again and again, where a game read again
    after an edit has its glossary as before. Conversion depends on nothing else."""
    return Converter(source, target, terms)


def converter_for(game: Game, lang: str) -> Converter:
    """The converter of ``game``'s text into ``lang``: its source script, its glossary."""
    return make_converter(game.info.source_lang, lang, game.glossary)
