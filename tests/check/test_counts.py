"""Component counts against the rules' requirements (pnp/check/counts.py)."""

from __future__ import annotations

from pathlib import Path

from pnp.check.counts import count_findings
from pnp.data.load import COMPONENTS_FILE, load_game
from pnp.data.yamlmarks import load_yaml
from pnp.games.base import Requirement
from pnp.games.registry import tables_from_engine
from tests.conftest import ROOT

GAME_DIR = ROOT / "card_data" / "wurenshenghuan"


def _findings(requirements: dict[str, Requirement]) -> list[tuple[str, str, str]]:
    game = load_game(GAME_DIR, tables_from_engine)
    doc = load_yaml(GAME_DIR / COMPONENTS_FILE)
    found = count_findings(game, requirements, doc, "components.yaml",
                           lambda where: where.replace(str(ROOT) + "/", ""))
    return [(f.code, f.where, f.message) for f in found]


def _line(needle: str) -> int:
    text = (GAME_DIR / COMPONENTS_FILE).read_text(encoding="utf-8")
    return text[:text.index(needle)].count("\n") + 1


def test_a_card_with_its_own_key_is_exempt_from_the_wildcard() -> None:
    # Ten weapons of 4 and a key of 1: "item/*" = 4 must not be held against the key.
    assert _findings({"item/key": Requirement(1, "one key"),
                      "item/*": Requirement(4, "four of each weapon")}) == []
    found = _findings({"item/*": Requirement(4, "four of each weapon")})
    assert [code for code, _, _ in found] == ["count-differs"]
    assert found[0][1].startswith(f"card_data/wurenshenghuan/components.yaml:{_line('{id: key')}:")
    assert "prints 1, the rules need 4 (four of each weapon)" in found[0][2]


def test_a_needed_card_that_is_not_there() -> None:
    found = _findings({"tokens": Requirement(3, "three tokens"),
                       "item/lantern": Requirement(1, "one lantern")})
    # A component not printed at all is the designer's choice; a missing card is a finding.
    assert [code for code, _, _ in found] == ["card-missing"]
    assert found[0][1].startswith(
        f"card_data/wurenshenghuan/components.yaml:{_line('  - id: item')}:")


def test_a_component_total_is_placed_at_its_cards(tmp_path: Path) -> None:
    found = _findings({"identity": Requirement(9, "nine characters")})
    assert [code for code, _, _ in found] == ["count-differs"]
    assert "identity: components.yaml prints 10, the rules need 9" in found[0][2]
