"""Sample games: replay of many seeded logs, golden transcripts, script purity, the CLI.

Golden transcripts live in tests/golden/narration/ and are compared byte for byte. They are
rewritten only by this command, after reading the differences (see the folder's README.md):

    PNP_REGEN_GOLDEN=1 python -m pytest tests/play/test_narrate.py -k golden
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from pnp.build.pipeline import converter_for
from pnp.cli import cli
from pnp.core.choices import LANGS
from pnp.core.errors import PnpError
from pnp.core.workspace import Workspace
from pnp.data.scripts import foreign_characters
from pnp.play import narrate
from tests.conftest import ROOT

WORKSPACE = Workspace(ROOT)
GOLDEN = Path(__file__).parents[1] / "golden" / "narration"
REGEN = os.environ.get("PNP_REGEN_GOLDEN") == "1"
GAMES = ("tisigui", "wurenshenghuan", "niutouwang", "aizhewudi")

# One game per title, chosen so the transcript shows many rules at work (see the README).
GOLDEN_GAMES: dict[str, dict[str, Any]] = {
    "tisigui": {"seed": 2, "players": 5, "variant": None},
    "wurenshenghuan": {"seed": 163, "players": 6, "variant": None},
    "niutouwang": {"seed": 9, "players": 5, "variant": None},
    "aizhewudi": {"seed": 133, "players": 5, "variant": "abilities"},
}

# Every rules variant and both kinds of bots; each replayed over REPLAY_SEEDS seeds.
REPLAY_SEEDS = 200
CONFIGS = [(slug, None, "greedy") for slug in GAMES] + [
    ("tisigui", "classic", "greedy"),
    ("niutouwang", "official", "greedy"),
    ("aizhewudi", "abilities", "greedy"),
    ("tisigui", None, "random"),
    ("wurenshenghuan", None, "random"),
    ("niutouwang", None, "random"),
    ("aizhewudi", "abilities", "random"),
]


@pytest.fixture(scope="module")
def games() -> dict[str, Any]:
    return {slug: narrate.load_game_data(WORKSPACE, slug) for slug in GAMES}


def _counts(slug: str, rules: Any, seeds: range) -> list[tuple[int, int]]:
    """(seed, players): every playable count in turn, so each count meets many seeds."""
    playable = narrate.plugin(slug).play.playable_counts(rules)
    return [(seed, playable[seed % len(playable)]) for seed in seeds]


# --------------------------------------------------------------------------------------------
# Every sample log replays clean


@pytest.mark.parametrize(("slug", "variant", "bots"), CONFIGS)
def test_sample_logs_replay_clean(games: dict[str, Any], slug: str, variant: str | None,
                                  bots: str) -> None:
    engine = narrate.plugin(slug)
    rules = narrate.game_rules(games[slug], variant)
    # 200 seeds of each game as shipped; variants and random bots add 100 and 50 more.
    count = REPLAY_SEEDS if bots == "greedy" and variant is None else 100 if bots == "greedy" else 50
    seeds = range(1, count + 1)
    for seed, players in _counts(slug, rules, seeds):
        log = narrate.play(engine, rules, players, seed, variant, bots)
        # A log goes through JSON on its way to a reader: replay what a reader would get.
        problems = engine.play.replay(rules, json.loads(json.dumps(log)))
        assert problems == [], f"{slug} seed {seed}, {players} players: {problems[:3]}"


@pytest.mark.parametrize(("slug", "variant", "bots"), CONFIGS)
def test_narrations_render_pure_in_both_scripts(games: dict[str, Any], slug: str,
                                                variant: str | None, bots: str) -> None:
    """Every template branch the bots reach renders, and never in the other script's letters."""
    rules = narrate.game_rules(games[slug], variant)
    for seed, players in _counts(slug, rules, range(1, 9)):
        played = narrate.play_sample(WORKSPACE, slug, players, seed, variant, games[slug], bots)
        for lang in LANGS:
            text = narrate.narration(WORKSPACE, played, lang)
            assert foreign_characters(text, lang) == [], (slug, seed, lang)
            check_arithmetic(text)
            assert "{{" not in text and "{%" not in text
            assert "\n\n\n" not in text


# --------------------------------------------------------------------------------------------
# Golden transcripts


def golden_path(slug: str, lang: str) -> Path:
    return GOLDEN / f"{slug}-{lang}-seed{GOLDEN_GAMES[slug]['seed']}.md"


def golden_text(games: dict[str, Any], slug: str, lang: str) -> str:
    spec = GOLDEN_GAMES[slug]
    played = narrate.play_sample(WORKSPACE, slug, spec["players"], spec["seed"], spec["variant"],
                                 games[slug])
    return narrate.narration(WORKSPACE, played, lang)


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("slug", GAMES)
def test_golden_transcript(games: dict[str, Any], slug: str, lang: str) -> None:
    text = golden_text(games, slug, lang)
    path = golden_path(slug, lang)
    if REGEN:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(text.encode("utf-8"))
        return
    assert path.is_file(), f"{path} missing: run PNP_REGEN_GOLDEN=1 pytest tests/play/test_narrate.py"
    expected = path.read_bytes().decode("utf-8")
    if text != expected:
        ours, theirs = text.splitlines(), expected.splitlines()
        line = next((i for i, (a, b) in enumerate(zip(ours, theirs, strict=False)) if a != b),
                    min(len(ours), len(theirs)))
        pytest.fail(f"{path.name} differs from line {line + 1}:\n  golden: "
                    f"{theirs[line] if line < len(theirs) else '(end)'}\n  now:    "
                    f"{ours[line] if line < len(ours) else '(end)'}\nread the change, then "
                    "regenerate with PNP_REGEN_GOLDEN=1 python -m pytest tests/play/test_narrate.py "
                    "-k golden")


@pytest.mark.parametrize("path", sorted(GOLDEN.glob("*.md")), ids=lambda p: p.name)
def test_golden_files_are_pure(path: Path) -> None:
    if path.name == "README.md":
        return
    lang = next(lang for lang in LANGS if f"-{lang}-" in path.name)
    assert foreign_characters(path.read_text(encoding="utf-8"), lang) == []


def test_every_game_has_golden_transcripts_in_both_scripts() -> None:
    if REGEN:
        pytest.skip("regenerating")
    for slug in GAMES:
        for lang in LANGS:
            assert golden_path(slug, lang).is_file()


def test_the_two_scripts_are_one_source_converted(games: dict[str, Any]) -> None:
    for slug in GAMES:
        game = games[slug]
        source = game.info.source_lang
        other = next(lang for lang in LANGS if lang != source)
        spec = GOLDEN_GAMES[slug]
        played = narrate.play_sample(WORKSPACE, slug, spec["players"], spec["seed"],
                                     spec["variant"], game)
        text = narrate.source_markdown(WORKSPACE, played)
        assert narrate.narration(WORKSPACE, played, source) == text
        assert narrate.narration(WORKSPACE, played, other) == converter_for(game, other)(text)


# --------------------------------------------------------------------------------------------
# Names, arithmetic, consistency


def test_seat_names_read_the_same_in_both_scripts(games: dict[str, Any]) -> None:
    for game in games.values():
        for lang in LANGS:
            convert = converter_for(game, lang)
            for name in narrate.SEAT_NAMES:
                assert convert(name) == name, (game.slug, lang, name)
                assert foreign_characters(name, lang) == []
    assert len(set(narrate.SEAT_NAMES)) == len(narrate.SEAT_NAMES) == 10


def test_tisigui_narration_shows_the_arithmetic(games: dict[str, Any]) -> None:
    text = golden_text(games, "tisigui", "zh-Hans")
    naming = re.findall(r"得 (\d+) 分 × (\d+) 人 = (\d+) 分", text)
    assert naming, "a correct naming shows value × players = points"
    assert all(int(a) * int(b) == int(c) for a, b, c in naming)
    assert "没有替身吗？" in text and "这是谎话" in text


def test_scores_in_the_narration_add_up(games: dict[str, Any]) -> None:
    """Every sum and product the golden narrations print is right, in both scripts."""
    for slug in GAMES:
        for lang in LANGS:
            assert check_arithmetic(golden_text(games, slug, lang)) > 0, (slug, lang)


def _number(text: str) -> int:
    return int(text.replace(",", ""))


def check_arithmetic(text: str) -> int:
    """Assert every piece of arithmetic in a narration; return how many were checked."""
    checked = 0
    plain = text.replace("$", "").replace("**", "")
    for expr, sign, result in re.findall(r"((?:\d[\d,]* [+×−] )+\d[\d,]*) = (−?)(\d[\d,]*)",
                                         plain):
        value = _evaluate(expr)
        assert value == (-1 if sign else 1) * _number(result), expr
        checked += 1
    for a, b, c in re.findall(r"(\d+) 分 × (\d+) 人 = (\d+) 分", text):  # tisigui namings
        assert int(a) * int(b) == int(c)
        checked += 1
    for a, b, c in re.findall(r"(\d+) 人 × (\d+) 分 = (\d+) 分", text):  # "no targets?"
        assert int(a) * int(b) == int(c)
        checked += 1
    for a, b, c in re.findall(r"(\d+) ÷ (\d+) (?:捨去小數|舍去小数)是 (\d+)", text):
        assert int(a) // int(b) == int(c)
        checked += 1
    # aizhewudi: bills − 花心 × penalty (+ abilities) = total
    for bills, fickle, penalty, extras, sign, total in re.findall(
            r"(?:鈔票|钞票) ([\d,]+) − 花心 (\d+) (?:個|个) × ([\d,]+)((?: \+ 「[^」]+」 [\d,]+)*)"
            r" = (−?)([\d,]+)", plain):
        bonus = sum(_number(x) for x in re.findall(r"」 ([\d,]+)", extras))
        assert _number(bills) - int(fickle) * _number(penalty) + bonus == \
            (-1 if sign else 1) * _number(total)
        checked += 1
    return checked


def _evaluate(expr: str) -> int:
    """An expression of whole numbers with + − ×, × binding first."""
    tokens = expr.replace(",", "").split()
    terms: list[int] = []
    signs: list[int] = [1]
    product = int(tokens[0])
    for op, value in zip(tokens[1::2], map(int, tokens[2::2]), strict=True):
        if op == "×":
            product *= value
        else:
            terms.append(product)
            signs.append(1 if op == "+" else -1)
            product = value
    terms.append(product)
    return sum(sign * term for sign, term in zip(signs, terms, strict=True))


def test_final_scores_match_the_log(games: dict[str, Any]) -> None:
    played = narrate.play_sample(WORKSPACE, "tisigui", 5, GOLDEN_GAMES["tisigui"]["seed"], None,
                                 games["tisigui"])
    text = narrate.source_markdown(WORKSPACE, played)
    for seat, score in enumerate(played.log["scores"]):
        assert f"**{narrate.SEAT_NAMES[seat]}**，{score} 分" in text


# --------------------------------------------------------------------------------------------
# Rulebook examples


@pytest.mark.parametrize("slug", GAMES)
def test_example_markdown_is_a_short_source_excerpt(games: dict[str, Any], slug: str) -> None:
    game = games[slug]
    spec = GOLDEN_GAMES[slug]
    source = game.info.source_lang
    text = narrate.example_markdown(WORKSPACE, game, source, spec["seed"], spec["players"],
                                    spec["variant"])
    full = narrate.narration(WORKSPACE, narrate.play_sample(
        WORKSPACE, slug, spec["players"], spec["seed"], spec["variant"], game), source)
    assert not re.search(r"^#{1,2} ", text, re.M), "an excerpt sits under a rulebook section"
    assert re.search(r"^### ", text, re.M)
    assert len(text) < len(full)
    assert foreign_characters(text, source) == []
    assert narrate.example_markdown(WORKSPACE, slug, None, spec["seed"], spec["players"],
                                    spec["variant"]) == text
    other = next(lang for lang in LANGS if lang != source)
    converted = narrate.example_markdown(WORKSPACE, game, other, spec["seed"], spec["players"],
                                         spec["variant"])
    assert converted == converter_for(game, other)(text)


# --------------------------------------------------------------------------------------------
# Loading and options


def test_unknown_game_and_missing_game_yaml(tmp_path: Path) -> None:
    with pytest.raises(PnpError, match="pnp plays"):
        narrate.play_sample(WORKSPACE, "nosuchgame")
    empty = Workspace(tmp_path)
    (tmp_path / "card_data").mkdir()
    with pytest.raises(PnpError, match="game.yaml not found"):
        narrate.play_sample(empty, "niutouwang")


def test_default_players_is_the_common_count(games: dict[str, Any]) -> None:
    for slug, game in games.items():
        played = narrate.play_sample(WORKSPACE, slug, None, 1, None, game)
        assert played.players == game.info.players_common


# --------------------------------------------------------------------------------------------
# The CLI


def run(*args: str) -> Any:
    return CliRunner().invoke(cli, ["--root", str(ROOT), *args], catch_exceptions=False)


REQUIRED = {
    "niutouwang": (["game", "seed", "players", "rows", "hands", "turns", "penalties"],
                   "turns", ["plays", "placements", "rows"]),
    "tisigui": (["game", "seed", "players", "variant", "big_rounds", "scores", "ranking"],
                "big_rounds", ["big_die", "ghost", "targets", "start", "turns", "confirmed", "end",
                               "ghost_points", "roll"]),
    "aizhewudi": (["game", "seed", "players", "abilities", "rounds", "final", "winner"],
                  "rounds", ["round", "revealed", "carried_in", "withdrew", "rushes",
                             "proposals", "sharers", "groups", "carried_out", "eliminated"]),
    "wurenshenghuan": (["game", "seed", "players", "murderer", "characters", "nights", "days",
                        "guesses", "final"], "nights", ["night", "action", "killed"]),
}


@pytest.mark.parametrize("slug", GAMES)
def test_cli_json_has_the_issue_fields(slug: str) -> None:
    result = run("sample", slug, "--format", "json", "--seed", "7")
    assert result.exit_code == 0, result.output
    log = json.loads(result.output)
    top, section, inner = REQUIRED[slug]
    assert all(key in log for key in top)
    assert log["game"] == slug and log["seed"] == 7
    assert all(key in entry for entry in log[section] for key in inner)
    if slug == "tisigui":
        turn = log["big_rounds"][0]["turns"][0]
        assert {"small_round", "round_value", "seat", "actions"} <= set(turn)
        assert all({"kind", "named", "answer", "points"} <= set(a) for a in turn["actions"])
    if slug == "niutouwang":
        assert len(log["rows"]) == 4 and len(log["hands"]) == log["players"]
        placement = log["turns"][0]["placements"][0]
        assert {"seat", "card", "row", "took"} <= set(placement)
        assert 0 <= placement["row"] <= 3
    if slug == "aizhewudi":
        assert {"seat", "money", "fickle", "loved", "out", "score"} <= set(log["final"][0])
    if slug == "wurenshenghuan":
        assert all({"day", "decision"} <= set(d) for d in log["days"])
        assert all({"seat", "character", "day"} <= set(g) for g in log["guesses"])
        assert all({"seat", "points"} <= set(f) for f in log["final"])
    # The log is the engine's own: seats from 0, and it replays.
    game = narrate.load_game_data(WORKSPACE, slug)
    rules = narrate.game_rules(game, None)
    assert narrate.plugin(slug).play.replay(rules, log) == []


def test_cli_same_seed_same_bytes() -> None:
    for fmt in ("md", "json"):
        first = run("sample", "aizhewudi", "--abilities", "--seed", "5", "--format", fmt)
        second = run("sample", "aizhewudi", "--abilities", "--seed", "5", "--format", fmt)
        assert first.exit_code == 0 and first.output == second.output
    other = run("sample", "aizhewudi", "--abilities", "--seed", "6")
    assert other.output != first.output


def test_same_bytes_whatever_the_hash_seed(tmp_path: Path) -> None:
    """No set or dict order may leak into a transcript: run it under two hash seeds."""
    outputs = []
    for hash_seed in ("1", "2"):
        env = {**os.environ, "PYTHONHASHSEED": hash_seed}
        done = subprocess.run(
            [sys.executable, "-m", "pnp", "--root", str(ROOT), "sample", "wurenshenghuan",
             "--seed", str(GOLDEN_GAMES["wurenshenghuan"]["seed"]), "--lang", "zh-Hans"],
            capture_output=True, env=env, check=True, cwd=tmp_path)
        outputs.append(done.stdout)
    assert outputs[0] == outputs[1]
    assert outputs[0].decode("utf-8") == golden_path("wurenshenghuan", "zh-Hans").read_text(
        encoding="utf-8") or REGEN


def test_cli_md_is_in_the_source_script_by_default() -> None:
    result = run("sample", "niutouwang", "--seed", "9")
    assert result.exit_code == 0
    assert result.output == golden_path("niutouwang", "zh-Hant").read_text(encoding="utf-8") \
        or REGEN
    assert "扣 " in result.output and " × 1 = " in result.output


@pytest.mark.parametrize(("args", "message"), [
    (["sample", "tisigui", "--players", "9"], "tisigui plays 3–6 players"),
    (["sample", "niutouwang", "--players", "1"], "niutouwang plays 2–10 players"),
    (["sample", "tisigui", "--variant", "official"], "unknown variant 'official'"),
    (["sample", "wurenshenghuan", "--variant", "classic"], "variants: none"),
    (["sample", "tisigui", "--abilities"], "--abilities is an aizhewudi option"),
    (["sample", "nosuchgame"], "pnp plays"),
    (["simulate", "aizhewudi", "--players", "7"], "aizhewudi plays 4–6 players"),
    (["simulate", "tisigui", "--games", "0"], "--games must be 1–1,000,000, got 0"),
])
def test_cli_user_errors_exit_1(args: list[str], message: str) -> None:
    result = CliRunner().invoke(cli, ["--root", str(ROOT), *args])
    assert result.exit_code == 1, result.output
    assert result.output.startswith("Error:") and message in result.output
    assert "Traceback" not in result.output


@pytest.mark.parametrize("args", [
    ["sample", "tisigui", "--players", "five"],
    ["sample", "tisigui", "--format", "html"],
    ["sample", "tisigui", "--lang", "en"],
    ["simulate", "tisigui", "--format", "md"],
])
def test_cli_usage_errors_exit_2(args: list[str]) -> None:
    assert CliRunner().invoke(cli, ["--root", str(ROOT), *args]).exit_code == 2


def test_cli_writes_pdf_atomically(tmp_path: Path) -> None:
    target = tmp_path / "sub" / "game.pdf"
    target.parent.mkdir()
    result = run("sample", "tisigui", "--seed", "3", "--format", "pdf", "--lang", "zh-Hant",
                 "--out", str(target))
    assert result.exit_code == 0, result.output
    data = target.read_bytes()
    assert data.startswith(b"%PDF") and b"PnpSansTC" in data
    assert [p.name for p in target.parent.iterdir()] == ["game.pdf"]  # no temp file left
    again = run("sample", "tisigui", "--seed", "3", "--format", "pdf", "--lang", "zh-Hant",
                "--out", str(target))
    assert again.exit_code == 0 and target.read_bytes() == data


def test_cli_pdf_default_path(tmp_path: Path) -> None:
    root = tmp_path / "ws"
    root.mkdir()
    for name in ("card_data", "templates"):  # copies: a link out of the workspace is refused
        shutil.copytree(ROOT / name / "niutouwang", root / name / "niutouwang")
    result = CliRunner().invoke(cli, ["--root", str(root), "sample", "niutouwang", "--players",
                                      "4", "--seed", "2", "--format", "pdf"])
    assert result.exit_code == 0, result.output
    assert (root / "output" / "niutouwang" / "zh-Hant" / "sample-seed2-p4.pdf").is_file()


def test_cli_md_out_file(tmp_path: Path) -> None:
    target = tmp_path / "t.md"
    result = run("sample", "tisigui", "--seed", str(GOLDEN_GAMES["tisigui"]["seed"]), "--lang", "zh-Hant",
                 "--out", str(target))
    assert result.exit_code == 0
    assert target.read_text(encoding="utf-8") == golden_path("tisigui", "zh-Hant").read_text(
        encoding="utf-8") or REGEN


def test_rules_errors_in_game_yaml_are_user_errors(workspace_copy: Path) -> None:
    from tests.conftest import edit

    edit(workspace_copy / "card_data" / "tisigui" / "game.yaml", "  big_die_sides: 6",
         "  big_die_sides: six")
    result = CliRunner().invoke(cli, ["--root", str(workspace_copy), "sample", "tisigui"])
    assert result.exit_code == 1
    assert "card_data/tisigui/game.yaml:28: rules.big_die_sides: expected a whole number" in result.output
    assert "Traceback" not in result.output
