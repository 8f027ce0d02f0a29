"""替死鬼 (tisigui) rules parameters, canonical = revision 2 as settled in docs/rulings.md, and the
pure functions of them (setup rows, scores, game length, ranking).

Rules mapping (card_data/tisigui/game.yaml, under ``rules:``). Every key is optional; a missing
key takes the ruling in docs/rulings.md. Values shown are the canonical defaults::

    players: {min: 3, max: 6}           # player counts the engine plays
    setup:                              # one row per player count (the printed 开局设定 table)
      - {players: 3, big_die: 3, small_rounds: 2, question_markers: 2}
      - {players: 4, big_die: 4, small_rounds: 2, question_markers: 2}
      - {players: 5, big_die: 5, small_rounds: 3, question_markers: 3}
      - {players: 6, big_die: 6, small_rounds: 4, question_markers: 5}
    big_die_sides: 6                    # the big-round die (d6)
    small_die_sides: 4                  # the small-round die (d4); also the end-of-big-round roll
    use_question_markers: true          # false: no markers, every turn is actions_per_turn
    question_marker_supply: 30          # markers in the box (lint compares players x markers)
    actions_per_turn: {min: 1, max: 2}  # markers (actions) a player plays on a turn
    max_named_per_action: null          # null: a naming may name any number of players
    scoring:
      naming_times_named: true          # a correct naming scores round value x players named
      no_targets_per_player: 1          # correct "no targets?" = this x players at the table
      ghost_per_player: 1               # ghost when the small rounds run out:
      ghost_per_confirmed: 1            #   players x ghost_per_player - confirmed x this
    ghost:
      may_pass: true                    # the ghost may pass a turn (no marker spent)
      own_naming: free                  # free | always_no: how the ghost answers its own namings
    start_player: ghost_picks           # ghost_picks | rolled (rolled on the small die)
    end_roll: true                      # false: every big round down to the die's 1 is played
    ties: clockwise_from_last_start     # clockwise_from_last_start | shared
    count_down_before_first:            # the seed's literal "-1 at the start of each round":
      small_round: false                #   true makes the first small round worth table - 1
      big_round: false                  #   true plays the first big round at big_die - 1
    # Statements copied from a rules text, only for lint to hold against the above. All are
    # null by default; the values here are examples: the outline's player line, "N~M small
    # rounds per big round", "after N small rounds the ghost scores", the worked example.
    stated_players: {min: 3, max: 6}
    stated_small_rounds_range: {min: 2, max: 4}
    stated_small_rounds_before_ghost_scores: 3
    stated_example: {players: 5, big_die: 5, round_values: [3, 2, 1]}
    variants:
      classic: {...}                    # same keys; missing ones take the classic rulings

The ``classic`` variant's defaults (``CLASSIC_RULES``): the small die is a d6 set to 3 every
big round (three small rounds worth 3, 2, 1), one question per turn and no markers, the start
player rolled, no end roll (exactly N big rounds for N players), the ghost's own namings always
answered X, the ghost may not pass, and ties shared. Top-level keys never leak into a variant.

Seats are numbered from 0 and clockwise: seat s + 1 (mod players) plays after seat s.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from fractions import Fraction
from typing import Any, Literal, cast

from pnp.core.problems import Problem
from pnp.core.records import record
from pnp.games.params import Params, field_problem, is_integer, raise_problems

SLUG = "tisigui"
VARIANTS: tuple[str, ...] = ("classic",)

OwnNaming = Literal["free", "always_no"]
StartPlayer = Literal["ghost_picks", "rolled"]
Ties = Literal["clockwise_from_last_start", "shared"]
End = Literal["all_confirmed", "no_targets", "rounds_out"]


# --------------------------------------------------------------------------------------------
# Rules


@record
class SetupRow:
    players: int
    big_die: int
    small_rounds: int
    question_markers: int | None  # None when the rules use no markers


@record
class StatedExample:
    """A worked example's numbers, as a rules text states them (lint only)."""

    players: int
    big_die: int
    round_values: tuple[int, ...]


@record
class TisiguiRules:
    variant: str | None = None
    min_players: int = 3
    max_players: int = 6
    setup: tuple[SetupRow, ...] = (
        SetupRow(3, 3, 2, 2),
        SetupRow(4, 4, 2, 2),
        SetupRow(5, 5, 3, 3),
        SetupRow(6, 6, 4, 5),
    )
    big_die_sides: int = 6
    small_die_sides: int = 4
    use_question_markers: bool = True
    question_marker_supply: int = 30
    actions_per_turn: tuple[int, int] = (1, 2)
    max_named_per_action: int | None = None
    naming_times_named: bool = True
    no_targets_per_player: int = 1
    ghost_per_player: int = 1
    ghost_per_confirmed: int = 1
    ghost_may_pass: bool = True
    ghost_own_naming: OwnNaming = "free"
    start_player: StartPlayer = "ghost_picks"
    end_roll: bool = True
    ties: Ties = "clockwise_from_last_start"
    count_down_first_small_round: bool = False
    count_down_first_big_round: bool = False
    stated_players: tuple[int, int] | None = None
    stated_small_rounds_range: tuple[int, int] | None = None
    stated_small_rounds_before_ghost_scores: int | None = None
    stated_example: StatedExample | None = None


DEFAULT_RULES = TisiguiRules()

CLASSIC_RULES = TisiguiRules(
    variant="classic",
    setup=tuple(SetupRow(p, p, 3, None) for p in range(3, 7)),
    small_die_sides=6,
    use_question_markers=False,
    actions_per_turn=(1, 1),
    ghost_may_pass=False,
    ghost_own_naming="always_no",
    start_player="rolled",
    end_roll=False,
    ties="shared",
)

_BASES: dict[str | None, TisiguiRules] = {None: DEFAULT_RULES, "classic": CLASSIC_RULES}

_RULE_KEYS = (
    "players",
    "setup",
    "big_die_sides",
    "small_die_sides",
    "use_question_markers",
    "question_marker_supply",
    "actions_per_turn",
    "max_named_per_action",
    "scoring",
    "ghost",
    "start_player",
    "end_roll",
    "ties",
    "count_down_before_first",
    "stated_players",
    "stated_small_rounds_range",
    "stated_small_rounds_before_ghost_scores",
    "stated_example",
)


# The range of every whole number the rules mapping holds, also under variants.<name>
# (docs/number-ranges.md lists them). The bots' deduction tracks every subset of the players
# (2**players sets): a 12-player game took 15 s and 1.9 GB, an 8-player one 0.1 s, and check
# simulates 60 games per player count, so 8 players is the most.
_PLAYERS = (2, 8)
_ROUNDS = (1, 20)
_DIE = (1, 20)
_POINTS = (0, 1000)
# A die value as written may be out of the die's range: lint reports that, with its reason.
_DIE_VALUE = (-1000, 1000)
RANGES: dict[str, tuple[int, int]] = {
    "players.min": _PLAYERS,
    "players.max": _PLAYERS,
    "actions_per_turn.min": (1, 10),
    "actions_per_turn.max": (1, 10),
    "scoring.no_targets_per_player": _POINTS,
    "scoring.ghost_per_player": _POINTS,
    "scoring.ghost_per_confirmed": _POINTS,
    "big_die_sides": _DIE,
    "small_die_sides": _DIE,
    "question_marker_supply": (0, 1000),
    "max_named_per_action": (1, 8),
    "stated_players.min": (1, 8),
    "stated_players.max": (1, 8),
    "stated_small_rounds_range.min": _ROUNDS,
    "stated_small_rounds_range.max": _ROUNDS,
    "stated_small_rounds_before_ghost_scores": _ROUNDS,
    "setup[].players": _PLAYERS,
    "setup[].big_die": _DIE_VALUE,
    "setup[].small_rounds": _ROUNDS,
    "setup[].question_markers": (0, 1000),
    "stated_example.players": (1, 8),
    "stated_example.big_die": _DIE_VALUE,
    "stated_example.round_values[]": _DIE_VALUE,
}


def rules_from_mapping(
    mapping: Mapping[str, Any] | None, variant: str | None = None
) -> TisiguiRules:
    """Validate game.yaml's ``rules:`` mapping; raise RulesError listing every problem.

    The whole mapping is validated whichever variant is asked for, so a mistake in
    ``variants.classic`` is reported even while building the canonical rules.
    """
    variant = variant or None
    problems: list[Problem] = []
    if variant is not None and variant not in VARIANTS:
        problems.append(field_problem("variant", f"unknown variant {variant!r} (known: {', '.join(VARIANTS)})"))
    top = Params(mapping, "", problems, RANGES)
    built: dict[str | None, TisiguiRules] = {None: _read_rules(top, DEFAULT_RULES, ("variants",))}
    variants = top.sub("variants")
    if variants is not None:
        for name in variants.mapping:
            if name not in VARIANTS:
                variants.problem(str(name), f"unknown variant (known: {', '.join(VARIANTS)})")
    for name in VARIANTS:
        sub = variants.sub(name) if variants is not None else None
        built[name] = _read_rules(sub or top.child(f"variants.{name}"), _BASES[name])
    raise_problems(problems)
    return built[variant]


def _read_rules(p: Params, base: TisiguiRules, more_keys: tuple[str, ...] = ()) -> TisiguiRules:
    players = p.integer_range("players", (base.min_players, base.max_players))
    use_markers = p.boolean("use_question_markers", base.use_question_markers)
    setup = _read_setup(p, base.setup, use_markers)
    actions = p.integer_range("actions_per_turn", base.actions_per_turn)

    scoring = p.section("scoring")
    naming_times_named = scoring.boolean("naming_times_named", base.naming_times_named)
    no_targets = scoring.integer("no_targets_per_player", base.no_targets_per_player)
    ghost_pp = scoring.integer("ghost_per_player", base.ghost_per_player)
    ghost_pc = scoring.integer("ghost_per_confirmed", base.ghost_per_confirmed)
    scoring.finish(
        ("naming_times_named", "no_targets_per_player", "ghost_per_player", "ghost_per_confirmed")
    )

    ghost = p.section("ghost")
    may_pass = ghost.boolean("may_pass", base.ghost_may_pass)
    own_naming = ghost.choice("own_naming", base.ghost_own_naming, ("free", "always_no"))
    ghost.finish(("may_pass", "own_naming"))

    count_down = p.section("count_down_before_first")
    cd_small = count_down.boolean("small_round", base.count_down_first_small_round)
    cd_big = count_down.boolean("big_round", base.count_down_first_big_round)
    count_down.finish(("small_round", "big_round"))

    rules = replace(
        base,
        min_players=players[0] if players else base.min_players,
        max_players=players[1] if players else base.max_players,
        setup=setup,
        big_die_sides=p.integer("big_die_sides", base.big_die_sides),
        small_die_sides=p.integer("small_die_sides", base.small_die_sides),
        use_question_markers=use_markers,
        question_marker_supply=p.integer(
            "question_marker_supply", base.question_marker_supply
        ),
        actions_per_turn=actions or base.actions_per_turn,
        max_named_per_action=p.optional_integer(
            "max_named_per_action", base.max_named_per_action
        ),
        naming_times_named=naming_times_named,
        no_targets_per_player=no_targets,
        ghost_per_player=ghost_pp,
        ghost_per_confirmed=ghost_pc,
        ghost_may_pass=may_pass,
        ghost_own_naming=cast(OwnNaming, own_naming),
        start_player=cast(
            StartPlayer, p.choice("start_player", base.start_player, ("ghost_picks", "rolled"))
        ),
        end_roll=p.boolean("end_roll", base.end_roll),
        ties=cast(Ties, p.choice("ties", base.ties, ("clockwise_from_last_start", "shared"))),
        count_down_first_small_round=cd_small,
        count_down_first_big_round=cd_big,
        stated_players=p.integer_range("stated_players", base.stated_players),
        stated_small_rounds_range=p.integer_range(
            "stated_small_rounds_range", base.stated_small_rounds_range
        ),
        stated_small_rounds_before_ghost_scores=p.optional_integer(
            "stated_small_rounds_before_ghost_scores",
            base.stated_small_rounds_before_ghost_scores,
        ),
        stated_example=_read_example(p, base.stated_example),
    )
    p.finish((*_RULE_KEYS, *more_keys))
    return rules


def _read_setup(
    p: Params, default: tuple[SetupRow, ...], use_markers: bool
) -> tuple[SetupRow, ...]:
    readers = p.items("setup")
    if readers is None:
        return default
    if not readers:
        p.problem("setup", "needs at least one row")
        return default
    rows: list[SetupRow] = []
    seen: set[int] = set()
    ok = True
    for row in readers:
        players = row.required_integer("players")
        # The big die may be written out of its range: lint reports that, with its reason.
        big_die = row.required_integer("big_die")
        small_rounds = row.required_integer("small_rounds")
        if use_markers:
            markers = row.required_integer("question_markers")
            markers_ok = markers is not None
        else:
            markers = row.optional_integer("question_markers", None)
            markers_ok = True
        row.finish(("players", "big_die", "small_rounds", "question_markers"))
        if players is not None and players in seen:
            row.problem("players", f"a second row for {players} players")
            ok = False
        if players is None or big_die is None or small_rounds is None or not markers_ok:
            ok = False
            continue
        seen.add(players)
        rows.append(SetupRow(players, big_die, small_rounds, markers))
    return tuple(sorted(rows, key=lambda r: r.players)) if ok else default


def _read_example(p: Params, default: StatedExample | None) -> StatedExample | None:
    if "stated_example" in p.mapping and p.mapping["stated_example"] is None:
        return None
    sub = p.sub("stated_example")
    if sub is None:
        return default
    players = sub.required_integer("players")
    big_die = sub.required_integer("big_die")
    values = sub.integer_list("round_values", ())
    if "round_values" not in sub.mapping:
        sub.problem("round_values", "missing")
    sub.finish(("players", "big_die", "round_values"))
    if players is None or big_die is None or not values:
        return default
    return StatedExample(players, big_die, values)


# --------------------------------------------------------------------------------------------
# Scoring helpers and derived numbers


def setup_for(rules: TisiguiRules, players: int) -> SetupRow:
    for row in rules.setup:
        if row.players == players:
            return row
    raise ValueError(f"the setup table has no row for {players} players")


def playable_counts(rules: TisiguiRules) -> list[int]:
    """Player counts inside the player range that also have a setup row."""
    columns = {row.players for row in rules.setup}
    return [n for n in range(rules.min_players, rules.max_players + 1) if n in columns]


def first_big_die(rules: TisiguiRules, players: int) -> int:
    """The value the first big round is played at."""
    start = setup_for(rules, players).big_die
    return start - 1 if rules.count_down_first_big_round else start


def row_round_values(rules: TisiguiRules, row: SetupRow) -> tuple[int, ...]:
    """``small_round_values`` of one setup row (the engine holds its row already)."""
    first = row.small_rounds - (1 if rules.count_down_first_small_round else 0)
    return tuple(first - i for i in range(row.small_rounds))


def small_round_values(rules: TisiguiRules, players: int) -> tuple[int, ...]:
    """What each small round of a big round is worth, first to last, e.g. (3, 2, 1)."""
    return row_round_values(rules, setup_for(rules, players))


def naming_points(rules: TisiguiRules, round_value: int, named: int) -> int:
    """Points for a correct naming of ``named`` players in a small round worth ``round_value``."""
    if not is_integer(named) or named < 1:
        raise ValueError(f"a naming names at least 1 player, got {named}")
    if rules.max_named_per_action is not None and named > rules.max_named_per_action:
        raise ValueError(f"a naming names at most {rules.max_named_per_action} players")
    if not is_integer(round_value) or round_value < 0:
        raise ValueError(f"a small round is worth 0 or more, got {round_value}")
    return unchecked_naming_points(rules, round_value, named)


def unchecked_naming_points(rules: TisiguiRules, round_value: int, named: int) -> int:
    """``naming_points`` for a count the caller knows is whole and positive (the engine's)."""
    return round_value * named if rules.naming_times_named else round_value


def no_targets_points(rules: TisiguiRules, players: int) -> int:
    """Points for asking "no targets at all?" correctly."""
    if not is_integer(players) or players < 1:
        raise ValueError(f"players must be at least 1, got {players}")
    return players * rules.no_targets_per_player


def ghost_points(rules: TisiguiRules, players: int, confirmed: int) -> int:
    """The ghost's score when the small rounds run out with ``confirmed`` targets found."""
    if not is_integer(players) or players < 1:
        raise ValueError(f"players must be at least 1, got {players}")
    if not is_integer(confirmed) or not 0 <= confirmed <= players:
        raise ValueError(f"confirmed targets must be 0–{players}, got {confirmed}")
    return players * rules.ghost_per_player - confirmed * rules.ghost_per_confirmed


def _continue_chance(rules: TisiguiRules, value: int) -> Fraction:
    """Chance the game goes on after a big round played at ``value`` (``value`` >= 2)."""
    if not rules.end_roll:
        return Fraction(1)
    # The game ends when the small die rolls above the value, so every face <= value goes on.
    return Fraction(min(value, rules.small_die_sides), rules.small_die_sides)


def expected_big_rounds(rules: TisiguiRules, players: int) -> Fraction:
    """Exact expected number of big rounds, over every sequence of end rolls."""
    expected = Fraction(1)  # a big round played at 1 (or below) is always the last
    for value in range(2, first_big_die(rules, players) + 1):
        expected = 1 + _continue_chance(rules, value) * expected
    return expected


def big_round_needs_roll(rules: TisiguiRules, value: int) -> bool:
    """Whether the big round played with the big die at ``value`` ends with a roll of the small die."""
    return rules.end_roll and 1 < value < rules.small_die_sides


def is_last_big_round(rules: TisiguiRules, value: int, roll: int | None) -> bool:
    """Whether the game ends after the big round at ``value`` whose end roll was ``roll``."""
    if value <= 1:
        return True
    return roll is not None and roll > value


def rank(
    rules: TisiguiRules, scores: Sequence[int], last_start: int
) -> tuple[list[int], list[int]]:
    """(ranking as seats best first, place per seat) under the rules' tie rule."""
    n = len(scores)
    if rules.ties == "shared":
        order = sorted(range(n), key=lambda s: (-scores[s], s))
        places = [1 + sum(1 for t in scores if t > scores[s]) for s in range(n)]
    else:
        order = sorted(range(n), key=lambda s: (-scores[s], (s - last_start) % n))
        places = [0] * n
        for place, seat in enumerate(order, 1):
            places[seat] = place
    return order, places


# --------------------------------------------------------------------------------------------
# Player counts


def player_range(rules: TisiguiRules) -> tuple[int, int]:
    return rules.min_players, rules.max_players


def default_players(rules: TisiguiRules) -> int:
    """Five, the seed's worked example, or the playable count nearest to it."""
    playable = playable_counts(rules) or [rules.min_players]
    return min(playable, key=lambda n: (abs(n - 5), -n))
