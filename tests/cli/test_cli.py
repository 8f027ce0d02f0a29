"""The pnp command as a designer meets it: exit codes, messages, and an untouched output/."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from pnp import __version__
from pnp.cli import COMMANDS, cli
from tests.conftest import ROOT, edit


def run(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    """The real console entry point in a fresh process, as a user runs it."""
    return subprocess.run([sys.executable, "-m", "pnp", *args], cwd=cwd, capture_output=True,
                          text=True, timeout=300)


def snapshot(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


@pytest.fixture
def built_copy(workspace_copy: Path) -> Path:
    """A workspace copy with an earlier good build in output/, which a failed build must keep."""
    result = CliRunner().invoke(cli, ["--root", str(workspace_copy), "build", "tisigui", "--lang", "zh-Hans"])
    assert result.exit_code == 0, result.output
    return workspace_copy


def assert_clean_failure(result: subprocess.CompletedProcess[str], *needles: str) -> None:
    assert result.returncode == 1, (result.stdout, result.stderr)
    assert "Error:" in result.stderr
    assert "Traceback" not in result.stderr + result.stdout
    for needle in needles:
        assert needle in result.stderr, (needle, result.stderr)


def test_version_and_help():
    runner = CliRunner()
    assert __version__ in runner.invoke(cli, ["--version"]).output
    for args in ([], ["build"], ["list"]):
        result = runner.invoke(cli, [*args, "--help"])
        assert result.exit_code == 0 and "Usage" in result.output


def test_list_text_and_json():
    runner = CliRunner()
    result = runner.invoke(cli, ["--root", str(ROOT), "list", "--format", "json"])
    assert result.exit_code == 0, result.output
    games = {g["slug"]: g for g in json.loads(result.output)["games"]}
    counts = {c["id"]: c["count"] for c in games["tisigui"]["components"]}
    assert counts["score"] == 43 and counts["question"] == 30 and counts["shield"] == 6
    text = runner.invoke(cli, ["--root", str(ROOT), "list"]).output
    assert "tisigui" in text and "替死鬼" in text and "43 × 分数标记" in text


def test_build_writes_output_under_out(tmp_path):
    result = CliRunner().invoke(cli, ["--root", str(ROOT), "build", "tisigui", "--lang", "zh-Hant",
                                      "--out", str(tmp_path)])
    assert result.exit_code == 0, result.output
    assert sorted(p.name for p in (tmp_path / "tisigui" / "zh-Hant").iterdir()) == [
        "aid.pdf", "components.pdf", "rulebook.pdf"]


def test_usage_errors_are_exit_2():
    result = CliRunner().invoke(cli, ["--root", str(ROOT), "build", "tisigui", "--lang", "en"])
    assert result.exit_code == 2


def test_unknown_game_is_a_clear_error():
    result = run("--root", str(ROOT), "build", "nosuchgame")
    assert_clean_failure(result, "unknown game 'nosuchgame'", "tisigui")


def test_malformed_yaml(built_copy):
    before = snapshot(built_copy / "output")
    path = built_copy / "card_data/tisigui/components.yaml"
    edit(path, "    count: 36\n", "    count: [36\n")
    result = run("--root", str(built_copy), "build", "tisigui")
    assert_clean_failure(result, f"{path}:", "malformed YAML")
    assert snapshot(built_copy / "output") == before


def test_unknown_key(built_copy):
    before = snapshot(built_copy / "output")
    path = built_copy / "card_data/tisigui/components.yaml"
    edit(path, "  - id: board\n", "  - id: board\n    colour: red\n")
    result = run("--root", str(built_copy), "build", "tisigui")
    assert_clean_failure(result, f"{path}:", "colour: unknown key 'colour'")
    assert snapshot(built_copy / "output") == before


def test_negative_count(built_copy):
    before = snapshot(built_copy / "output")
    path = built_copy / "card_data/tisigui/components.yaml"
    edit(path, "    count: 30\n", "    count: -30\n")
    result = run("--root", str(built_copy), "build", "tisigui")
    assert_clean_failure(result, f"{path}:", "count: must be at least 1, got -30")
    assert snapshot(built_copy / "output") == before


def test_character_the_font_lacks(built_copy):
    before = snapshot(built_copy / "output")
    path = built_copy / "card_data/tisigui/components.yaml"
    edit(path, "title: 活人,", "title: 活人\U0002A6D6,")
    result = run("--root", str(built_copy), "build", "tisigui")
    assert_clean_failure(result, "U+2A6D6", f"{path}:", "cards[1].fields.title", "PnpSans")
    assert snapshot(built_copy / "output") == before


def test_character_the_font_lacks_in_the_rulebook_names_the_template_line(built_copy):
    path = built_copy / "templates/tisigui/rulebook.md.j2"
    lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
    lines[4] = lines[4].rstrip("\n") + "\u4DC0\n"  # a hexagram sign: not in Big5 or GB2312
    path.write_text("".join(lines), encoding="utf-8")
    result = run("--root", str(built_copy), "build", "tisigui", "--lang", "zh-Hant")
    assert_clean_failure(result, "U+4DC0", f"{path}:5")


def test_text_too_long_for_its_box_names_card_and_field(built_copy):
    before = snapshot(built_copy / "output")
    path = built_copy / "card_data/tisigui/components.yaml"
    edit(path, "role: 找出碟仙的替身，指认正确就得分", "role: " + "找出碟仙的替身，指认正确就得分" * 8)
    result = run("--root", str(built_copy), "build", "tisigui")
    assert_clean_failure(result, "does not fit", "card 'human'", "cards[1].fields.role")
    assert snapshot(built_copy / "output") == before


def test_workspace_is_found_from_a_subfolder(tmp_path):
    shutil.copytree(ROOT / "card_data" / "tisigui", tmp_path / "card_data" / "tisigui")
    result = run("list", cwd=tmp_path / "card_data" / "tisigui")
    assert result.returncode == 0 and "tisigui" in result.stdout


def test_no_workspace_is_a_clear_error(tmp_path):
    result = run("list", cwd=tmp_path)
    assert_clean_failure(result, "no pnp workspace found")


def test_help_imports_no_engine() -> None:
    """Listing the commands loads none of them, so no game's engine either."""
    probe = ("import sys\nfrom pnp.cli import main\nsys.argv = ['pnp', '--help']\n"
             "try:\n    main()\nexcept SystemExit:\n    pass\n"
             "loaded = [m for m in sys.modules if m.startswith(('pnp.games.', 'pnp.cli.')) "
             "and m not in ('pnp.cli.options',)]\n"
             "print('LOADED', sorted(loaded))\n")
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert "Commands:" in done.stdout and "simulate" in done.stdout
    assert done.stdout.strip().splitlines()[-1] == "LOADED []"


# What the build command and the components renderer import only where it is used: the game
# plugin boundary (asked only when a table must be computed), dice nets, sheet templates,
# vertical text, LittleCMS, generated and .csv cards (and the spreadsheet reader), picture placement, a
# font look-up by family, a tiled board's marks, pictures and inline icons on a canvas, the
# conversion check's records, fontconfig, TOML, SVG parsing, hints.
# Every build starts a process, and each of these costs it time whether used or not.
DEFERRED = ("pnp.games.base", "pnp.games.calculators", "pnp.games.calcargs", "pnp.layout.nets",
            "pnp.layout.template_plan", "pnp.data.sheettemplate", "pnp.render.face_vertical",
            "pnp.text.vertical", "pnp.render.colour", "PIL.ImageCms", "pnp.data.generate", "csv",
            "pnp.data.csvcards", "pnp.data.imagefit", "pnp.text.fontscan", "pnp.layout.tilemarks",
            "pnp.render.images", "pnp.render.inline_icons", "pnp.text.readings",
            "subprocess", "tomllib", "xml.etree.ElementTree", "difflib", "pkgutil")


def test_the_build_command_imports_what_a_plain_build_uses() -> None:
    probe = ("import sys\nimport pnp.cli.build, pnp.render.sheets\n"
             f"print('LOADED', sorted(m for m in {DEFERRED!r} if m in sys.modules))\n")
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip().splitlines()[-1] == "LOADED []"


# What a rebuild imports only for a game that has it: aizhewudi has no pictures, no inline icons,
# no cards from a spreadsheet or a generate block, no board in tiles, and names its fonts by
# file; after one ability card's text changes only its components PDF is rendered again (no
# book, so no conversion check either), and that rebuild loads none of these.
UNUSED_BY_A_CARD_EDIT = ("pnp.data.csvcards", "pnp.data.imagefit", "pnp.text.fontscan", "pnp.data.generate",
                         "pnp.layout.tilemarks", "pnp.render.images", "pnp.render.inline_icons",
                         "pnp.text.readings", "pnp.rulebook")


def test_a_card_edit_imports_no_module_for_what_the_game_does_not_have(workspace_copy: Path) -> None:
    built = CliRunner().invoke(cli, ["--root", str(workspace_copy), "build", "aizhewudi", "--lang", "zh-Hans"])
    assert built.exit_code == 0, built.output
    sheets = workspace_copy / "output/aizhewudi/zh-Hans/components.pdf"
    before = sheets.read_bytes()
    edit(workspace_copy / "card_data/aizhewudi/components.yaml", "必須亮出這張牌", "必須翻開這張牌")
    probe = ("import sys\nfrom pnp.cli import main\n"
             f"sys.argv = ['pnp', '--root', {str(workspace_copy)!r}, 'build', 'aizhewudi', '--lang', 'zh-Hans']\n"
             "try:\n    main()\nexcept SystemExit as stop:\n    assert not stop.code, stop.code\n"
             f"print('LOADED', sorted(m for m in {UNUSED_BY_A_CARD_EDIT!r} if m in sys.modules))\n")
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert "components.pdf rebuilt" in done.stderr and "rulebook.pdf up to date" in done.stderr
    after = sheets.read_bytes()
    assert after.startswith(b"%PDF") and after != before
    assert done.stdout.strip().splitlines()[-1] == "LOADED []"


BAD_RULES_COMMANDS = [
    ("build", "tisigui", "--lang", "zh-Hans"),
    ("check", "tisigui"),
    ("tables", "tisigui"),
    ("calc", "tisigui", "ghost", "--players", "5", "--confirmed", "2"),
    ("sample", "tisigui"),
    ("simulate", "tisigui", "--games", "2", "--jobs", "1"),
]


@pytest.mark.parametrize("args", BAD_RULES_COMMANDS, ids=[a[0] for a in BAD_RULES_COMMANDS])
def test_one_bad_rules_value_is_located_alike_by_every_command(workspace_copy: Path,
                                                               args: tuple[str, ...]) -> None:
    game = workspace_copy / "card_data/tisigui/game.yaml"
    line = game.read_text(encoding="utf-8").splitlines().index("  big_die_sides: 6") + 1
    edit(game, "  big_die_sides: 6", "  big_die_sides: six")
    done = run("--root", str(workspace_copy), *args, cwd=workspace_copy)
    assert done.returncode == 1, (done.stdout, done.stderr)
    assert "Traceback" not in done.stderr
    where = f"card_data/tisigui/game.yaml:{line}: rules.big_die_sides: expected a whole number"
    assert where in done.stdout + done.stderr


# --------------------------------------------------------------------------------------------
# Options every command shares (issue 8 item 6) and what each command imports (issue 9 item 4)

# The commands that report something (serve shows a page, sample writes md, json or pdf).
REPORTING = ["list", "build", "check", "tables", "simulate", "export", "calibrate", "new"]


def _help(*args: str) -> str:
    result = CliRunner().invoke(cli, ["--root", str(ROOT), *args, "--help"])
    assert result.exit_code == 0, result.output
    return result.output


@pytest.mark.parametrize("name", [name for name in COMMANDS if name != "calc"])  # calc: per calculator
def test_every_command_takes_quiet_and_verbose(name: str) -> None:
    text = _help(name)
    assert "-q, --quiet" in text and "-v, --verbose" in text, text


def test_every_calculator_takes_quiet_verbose_and_format() -> None:
    for args in (("calc", "tisigui", "ghost"), ("calc", "niutouwang", "heads")):
        text = _help(*args)
        assert "-q, --quiet" in text and "--format [text|json]" in text and "--json" in text, text


@pytest.mark.parametrize("name", REPORTING)
def test_every_reporting_command_has_format_json(name: str) -> None:
    text = _help(name)
    assert "--format [text|json" in text, text


def test_json_alias_stays_where_it_was() -> None:
    for name in ("check", "tables", "sample", "simulate"):
        assert "--json" in _help(name), name


def test_build_format_json_reports_every_output_and_file(tmp_path: Path) -> None:
    out = tmp_path / "out"
    result = run("--root", str(ROOT), "build", "tisigui", "--lang", "zh-Hant", "--out", str(out),
                 "--format", "json", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    report = json.loads(result.stdout)
    assert {(o["game"], o["lang"], o["output"], o["status"]) for o in report["outputs"]} == {
        ("tisigui", "zh-Hant", "components", "rebuilt"), ("tisigui", "zh-Hant", "rulebook", "rebuilt"),
        ("tisigui", "zh-Hant", "aid", "rebuilt")}  # the player aid is an output of its own
    written = {Path(item["path"]).name: item["bytes"] for item in report["written"]}
    assert set(written) == {"components.pdf", "rulebook.pdf", "aid.pdf"}
    for item in report["written"]:  # outside the workspace: absolute paths, sizes as on disk
        assert Path(item["path"]).is_absolute() and Path(item["path"]).stat().st_size == item["bytes"]
    assert "wrote" not in result.stderr  # the report is on stdout, not repeated as notes
    again = run("--root", str(ROOT), "build", "tisigui", "--lang", "zh-Hant", "--out", str(out),
                "--format", "json", cwd=tmp_path)
    report = json.loads(again.stdout)
    assert report["build"] is None and report["written"] == []
    assert {o["status"] for o in report["outputs"]} == {"up-to-date"}


def test_build_format_json_with_watch_is_a_usage_error() -> None:
    result = CliRunner().invoke(cli, ["--root", str(ROOT), "build", "tisigui", "--watch", "--format", "json"])
    assert result.exit_code == 2 and "--watch" in result.output


def test_new_export_calibrate_format_json_and_quiet(tmp_path: Path) -> None:
    root = tmp_path / "ws"
    (root / "card_data").mkdir(parents=True)
    (root / "templates").mkdir()
    made = run("--root", str(root), "new", "demo", "--format", "json", cwd=tmp_path)
    assert made.returncode == 0, made.stderr
    assert json.loads(made.stdout) == {
        "game": "demo", "source_lang": "zh-Hant", "engine": False,
        "workspace": {"root": str(root), "created": False},
        "written": ["card_data/demo/game.yaml", "card_data/demo/components.yaml", "card_data/demo/tables.yaml",
                    "templates/demo/rulebook.md.j2"],
        "workspace_files": [".gitignore"]}
    assert (root / ".gitignore").read_text(encoding="utf-8").splitlines()[1:] == ["/output/"]
    exported = run("--root", str(root), "export", "contact", "demo", "--lang", "zh-Hans", "--format", "json",
                   cwd=tmp_path)
    assert exported.returncode == 0, exported.stderr
    report = json.loads(exported.stdout)
    assert report["export"] == "contact" and report["game"] == "demo"
    assert sorted(item["path"] for item in report["written"]) == [
        f"output/demo/zh-Hans/contact/{name}.png" for name in ("cards", "marker", "scorepad")]
    for item in report["written"]:
        assert (root / item["path"]).stat().st_size == item["bytes"]
    calibrated = run("--root", str(root), "calibrate", "-q", "--format", "json", cwd=tmp_path)
    assert calibrated.returncode == 0, calibrated.stderr
    assert json.loads(calibrated.stdout)["written"][0]["path"] == "output/calibrate-a4.pdf"
    quiet = run("--root", str(root), "export", "contact", "demo", "--lang", "zh-Hans", "-q", cwd=tmp_path)
    assert quiet.returncode == 0 and quiet.stdout == "" and quiet.stderr == "", quiet.stderr
    loud = run("--root", str(root), "export", "contact", "demo", "--lang", "zh-Hans", cwd=tmp_path)
    assert loud.stderr == "demo zh-Hans: contact/ up to date\n"  # exports are incremental
    forced = run("--root", str(root), "export", "contact", "demo", "--lang", "zh-Hans", "--force", cwd=tmp_path)
    assert "wrote 3 files" in forced.stderr
    # -q on a build: the files are written, stderr stays empty (no progress, no outcome lines).
    built = run("--root", str(root), "-q", "build", "demo", "--lang", "zh-Hans", "--force", cwd=tmp_path)
    assert built.returncode == 0 and built.stdout == "" and built.stderr == "", built.stderr
    assert (root / "output/demo/zh-Hans/components.pdf").is_file()


IMPORT_PROBE = """
import sys
from pnp.cli import main
sys.argv = ["pnp", *{args!r}]
try:
    main()
except SystemExit:
    pass
# A game is a package under pnp.games; the modules beside them (base, registry, events...)
# and the engine kit are shared by every game.
from pnp.games.registry import SHARED_PACKAGES
print("LOADED", sorted({{m.split(".")[2] for m in sys.modules
                        if m.startswith("pnp.games.") and m.count(".") >= 2
                        and m.split(".")[2] not in SHARED_PACKAGES
                        and sys.modules["pnp.games." + m.split(".")[2]].__file__.endswith("__init__.py")}}))
"""


@pytest.mark.parametrize(("args", "games"), [
    # Data only: no engine, except niutouwang's, whose card faces quote the table its engine
    # computes (bull heads per card, {computed: heads}).
    (["list"], ["niutouwang"]),
    (["calc", "tisigui", "ghost", "--players", "5", "--confirmed", "2"], ["tisigui"]),
    (["calc", "niutouwang", "heads", "55"], ["niutouwang"]),
])
def test_list_loads_no_engine_and_calc_only_its_game(args: list[str], games: list[str]) -> None:
    probe = IMPORT_PROBE.format(args=["--root", str(ROOT), *args])
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip().splitlines()[-1] == f"LOADED {games}", done.stdout
