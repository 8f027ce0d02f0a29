"""替死鬼 (tisigui): the reference engine, canonical rules = revision 2 as settled in RULINGS.md.

Pure: no I/O, no printing; every random choice comes from the ``random.Random`` passed in.

Rules mapping (card_data/tisigui/game.yaml, under ``rules:``). Every key is optional; a missing
key takes the ruling in shared/RULINGS.md. Values shown are the canonical defaults::

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

Event log (``play``; ``replay`` checks it), the shape of issue 5 plus a few narrator fields::

    {"game": "tisigui", "seed", "players", "variant": null | "classic", "bots": [name per seat],
     "big_rounds": [{"big_die", "ghost", "targets", "start", "question_markers" (per player,
       null without markers), "turns": [{"small_round", "round_value", "seat", "actions": [
         {"kind": "question" | "name" | "no_targets" | "pass", "named", "answer" (null for
          a pass), "points", "truth" (the true answer, null when unknowable or a pass),
          "question": {"asks": "is_target" | "any_target" | "target_count" | "is_ghost"
                       | "other", "about"?: seat, "among"?: [seats], "value"?: n,
                       "text"?: words}  (questions only),
          "confirms": [seats]  (namings only)}]}],
       "confirmed", "end": "all_confirmed" | "no_targets" | "rounds_out", "ghost_points",
       "roll": n | null, "scores_after": [per seat]}],
     "scores": [per seat], "ranking": [seats], "places": [place per seat, 1 = first],
     "winners": [seats]}

``replay`` needs the issue-5 fields; the others (``truth``, ``question``, ``confirms``,
``question_markers``, ``scores_after``, ``places``, ``winners``) are checked when present, so
a hand-written log may leave them out. A question without a ``question`` object, or one that
``asks: other``, has an answer no rule can check. A turn with no markers left is logged with
an empty ``actions`` list; a ghost's pass is one action ``{"kind": "pass", "answer": null}``.

With ``ties: shared`` (classic) ``ranking`` orders tied seats by seat number only for display;
``places`` gives tied seats the same place (1, 1, 3, ...) and ``winners`` lists every seat
sharing first.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from fractions import Fraction
from typing import Any, Literal, Protocol, cast

from pnp.games.base import Table
from pnp.games.params import Params, is_integer, is_list, raise_problems

SLUG = "tisigui"
VARIANTS: tuple[str, ...] = ("classic",)
slug = SLUG
variants = VARIANTS

OwnNaming = Literal["free", "always_no"]
StartPlayer = Literal["ghost_picks", "rolled"]
Ties = Literal["clockwise_from_last_start", "shared"]
End = Literal["all_confirmed", "no_targets", "rounds_out"]

ACTION_KINDS = ("question", "name", "no_targets", "pass")
QUESTION_KINDS = ("is_target", "any_target", "target_count", "is_ghost", "other")


# --------------------------------------------------------------------------------------------
# Rules


@dataclass(frozen=True)
class SetupRow:
    players: int
    big_die: int
    small_rounds: int
    question_markers: int | None  # None when the rules use no markers


@dataclass(frozen=True)
class StatedExample:
    """A worked example's numbers, as a rules text states them (lint only)."""

    players: int
    big_die: int
    round_values: tuple[int, ...]


@dataclass(frozen=True)
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


def rules_from_mapping(
    mapping: Mapping[str, Any] | None, variant: str | None = None
) -> TisiguiRules:
    """Validate game.yaml's ``rules:`` mapping; raise RulesError listing every problem.

    The whole mapping is validated whichever variant is asked for, so a mistake in
    ``variants.classic`` is reported even while building the canonical rules.
    """
    variant = variant or None
    problems: list[str] = []
    if variant is not None and variant not in VARIANTS:
        problems.append(f"variant: unknown variant {variant!r} (known: {', '.join(VARIANTS)})")
    top = Params(mapping, "", problems)
    built: dict[str | None, TisiguiRules] = {None: _read_rules(top, DEFAULT_RULES, ("variants",))}
    variants = top.sub("variants")
    if variants is not None:
        for name in variants.mapping:
            if name not in VARIANTS:
                variants.problem(str(name), f"unknown variant (known: {', '.join(VARIANTS)})")
    for name in VARIANTS:
        sub = variants.sub(name) if variants is not None else None
        built[name] = _read_rules(sub or Params({}, f"variants.{name}", problems), _BASES[name])
    raise_problems(problems)
    return built[variant]


def _read_rules(p: Params, base: TisiguiRules, more_keys: tuple[str, ...] = ()) -> TisiguiRules:
    players = p.integer_range("players", (base.min_players, base.max_players), minimum=2)
    use_markers = p.boolean("use_question_markers", base.use_question_markers)
    setup = _read_setup(p, base.setup, use_markers)
    actions = p.integer_range("actions_per_turn", base.actions_per_turn, minimum=1)

    scoring = p.sub("scoring") or Params({}, p.where("scoring"), p.problems)
    naming_times_named = scoring.boolean("naming_times_named", base.naming_times_named)
    no_targets = scoring.integer("no_targets_per_player", base.no_targets_per_player, minimum=0)
    ghost_pp = scoring.integer("ghost_per_player", base.ghost_per_player, minimum=0)
    ghost_pc = scoring.integer("ghost_per_confirmed", base.ghost_per_confirmed, minimum=0)
    scoring.finish(
        ("naming_times_named", "no_targets_per_player", "ghost_per_player", "ghost_per_confirmed")
    )

    ghost = p.sub("ghost") or Params({}, p.where("ghost"), p.problems)
    may_pass = ghost.boolean("may_pass", base.ghost_may_pass)
    own_naming = ghost.choice("own_naming", base.ghost_own_naming, ("free", "always_no"))
    ghost.finish(("may_pass", "own_naming"))

    count_down = p.sub("count_down_before_first") or Params(
        {}, p.where("count_down_before_first"), p.problems
    )
    cd_small = count_down.boolean("small_round", base.count_down_first_small_round)
    cd_big = count_down.boolean("big_round", base.count_down_first_big_round)
    count_down.finish(("small_round", "big_round"))

    rules = replace(
        base,
        min_players=players[0] if players else base.min_players,
        max_players=players[1] if players else base.max_players,
        setup=setup,
        big_die_sides=p.integer("big_die_sides", base.big_die_sides, minimum=1),
        small_die_sides=p.integer("small_die_sides", base.small_die_sides, minimum=1),
        use_question_markers=use_markers,
        question_marker_supply=p.integer(
            "question_marker_supply", base.question_marker_supply, minimum=0
        ),
        actions_per_turn=actions or base.actions_per_turn,
        max_named_per_action=p.optional_integer(
            "max_named_per_action", base.max_named_per_action, minimum=1
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
        stated_players=p.integer_range("stated_players", base.stated_players, minimum=1),
        stated_small_rounds_range=p.integer_range(
            "stated_small_rounds_range", base.stated_small_rounds_range, minimum=1
        ),
        stated_small_rounds_before_ghost_scores=p.optional_integer(
            "stated_small_rounds_before_ghost_scores",
            base.stated_small_rounds_before_ghost_scores,
            minimum=1,
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
        players = row.required_integer("players", minimum=2)
        # The big die may be written out of its range: lint reports that, with its reason.
        big_die = row.required_integer("big_die")
        small_rounds = row.required_integer("small_rounds", minimum=1)
        if use_markers:
            markers = row.required_integer("question_markers", minimum=0)
            markers_ok = markers is not None
        else:
            markers = row.optional_integer("question_markers", None, minimum=0)
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
    players = sub.required_integer("players", minimum=1)
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


def _round_values(rules: TisiguiRules, row: SetupRow) -> tuple[int, ...]:
    first = row.small_rounds - (1 if rules.count_down_first_small_round else 0)
    return tuple(first - i for i in range(row.small_rounds))


def small_round_values(rules: TisiguiRules, players: int) -> tuple[int, ...]:
    """What each small round of a big round is worth, first to last, e.g. (3, 2, 1)."""
    return _round_values(rules, setup_for(rules, players))


def naming_points(rules: TisiguiRules, round_value: int, named: int) -> int:
    """Points for a correct naming of ``named`` players in a small round worth ``round_value``."""
    if not is_integer(named) or named < 1:
        raise ValueError(f"a naming names at least 1 player, got {named}")
    if rules.max_named_per_action is not None and named > rules.max_named_per_action:
        raise ValueError(f"a naming names at most {rules.max_named_per_action} players")
    if not is_integer(round_value) or round_value < 0:
        raise ValueError(f"a small round is worth 0 or more, got {round_value}")
    return _naming_points(rules, round_value, named)


def _naming_points(rules: TisiguiRules, round_value: int, named: int) -> int:
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


def _needs_roll(rules: TisiguiRules, value: int) -> bool:
    return rules.end_roll and 1 < value < rules.small_die_sides


def _is_last(rules: TisiguiRules, value: int, roll: int | None) -> bool:
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
# Printed tables


def compute_tables(rules: TisiguiRules) -> dict[str, Table]:
    playable = playable_counts(rules)
    setup: Table = [
        {
            "players": row.players,
            "big_die": row.big_die,
            "small_rounds": row.small_rounds,
            "question_markers": row.question_markers,
        }
        for row in sorted(rules.setup, key=lambda r: r.players)
    ]
    top_value = max(
        (v for n in playable for v in small_round_values(rules, n)),
        default=1,
    )
    most_named = rules.max_named_per_action or rules.max_players
    naming: Table = [
        {"round_value": value, "named": named, "points": _naming_points(rules, value, named)}
        for value in range(1, top_value + 1)
        for named in range(1, min(most_named, rules.max_players) + 1)
    ]
    ghost: Table = [
        {"players": n, "confirmed": c, "points": ghost_points(rules, n, c)}
        for n in range(rules.min_players, rules.max_players + 1)
        for c in range(n + 1)
    ]
    length: Table = [
        {"players": n, "expected_big_rounds": str(expected_big_rounds(rules, n))} for n in playable
    ]
    return {"setup": setup, "naming_score": naming, "ghost_score": ghost, "game_length": length}


# --------------------------------------------------------------------------------------------
# Lint


@dataclass(frozen=True)
class Finding:
    code: str
    message: str
    where: str


def _counts(seq: Iterable[int]) -> str:
    return ", ".join(str(n) for n in seq)


def lint(rules: TisiguiRules) -> list[Finding]:
    """Problems in the rules visible from the parameters alone (no simulation needed)."""
    findings: list[Finding] = []
    prefix = f"rules.variants.{rules.variant}." if rules.variant else "rules."

    def add(code: str, where: str, message: str) -> None:
        findings.append(Finding(code, message, prefix + where))

    lo, hi = rules.min_players, rules.max_players
    columns = sorted(row.players for row in rules.setup)
    span = set(range(lo, hi + 1))
    if missing := sorted(span - set(columns)):
        add(
            "players-vs-setup",
            "players",
            f"the player range is {lo}–{hi}, but the setup table has no column for "
            f"{_counts(missing)} players",
        )
    if extra := sorted(set(columns) - span):
        add(
            "players-vs-setup",
            "setup",
            f"the setup table has a column for {_counts(extra)} players, outside the player "
            f"range {lo}–{hi}",
        )
    if rules.stated_players is not None:
        slo, shi = rules.stated_players
        stated = set(range(slo, shi + 1))
        if outside := sorted(set(columns) - stated):
            add(
                "stated-players-vs-setup",
                "stated_players",
                f"the rules text says {slo}–{shi} players, but the setup table has a column "
                f"for {_counts(outside)} players",
            )
        if uncovered := sorted(stated - set(columns)):
            add(
                "stated-players-vs-setup",
                "stated_players",
                f"the rules text says {slo}–{shi} players, but the setup table has no column "
                f"for {_counts(uncovered)} players",
            )
        if (slo, shi) != (lo, hi):
            add(
                "stated-players-vs-players",
                "stated_players",
                f"the rules text says {slo}–{shi} players, the player range is {lo}–{hi}",
            )

    for i, row in enumerate(rules.setup):
        where = f"setup[{i}]"
        start = row.big_die - (1 if rules.count_down_first_big_round else 0)
        if not 1 <= start <= rules.big_die_sides:
            add(
                "big-die-face",
                f"{where}.big_die",
                f"with {row.players} players the first big round is played with the big die "
                f"at {start}, but a d{rules.big_die_sides} shows only 1–{rules.big_die_sides}",
            )
        values = _round_values(rules, row)
        if values and values[0] > rules.small_die_sides:
            add(
                "small-die-face",
                f"{where}.small_rounds",
                f"with {row.players} players the first small round is worth {values[0]}, but "
                f"the small die (d{rules.small_die_sides}) cannot show it",
            )
        if values and values[-1] < 1:
            add(
                "round-value-nonpositive",
                f"{where}.small_rounds",
                f"with {row.players} players the last small round would be worth "
                f"{values[-1]}: the small die cannot show it and naming there scores nothing",
            )
        if (
            rules.use_question_markers
            and row.question_markers is not None
            and row.players * row.question_markers > rules.question_marker_supply
        ):
            need = row.players * row.question_markers
            add(
                "marker-supply",
                f"{where}.question_markers",
                f"{row.players} players × {row.question_markers} question markers = {need}, "
                f"but the game has only {rules.question_marker_supply}",
            )
        if rules.ghost_per_player * row.players < rules.ghost_per_confirmed * row.players:
            add(
                "ghost-score-negative",
                "scoring",
                f"with {row.players} players the ghost's score can fall below 0",
            )

    if rules.start_player == "rolled" and hi > rules.small_die_sides:
        add(
            "start-roll-face",
            "start_player",
            f"the start player is rolled on a d{rules.small_die_sides}, which cannot pick "
            f"seats beyond {rules.small_die_sides} of {hi} players",
        )

    if rules.stated_small_rounds_range is not None:
        slo, shi = rules.stated_small_rounds_range
        off = [r for r in rules.setup if not slo <= r.small_rounds <= shi]
        if off:
            add(
                "stated-small-rounds-range",
                "stated_small_rounds_range",
                f"the rules text says {slo}–{shi} small rounds per big round, but the setup "
                "table has " + "; ".join(f"{r.small_rounds} for {r.players} players" for r in off),
            )
    if rules.stated_small_rounds_before_ghost_scores is not None:
        stated = rules.stated_small_rounds_before_ghost_scores
        off = [r for r in rules.setup if r.small_rounds != stated]
        if off:
            add(
                "stated-small-rounds-before-ghost-scores",
                "stated_small_rounds_before_ghost_scores",
                f"the rules text says the ghost scores after {stated} small rounds, but the "
                "setup table has "
                + "; ".join(f"{r.small_rounds} for {r.players} players" for r in off),
            )

    example = rules.stated_example
    if example is not None:
        try:
            row = setup_for(rules, example.players)
        except ValueError:
            add(
                "example-vs-rules",
                "stated_example.players",
                f"the worked example has {example.players} players, which the setup table "
                "does not cover",
            )
        else:
            die = row.big_die - (1 if rules.count_down_first_big_round else 0)
            if die != example.big_die:
                add(
                    "example-vs-rules",
                    "stated_example.big_die",
                    f"the worked example plays its first big round with the big die at "
                    f"{example.big_die}; the rules give {die}",
                )
            values = _round_values(rules, row)
            if values != example.round_values:
                add(
                    "example-vs-rules",
                    "stated_example.round_values",
                    "the worked example's small rounds are worth "
                    f"{_counts(example.round_values)}; the rules give {_counts(values)}",
                )
    return findings


# --------------------------------------------------------------------------------------------
# Actions, shared by play and replay


@dataclass(frozen=True)
class Question:
    """An abstract yes/no question; ``other`` stands for one whose answer no rule can check."""

    asks: str
    about: int | None = None  # is_target, is_ghost: "is seat X a target / the ghost?"
    among: tuple[int, ...] | None = None  # any_target: "do you take anyone of these?"
    value: int | None = None  # target_count: "do you take exactly N players?"
    text: str | None = None  # other: the question in words

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"asks": self.asks}
        if self.about is not None:
            out["about"] = self.about
        if self.among is not None:
            out["among"] = list(self.among)
        if self.value is not None:
            out["value"] = self.value
        if self.text is not None:
            out["text"] = self.text
        return out


@dataclass(frozen=True)
class Choice:
    kind: str
    named: tuple[int, ...] = ()
    question: Question | None = None


PASS = Choice("pass")
NO_TARGETS = Choice("no_targets")


@dataclass(frozen=True)
class Deal:
    """A big round's secret: who the ghost is and whom it means to take."""

    players: int
    ghost: int
    targets: frozenset[int]


def _truth(kind: str, named: Sequence[int], question: Question | None, deal: Deal) -> bool | None:
    targets = deal.targets
    if kind == "name":
        return all(s in targets for s in named)
    if kind == "no_targets":
        return not targets
    if kind == "question" and question is not None:
        if question.asks == "is_target":
            return question.about in targets
        if question.asks == "any_target":
            return any(s in targets for s in question.among or ())
        if question.asks == "target_count":
            return len(targets) == question.value
        if question.asks == "is_ghost":
            return question.about == deal.ghost
    return None


def _settle(
    rules: TisiguiRules,
    deal: Deal,
    confirmed: Sequence[int],
    seat: int,
    round_value: int,
    kind: str,
    named: Sequence[int],
    answer: bool | None,
) -> tuple[int, list[int], End | None]:
    """(points, newly confirmed seats, end) for an action whose shown answer is ``answer``.

    The ghost's own actions never score, confirm or end anything: the table cannot trust an
    answer the ghost may fake.
    """
    if seat == deal.ghost or not answer:
        return 0, [], None
    if kind == "name":
        newly = list(named)
        done = deal.targets <= {*confirmed, *newly}
        return (
            _naming_points(rules, round_value, len(named)),
            newly,
            ("all_confirmed" if done else None),
        )
    if kind == "no_targets":
        return no_targets_points(rules, deal.players), [], "no_targets"
    return 0, [], None


# --------------------------------------------------------------------------------------------
# Bots


@dataclass(frozen=True)
class Event:
    """One action as everyone at the table saw it."""

    seat: int
    choice: Choice
    answer: bool | None
    confirms: tuple[int, ...]


@dataclass(frozen=True)
class View:
    """What a bot may know when it decides: public play plus its own secret."""

    rules: TisiguiRules
    players: int
    seat: int
    ghost: int | None  # known only to the ghost itself
    targets: frozenset[int] | None  # ditto
    confirmed: tuple[int, ...]
    small_round: int
    round_value: int
    rounds_left: int  # small rounds after this one
    markers_left: int | None  # own markers before this action; None = no markers in use
    acted: int  # actions already taken on this turn
    can_stop: bool
    can_pass: bool
    history: tuple[Event, ...] = field(default=())

    @property
    def is_ghost(self) -> bool:
        return self.ghost == self.seat

    @property
    def unconfirmed(self) -> list[int]:
        return [s for s in range(self.players) if s not in self.confirmed]

    def actions_possible(self) -> int:
        """Actions this player may still take on this turn, this one included."""
        cap = self.rules.actions_per_turn[1] - self.acted
        return cap if self.markers_left is None else min(cap, self.markers_left)


class Bot(Protocol):
    name: str

    def choose_targets(self, view: View, rng: random.Random) -> Iterable[int]: ...

    def choose_start(self, view: View, rng: random.Random) -> int: ...

    def next_action(self, view: View, rng: random.Random) -> Choice | None:
        """The next action, or None to end the turn (only when ``view.can_stop``)."""

    def ghost_answer(
        self, view: View, choice: Choice, truth: bool | None, rng: random.Random
    ) -> bool:
        """The answer the ghost shows for its own action."""


class RandomBot:
    """Any legal move, uniformly-ish: a baseline and a fuzzer for replay."""

    name = "random"

    def choose_targets(self, view: View, rng: random.Random) -> Iterable[int]:
        return [s for s in range(view.players) if rng.random() < 0.5]

    def choose_start(self, view: View, rng: random.Random) -> int:
        return rng.randrange(view.players)

    def next_action(self, view: View, rng: random.Random) -> Choice | None:
        if view.can_stop and rng.random() < 0.5:
            return None
        if view.can_pass and rng.random() < 0.3:
            return PASS
        unconfirmed = view.unconfirmed
        seats = range(view.players)
        kinds = ["question", "question", "no_targets"] + (["name", "name"] if unconfirmed else [])
        kind = rng.choice(kinds)
        if kind == "no_targets":
            return NO_TARGETS
        if kind == "name":
            limit = min(len(unconfirmed), view.rules.max_named_per_action or view.players, 3)
            named = sorted(rng.sample(unconfirmed, rng.randint(1, limit)))
            return Choice("name", tuple(named))
        roll = rng.random()
        if roll < 0.4:
            question = Question("is_target", about=rng.randrange(view.players))
        elif roll < 0.7:
            size = rng.randint(1, view.players)
            question = Question("any_target", among=tuple(sorted(rng.sample(seats, size))))
        elif roll < 0.85:
            question = Question("target_count", value=rng.randint(0, view.players))
        else:
            question = Question("is_ghost", about=rng.randrange(view.players))
        return Choice("question", question=question)

    def ghost_answer(
        self, view: View, choice: Choice, truth: bool | None, rng: random.Random
    ) -> bool:
        return rng.random() < 0.5


# What a player expects the ghost to do when picking targets: a weight per number of targets
# (0, 1, 2, ...), shared out evenly over the target sets of that size.
_SIZE_WEIGHTS = (1.0, 3.0, 3.0, 2.0, 1.0, 0.5, 0.25)

@dataclass(frozen=True)
class _Masks:
    """Per player count: the prior over target masks and lookups the bots reuse."""

    prior: tuple[float, ...]  # weight of each target mask before any answer
    members: tuple[tuple[int, ...], ...]  # the seats in each mask
    holding: tuple[tuple[int, ...], ...]  # per seat, the masks that hold it
    said: dict[tuple[str, int], tuple[tuple[int, ...], tuple[int, ...]]]  # see _said


_MASKS: dict[int, _Masks] = {}


def _masks(n: int) -> _Masks:
    cached = _MASKS.get(n)
    if cached is None:
        members = tuple(tuple(s for s in range(n) if mask >> s & 1) for mask in range(1 << n))
        sizes = [0] * (n + 1)
        for seats in members:
            sizes[len(seats)] += 1
        prior = tuple(
            _SIZE_WEIGHTS[min(len(seats), len(_SIZE_WEIGHTS) - 1)] / sizes[len(seats)]
            for seats in members
        )
        holding = tuple(tuple(m for m in range(1 << n) if m >> s & 1) for s in range(n))
        cached = _MASKS[n] = _Masks(prior, members, holding, {})
    return cached


def _said(n: int, kind: str, value: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """(masks where a statement is false, masks where it is true), cached.

    ``kind`` is ``all`` (every seat of the mask ``value`` is a target), ``any`` (some seat
    of it is) or ``count`` (exactly ``value`` targets).
    """
    table = _masks(n).said
    key = (kind, value)
    cached = table.get(key)
    if cached is None:
        if kind == "all":
            truth = [m & value == value for m in range(1 << n)]
        elif kind == "any":
            truth = [bool(m & value) for m in range(1 << n)]
        else:
            truth = [m.bit_count() == value for m in range(1 << n)]
        cached = table[key] = (
            tuple(m for m, t in enumerate(truth) if not t),
            tuple(m for m, t in enumerate(truth) if t),
        )
    return cached


def _mask(seats: Iterable[int]) -> int:
    out = 0
    for s in seats:
        out |= 1 << s
    return out


class Deductions:
    """What a player makes of one big round's public play.

    Each possible target set T (a bit mask of seats) is weighed by the prior and by the
    answers it would make false. Only the ghost lies, and only on its own turn, but nobody
    knows who the ghost is: a player trusts for certain only their own answers, the answers
    of a seat whose naming confirmed someone (the ghost's namings never confirm), and, once
    the ghost is unmasked (a pass, a "yes" that confirmed nobody or ended nothing), every
    other seat's. Any other seat's answers are only believed: a seat that would have lied
    for T to hold costs T the factor ``doubt``, and a second such seat nearly rules T out,
    since only the ghost lies.

    ``bad[T]`` holds the seats with an answer false under T; a player's own "is X the
    ghost?" answered yes unmasks X for that player alone.
    """

    __slots__ = ("n", "bad", "ghost", "not_ghost", "confirmed", "failed", "ghost_answers",
                 "events")

    def __init__(self, n: int) -> None:
        self.n = n
        self.bad = [0] * (1 << n)
        self.ghost: int | None = None
        self.not_ghost = 0
        self.confirmed = 0
        self.failed: list[int] = []  # masks of namings answered X
        self.ghost_answers: list[tuple[int, int, bool]] = []  # (asker, about, answer)
        self.events = 0

    def copy(self) -> Deductions:
        other = Deductions.__new__(Deductions)
        other.n = self.n
        other.bad = list(self.bad)
        other.ghost = self.ghost
        other.not_ghost = self.not_ghost
        other.confirmed = self.confirmed
        other.failed = list(self.failed)
        other.ghost_answers = list(self.ghost_answers)
        other.events = self.events
        return other

    def _contradicts(self, seat: int, kind: str, value: int, answer: bool) -> None:
        """Mark the masks under which ``seat``'s answer about a statement was false."""
        false, true = _said(self.n, kind, value)
        bit = 1 << seat
        bad = self.bad
        for mask in true if not answer else false:
            bad[mask] |= bit

    def observe(self, event: Event) -> None:
        self.events += 1
        seat, choice, answer = event.seat, event.choice, event.answer
        if choice.kind == "pass":
            self.ghost = seat  # only the ghost may pass
        elif choice.kind == "name":
            named = _mask(choice.named)
            if answer and event.confirms:
                self.confirmed |= named
                self.not_ghost |= 1 << seat
            elif answer:
                self.ghost = seat  # a "yes" that confirms nobody: the ghost's own naming
            else:
                self.failed.append(named)
                self._contradicts(seat, "all", named, False)
        elif choice.kind == "no_targets":
            if answer:
                self.ghost = seat  # a true "no targets" would have ended the big round
            else:
                self.bad[0] |= 1 << seat
        elif choice.kind == "question" and choice.question is not None and answer is not None:
            q = choice.question
            if q.asks == "is_ghost" and q.about is not None:
                self.ghost_answers.append((seat, q.about, answer))
            elif q.asks == "is_target" and q.about is not None:
                self._contradicts(seat, "all", 1 << q.about, answer)
            elif q.asks == "any_target" and q.among:
                self._contradicts(seat, "any", _mask(q.among), answer)
            elif q.asks == "target_count" and q.value is not None:
                self._contradicts(seat, "count", q.value, answer)

    def posterior(self, viewer: int | None = None, doubt: float = 0.0) -> list[float]:
        """Weight of each target mask (unnormalised) as ``viewer`` sees it.

        ``viewer`` is the seat looking, sure of its own answers; None weighs the table as a
        whole (the ghost uses this to judge its lies).
        """
        n = self.n
        prior = _masks(n).prior
        ghost = self.ghost
        if viewer is not None and ghost is None:
            for asker, about, answer in self.ghost_answers:
                if asker == viewer and answer:
                    ghost = about
        sure = self.not_ghost
        if viewer is not None:
            sure |= 1 << viewer
        ignored = 0
        if ghost is not None and ghost != viewer:
            ignored = 1 << ghost
            sure = ((1 << n) - 1) & ~ignored
        # Only the ghost lies: a target set that needs two liars is next to impossible.
        factors = [1.0, doubt] + [doubt * 0.1] * n
        confirmed = self.confirmed
        weights = [0.0] * (1 << n)
        bad = self.bad
        keep = ~ignored
        # Confirmed seats are targets, and the big round goes on, so someone else is too.
        for mask in _said(n, "all", confirmed)[1] if confirmed else range(1 << n):
            b = bad[mask] & keep
            if not b:
                weights[mask] = prior[mask]
            elif not b & sure:
                weights[mask] = prior[mask] * factors[b.bit_count()]
        if confirmed:
            weights[confirmed] = 0.0
        return weights


def _chance_all(weights: Sequence[float], total: float, n: int, named: int) -> float:
    """Chance that every seat in ``named`` is a target."""
    return sum(weights[m] for m in _said(n, "all", named)[1]) / total


def _marginals(
    weights: Sequence[float], total: float, n: int, seats: Iterable[int]
) -> dict[int, float]:
    """Chance of each of ``seats`` being a target."""
    holding = _masks(n).holding
    return {s: sum(weights[m] for m in holding[s]) / total for s in seats}


# How sure a greedy player must be before naming or asking "no targets?" on a turn that is
# not their last chance; below it they ask a question instead.
SURE = 0.8
# How far a player believes an answer given on another player's turn: a seat whose answers
# would all have to be lies keeps this share of the weight.
DOUBT = 0.65


class GreedyBot:
    """A reasonable player, not a perfect one.

    As a player it weighs every target set by the public answers (``Deductions``): its own
    answers are certain, anyone else's only believed (any of them may be the ghost). It
    names the likeliest seats together once sure enough (the score multiplies) and asks
    "no targets?" once sure enough of that; on its last chance it takes the best bet.
    Otherwise it checks a hunch, "is my likeliest seat a target?", so that a "yes" can be
    named with its second marker; with markers to spare it opens with "exactly N targets?".
    It never names again a set already answered X (nor a larger one) unless that answer
    has become near certainly a lie.

    As the ghost it takes as many targets as the players expect, starts every small round
    itself, and on its own turns says whatever leaves its targets least suspected by the
    table as a whole: usually a false "no" about its best-hidden target, or a false "yes"
    when it took nobody. A pass shows who the ghost is, so it passes once unmasked, or when
    every answer it could give would leave its targets more suspected still.
    """

    name = "greedy"

    def __init__(self) -> None:
        self._deductions: Deductions | None = None
        self._first: Event | None = None
        self._answer: tuple[Choice, bool] | None = None

    def _sync(self, view: View) -> Deductions:
        history = view.history
        d = self._deductions
        if (
            d is None
            or d.n != view.players
            or (history and history[0] is not self._first)
            or len(history) < d.events
            or (not history and d.events)
        ):
            d = self._deductions = Deductions(view.players)
            self._first = history[0] if history else None
        for event in history[d.events :]:
            d.observe(event)
        return d

    def choose_targets(self, view: View, rng: random.Random) -> Iterable[int]:
        # As many targets as the players expect (the weights they reason with), anyone.
        sizes = range(view.players + 1)
        weights = [_SIZE_WEIGHTS[min(k, len(_SIZE_WEIGHTS) - 1)] for k in sizes]
        return rng.sample(range(view.players), rng.choices(sizes, weights)[0])

    def choose_start(self, view: View, rng: random.Random) -> int:
        # The ghost starts every small round itself, to plant a lie before anyone has asked.
        return view.seat

    def next_action(self, view: View, rng: random.Random) -> Choice | None:
        if view.is_ghost:
            return self._ghost_action(view, rng)
        d = self._sync(view)
        n = view.players
        rules = view.rules
        weights = d.posterior(view.seat, DOUBT)
        total = sum(weights)
        unconfirmed = view.unconfirmed
        if total <= 0:  # cannot happen while answers are honest, but stay legal
            return Choice("name", (unconfirmed[0],)) if unconfirmed else NO_TARGETS
        marginal = _marginals(weights, total, n, unconfirmed)
        order = list(unconfirmed)
        rng.shuffle(order)
        order.sort(key=lambda s: -marginal[s])

        bets: list[tuple[float, float, Choice]] = []  # (expected points, chance, choice)
        if not view.confirmed:
            empty = weights[0] / total
            bets.append((empty * no_targets_points(rules, n), empty, NO_TARGETS))
        limit = rules.max_named_per_action or n
        named = 0
        for k, seat in enumerate(order[:limit], 1):
            named |= 1 << seat
            chance = _chance_all(weights, total, n, named)
            if chance <= 0:
                break
            if chance < 0.9 and any(f & named == f for f in d.failed):
                continue  # a set answered X before, and not near certain now
            bets.append((chance * _naming_points(rules, view.round_value, k), chance,
                         Choice("name", tuple(sorted(order[:k])))))
        sure = [b for b in bets if b[1] >= SURE]
        if sure:
            return max(sure, key=lambda b: b[0])[2]
        last_chance = view.markers_left == 1 or (
            view.rounds_left == 0 and view.actions_possible() == 1
        )
        if last_chance:
            # No long shots on a multiplied score: a group is named only if it is even odds.
            fair = [b for b in bets if b[1] >= 0.5 or b[2].kind != "name" or len(b[2].named) == 1]
            best = max(fair, key=lambda b: b[0], default=None)
            if best is not None and best[0] > 0:
                return best[2]
        spare = view.markers_left is not None and view.markers_left > view.rounds_left
        if view.acted and view.can_stop and not spare:
            return None
        return self._question(view, weights, total, order)

    def _question(
        self, view: View, weights: Sequence[float], total: float, order: Sequence[int]
    ) -> Choice:
        """A hunch checked: "is my likeliest seat a target?", so a "yes" can be named at once.

        With markers to spare a player opens the big round with "do you take exactly N?" (N
        the likeliest count), as in the rules' example, unless someone asked the count already.
        """
        n = view.players
        if not any(
            e.seat == view.seat or (e.choice.question and e.choice.question.asks == "target_count")
            for e in view.history
        ):
            members = _masks(n).members
            counts = [0.0] * (n + 1)
            for mask, w in enumerate(weights):
                if w:
                    counts[len(members[mask])] += w / total
            likeliest = max(range(n + 1), key=lambda k: counts[k])
            plenty = (view.markers_left or 0) * (n - 1) >= 2 * n
            if plenty and 0.25 <= counts[likeliest] <= 0.75:
                return Choice("question", question=Question("target_count", value=likeliest))
        return Choice("question", question=Question("is_target", about=order[0]))

    # -- the ghost ----------------------------------------------------------------------

    def _danger(self, d: Deductions, hidden: int) -> float:
        """How close the table is to finding every target (lower suits the ghost)."""
        weights = d.posterior(None, DOUBT)
        total = sum(weights)
        if total <= 0:
            return 1.0
        if not hidden:
            return weights[0] / total  # how sure they are that nobody was taken
        found = list(_marginals(weights, total, d.n, _masks(d.n).members[hidden]).values())
        return min(found) + 0.25 * sum(found) / len(found)

    def _ghost_action(self, view: View, rng: random.Random) -> Choice | None:
        d = self._sync(view)
        targets = _mask(view.targets or ())
        hidden = targets & ~d.confirmed
        if d.ghost == view.seat:
            # Unmasked: nothing it says counts any more.
            if view.acted:
                return None
            if view.can_pass:
                return PASS
            return self._plan(Choice("question", question=Question("is_ghost", about=view.seat)),
                              False)
        # Every answer it could give, judged by how suspected its targets are afterwards.
        now = self._danger(d, hidden)
        unconfirmed = view.unconfirmed
        others = [s for s in unconfirmed if not hidden >> s & 1]
        options: list[tuple[Choice, bool]] = []
        for s in unconfirmed:
            # A false "no" about a target, a false "yes" about anyone else, or the truth.
            lie = not hidden >> s & 1
            options.append((Choice("question", question=Question("is_target", about=s)), lie))
            if not lie:
                options.append((Choice("question", question=Question("is_target", about=s)),
                                False))
        if hidden:
            for t in unconfirmed:
                if hidden >> t & 1:
                    for o in others[:3]:
                        pair = tuple(sorted((t, o)))
                        options.append(
                            (Choice("question", question=Question("any_target", among=pair)),
                             False))
        else:
            options.append((NO_TARGETS, False))
            for i, a in enumerate(unconfirmed):
                for b in unconfirmed[i + 1 :]:
                    options.append(
                        (Choice("question", question=Question("any_target", among=(a, b))),
                         True))
        if view.can_pass:
            options.append((PASS, False))  # it unmasks the ghost: rarely the best
        best: tuple[float, float] | None = None
        pick = 0
        for i, (choice, answer) in enumerate(options):
            trial = d.copy()
            trial.observe(Event(view.seat, choice, None if choice is PASS else answer, ()))
            key = (self._danger(trial, hidden), rng.random())
            if best is None or key < best:
                best, pick = key, i
        assert best is not None
        if view.acted and best[0] > now - 0.1:
            return None
        choice, answer = options[pick]
        return choice if choice is PASS else self._plan(choice, answer)

    def _plan(self, choice: Choice, answer: bool) -> Choice:
        self._answer = (choice, answer)
        return choice

    def ghost_answer(
        self, view: View, choice: Choice, truth: bool | None, rng: random.Random
    ) -> bool:
        if self._answer is not None and self._answer[0] is choice:
            return self._answer[1]
        # A "yes" to its own naming would confirm nobody and so unmask the ghost.
        return False if choice.kind != "question" or truth is None else truth


BOTS: dict[str, Callable[[], Bot]] = {"random": RandomBot, "greedy": GreedyBot}


# --------------------------------------------------------------------------------------------
# Play


def _seat_bots(bots: str | Sequence[str] | None, players: int) -> list[Bot]:
    names: Sequence[str]
    if bots is None:
        names = ["greedy"] * players
    elif isinstance(bots, str):
        names = [bots] * players
    else:
        names = list(bots)
    if len(names) != players:
        raise ValueError(f"{len(names)} bots given for {players} players")
    unknown = [n for n in names if n not in BOTS]
    if unknown:
        raise ValueError(f"unknown bot {unknown[0]!r} (known: {', '.join(BOTS)})")
    return [BOTS[n]() for n in names]


def _question_ok(q: Question, n: int) -> bool:
    def seat_ok(s: int | None) -> bool:
        return isinstance(s, int) and not isinstance(s, bool) and 0 <= s < n

    if q.asks in ("is_target", "is_ghost"):
        return seat_ok(q.about)
    if q.asks == "any_target":
        among = q.among or ()
        return bool(among) and len(set(among)) == len(among) and all(map(seat_ok, among))
    if q.asks == "target_count":
        return is_integer(q.value)
    return False  # bots ask only questions whose answers the rules can check


def _check_choice(view: View, choice: Choice, bot: Bot) -> None:
    """Bots are trusted with nothing: an illegal choice is a bug to surface at once."""
    n = view.players
    if choice.kind == "pass":
        ok = view.can_pass
    elif choice.kind == "no_targets":
        ok = not choice.named
    elif choice.kind == "question":
        q = choice.question
        ok = q is not None and _question_ok(q, n)
    elif choice.kind == "name":
        limit = view.rules.max_named_per_action or n
        ok = (
            0 < len(choice.named) <= limit
            and len(set(choice.named)) == len(choice.named)
            and all(0 <= s < n and s not in view.confirmed for s in choice.named)
        )
    else:
        ok = False
    if not ok:
        raise RuntimeError(f"bot {bot.name} chose an illegal action: {choice}")


def play(
    rules: TisiguiRules,
    players: int,
    rng: random.Random,
    seed: int = 1,
    variant: str | None = None,
    bots: str | Sequence[str] | None = None,
) -> dict[str, Any]:
    """Play one whole game with bots (default: greedy everywhere) and return its event log.

    ``seed`` is only recorded; all randomness comes from ``rng``. ``variant``, when given, must
    name the variant the rules were built for (it guards against mixing them up).
    """
    if variant and variant != rules.variant:
        raise ValueError(f"rules are for variant {rules.variant!r}, not {variant!r}")
    if players not in playable_counts(rules):
        raise ValueError(
            f"tisigui plays {rules.min_players}–{rules.max_players} players with a setup row "
            f"each; {players} is not playable"
        )
    seat_bots = _seat_bots(bots, players)
    scores = [0] * players
    big_rounds: list[dict[str, Any]] = []
    die = first_big_die(rules, players)
    while True:
        big_round = _play_big_round(rules, players, die, rng, seat_bots, scores)
        roll = rng.randint(1, rules.small_die_sides) if _needs_roll(rules, die) else None
        big_round["roll"] = roll
        big_round["scores_after"] = list(scores)
        big_rounds.append(big_round)
        if _is_last(rules, die, roll):
            break
        die -= 1
    ranking, places = rank(rules, scores, big_rounds[-1]["start"])
    return {
        "game": SLUG,
        "seed": seed,
        "players": players,
        "variant": rules.variant,
        "bots": [b.name for b in seat_bots],
        "big_rounds": big_rounds,
        "scores": scores,
        "ranking": ranking,
        "places": places,
        "winners": [s for s in range(players) if places[s] == 1],
    }


def _play_big_round(
    rules: TisiguiRules,
    n: int,
    die: int,
    rng: random.Random,
    bots: list[Bot],
    scores: list[int],
) -> dict[str, Any]:
    row = setup_for(rules, n)
    values = _round_values(rules, row)
    ghost = rng.randrange(n)
    ghost_bot = bots[ghost]

    def view(seat: int, **kw: Any) -> View:
        secret = seat == ghost
        defaults: dict[str, Any] = {
            "rules": rules,
            "players": n,
            "seat": seat,
            "ghost": ghost if secret else None,
            "targets": targets if secret else None,
            "confirmed": tuple(confirmed),
            "small_round": 0,
            "round_value": values[0],
            "rounds_left": len(values),
            "markers_left": None,
            "acted": 0,
            "can_stop": False,
            "can_pass": False,
            "history": tuple(history),
        }
        defaults.update(kw)
        return View(**defaults)

    confirmed: list[int] = []
    history: list[Event] = []
    targets: frozenset[int] = frozenset()
    chosen = set(ghost_bot.choose_targets(view(ghost), rng))
    if not all(is_integer(s) and 0 <= s < n for s in chosen):
        raise RuntimeError(f"bot {ghost_bot.name} chose impossible targets {chosen}")
    targets = frozenset(chosen)
    deal = Deal(n, ghost, targets)
    if rules.start_player == "ghost_picks":
        start = ghost_bot.choose_start(view(ghost), rng)
        if not (is_integer(start) and 0 <= start < n):
            raise RuntimeError(f"bot {ghost_bot.name} chose an impossible start {start}")
    else:
        # Rolling again on a face nobody's shield shows makes every seat equally likely.
        start = rng.randrange(n)

    markers = [row.question_markers or 0] * n if rules.use_question_markers else None
    lo, hi = rules.actions_per_turn
    turns: list[dict[str, Any]] = []
    end: End | None = None
    for index, value in enumerate(values):
        for k in range(n):
            seat = (start + k) % n
            actions: list[dict[str, Any]] = []
            turns.append(
                {"small_round": index + 1, "round_value": value, "seat": seat, "actions": actions}
            )
            bot = bots[seat]
            while end is None:
                left = markers[seat] if markers is not None else None
                if left == 0 or len(actions) >= hi:
                    break
                v = view(
                    seat,
                    small_round=index + 1,
                    round_value=value,
                    rounds_left=len(values) - index - 1,
                    markers_left=left,
                    acted=len(actions),
                    can_stop=len(actions) >= lo,
                    can_pass=seat == ghost and rules.ghost_may_pass and not actions,
                )
                choice = bot.next_action(v, rng)
                if choice is None:
                    if not v.can_stop:
                        raise RuntimeError(f"bot {bot.name} ended a turn before acting")
                    break
                _check_choice(v, choice, bot)
                if choice.kind == "pass":
                    actions.append(
                        {"kind": "pass", "named": [], "answer": None, "points": 0, "truth": None}
                    )
                    break
                truth = _truth(choice.kind, choice.named, choice.question, deal)
                if seat != ghost:
                    answer = bool(truth)
                elif choice.kind != "question" and rules.ghost_own_naming == "always_no":
                    answer = False
                else:
                    answer = bool(ghost_bot.ghost_answer(v, choice, truth, rng))
                points, newly, end = _settle(
                    rules, deal, confirmed, seat, value, choice.kind, choice.named, answer
                )
                confirmed.extend(newly)
                scores[seat] += points
                if markers is not None:
                    markers[seat] -= 1
                action: dict[str, Any] = {
                    "kind": choice.kind,
                    "named": list(choice.named),
                    "answer": answer,
                    "points": points,
                    "truth": truth,
                }
                if choice.question is not None:
                    action["question"] = choice.question.to_json()
                if choice.kind == "name":
                    action["confirms"] = newly
                actions.append(action)
                history.append(Event(seat, choice, answer, tuple(newly)))
            if end is not None:
                break
        if end is not None:
            break

    if end is None:
        end = "rounds_out"
        points = ghost_points(rules, n, len(confirmed))
    else:
        points = 0
    scores[ghost] += points
    return {
        "big_die": die,
        "ghost": ghost,
        "targets": sorted(targets),
        "start": start,
        "question_markers": row.question_markers if rules.use_question_markers else None,
        "turns": turns,
        "confirmed": confirmed,
        "end": end,
        "ghost_points": points,
    }


# --------------------------------------------------------------------------------------------
# Replay


class _Malformed(Exception):
    """The log's shape is too broken to go on checking."""


class _Replay:
    def __init__(self, rules: TisiguiRules) -> None:
        self.rules = rules
        self.problems: list[str] = []

    def bad(self, where: str, message: str) -> None:
        self.problems.append(f"{where}: {message}")

    def get(self, obj: Any, key: str, where: str) -> Any:
        if not isinstance(obj, Mapping):
            self.bad(where or "log", "expected an object")
            raise _Malformed
        if key not in obj:
            self.bad(f"{where}.{key}" if where else key, "missing")
            raise _Malformed
        return obj[key]

    def seat(self, value: Any, n: int, where: str) -> bool:
        if not is_integer(value) or not 0 <= value < n:
            self.bad(where, f"expected a seat 0–{n - 1}, got {value!r}")
            return False
        return True

    def seats(self, value: Any, n: int, where: str) -> list[int] | None:
        if not is_list(value):
            self.bad(where, f"expected a list of seats, got {value!r}")
            return None
        ok = all(self.seat(s, n, f"{where}[{i}]") for i, s in enumerate(value))
        if ok and len(set(value)) != len(value):
            self.bad(where, "a seat appears twice")
            ok = False
        return list(value) if ok else None

    def expect(self, where: str, found: Any, expected: Any) -> None:
        if found != expected or type(found) is not type(expected):
            self.bad(where, f"expected {expected!r}, log says {found!r}")

    # -- the game -------------------------------------------------------------------------

    def run(self, log: Mapping[str, Any]) -> None:
        rules = self.rules
        self.expect("game", self.get(log, "game", ""), SLUG)
        if log.get("variant") != rules.variant:
            self.bad("variant", f"expected {rules.variant!r}, log says {log.get('variant')!r}")
        n = self.get(log, "players", "")
        if not is_integer(n) or n not in playable_counts(rules):
            self.bad("players", f"{n!r} is not a playable player count")
            raise _Malformed
        big_rounds = self.get(log, "big_rounds", "")
        if not is_list(big_rounds) or not big_rounds:
            self.bad("big_rounds", "expected at least one big round")
            raise _Malformed
        scores = [0] * n
        die = first_big_die(rules, n)
        last_start = 0
        for i, big_round in enumerate(big_rounds):
            where = f"big_rounds[{i}]"
            last_start = self.big_round(big_round, n, die, scores, where)
            roll = self.get(big_round, "roll", where)
            if _needs_roll(rules, die):
                if not is_integer(roll) or not 1 <= roll <= rules.small_die_sides:
                    self.bad(
                        f"{where}.roll",
                        f"a big round played at {die} needs a roll of the "
                        f"d{rules.small_die_sides}, log says {roll!r}",
                    )
                    roll = None
            elif roll is not None:
                self.bad(f"{where}.roll", f"no roll is made after a big round played at {die}")
                roll = None
            if "scores_after" in big_round:
                self.expect(f"{where}.scores_after", big_round["scores_after"], list(scores))
            last = _is_last(rules, die, roll)
            if last and i < len(big_rounds) - 1:
                self.bad(where, "the game ends after this big round, yet the log goes on")
                break
            if not last and i == len(big_rounds) - 1:
                self.bad(where, "the game does not end after this big round, yet the log stops")
            die -= 1
        self.expect("scores", self.get(log, "scores", ""), scores)
        ranking, places = rank(rules, scores, last_start)
        self.expect("ranking", self.get(log, "ranking", ""), ranking)
        if "places" in log:
            self.expect("places", log["places"], places)
        if "winners" in log:
            self.expect("winners", log["winners"], [s for s in range(n) if places[s] == 1])

    def big_round(self, big_round: Any, n: int, die: int, scores: list[int], where: str) -> int:
        rules = self.rules
        self.expect(f"{where}.big_die", self.get(big_round, "big_die", where), die)
        ghost = self.get(big_round, "ghost", where)
        start = self.get(big_round, "start", where)
        if not (self.seat(ghost, n, f"{where}.ghost") and self.seat(start, n, f"{where}.start")):
            raise _Malformed
        listed = self.seats(self.get(big_round, "targets", where), n, f"{where}.targets")
        if listed is None:
            raise _Malformed
        targets = frozenset(listed)
        row = setup_for(rules, n)
        if "question_markers" in big_round:
            self.expect(
                f"{where}.question_markers",
                big_round["question_markers"],
                row.question_markers if rules.use_question_markers else None,
            )
        values = _round_values(rules, row)
        order = [(r + 1, v, (start + k) % n) for r, v in enumerate(values) for k in range(n)]
        markers = [row.question_markers or 0] * n if rules.use_question_markers else None
        lo, hi = rules.actions_per_turn
        confirmed: list[int] = []
        end: End | None = None
        turns = self.get(big_round, "turns", where)
        if not is_list(turns):
            self.bad(f"{where}.turns", "expected a list")
            raise _Malformed
        for t, turn in enumerate(turns):
            tw = f"{where}.turns[{t}]"
            if end is not None:
                self.bad(tw, f"a turn after the big round ended ({end})")
                break
            if t >= len(order):
                self.bad(tw, "more turns than the small rounds allow")
                break
            small_round, value, seat = order[t]
            self.expect(f"{tw}.small_round", self.get(turn, "small_round", tw), small_round)
            self.expect(f"{tw}.round_value", self.get(turn, "round_value", tw), value)
            self.expect(f"{tw}.seat", self.get(turn, "seat", tw), seat)
            actions = self.get(turn, "actions", tw)
            if not is_list(actions):
                self.bad(f"{tw}.actions", "expected a list")
                raise _Malformed
            left = markers[seat] if markers is not None else None
            kinds = [a.get("kind") if isinstance(a, Mapping) else None for a in actions]
            if "pass" in kinds:
                if seat != ghost or not rules.ghost_may_pass:
                    self.bad(tw, "only the ghost may pass, and only where the rules allow it")
                elif len(actions) != 1:
                    self.bad(tw, "a pass is the whole turn")
            elif left == 0:
                if actions:
                    self.bad(tw, "a player with no markers left skips the turn")
            else:
                cap = hi if left is None else min(hi, left)
                if len(actions) > cap:
                    self.bad(tw, f"{len(actions)} actions, at most {cap} allowed here")
            for a, action in enumerate(actions):
                aw = f"{tw}.actions[{a}]"
                if end is not None:
                    self.bad(aw, f"an action after the big round ended ({end})")
                    break
                points, end = self.action(action, n, ghost, targets, confirmed, seat, value, aw)
                if markers is not None and action["kind"] != "pass":
                    markers[seat] -= 1
                scores[seat] += points
            if end is None and "pass" not in kinds and left != 0 and len(actions) < lo:
                self.bad(tw, f"{len(actions)} actions, at least {lo} required")
        if end is None:
            if len(turns) < len(order):
                self.bad(
                    f"{where}.turns",
                    f"{len(turns)} turns, but the big round had not ended: {len(order)} expected",
                )
            end = "rounds_out"
        self.expect(f"{where}.end", self.get(big_round, "end", where), end)
        self.expect(f"{where}.confirmed", self.get(big_round, "confirmed", where), confirmed)
        points = ghost_points(rules, n, len(confirmed)) if end == "rounds_out" else 0
        self.expect(f"{where}.ghost_points", self.get(big_round, "ghost_points", where), points)
        scores[ghost] += points
        return start

    def action(
        self,
        action: Any,
        n: int,
        ghost: int,
        targets: frozenset[int],
        confirmed: list[int],
        seat: int,
        value: int,
        where: str,
    ) -> tuple[int, End | None]:
        """Check one action; return the points it really earns and the end it causes."""
        rules = self.rules
        kind = self.get(action, "kind", where)
        if kind not in ACTION_KINDS:
            self.bad(f"{where}.kind", f"unknown kind {kind!r}")
            return 0, None
        named = self.seats(self.get(action, "named", where), n, f"{where}.named")
        named = named if named is not None else []
        answer = self.get(action, "answer", where)
        logged_points = self.get(action, "points", where)
        if kind == "pass":
            if answer is not None:
                self.bad(f"{where}.answer", "a pass has no answer")
            self.expect(f"{where}.points", logged_points, 0)
            return 0, None

        if kind == "name":
            if not named:
                self.bad(f"{where}.named", "a naming names at least one player")
            limit = rules.max_named_per_action
            if limit is not None and len(named) > limit:
                self.bad(f"{where}.named", f"at most {limit} players may be named at once")
            if again := [s for s in named if s in confirmed]:
                self.bad(f"{where}.named", f"seats {again} are already confirmed")
        elif named:
            self.bad(f"{where}.named", f"a {kind} names nobody")

        question = None
        if kind == "question" and "question" in action:
            question = self.question(action["question"], n, f"{where}.question")
        truth = _truth(kind, named, question, Deal(n, ghost, targets))
        if "truth" in action and action["truth"] != truth and truth is not None:
            self.bad(f"{where}.truth", f"the true answer is {truth!r}")

        if not isinstance(answer, bool):
            self.bad(f"{where}.answer", f"expected true or false, got {answer!r}")
            answer = bool(truth)
        elif seat != ghost:
            if truth is not None and answer != truth:
                self.bad(f"{where}.answer", f"only the ghost may lie; the truth is {truth!r}")
                answer = truth
        elif kind != "question" and rules.ghost_own_naming == "always_no" and answer:
            self.bad(f"{where}.answer", "the ghost's own namings are always answered X")

        deal = Deal(n, ghost, targets)
        points, newly, end = _settle(rules, deal, confirmed, seat, value, kind, named, answer)
        confirmed.extend(newly)
        self.expect(f"{where}.points", logged_points, points)
        if "confirms" in action:
            self.expect(f"{where}.confirms", action["confirms"], newly)
        return points, end

    def question(self, q: Any, n: int, where: str) -> Question | None:
        if not isinstance(q, Mapping) or q.get("asks") not in QUESTION_KINDS:
            self.bad(where, f"expected a question asking one of {', '.join(QUESTION_KINDS)}")
            return None
        asks = q["asks"]
        if asks in ("is_target", "is_ghost"):
            if not self.seat(q.get("about"), n, f"{where}.about"):
                return None
            return Question(asks, about=q["about"])
        if asks == "any_target":
            among = self.seats(q.get("among"), n, f"{where}.among")
            if not among:
                if among is not None:
                    self.bad(f"{where}.among", "names nobody")
                return None
            return Question(asks, among=tuple(among))
        if asks == "target_count":
            if not is_integer(q.get("value")):
                self.bad(f"{where}.value", "expected a whole number")
                return None
            return Question(asks, value=q["value"])
        return Question(asks, text=q.get("text"))


def replay(rules: TisiguiRules, log: Mapping[str, Any]) -> list[str]:
    """Re-check every step of an event log; an empty list means the game was legal."""
    checker = _Replay(rules)
    try:
        checker.run(log)
    except _Malformed:
        checker.problems.append("log: too malformed to check further")
    except (TypeError, AttributeError, KeyError) as exc:  # a shape the checks did not foresee
        checker.problems.append(f"log: malformed ({exc})")
    return checker.problems


# --------------------------------------------------------------------------------------------
# The engine object


def player_range(rules: TisiguiRules) -> tuple[int, int]:
    return rules.min_players, rules.max_players


def default_players(rules: TisiguiRules) -> int:
    """Five, the seed's worked example, or the playable count nearest to it."""
    playable = playable_counts(rules) or [rules.min_players]
    return min(playable, key=lambda n: (abs(n - 5), -n))
