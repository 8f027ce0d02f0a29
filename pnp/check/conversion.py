"""The ``conversion`` check of ``pnp check``: words the printed conversion reads by context.

Every printed text is converted from the game's source script into the other one, as a build
converts it: the glossary first, then OpenCC on the stretches between terms. OpenCC chooses
the form of a character that converts by context (制/製, 只/隻, 后/後, 里/裡, 表/錶, 徵/征) from
the longest phrase of its tables that matches, and that phrase may reach across two words:
重新制作 matches 重新制 and prints 重新制作 where the word 制作 is 製作. The check converts
each text a second time word by word (ICU's dictionary words) and reports every word the two
readings print differently, at its file and line, with the sentence and both readings.

One of the two readings is usually right, and which one takes a reader: 最多只拿 → 最多隻拿
is the whole text's mistake, 纸制 → 紙製 the word's (ICU cuts 纸|制). The designer settles a
finding with a glossary term pinning the right form (both readings then agree), or lists the
phrase under glossary.yaml ``reviewed:`` with the reason when the whole text's reading is
right; a reviewed phrase that no printed text reads differently any more is reported, as a
stale acknowledgement is. Texts whose two readings agree are not proved right: a character
OpenCC converts wrongly by default, word or no word, passes (the glossary tests hold those).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

from pnp.check.report import CheckFinding
from pnp.core.choices import LANGS
from pnp.core.records import record
from pnp.data.model import Game, ReviewedReading
from pnp.text.convert import Converter, converter_for
from pnp.text.linebreaks import word_offsets
from pnp.text.readings import Readings, WordReading

# A sentence ends at its closing mark (and the quote or bracket closing after it) or a line's end.
_SENTENCE = re.compile(r"[^。！？!?；;\n]*(?:[。！？!?；;]+[」』”’）)]*)?")


@record
class PrintedText:
    """A printed text in the game's source script and where it is written."""

    text: str
    where: str


def conversion_findings(game: Game, texts: Sequence[PrintedText], glossary: str,
                        rel: Callable[[str], str]) -> list[CheckFinding]:
    """Findings for every word of ``texts`` that the conversion into the other script reads
    otherwise whole than alone, less the game's reviewed phrases (``glossary`` names the file
    the hint points to)."""
    source = game.info.source_lang
    target = next(lang for lang in LANGS if lang != source)
    convert = converter_for(game, target)
    used: set[ReviewedReading] = set()
    findings: list[CheckFinding] = []
    seen: set[tuple[str, str, int]] = set()
    for item in texts:
        readings = convert.readings(item.text)
        for word in readings.differing:
            sentence_start, sentence_end = _sentence(item.text, word.start)
            sentence = item.text[sentence_start:sentence_end].strip()
            key = (item.where, sentence, word.start - sentence_start)
            if key in seen:
                continue
            seen.add(key)
            review = _review(game.reviewed_readings, item.text, word)
            if review is not None:
                used.add(review)
                continue
            findings.append(_finding(convert, item, readings, word, (sentence_start, sentence_end), glossary))
    for review in game.reviewed_readings:
        if review not in used:
            findings.append(CheckFinding(
                "conversion", "stale-reviewed-reading",
                f"reviewed: {review.text!r} covers no word any printed text reads differently whole and "
                f"alone (the text changed, or a glossary term now settles it): remove the entry",
                rel(review.where), {"text": review.text}))
    return findings


def _sentence(text: str, at: int) -> tuple[int, int]:
    for match in _SENTENCE.finditer(text):
        if match.start() <= at < match.end():
            return match.start(), match.end()
    return 0, len(text)


def _review(reviews: Sequence[ReviewedReading], text: str, word: WordReading) -> ReviewedReading | None:
    """The first reviewed phrase one of whose occurrences in ``text`` holds the whole word."""
    for review in reviews:
        if not review.text:
            continue
        start = text.find(review.text)
        while start != -1:
            if start <= word.start and word.end <= start + len(review.text):
                return review
            start = text.find(review.text, start + 1)
    return None


def _finding(convert: Converter, item: PrintedText, readings: Readings, word: WordReading,
             sentence: tuple[int, int], glossary: str) -> CheckFinding:
    lang = convert.target
    text = item.text
    start, end = sentence
    span = _phrase(convert, text, word, sentence)
    phrase = text[span]
    if readings.aligned(text):
        whole, alone = readings.whole[span], readings.words[span]
        sentence_whole = readings.whole[start:end].strip()
        sentence_words = readings.words[start:end].strip()
    else:  # a stretch whose conversion changed its length: only the word can be placed
        whole, alone = word.whole, word.alone
        sentence_whole = sentence_words = ""
    source_word = text[word.start:word.end]
    return CheckFinding(
        "conversion", "reading-differs",
        f"{lang} prints {phrase} as {whole} converted with its sentence, but {alone} word by word "
        f"({source_word} alone is {word.alone}), in 「{text[start:end].strip()}」; pin the right "
        f"{lang} form of {phrase} under terms: in {glossary}, or, if {whole} is right, list "
        f"{phrase} under reviewed: there with the reason",
        item.where,
        {"lang": lang, "phrase": phrase, "whole": whole, "words": alone, "word": source_word,
         "word_alone": word.alone, "sentence": text[start:end].strip(),
         "sentence_whole": sentence_whole, "sentence_words": sentence_words})


def _phrase(convert: Converter, text: str, word: WordReading, sentence: tuple[int, int]) -> slice:
    """The span a glossary term or a reviewed entry would name: the shortest stretch around the
    word (within its sentence) that, converted by itself, still reads the word as the whole text
    does — the phrase OpenCC matched — widened to whole words."""
    start, end = sentence
    for width in range(1, 7):
        for left in range(width + 1):
            a, b = word.start - left, word.end + width - left
            if a < start or b > end:
                continue
            reading = convert(text[a:b])
            if len(reading) == b - a and reading[left:left + word.end - word.start] == word.whole:
                bounds = (0, *word_offsets(text))
                a = max(bound for bound in bounds if bound <= a)
                b = min(bound for bound in bounds if bound >= b)
                return slice(a, b)
    return slice(word.start, word.end)
