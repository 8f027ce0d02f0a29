"""tisigui's playtest-night calculators (``pnp calc tisigui ...``)."""

from __future__ import annotations

from pnp.core.errors import PnpError
from pnp.games.calcargs import WHOLE, Option
from pnp.games.calculators import CalcResult, Calculator, make_result
from pnp.games.tisigui.rules import (
    TisiguiRules,
    ghost_points,
    naming_points,
    no_targets_points,
    playable_counts,
    small_round_values,
)


def _players_in_range(rules: TisiguiRules, players: int) -> None:
    if not rules.min_players <= players <= rules.max_players:
        raise PnpError(f"tisigui is played by {rules.min_players}–{rules.max_players} players, "
                       f"got --players {players}")


def naming(rules: TisiguiRules, round_value: int, named: int) -> CalcResult:
    """Points for a correct naming of ``named`` players in a small round worth ``round_value``."""
    values = sorted({v for n in playable_counts(rules)
                     for v in small_round_values(rules, n) if v >= 1})
    if round_value not in values:
        shown = ", ".join(map(str, values)) or "none"
        raise PnpError(f"no small round is worth {round_value} under these rules "
                       f"(small rounds are worth {shown})")
    if not 1 <= named <= rules.max_players:
        raise PnpError(f"a naming names 1–{rules.max_players} players, got --named {named}")
    try:
        points = naming_points(rules, round_value, named)
    except ValueError as exc:
        raise PnpError(str(exc)) from None
    if rules.naming_times_named:
        line = f"指认得分：{round_value} 分 × {named} 人 = {points} 分"
    else:
        line = f"指认得分：{round_value} 分（不论指认几人）= {points} 分"
    return make_result({"round_value": round_value, "named": named, "points": points}, [line])


def ghost(rules: TisiguiRules, players: int, confirmed: int) -> CalcResult:
    """The ghost's score when the small rounds run out with ``confirmed`` targets found."""
    _players_in_range(rules, players)
    try:
        points = ghost_points(rules, players, confirmed)
    except ValueError as exc:
        raise PnpError(str(exc)) from None
    per_player, per_confirmed = rules.ghost_per_player, rules.ghost_per_confirmed
    if per_player == 1 and per_confirmed == 1:
        line = f"碟仙得分：{players} 人 − {confirmed} 人已确认 = {points} 分"
    else:
        line = (f"碟仙得分：{players} 人 × {per_player} 分 − {confirmed} 人已确认 × "
                f"{per_confirmed} 分 = {points} 分")
    return make_result({"players": players, "confirmed": confirmed, "points": points}, [line])


def no_targets(rules: TisiguiRules, players: int) -> CalcResult:
    """Points for asking "no targets at all?" correctly."""
    _players_in_range(rules, players)
    points = no_targets_points(rules, players)
    line = f"无替身得分：{rules.no_targets_per_player} 分 × {players} 人 = {points} 分"
    return make_result({"players": players, "points": points}, [line])


_PLAYERS = Option("players", "Players at the table.", WHOLE, required=True)

CALCULATORS = (
    Calculator("naming", "Points for a correct naming.", naming, (
        Option("round_value", "What the small round is worth.", WHOLE, required=True),
        Option("named", "Players named (all of them targets).", WHOLE, required=True))),
    Calculator("ghost", "The ghost's score when the small rounds run out.", ghost, (
        _PLAYERS, Option("confirmed", "Targets confirmed.", WHOLE, required=True))),
    Calculator("no-targets", 'Points for asking "no targets at all?" correctly.', no_targets, (_PLAYERS,)),
)
