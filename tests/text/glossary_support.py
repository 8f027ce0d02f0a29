"""What every game's golden-term glossary test shares: reading the glossary as plain data
(independent of pnp's converter) and the checks that hold for any glossary."""

from __future__ import annotations

from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[2]


def glossary_terms(slug: str) -> list[dict[str, str]]:
    path = ROOT / "card_data" / slug / "glossary.yaml"
    return yaml.safe_load(path.read_text(encoding="utf-8"))["terms"]


def assert_well_formed(terms: list[dict[str, str]]) -> None:
    """Each entry is a pair, and neither side is listed twice (the reverse would be ambiguous)."""
    assert all(set(t) == {"zh-Hans", "zh-Hant"} for t in terms)
    hans = [t["zh-Hans"] for t in terms]
    hant = [t["zh-Hant"] for t in terms]
    assert len(hans) == len(set(hans)), "a zh-Hans term is listed twice"
    assert len(hant) == len(set(hant)), "a zh-Hant term is listed twice"


def assert_pair_both_ways(terms: list[dict[str, str]], hant: str, hans: str) -> None:
    to_hans = {t["zh-Hant"]: t["zh-Hans"] for t in terms}
    to_hant = {t["zh-Hans"]: t["zh-Hant"] for t in terms}
    assert to_hans.get(hant) == hans
    assert to_hant.get(hans) == hant
