"""Which script a Chinese character belongs to: the characters only Traditional or only
Simplified text uses, as hanzidentifier's CC-CEDICT sets classify them."""

from __future__ import annotations

from functools import cache

from pnp.core import diskcache
from pnp.core.choices import LANGS


def foreign_characters(text: str, lang: str) -> list[str]:
    """Characters of ``text`` that only the other script uses, in order of first appearance.

    Classification is per character, by hanzidentifier's CC-CEDICT sets: characters both
    scripts share (后 里 干 台 只 面) are fine in either.
    """
    unwanted = _other_script_only()[lang]
    if unwanted.isdisjoint(text):  # nearly every text: one test in C
        return []
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
    pnp's disk cache for the installed hanzidentifier and zhon (pnp.core.diskcache.distributions_stamp)."""
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
