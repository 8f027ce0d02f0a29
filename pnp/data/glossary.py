"""glossary.yaml read into its terms (forms pinned in both scripts) and reviewed readings,
and the terms checked to convert one way only: no conflicting partners, no cycles or chains."""

from __future__ import annotations

from pnp.core.choices import LANGS
from pnp.core.limits import MAX_NAME_CHARS
from pnp.data.model import GlossaryTerm, ReviewedReading
from pnp.data.schema import Reader


def read_glossary(r: Reader) -> tuple[tuple[GlossaryTerm, ...], tuple[ReviewedReading, ...]]:
    """glossary.yaml: ``terms`` (forms pinned in both scripts) and ``reviewed`` (phrases whose
    whole-text conversion pnp check may report and the designer read and accepts)."""
    top = r.mapping(r.doc.value, (), ("terms", "reviewed"), required=("terms",))
    terms: list[tuple[int, GlossaryTerm]] = []
    for i, item in enumerate(r.sequence(top.get("terms", []), ("terms",))):
        path = ("terms", i)
        item = r.mapping(item, path, LANGS, required=LANGS)
        hans = r.string(item, "zh-Hans", path, max_chars=MAX_NAME_CHARS)
        hant = r.string(item, "zh-Hant", path, max_chars=MAX_NAME_CHARS)
        for lang, form in (("zh-Hans", hans), ("zh-Hant", hant)):
            if lang in item and not form.strip():
                r.fail((*path, lang), "empty term: a glossary entry needs text in both scripts")
        if hans.strip() and hant.strip():
            terms.append((i, GlossaryTerm(hans, hant, r.where(path))))
    _check_glossary(r, terms)
    reviewed = []
    for i, item in enumerate(r.sequence(top.get("reviewed", []), ("reviewed",))):
        path = ("reviewed", i)
        item = r.mapping(item, path, ("text", "reason"), required=("text", "reason"))
        if not item:
            continue
        text, reason = r.string(item, "text", path), r.string(item, "reason", path)
        if "text" in item and not text.strip():
            r.fail((*path, "text"), "give the phrase, in the game's source script, as the text prints it")
        if "reason" in item and not reason.strip():
            r.fail((*path, "reason"), "say why the reading the whole text gives is right")
        reviewed.append(ReviewedReading(text, reason, r.where(path)))
    return tuple(term for _, term in terms), tuple(reviewed)


def _check_glossary(r: Reader, terms: list[tuple[int, GlossaryTerm]]) -> None:
    """Each form converts one way only: no two entries give one form different partners
    (a conflict), and no entry's target is another entry's source with a different target
    (a cycle or chain: converting twice would not come back)."""
    by_form: dict[tuple[str, str], tuple[int, GlossaryTerm]] = {}
    for i, term in terms:
        for lang, form, partner in (("zh-Hans", term.hans, term.hant), ("zh-Hant", term.hant, term.hans)):
            first = by_form.setdefault((lang, form), (i, term))
            other = first[1].hant if lang == "zh-Hans" else first[1].hans
            if first[0] != i and other != partner:
                r.fail(("terms", i), f"conflicts with terms[{first[0]}] ({first[1].where}): {lang} {form!r} "
                                     f"is given as {other!r} there and {partner!r} here")
    for i, term in terms:
        for lang, target, other_lang in (("zh-Hant", term.hant, "zh-Hans"), ("zh-Hans", term.hans, "zh-Hant")):
            source = term.hans if lang == "zh-Hant" else term.hant
            hit = by_form.get((other_lang, target))
            if hit is None or hit[0] == i or target == source:
                continue
            onward = hit[1].hant if other_lang == "zh-Hans" else hit[1].hans
            if onward != target:
                kind = "a cycle" if onward == source else "a chain"
                r.fail(("terms", i), f"{lang} {target!r} is also the {other_lang} form of terms[{hit[0]}] "
                                     f"({hit[1].where}), which turns it into {onward!r}: {kind} of conversions")
