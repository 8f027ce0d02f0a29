"""A fifth game added from outside pnp: one package found through the ``pnp.games`` entry
point plus its data in a workspace, and every command works on it."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from pypdf import PdfReader

from tests.conftest import ROOT

TOY = ROOT / "tests" / "fixtures" / "toy_game"


@pytest.fixture(scope="module")
def toy(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, str]]:
    """(workspace, environment): the plugin on PYTHONPATH only, nothing installed or edited."""
    base = tmp_path_factory.mktemp("toy")
    shutil.copytree(TOY / "plugin", base / "plugin")
    shutil.copytree(TOY / "workspace", base / "ws")
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(base / "plugin"), str(ROOT)]))
    return base / "ws", env


def pnp(toy: tuple[Path, dict[str, str]], *args: str) -> subprocess.CompletedProcess[str]:
    ws, env = toy
    return subprocess.run([sys.executable, "-m", "pnp", "--root", str(ws), *args], env=env,
                          capture_output=True, text=True, timeout=300, cwd=ws)


def test_build_typesets_the_table_and_the_worked_example(toy: tuple[Path, dict[str, str]]) -> None:
    done = pnp(toy, "build", "toytrick", "--lang", "zh-Hant")
    assert done.returncode == 0, done.stderr
    assert "wrote" in done.stderr and done.stdout == ""
    text = "".join(page.extract_text() for page in
                   PdfReader(toy[0] / "output/toytrick/zh-Hant/rulebook.pdf").pages)
    assert "張數" in text and "12" in text          # the printed table
    assert "第 1 墩" in text                        # the narrated example, played by the plugin


def test_check_and_tables_use_the_plugins_engine(toy: tuple[Path, dict[str, str]]) -> None:
    done = pnp(toy, "check", "toytrick", "--format", "json")
    assert done.returncode == 0, done.stdout + done.stderr
    assert json.loads(done.stdout)["games"]["toytrick"]["ok"] is True
    tables = json.loads(pnp(toy, "tables", "toytrick", "--json").stdout)
    assert tables["tables"]["deck"] == [{"players": 2, "cards": 6}, {"players": 3, "cards": 9},
                                        {"players": 4, "cards": 12}]


def test_a_wrong_printed_cell_is_found(toy: tuple[Path, dict[str, str]], tmp_path: Path) -> None:
    ws = tmp_path / "ws"
    shutil.copytree(toy[0], ws, symlinks=True)
    path = ws / "card_data/toytrick/tables.yaml"
    path.write_text(path.read_text(encoding="utf-8").replace("cards: 9", "cards: 10"), encoding="utf-8")
    done = pnp((ws, toy[1]), "check", "toytrick")
    assert done.returncode == 1
    assert "table 'deck', row 2, column 'cards': printed 10, the rules give 9" in done.stdout


def test_sample_simulate_and_calc(toy: tuple[Path, dict[str, str]]) -> None:
    log = json.loads(pnp(toy, "sample", "toytrick", "--seed", "4", "--format", "json").stdout)
    assert log["game"] == "toytrick" and len(log["tricks"]) == 3
    text = pnp(toy, "sample", "toytrick", "--seed", "4").stdout
    assert "第 3 墩" in text and "最後得分" in text
    report = json.loads(pnp(toy, "simulate", "toytrick", "--games", "30", "--format", "json").stdout)
    assert report["games"] == 30 and report["length"]["tricks"]["mean"] == 3
    assert sum(report["wins"]["by_seat"]) == pytest.approx(1, abs=1e-3)
    calc = pnp(toy, "calc", "toytrick", "deck", "--players", "4", "--json")
    assert json.loads(calc.stdout) == {"players": 4, "cards": 12}
