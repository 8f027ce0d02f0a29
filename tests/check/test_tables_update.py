"""`pnp tables --update` rewrites only the values the rules changed: every comment, blank line
and layout choice of tables.yaml stays, and a tables.yaml linked inside the workspace is written through."""

from __future__ import annotations

import difflib
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from pnp.cli import cli
from tests.conftest import edit, game_workspace


@pytest.fixture
def ws(tmp_path: Path) -> Path:
    return game_workspace(tmp_path, "tisigui")


def changed_lines(before: str, after: str) -> list[str]:
    return [line for line in difflib.unified_diff(before.splitlines(), after.splitlines(), lineterm="", n=0)
            if line[:1] in "+-" and not line.startswith(("+++", "---"))]


def update(root: Path) -> str:
    result = CliRunner().invoke(cli, ["--root", str(root), "tables", "tisigui", "--update"])
    assert result.exit_code == 0, result.output
    return result.output


def test_comments_blank_lines_and_layout_survive_an_update(ws: Path) -> None:
    tables = ws / "card_data/tisigui/tables.yaml"
    # The designer's own notes, in every place a note can go.
    edit(tables, "  naming_score:\n", "  # --- 计分 ---\n\n  # 指认的得分，按人数\n  naming_score:\n")
    edit(tables, "      - {players: 3, confirmed: 0, points: 3}\n",
         "      # 三人局\n      - {players: 3, confirmed: 0, points: 3}   # 没确认任何人\n\n")
    edit(tables, '      - {players: 4, expected_big_rounds: "25/8"}\n',
         "      - players: 4  # block style, as some designers write it\n"
         "        expected_big_rounds: '25/8'\n")
    # Wrong values: one in a flow row (with a comment after it), one quoted string in a block row.
    edit(tables, "{players: 3, confirmed: 0, points: 3}   #", "{players: 3, confirmed: 0, points: 9}   #")
    edit(tables, "expected_big_rounds: '25/8'", "expected_big_rounds: '99/8'")
    # A row the rules do not give, and a missing last row.
    edit(tables, "      - {players: 6, big_die: 6, small_rounds: 4, question_markers: 5}\n",
         "      - {players: 6, big_die: 6, small_rounds: 4, question_markers: 5}\n"
         "      - {players: 7, big_die: 7, small_rounds: 4, question_markers: 5}  # 试验\n")
    edit(tables, '      - {players: 6, expected_big_rounds: "41/8"}\n', "")
    before = tables.read_text(encoding="utf-8")

    output = update(ws)

    assert "setup" in output and "ghost_score" in output and "game_length" in output
    after = tables.read_text(encoding="utf-8")
    assert changed_lines(before, after) == [
        "-      - {players: 7, big_die: 7, small_rounds: 4, question_markers: 5}  # 试验",
        "-      - {players: 3, confirmed: 0, points: 9}   # 没确认任何人",
        "+      - {players: 3, confirmed: 0, points: 3}   # 没确认任何人",
        "-        expected_big_rounds: '99/8'",
        "+        expected_big_rounds: '25/8'",
        "+      - {players: 6, expected_big_rounds: \"41/8\"}",
    ]
    again = CliRunner().invoke(cli, ["--root", str(ws), "check", "tisigui"])
    assert again.exit_code == 0, again.output


def test_crlf_and_a_byte_order_mark_are_kept(ws: Path) -> None:
    tables = ws / "card_data/tisigui/tables.yaml"
    edit(tables, "{players: 3, confirmed: 0, points: 3}", "{players: 3, confirmed: 0, points: 8}")
    text = tables.read_text(encoding="utf-8")
    tables.write_bytes(b"\xef\xbb\xbf" + text.replace("\n", "\r\n").encode("utf-8"))
    update(ws)
    data = tables.read_bytes()
    assert data.startswith(b"\xef\xbb\xbf") and b"\r\n" in data and b"\n" not in data.replace(b"\r\n", b"")
    fixed = text.replace("confirmed: 0, points: 8}", "confirmed: 0, points: 3}", 1)
    assert data.decode("utf-8-sig").replace("\r\n", "\n") == fixed


def test_a_linked_tables_file_is_written_through(ws: Path) -> None:
    """A link that stays inside the workspace is followed (one that leads out is refused: the
    hostile case tables-update-through-a-link-out)."""
    real = ws / "shared" / "tisigui-tables.yaml"
    real.parent.mkdir()
    tables = ws / "card_data/tisigui/tables.yaml"
    shutil.move(tables, real)
    tables.symlink_to(real)
    edit(real, "{players: 3, confirmed: 0, points: 3}", "{players: 3, confirmed: 0, points: 7}")
    update(ws)
    assert tables.is_symlink() and tables.resolve() == real
    assert "{players: 3, confirmed: 0, points: 3}" in real.read_text(encoding="utf-8")
    assert not [p for p in real.parent.iterdir() if p != real]  # no temporary left beside it


def test_update_writes_the_engines_headings_and_whole_numbers(ws: Path) -> None:
    """Swapped headings and a 6.0 are what --update repairs, one value each, and then check
    is clean."""
    tables = ws / "card_data/tisigui/tables.yaml"
    edit(tables, "{key: big_die, label: 大局骰起始}", "{key: big_die, label: \"每大局小局数\"}")
    edit(tables, "{key: small_rounds, label: 每大局小局数}", "{key: small_rounds, label: 大局骰起始}")
    edit(tables, "{players: 6, big_die: 6, small_rounds: 4", "{players: 6, big_die: 6.0, small_rounds: 4")
    before = tables.read_text(encoding="utf-8")
    output = update(ws)
    assert "setup" in output
    assert changed_lines(before, tables.read_text(encoding="utf-8")) == [
        "-      - {key: big_die, label: \"每大局小局数\"}",
        "-      - {key: small_rounds, label: 大局骰起始}",
        "+      - {key: big_die, label: \"大局骰起始\"}",
        "+      - {key: small_rounds, label: 每大局小局数}",
        "-      - {players: 6, big_die: 6.0, small_rounds: 4, question_markers: 5}",
        "+      - {players: 6, big_die: 6, small_rounds: 4, question_markers: 5}",
    ]
    again = CliRunner().invoke(cli, ["--root", str(ws), "check", "tisigui"])
    assert again.exit_code == 0, again.output
