"""Playtest-night calculators (``pnp calc``): the engines' scoring helpers for people at a table.

Each calculator takes the game's rules (from card_data/<slug>/game.yaml, or the engine's
defaults when the game has no card_data yet) and the arguments as typed, and returns a
:class:`CalcResult`: the JSON object (``data``) and a few lines of text in the game's own
script (``lines``). Seats count from 1 here, as a table counts them. A bad argument raises
:class:`pnp.errors.PnpError`, so the user sees ``Error: ...`` and exit status 1.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any

from pnp.data.load import GAME_FILE
from pnp.data.yamlmarks import Located, load_yaml
from pnp.engines import aizhewudi, niutouwang, tisigui, wurenshenghuan
from pnp.engines.base import RulesError
from pnp.errors import DataError, PnpError
from pnp.workspace import Workspace

# game -> calculators, in the order ``pnp calc GAME --help`` lists them
CALCULATORS: dict[str, tuple[str, ...]] = {
    "aizhewudi": ("split",),
    "niutouwang": ("heads", "punish"),
    "tisigui": ("naming", "ghost", "no-targets"),
    "wurenshenghuan": ("score",),
}

_MODULES: dict[str, Any] = {
    "aizhewudi": aizhewudi,
    "niutouwang": niutouwang,
    "tisigui": tisigui,
    "wurenshenghuan": wurenshenghuan,
}


@dataclass(frozen=True)
class CalcResult:
    data: Mapping[str, Any]
    lines: tuple[str, ...]

    def as_json(self) -> dict[str, Any]:
        return dict(self.data)

    def text(self) -> str:
        return "\n".join(self.lines)


@dataclass(frozen=True)
class GameRules:
    """The rules a calculator uses, and a note when they are not the game's own card_data."""

    slug: str
    rules: Any
    note: str | None = None


def _result(data: dict[str, Any], lines: Sequence[str]) -> CalcResult:
    return CalcResult(MappingProxyType(data), tuple(lines))


def game_rules(workspace: Workspace | None, slug: str) -> GameRules:
    """The rules in card_data/<slug>/game.yaml; the engine's defaults (the rulings) if absent.

    Only game.yaml is read (the rules need nothing else), so a game whose cards are
    mid-edit still has working calculators.
    """
    if slug not in CALCULATORS:
        known = ", ".join(CALCULATORS)
        raise PnpError(f"no calculators for game {slug!r} (calculators exist for: {known})")
    module = _MODULES[slug]
    if workspace is None or slug not in workspace.game_slugs():
        where = "no workspace" if workspace is None else f"no {workspace.game_dir(slug)}"
        note = f"{where}: using the {slug} engine's default rules (the rulings)"
        return GameRules(slug, module.rules_from_mapping({}), note)
    # Only game.yaml: a card layout being edited must not stop a calculator at the table.
    doc = load_yaml(workspace.game_dir(slug) / GAME_FILE)
    mapping = doc.value.get("rules", {}) if isinstance(doc.value, dict) else {}
    try:
        return GameRules(slug, module.rules_from_mapping(mapping))
    except RulesError as exc:
        raise DataError([_rules_problem(doc, p) for p in exc.problems]) from None


def _rules_problem(doc: Located, problem: str) -> str:
    """``setup[0].players: message`` -> ``game.yaml:line: rules.setup[0].players: message``."""
    field, _, message = problem.partition(": ")
    path = tuple(int(i) if i else n for n, i in re.findall(r"([^.\[\]]+)|\[(\d+)\]", field))
    return f"{doc.where(('rules', *path))}: {message or problem}"


def check_calculator(slug: str, what: str) -> None:
    if what not in CALCULATORS.get(slug, ()):
        known = ", ".join(CALCULATORS.get(slug, ())) or "none"
        raise PnpError(f"unknown calculator {what!r} for {slug} (known: {known})")


_WHOLE = re.compile(r"[+-]?\d+")


def whole_number(text: str, what: str) -> int:
    """``"20000"``, ``"20,000"`` or ``"20_000"`` -> 20000; anything else is the user's error."""
    cleaned = text.strip().replace(",", "").replace("_", "")
    if not _WHOLE.fullmatch(cleaned):
        raise PnpError(f"{what} {text!r} is not a whole number")
    return int(cleaned)


def _money(value: int) -> str:
    return f"{value:,}"


# --------------------------------------------------------------------------------------------
# aizhewudi 愛者無敵


def split(rules: aizhewudi.AizhewudiRules, sharers: int, bills: Sequence[str]) -> CalcResult:
    """The largest equal share for ``sharers`` players from the bills on the table."""
    if sharers < 0:
        raise PnpError(f"--sharers must be 0 or more, got {sharers}")
    values = [whole_number(text, "bill") for text in bills]
    denominations = ", ".join(_money(d) for d in sorted(rules.denominations))
    bad = sorted({v for v in values if v not in rules.denominations})
    if bad:
        raise PnpError(f"not a bill of aizhewudi: {', '.join(_money(b) for b in bad)} "
                       f"(its bills are {denominations})")
    supply = {kind.value: kind.count for kind in rules.bills}
    for value, count in sorted(Counter(values).items()):
        if count > supply[value]:
            raise PnpError(f"{count} bills of {_money(value)} given, but the game has only "
                           f"{supply[value]}")
    try:
        result = aizhewudi.split(values, sharers, rules)
    except ValueError as exc:
        raise PnpError(str(exc)) from None
    data = result.as_dict()
    lines: list[str] = []
    if result.share:
        lines.append(f"{sharers} 人各分 {_money(result.share)}")
        lines += [f"第 {i} 份：{' + '.join(_money(b) for b in group)}"
                  for i, group in enumerate(result.groups, start=1)]
    elif sharers == 0:
        lines.append("沒有人分錢")
    elif not values:
        lines.append("桌上沒有鈔票")
    else:
        lines.append(f"{sharers} 人分不出相同的金額，沒有人分到錢")
    carried = " + ".join(_money(b) for b in result.carried) if result.carried else "無"
    lines.append(f"留到下一輪：{carried}")
    return _result(data, lines)


# --------------------------------------------------------------------------------------------
# niutouwang 誰是牛頭王 SP


def heads(rules: niutouwang.NiutouwangRules, card: int) -> CalcResult:
    try:
        count = niutouwang.heads(rules, card)
    except ValueError as exc:
        raise PnpError(str(exc)) from None
    return _result({"card": card, "heads": count}, [f"{card} 號牌：{count} 個牛頭"])


def punish(rules: niutouwang.NiutouwangRules, penalties: Sequence[str], base: int | None = None,
           paired: bool | None = None) -> CalcResult:
    """The SP ending for penalties given in seat order (seat 1 first)."""
    values = []
    for seat, text in enumerate(penalties, start=1):
        value = whole_number(text, f"penalty of seat {seat}")
        if value < 0:
            raise PnpError(f"penalty of seat {seat} must be 0 or more, got {value}")
        values.append(value)
    low, high = rules.min_players, rules.max_players
    if not low <= len(values) <= high:
        raise PnpError(f"the SP ending is for {low}–{high} players, got {len(values)} penalties")
    if base is not None and base < 1:
        raise PnpError(f"--base must be 1 or more, got {base}")
    try:
        rows = niutouwang.punish(rules, values, base, paired)
    except ValueError as exc:
        raise PnpError(str(exc)) from None
    players = [{"seat": r["seat"] + 1, "penalty": r["penalty"], "hits": r["hits"],
                "hitter": None if r["hitter"] is None else r["hitter"] + 1, "tie": r["tie"]}
               for r in rows]
    lines = ["座位  扣分  挨打  打人者"]
    for p in players:
        hitter = "自選" if p["hitter"] is None else f"{p['hitter']} 號"
        tie = "  同分" if p["tie"] else ""
        lines.append(f"{p['seat']:>4}  {p['penalty']:>4}  {p['hits']:>4}  {hitter}{tie}")
    return _result({"players": players}, lines)


# --------------------------------------------------------------------------------------------
# wurenshenghuan 無人生還


def score(rules: wurenshenghuan.WurenshenghuanRules, *, murderer: bool, kills: int | None,
          guess_day: int | None, correct: bool, alive: bool,
          guessed_before_death: bool) -> CalcResult:
    """One player's final score from the facts known at the end of the game."""
    if murderer:
        if kills is None:
            raise PnpError("the murderer's score needs --kills N (characters really killed)")
        if guess_day is not None or correct or guessed_before_death:
            raise PnpError("the murderer hands in no guess: drop --guess-day, --correct and "
                           "--guessed-before-death")
    else:
        if kills is not None:
            raise PnpError("only the murderer kills: --kills needs --murderer")
        if (correct or guessed_before_death) and guess_day is None:
            raise PnpError("a guess needs the day written on the slip: --guess-day D")
        if alive and guessed_before_death:
            raise PnpError("--alive and --guessed-before-death contradict: a character alive "
                           "at the end was never killed")
    try:
        parts = wurenshenghuan.score_parts(
            rules, role=wurenshenghuan.MURDERER if murderer else wurenshenghuan.INNOCENT,
            kills=kills or 0, guess_correct=correct, guess_day=guess_day,
            alive_at_end=alive, guessed_before_death=guessed_before_death)
    except ValueError as exc:
        raise PnpError(str(exc)) from None
    data: dict[str, Any] = {
        "role": "murderer" if murderer else "innocent",
        "kills": kills if murderer else None,
        "guess": None if guess_day is None else {"day": guess_day, "correct": correct},
        "alive": alive,
        "guessed_before_death": guessed_before_death,
        "breakdown": {"murderer": parts.murderer, "guess": parts.guess,
                      "survival": parts.survival},
        "points": parts.total,
    }
    lines: list[str] = []
    if murderer:
        lines.append(f"兇手：實際殺死 {kills} 個角色 → {parts.murderer} 分")
        lines.append("兇手不猜測，也沒有存活加分")
    else:
        if guess_day is None:
            lines.append("猜測：沒有交出 → 0 分")
        else:
            verdict = "猜中" if correct else "猜錯"
            lines.append(f"猜測：第 {guess_day} 天交出，{verdict} → {parts.guess} 分")
        if alive:
            lines.append(f"存活：角色活到最後 → +{parts.survival} 分")
        elif parts.survival:
            lines.append(f"存活：角色被殺前已交出正確的猜測 → +{parts.survival} 分")
        else:
            lines.append("存活：角色被殺，被殺前沒有猜中 → 0 分")
    lines.append(f"合計 {parts.total} 分")
    return _result(data, lines)


# --------------------------------------------------------------------------------------------
# tisigui 替死鬼


def _players_in_range(rules: tisigui.TisiguiRules, players: int) -> None:
    if not rules.min_players <= players <= rules.max_players:
        raise PnpError(f"tisigui is played by {rules.min_players}–{rules.max_players} players, "
                       f"got --players {players}")


def naming(rules: tisigui.TisiguiRules, round_value: int, named: int) -> CalcResult:
    """Points for a correct naming of ``named`` players in a small round worth ``round_value``."""
    values = sorted({v for n in tisigui.playable_counts(rules)
                     for v in tisigui.small_round_values(rules, n) if v >= 1})
    if round_value not in values:
        shown = ", ".join(map(str, values)) or "none"
        raise PnpError(f"no small round is worth {round_value} under these rules "
                       f"(small rounds are worth {shown})")
    if not 1 <= named <= rules.max_players:
        raise PnpError(f"a naming names 1–{rules.max_players} players, got --named {named}")
    try:
        points = tisigui.naming_points(rules, round_value, named)
    except ValueError as exc:
        raise PnpError(str(exc)) from None
    if rules.naming_times_named:
        line = f"指认得分：{round_value} 分 × {named} 人 = {points} 分"
    else:
        line = f"指认得分：{round_value} 分（不论指认几人）= {points} 分"
    return _result({"round_value": round_value, "named": named, "points": points}, [line])


def ghost(rules: tisigui.TisiguiRules, players: int, confirmed: int) -> CalcResult:
    """The ghost's score when the small rounds run out with ``confirmed`` targets found."""
    _players_in_range(rules, players)
    try:
        points = tisigui.ghost_points(rules, players, confirmed)
    except ValueError as exc:
        raise PnpError(str(exc)) from None
    per_player, per_confirmed = rules.ghost_per_player, rules.ghost_per_confirmed
    if per_player == 1 and per_confirmed == 1:
        line = f"碟仙得分：{players} 人 − {confirmed} 人已确认 = {points} 分"
    else:
        line = (f"碟仙得分：{players} 人 × {per_player} 分 − {confirmed} 人已确认 × "
                f"{per_confirmed} 分 = {points} 分")
    return _result({"players": players, "confirmed": confirmed, "points": points}, [line])


def no_targets(rules: tisigui.TisiguiRules, players: int) -> CalcResult:
    """Points for asking "no targets at all?" correctly."""
    _players_in_range(rules, players)
    points = tisigui.no_targets_points(rules, players)
    line = f"无替身得分：{rules.no_targets_per_player} 分 × {players} 人 = {points} 分"
    return _result({"players": players, "points": points}, [line])
