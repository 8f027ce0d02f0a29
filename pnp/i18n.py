"""One-source script conversion (zh-Hans <-> zh-Hant) and script-purity checks.

The game's glossary is applied first: text is cut at glossary terms (longest match wins),
the terms are written as the glossary says, and only the stretches between them go through
OpenCC's variant-level config (s2tw / tw2s). This keeps game words such as 大局 out of
OpenCC's phrase tables (每局限用 would otherwise become 每侷限用).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache, cached_property
from typing import Any

from pnp import diskcache
from pnp.data.model import LANGS, GlossaryTerm

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


@dataclass(frozen=True)
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

    def _convert(self, text: str) -> str:
        config = _converter(_CONFIGS[(self.source, self.target)])
        targets = self._targets
        out: list[str] = []
        position = 0
        if self._pattern is not None:
            for match in self._pattern.finditer(text):
                out.append(config.convert(text[position:match.start()]))
                out.append(targets[match.group()])
                position = match.end()
        out.append(config.convert(text[position:]))
        return "".join(out).translate(_QUOTES[(self.source, self.target)])


def make_converter(source: str, target: str, glossary: Iterable[GlossaryTerm] = ()) -> Converter:
    if source not in LANGS or target not in LANGS:
        raise ValueError(f"unknown language: {source!r} -> {target!r} (expected {LANGS})")
    pairs: dict[str, str] = {}
    for term in glossary:
        src, dst = (term.hans, term.hant) if source == "zh-Hans" else (term.hant, term.hans)
        pairs.setdefault(src, dst)
    ordered = tuple(sorted(pairs.items(), key=lambda kv: (-len(kv[0]), kv[0])))
    return Converter(source, target, ordered)


def foreign_characters(text: str, lang: str) -> list[str]:
    """Characters of ``text`` that only the other script uses, in order of first appearance.

    Classification is per character, by hanzidentifier's CC-CEDICT sets: characters both
    scripts share (后 里 干 台 只 面) are fine in either.
    """
    unwanted = _other_script_only()[lang]
    seen: dict[str, None] = {}
    for ch in text:
        if ch in unwanted and ch not in seen:
            seen[ch] = None
    return list(seen)


SCRIPT_AREA = "scripts"
_SCRIPT_LIBRARIES = ("hanzidentifier", "zhon")  # zhon holds the CC-CEDICT character lists
_FIRST_HAN = 0x2E80  # below this no character is either script's own


@cache
def _other_script_only() -> dict[str, frozenset[str]]:
    """lang -> the characters hanzidentifier identifies as the other script's only (from U+2E80
    up), once per process. Importing hanzidentifier (CC-CEDICT's sets and a regular expression
    of every character in them) costs more than checking a game, so the two sets are kept in
    pnp's disk cache for the installed hanzidentifier and zhon (pnp.diskcache.distributions_stamp)."""
    found = diskcache.for_installed(
        SCRIPT_AREA, _SCRIPT_LIBRARIES, 1 << 20, _classify,
        lambda found: isinstance(found, dict) and all(isinstance(found.get(lang), str) for lang in LANGS))
    return {lang: frozenset(found[lang]) for lang in LANGS}


def _classify() -> dict[str, str]:
    import hanzidentifier  # CC-CEDICT's character sets load only to fill the cache
    from hanzidentifier import helpers

    # identify() says SIMPLIFIED or TRADITIONAL of a single character only for one in
    # CC-CEDICT's lists of either script; every other character is UNKNOWN or MIXED.
    known = helpers.TRADITIONAL_CHARACTERS | helpers.SIMPLIFIED_CHARACTERS
    han = [ch for ch in known if ord(ch) >= _FIRST_HAN]
    # Each set as one string of its characters in order, as the disk cache keeps it.
    return {
        "zh-Hant": "".join(sorted(ch for ch in han if hanzidentifier.identify(ch) == hanzidentifier.SIMPLIFIED)),
        "zh-Hans": "".join(sorted(ch for ch in han if hanzidentifier.identify(ch) == hanzidentifier.TRADITIONAL)),
    }
