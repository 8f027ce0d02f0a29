"""`pnp new` anywhere: in a folder with no workspace it starts one (card_data/, templates/,
pnp.toml, .gitignore), in either source script, and the game builds and checks with the faces
installed with pnp; inside a workspace it adds the game. Also the script names people write
(`--lang zh-tw`, `lang = "ZH-cn"`). Each run is the real command in a subprocess; each result
is read back from the files and PDFs written."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from tests.conftest import ROOT
from tests.pdfprobe import fonts, text

GAME_FILES = ["card_data/mygame/components.yaml", "card_data/mygame/game.yaml", "card_data/mygame/tables.yaml",
              "templates/mygame/rulebook.md.j2"]


def pnp(cwd: Path, *args: str, prefix: tuple[str, ...] = ()) -> subprocess.CompletedProcess[str]:
    # The checkout on the path: a pnp started from a folder outside it finds the package the
    # way the installed command does.
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.run([*prefix, sys.executable, "-m", "pnp", *args], cwd=cwd, capture_output=True,
                          text=True, timeout=600, env=env)


def files_under(folder: Path) -> list[str]:
    return sorted(p.relative_to(folder).as_posix() for p in folder.rglob("*") if p.is_file())


def assert_refused(result: subprocess.CompletedProcess[str], *needles: str, status: int = 1) -> None:
    assert result.returncode == status, (result.stdout, result.stderr)
    assert "Traceback" not in result.stderr
    for needle in needles:
        assert needle in result.stderr, (needle, result.stderr)


# --- a workspace anywhere ----------------------------------------------------------------------


@pytest.mark.parametrize(("options", "source", "name", "setup_title"), [
    ((), "zh-Hant", "新遊戲", "開局設定"),
    (("--source-lang", "zh-Hans"), "zh-Hans", "新游戏", "开局设定"),
])
def test_new_in_an_empty_folder_starts_a_workspace_that_builds_and_checks(
        tmp_path: Path, options: tuple[str, ...], source: str, name: str, setup_title: str) -> None:
    folder = tmp_path / "designs"
    folder.mkdir()
    made = pnp(folder, "new", "mygame", *options)
    assert made.returncode == 0, made.stderr
    assert f"started a pnp workspace in {folder}" in made.stderr
    assert files_under(folder) == sorted([".gitignore", *GAME_FILES, "pnp.toml"])
    # pnp.toml sets nothing yet (every line a comment); .gitignore keeps the outputs out of git.
    assert tomllib.loads((folder / "pnp.toml").read_text(encoding="utf-8")) == {}
    assert "/output/" in (folder / ".gitignore").read_text(encoding="utf-8").splitlines()
    game_yaml = (folder / "card_data" / "mygame" / "game.yaml").read_text(encoding="utf-8")
    assert f"source_lang: {source}\n" in game_yaml and f"name: {name}\n" in game_yaml

    built = pnp(folder, "build", "mygame")
    assert built.returncode == 0, built.stderr
    checked = pnp(folder, "check", "mygame")
    assert checked.returncode == 0, checked.stdout + checked.stderr
    assert checked.stdout.splitlines()[0] == "mygame: ok"  # not one error or warning, in either script
    # Both editions, each with its script's faces, embedded: the ones installed with pnp.
    for lang, family in (("zh-Hant", "PnpSansTC"), ("zh-Hans", "PnpSansSC")):
        for pdf in ("components.pdf", "rulebook.pdf"):
            embedded = fonts(folder / "output" / "mygame" / lang / pdf)
            assert embedded, pdf
            assert all(family in font and is_embedded for font, is_embedded in embedded.items()), (lang, embedded)
    assert setup_title in text(folder / "output" / "mygame" / source / "rulebook.pdf")


def test_new_from_inside_a_workspace_adds_the_game_and_ignores_its_out_folder(tmp_path: Path) -> None:
    root = tmp_path / "ws"
    (root / "card_data").mkdir(parents=True)
    (root / "templates").mkdir()
    (root / "pnp.toml").write_text('out = "prints"\n', encoding="utf-8")
    (root / ".gitignore").write_text("*.bak\n/output/", encoding="utf-8")  # no newline at the end
    made = pnp(root / "card_data", "new", "mygame", "--source-lang", "zh-CN")
    assert made.returncode == 0, made.stderr
    assert "started a pnp workspace" not in made.stderr
    assert files_under(root) == sorted([".gitignore", *GAME_FILES, "pnp.toml"])
    assert (root / "pnp.toml").read_text(encoding="utf-8") == 'out = "prints"\n'  # the designer's, untouched
    assert (root / ".gitignore").read_text(encoding="utf-8") == "*.bak\n/output/\n/prints/\n"
    assert "source_lang: zh-Hans\n" in (root / "card_data" / "mygame" / "game.yaml").read_text(encoding="utf-8")
    assert f"next: pnp build mygame --lang zh-Hans, then look at {root}/prints/mygame/zh-Hans/" in made.stderr
    # A second game: the .gitignore already has both folders.
    again = pnp(root, "new", "second")
    assert again.returncode == 0, again.stderr
    assert (root / ".gitignore").read_text(encoding="utf-8") == "*.bak\n/output/\n/prints/\n"


def test_a_workspace_with_fonts_of_its_own_keeps_the_installed_faces_unless_it_has_them(tmp_path: Path) -> None:
    """fonts/ holding other fonts only leaves the bundled faces in use; fonts/ holding a face of
    the bundled names is the workspace's own build, and a missing one of it is an error."""
    folder = tmp_path / "ws"
    folder.mkdir()
    assert pnp(folder, "new", "mygame").returncode == 0
    (folder / "fonts").mkdir()
    (folder / "fonts" / "notes.txt").write_text("a designer's folder of other fonts\n", encoding="utf-8")
    built = pnp(folder, "build", "mygame", "--lang", "zh-Hant")
    assert built.returncode == 0, built.stderr
    assert set(fonts(folder / "output" / "mygame" / "zh-Hant" / "rulebook.pdf")) == {
        "/AAAAAA+PnpSansTC-Regular", "/AAAAAA+PnpSansTC-Bold"}
    shutil.copyfile(ROOT / "pnp" / "core" / "faces" / "PnpSansTC-Regular.ttf",
                    folder / "fonts" / "PnpSansTC-Regular.ttf")
    refused = pnp(folder, "build", "mygame", "--lang", "zh-Hant", "--force")
    assert_refused(refused, f"{folder / 'fonts' / 'PnpSansTC-Bold.ttf'} is missing", "must hold all four")


# --- hostile cases: each an Error: line, exit 1, nothing written --------------------------------


@pytest.mark.parametrize(("slug", "needle"), [("My Game", "not a usable game name"),
                                               ("all", "commands read it as every game"),
                                               ("../escape", "not a usable game name")])
def test_a_bad_name_in_an_empty_folder_writes_nothing(tmp_path: Path, slug: str, needle: str) -> None:
    result = pnp(tmp_path, "new", slug)
    assert_refused(result, "Error: ", needle)
    assert list(tmp_path.iterdir()) == []


def test_a_game_that_exists_is_never_overwritten(tmp_path: Path) -> None:
    assert pnp(tmp_path, "new", "mygame").returncode == 0
    before = {name: (tmp_path / name).read_bytes() for name in files_under(tmp_path)}
    result = pnp(tmp_path, "new", "mygame", "--source-lang", "zh-Hans")
    assert_refused(result, "Error: ", "card_data/mygame: already exists")
    assert {name: (tmp_path / name).read_bytes() for name in files_under(tmp_path)} == before


@pytest.mark.parametrize("name", ["card_data", "templates"])
def test_a_file_where_a_workspace_folder_goes_is_refused(tmp_path: Path, name: str) -> None:
    (tmp_path / name).write_text("my notes\n", encoding="utf-8")
    result = pnp(tmp_path, "new", "mygame")
    assert_refused(result, "Error: ", f"{tmp_path / name}: a file, not a folder")
    assert files_under(tmp_path) == [name]
    assert (tmp_path / name).read_text(encoding="utf-8") == "my notes\n"


def test_an_unwritable_folder_is_a_clear_error(tmp_path: Path) -> None:
    folder = tmp_path / "readonly"
    folder.mkdir()
    folder.chmod(0o555)
    # root writes anywhere: without CAP_DAC_OVERRIDE (setpriv, util-linux) the folder's mode holds.
    prefix = ("setpriv", "--bounding-set=-dac_override,-dac_read_search,-fowner") if os.geteuid() == 0 else ()
    try:
        result = pnp(folder, "new", "mygame", prefix=prefix)
        assert_refused(result, f"Error: cannot create a workspace in {folder}: Permission denied")
        assert list(folder.iterdir()) == []
    finally:
        folder.chmod(0o755)


def test_a_missing_root_folder_and_an_unknown_source_script_are_refused(tmp_path: Path) -> None:
    missing = tmp_path / "nowhere"
    assert_refused(pnp(tmp_path, "--root", str(missing), "new", "mygame"), f"Error: {missing}: no such folder")
    assert not missing.exists()
    refused = pnp(tmp_path, "new", "mygame", "--source-lang", "en")
    assert_refused(refused, "'en' is not a script pnp knows", "zh-Hant, zh-Hans, zh-cn", status=2)
    assert list(tmp_path.iterdir()) == []


# --- script names as people write them --------------------------------------------------------


def test_lang_accepts_region_tags_in_any_case_and_lists_the_names_when_refused(tmp_path: Path) -> None:
    assert pnp(tmp_path, "new", "mygame").returncode == 0
    built = pnp(tmp_path, "build", "mygame", "--lang", "zh-tw")
    assert built.returncode == 0, built.stderr
    assert sorted(p.name for p in (tmp_path / "output" / "mygame").iterdir()) == ["zh-Hant"]

    (tmp_path / "pnp.toml").write_text('lang = "ZH-cn"\nout = "prints"\n', encoding="utf-8")
    built = pnp(tmp_path, "build", "mygame")
    assert built.returncode == 0, built.stderr
    assert sorted(p.name for p in (tmp_path / "prints" / "mygame").iterdir()) == ["zh-Hans"]

    refused = pnp(tmp_path, "build", "mygame", "--lang", "xx")
    assert_refused(refused, "'xx' is not a script pnp knows; accepted: zh-Hant, zh-Hans, all, zh-cn, zh-hk, "
                            "zh-mo, zh-my, zh-sg, zh-tw (any case)", status=2)
    (tmp_path / "pnp.toml").write_text('paper = "a4"\nlang = "klingon"\n', encoding="utf-8")
    refused = pnp(tmp_path, "build", "mygame")
    assert_refused(refused, "pnp.toml:2: lang: expected one of zh-Hant, zh-Hans, all, zh-cn")


# --- no write leaves the workspace ---------------------------------------------------------------


@pytest.mark.parametrize("existing", [False, True], ids=["new-workspace", "existing-workspace"])
@pytest.mark.parametrize("name", ["card_data", "templates"])
def test_a_folder_linked_out_of_the_workspace_is_never_written_through(tmp_path: Path, name: str,
                                                                        existing: bool) -> None:
    root, outside = tmp_path / "ws", tmp_path / "elsewhere"
    root.mkdir()
    outside.mkdir()
    if existing:
        (root / "card_data").mkdir()
        (root / "templates").mkdir()
        (root / name).rmdir()
    (root / name).symlink_to(outside)
    result = pnp(root, "new", "mygame")
    assert_refused(result, "Error: ", f"{root / name}: the workspace's {name}/ (a link) leads out of the workspace")
    assert list(outside.iterdir()) == []
    assert not (root / "pnp.toml").exists() and not (root / ".gitignore").exists()


@pytest.mark.parametrize("dangling", [False, True], ids=["to-a-file", "dangling"])
def test_a_gitignore_linked_out_of_the_workspace_is_never_written_through(tmp_path: Path, dangling: bool) -> None:
    root, outside = tmp_path / "ws", tmp_path / "elsewhere"
    root.mkdir()
    outside.mkdir()
    target = outside / "ignore"
    if not dangling:
        target.write_text("mine\n", encoding="utf-8")
    (root / ".gitignore").symlink_to(target)
    result = pnp(root, "new", "mygame")
    assert_refused(result, "Error: ", f"{root / '.gitignore'}: the workspace's .gitignore (a link) leads out")
    assert [p.name for p in outside.iterdir()] == ([] if dangling else ["ignore"])
    if not dangling:
        assert target.read_text(encoding="utf-8") == "mine\n"
    assert not (root / "card_data").exists()


# --- the engine kit's starter ------------------------------------------------------------------

ENGINE_FILES = ["engines/mygame/.gitignore", "engines/mygame/pnp_mygame.py", "engines/mygame/pyproject.toml"]


@pytest.mark.parametrize(("options", "source"), [((), "zh-Hant"), (("--source-lang", "zh-Hans"), "zh-Hans")])
def test_new_with_an_engine_writes_the_data_and_an_installable_engine(
        tmp_path: Path, options: tuple[str, ...], source: str) -> None:
    made = pnp(tmp_path, "new", "mygame", "--engine", "--format", "json", *options)
    assert made.returncode == 0, made.stderr
    report = json.loads(made.stdout)
    assert report["engine"] is True and sorted(report["written"]) == sorted(GAME_FILES + ENGINE_FILES)
    assert files_under(tmp_path) == sorted([".gitignore", *GAME_FILES, *ENGINE_FILES, "pnp.toml"])
    # The distribution registers the module it ships under the game's slug, as pnp looks it up.
    project = tomllib.loads((tmp_path / "engines/mygame/pyproject.toml").read_text(encoding="utf-8"))
    assert project["project"]["entry-points"]["pnp.games"] == {"mygame": "pnp_mygame:GAME"}
    assert project["tool"]["setuptools"]["py-modules"] == ["pnp_mygame"]
    engine = (tmp_path / "engines/mygame/pnp_mygame.py").read_text(encoding="utf-8")
    assert 'KitGame(slug="mygame", title="密函"' in engine
    # The data describes the engine's game: its rules mapping and its deck, in the source script.
    game = (tmp_path / "card_data/mygame/game.yaml").read_text(encoding="utf-8")
    assert "slug: mygame\nname: 密函\n" in game and f"source_lang: {source}\n" in game
    assert "  guesses: 5" in game
    assert "tables: {}" in (tmp_path / "card_data/mygame/tables.yaml").read_text(encoding="utf-8")
    assert "table(" not in (tmp_path / "templates/mygame/rulebook.md.j2").read_text(encoding="utf-8")
    # and the text mode tells the designer to install it
    again = pnp(tmp_path, "new", "other", "--engine")
    assert "next: pip install -e engines/other" in again.stderr


def test_new_without_an_engine_writes_none(tmp_path: Path) -> None:
    assert pnp(tmp_path, "new", "mygame").returncode == 0
    assert not (tmp_path / "engines").exists()


def test_an_engine_folder_that_exists_is_never_overwritten(tmp_path: Path) -> None:
    (tmp_path / "engines/mygame").mkdir(parents=True)
    (tmp_path / "engines/mygame/notes.txt").write_text("mine\n", encoding="utf-8")
    result = pnp(tmp_path, "new", "mygame", "--engine")
    assert_refused(result, "Error: ", "engines/mygame: already exists")
    assert files_under(tmp_path) == ["engines/mygame/notes.txt"]


def test_an_engines_folder_linked_out_of_the_workspace_is_never_written_through(tmp_path: Path) -> None:
    root, outside = tmp_path / "ws", tmp_path / "elsewhere"
    root.mkdir()
    outside.mkdir()
    (root / "engines").symlink_to(outside)
    result = pnp(root, "new", "mygame", "--engine")
    assert_refused(result, "Error: ",
                   f"{root / 'engines'}: the workspace's engines/ (a link) leads out of the workspace")
    assert list(outside.iterdir()) == [] and not (root / "card_data").exists()
