"""Text far too long for its place is refused with the place named, not typeset for minutes."""

from __future__ import annotations

import pytest

from pnp.build.pipeline import build
from pnp.core.errors import PnpError
from pnp.core.workspace import Workspace
from tests.conftest import edit


def test_a_card_text_of_five_thousand_characters_is_refused_with_its_card(workspace_copy, tmp_path):
    components = workspace_copy / "card_data" / "aizhewudi" / "components.yaml"
    old = "你要拿到 {rules.princess_eliminated_at} 個被愛標記才出局"
    # Past a card text's 1,000 characters, under the 20,000 the YAML reader refuses any value at.
    edit(components, old, "長文" * 2_500 + old)
    # Refused at load by the text limit of the element spec, before anything is typeset.
    with pytest.raises(PnpError) as caught:
        build(Workspace(workspace_copy), "aizhewudi", "zh-Hant", "a4", tmp_path / "out")
    message = str(caught.value)
    assert "components.yaml:" in message and "fields.text" in message and "longer than the limit" in message
    assert not (tmp_path / "out").exists()
