"""How ``pnp calc`` spells a game's declared calculator as a command (pnp/cli/calc.py).

The shipped calculators' behaviour is in tests/games/test_calc.py; here one made-up
declaration exercises every kind of parameter, so each spelling is pinned once.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result

from pnp.cli import cli
from pnp.cli.calc import calculator_command
from pnp.cli.options import WorkspaceRef
from pnp.core.errors import PnpError
from pnp.games.calcargs import TEXT, WHOLE, Argument, Flag, Kind, Option, Toggle
from pnp.games.calculators import CalcResult, Calculator, make_result
from tests.conftest import ROOT


def colour(text: str, what: str) -> str:
    if text not in ("red", "blue"):
        raise PnpError(f"{what} {text!r} is no colour of the deck")
    return text


COLOUR = Kind("colour", colour)


def tally(rules: Any, **values: Any) -> CalcResult:
    """Answers with what it was given, so a test reads the values the command handed on."""
    return make_result({key: list(v) if isinstance(v, tuple) else v for key, v in values.items()},
                       [f"{key}={value!r}" for key, value in sorted(values.items())])


TALLY = Calculator("tally", "Everything it is given.", tally, (
    Option("round_value", "What the round is worth.", WHOLE, required=True, short="r"),
    Option("bonus", "Extra points.", WHOLE, default=3),
    Option("suit", "The suit led.", COLOUR),
    Flag("last_round", "The game's last round."),
    Toggle("paired", "Paired.", off="unpaired", off_help="Unpaired."),
    Argument("cards", TEXT, many=True, required=False),
))


def tally_run(tmp_path: Path, *args: str) -> Result:
    # An empty folder: no workspace, so the game's default rules (and a note on stderr).
    result = CliRunner().invoke(calculator_command("niutouwang", TALLY), list(args),
                                obj=WorkspaceRef(tmp_path), prog_name="tally")
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    return result


def test_declared_parameters_reach_the_function_as_keywords(tmp_path: Path) -> None:
    result = tally_run(tmp_path, "-r", "20,000", "--last-round", "5", "-3", "--json")
    assert result.exit_code == 0, result.output
    # Negative numbers among the arguments are values, not unknown options.
    assert json.loads(result.stdout) == {"round_value": 20000, "bonus": 3, "suit": None,
                                         "last_round": True, "paired": None, "cards": ["5", "-3"]}
    assert "note: no workspace: using the niutouwang engine's default rules" in result.stderr


@pytest.mark.parametrize(("flags", "paired"), [([], None), (["--paired"], True), (["--unpaired"], False)])
def test_a_toggle_is_yes_no_or_the_rules(tmp_path: Path, flags: list[str], paired: bool | None) -> None:
    result = tally_run(tmp_path, "--round-value", "1", "--suit", "red", *flags, "-q")
    assert result.exit_code == 0, result.output
    assert f"paired={paired!r}" in result.stdout.splitlines()
    assert "suit='red'" in result.stdout.splitlines()
    assert result.stderr == ""  # -q silences the note


def test_both_sides_of_a_toggle_are_refused_before_the_rules_are_read(tmp_path: Path) -> None:
    result = tally_run(tmp_path, "-r", "1", "--unpaired", "--paired")
    assert (result.exit_code, result.stdout) == (1, "")
    assert result.stderr == "Error: --paired and --unpaired contradict: give one of them\n"


def test_text_not_of_the_kind_is_a_usage_error_naming_the_option(tmp_path: Path) -> None:
    result = tally_run(tmp_path, "-r", "2,0", "--suit", "green")
    assert result.exit_code == 2
    assert ("Error: Invalid value for '--round-value' / '-r': --round-value '2,0' is not a whole "
            "number (commas group digits in threes, e.g. 20,000)") in result.stderr
    result = tally_run(tmp_path, "-r", "2", "--suit", "green")
    assert result.exit_code == 2
    assert "Error: Invalid value for '--suit': --suit 'green' is no colour of the deck" in result.stderr
    result = tally_run(tmp_path, "--suit", "red")
    assert result.exit_code == 2
    assert "Error: Missing option '--round-value' / '-r'." in result.stderr


def test_help_spells_every_declaration(tmp_path: Path) -> None:
    # Mounted alone, without pnp's group and so without its -h.
    result = tally_run(tmp_path, "--help")
    assert result.exit_code == 0
    assert result.stdout == """\
Usage: tally [OPTIONS] [CARDS]...

  Everything it is given.

Options:
  -r, --round-value INTEGER  What the round is worth.  [required]
  --bonus INTEGER            Extra points.
  --suit COLOUR              The suit led.
  --last-round               The game's last round.
  --paired                   Paired.
  --unpaired                 Unpaired.
  -v, --verbose              Log what pnp is doing to stderr.
  -q, --quiet                Print only the data asked for (no 'wrote …' notes).
  --json                     Same as --format json.
  --format [text|json]       [default: text]
  --help                     Show this message and exit.
"""


def test_a_shipped_calculators_help_is_as_before() -> None:
    # Written out in full once: mounting from declarations must not move a word of it.
    result = CliRunner().invoke(cli, ["--root", str(ROOT), "calc", "niutouwang", "punish", "--help"])
    assert result.exit_code == 0
    assert result.stdout == """\
Usage: cli calc niutouwang punish [OPTIONS] PENALTIES...

  The SP ending for PENALTIES given in seat order (seat 1 first).

Options:
  --base INTEGER        Hits per penalty point (default: the rules').
  --paired              The k-th highest hits the k-th lowest (default: the
                        rules').
  --unpaired            Everyone chooses whom to hit (default: the rules').
  -v, --verbose         Log what pnp is doing to stderr.
  -q, --quiet           Print only the data asked for (no 'wrote …' notes).
  --json                Same as --format json.
  --format [text|json]  [default: text]
  -h, --help            Show this message and exit.
"""
