"""The tutorial's fifth game from the outside, as a designer meets it: `pnp new mihan --engine`
writes 密函's data and its engine package (engines/mihan/), the package is registered as `pip
install -e` registers it (its folder on the path, a dist-info with the entry points its
pyproject.toml declares: .ci/wheel_smoke.sh runs the real pip), and every command that plays
works on it with nothing else written: check, sample, simulate with ISMCTS at every seat or
mixed, replay and the refusal of a hand-edited log."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from tests.conftest import ROOT


def install_editable(package: Path) -> None:
    """What an editable install leaves for importlib.metadata to find: the distribution's
    entry points, read from the package's own pyproject.toml."""
    project = tomllib.loads((package / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    info = package / f"{project['name'].replace('-', '_')}-{project['version']}.dist-info"
    info.mkdir()
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {project['name']}\n"
                                   f"Version: {project['version']}\n", encoding="utf-8")
    lines = [f"[{group}]\n" + "".join(f"{name} = {target}\n" for name, target in points.items())
             for group, points in project["entry-points"].items()]
    (info / "entry_points.txt").write_text("\n".join(lines), encoding="utf-8")


@pytest.fixture(scope="module")
def tutorial(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, str]]:
    ws = tmp_path_factory.mktemp("mihan")
    done = subprocess.run([sys.executable, "-m", "pnp", "new", "mihan", "--engine"], cwd=ws,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert "pip install -e engines/mihan" in done.stderr
    install_editable(ws / "engines" / "mihan")
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(ws / "engines" / "mihan"), str(ROOT)]))
    return ws, env


def pnp(tutorial: tuple[Path, dict[str, str]], *args: str) -> subprocess.CompletedProcess[str]:
    ws, env = tutorial
    return subprocess.run([sys.executable, "-m", "pnp", "--root", str(ws), *args], env=env,
                          capture_output=True, text=True, timeout=300, cwd=ws)


def test_the_starter_checks_and_builds_as_written(tutorial: tuple[Path, dict[str, str]]) -> None:
    done = pnp(tutorial, "check", "mihan")
    assert done.returncode == 0, done.stdout + done.stderr
    assert "mihan: ok" in done.stdout
    built = pnp(tutorial, "build", "mihan", "--lang", "zh-Hant")
    assert built.returncode == 0, built.stderr
    assert (tutorial[0] / "output/mihan/zh-Hant/rulebook.pdf").is_file()


def test_simulate_with_ismcts_at_every_seat_and_mixed(tutorial: tuple[Path, dict[str, str]]) -> None:
    done = pnp(tutorial, "simulate", "mihan", "--players", "3", "--games", "12", "--bots",
               "ismcts", "--budget", "15", "--format", "json", "--jobs", "1")
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    assert report["bots"] == "ismcts" and report["budget"] == 15 and report["games"] == 12
    mixed = pnp(tutorial, "simulate", "mihan", "--players", "3", "--games", "12", "--bots",
                "ismcts,random,random", "--budget", "15", "--format", "json", "--jobs", "1")
    assert mixed.returncode == 0, mixed.stderr
    assert json.loads(mixed.stdout)["bots"] == "ismcts,random,random"
    wrong = pnp(tutorial, "simulate", "mihan", "--players", "3", "--bots", "ismcts,random")
    assert wrong.returncode == 1 and "names 2 bots for 3 players" in wrong.stderr
    unknown = pnp(tutorial, "simulate", "mihan", "--bots", "clever")
    assert unknown.returncode == 1 and "unknown bots 'clever'" in unknown.stderr
    assert "Traceback" not in unknown.stderr + wrong.stderr


def test_sample_narrates_and_its_log_replays(tutorial: tuple[Path, dict[str, str]],
                                            tmp_path: Path) -> None:
    text = pnp(tutorial, "sample", "mihan", "--players", "2", "--bots", "ismcts,greedy",
               "--budget", "10", "--seed", "4")
    assert text.returncode == 0, text.stderr
    assert "種子 4，2 人。" in text.stdout and "結果：" in text.stdout
    logged = pnp(tutorial, "sample", "mihan", "--players", "2", "--bots", "ismcts,greedy",
                 "--budget", "10", "--seed", "4", "--format", "json")
    log = json.loads(logged.stdout)
    # The last line names the winner and every seat's score, as the log records them: in 密函
    # a winner scores 1 and everyone else 0.
    outcome = log["outcome"]
    names = ["阿明", "小芸"]
    winner = outcome["places"].index(1)
    assert outcome["scores"][winner] == 1 and outcome["scores"][1 - winner] == 0
    expected = (f"結果：{names[winner]} 勝（{outcome['ended_by']}）。"
                f"得分：阿明 {outcome['scores'][0]}、小芸 {outcome['scores'][1]}。")
    assert text.stdout.rstrip("\n").splitlines()[-1] == expected
    path = tmp_path / "game.json"
    path.write_text(json.dumps(log), encoding="utf-8")
    ok = pnp(tutorial, "replay", "mihan", str(path))
    assert ok.returncode == 0 and "replays clean" in ok.stderr, ok.stderr
    turn = next(i for i, (seat, _) in enumerate(log["steps"]) if seat >= 0)
    log["steps"][turn][1] = [9, -1, 0]  # a card the deck does not have
    path.write_text(json.dumps(log), encoding="utf-8")
    bad = pnp(tutorial, "replay", "mihan", str(path))
    assert bad.returncode == 1 and "Traceback" not in bad.stderr
    assert f"step {turn + 1} (seat {log['steps'][turn][0]})" in bad.stderr
    assert "card 9 is not in seat" in bad.stderr


# ------------------------------------------------------------------------------ the guide

GUIDE = ROOT / "docs" / "engine-kit.md"
STARTER = ROOT / "pnp" / "scaffold" / "files" / "kit" / "engine"


def fenced(language: str) -> list[str]:
    """The guide's code blocks in ``language``, without their fences and their list indent."""
    blocks = re.findall(rf"^( *)```{language}\n(.*?)^\1```$", GUIDE.read_text(encoding="utf-8"),
                        re.MULTILINE | re.DOTALL)
    return [re.sub(rf"^{indent}", "", body, flags=re.MULTILINE) for indent, body in blocks]


def test_the_guide_quotes_the_starter_as_pnp_new_writes_it(tutorial: tuple[Path, dict[str, str]]) -> None:
    engine = tutorial[0] / "engines" / "mihan"
    code = (engine / "pnp_mihan.py").read_text(encoding="utf-8")
    quoted = fenced("python")
    assert len(quoted) >= 6
    for block in quoted:
        assert block in code, block
    project = (engine / "pyproject.toml").read_text(encoding="utf-8")
    for block in fenced("toml"):
        assert block in project, block
    # the file pnp new wrote is the scaffold's, with the slug filled in
    assert code == (STARTER / "game.py").read_text(encoding="utf-8").replace("__SLUG__", "mihan")


def test_the_guides_sample_line_and_narration_template(tutorial: tuple[Path, dict[str, str]]) -> None:
    guide = GUIDE.read_text(encoding="utf-8")
    plain = pnp(tutorial, "sample", "mihan", "--seed", "1", "--players", "3")
    assert plain.returncode == 0, plain.stderr
    assert f"`{plain.stdout.splitlines()[-1]}`" in guide
    (template,) = fenced("jinja")
    path = tutorial[0] / "templates" / "mihan" / "narration.md.j2"
    try:
        path.write_text(template, encoding="utf-8")
        told = pnp(tutorial, "sample", "mihan", "--seed", "1", "--players", "3")
        assert told.returncode == 0, told.stderr
        lines = told.stdout.splitlines()
        plays = [line for line in lines if line.startswith("- ")]
        assert plays and all(line.endswith("。") and "打出" in line for line in plays)
        assert lines[-1] == plain.stdout.splitlines()[-1].split("。")[1] + "。"  # 得分：…
        # The whitespace the guide warns of: a line ending in a block tag runs into the next.
        path.write_text(template.replace("{% endif %}。", "{% endif %}"), encoding="utf-8")
        joined = pnp(tutorial, "sample", "mihan", "--seed", "1", "--players", "3")
        assert joined.returncode == 0, joined.stderr
        assert sum(line.startswith("- ") for line in joined.stdout.splitlines()) == 1
        (one_line,) = [line for line in joined.stdout.splitlines() if line.startswith("- ")]
        assert f"`{one_line[:one_line.index('- ', 2) + 12]}" in guide  # the first two plays, as quoted
    finally:
        path.unlink(missing_ok=True)
