"""The font files a game.yaml's ``fonts:`` chooses, as the build record counts them
(pnp.text.fontchoice.chosen_font_files), however the key is written."""

from __future__ import annotations

from pathlib import Path

import pytest

from pnp.core.workspace import Workspace
from pnp.text.fontchoice import chosen_font_files


@pytest.fixture
def workspace(tmp_path: Path) -> Workspace:
    (tmp_path / "card_data" / "g").mkdir(parents=True)
    (tmp_path / "fonts").mkdir()
    (tmp_path / "fonts" / "Mine.ttf").write_bytes(b"any bytes: only the path is asked for")
    return Workspace(tmp_path)


def _chosen(workspace: Workspace, text: str) -> list[Path]:
    game_yaml = workspace.game_dir("g") / "game.yaml"
    game_yaml.write_text(text, encoding="utf-8")
    return chosen_font_files(game_yaml, workspace, workspace.root / "bundled")


@pytest.mark.parametrize("text", [
    "title: G\nfonts:\n  body: {file: Mine.ttf}\n",
    "title: G\n'fonts': {body: {file: Mine.ttf}}\n",
    # The key spelled with an escape: the text never holds the word, the document does.
    'title: G\n"\\x66onts": {body: {file: Mine.ttf}}\n',
    '"title": "G \\u4e00"\n"font\\x73":\n  body: {file: Mine.ttf}\n',
])
def test_a_chosen_file_counts_however_the_key_is_written(workspace: Workspace, text: str) -> None:
    assert _chosen(workspace, text) == [workspace.root / "fonts" / "Mine.ttf"]


@pytest.mark.parametrize("text", [
    "title: G\n",
    "title: G\nnotes: fonts are chosen elsewhere\n",
    'title: "G \\u4e00"\n',
    "title: G\nfonts: [broken\n",
])
def test_no_fonts_key_chooses_nothing(workspace: Workspace, text: str) -> None:
    assert _chosen(workspace, text) == []
