"""Replaying a logged niutouwang game: check the logged deal, then push the logged cards and
low-card row choices through the same ``state.Hand`` that play uses, and compare the typed
events it gives (written as JSON) with what the log says.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pnp.games.events import to_json
from pnp.games.niutouwang.rules import (
    MAX_OFFICIAL_ROUNDS,
    NiutouwangRules,
    slug,
    with_variant,
)
from pnp.games.niutouwang.scoring import punish, winners
from pnp.games.niutouwang.state import Hand, IllegalMove, Rows


def _as_rows(value: Any) -> Rows | None:
    try:
        return tuple(tuple(int(c) for c in row) for row in value)
    except (TypeError, ValueError):
        return None


def _check_deal(
    rules: NiutouwangRules, players: int, part: Mapping[str, Any], where: str
) -> tuple[list[str], Hand | None, list[int]]:
    """Problems with one logged deal; the hand it starts (None if unplayable) and the box."""
    problems: list[str] = []
    rows = _as_rows(part.get("rows"))
    hands_raw = part.get("hands")
    if rows is None or not isinstance(hands_raw, list):
        return [f"{where}: rows and hands must be lists of card lists"], None, []
    try:
        hands = [sorted(int(c) for c in h) for h in hands_raw]
    except (TypeError, ValueError):
        return [f"{where}.hands: must be lists of cards"], None, []
    if len(rows) != rules.rows or any(len(r) != 1 for r in rows):
        problems.append(f"{where}.rows: the game starts with {rules.rows} rows of one card")
    if len(hands) != players:
        return [*problems, f"{where}.hands: {len(hands)} hands for {players} players"], None, []
    size = rules.hand_size(players)
    for seat, cards in enumerate(hands):
        if len(cards) != size:
            problems.append(f"{where}.hands[{seat}]: {len(cards)} cards, the deal gives {size}")
    dealt = [c for r in rows for c in r] + [c for h in hands for c in h]
    deck = set(rules.deck)
    if len(set(dealt)) != len(dealt) or not set(dealt) <= deck:
        problems.append(f"{where}: the deal repeats cards or uses cards not in the deck")
        return problems, None, []
    box = sorted(deck - set(dealt))
    if "box" in part and sorted(part["box"]) != box:
        problems.append(f"{where}.box: {sorted(part['box'])} but the remainder is {box}")
    if problems:
        return problems, None, box
    return problems, Hand(rules, rows, hands), box


def _replay_deal(
    rules: NiutouwangRules, players: int, part: Mapping[str, Any], where: str
) -> tuple[list[str], list[int] | None]:
    """Check one deal and its turns; returns problems and the penalties it computes."""
    problems, hand, box = _check_deal(rules, players, part, where)
    if hand is None:
        return problems, None
    turns = part.get("turns")
    if not isinstance(turns, list):
        return [f"{where}.turns: missing"], None
    size = rules.hand_size(players)
    if len(turns) != size:
        problems.append(f"{where}.turns: {len(turns)} turns, the hands last {size}")
    piles: list[list[int]] = [[] for _ in range(players)]
    for t, turn in enumerate(turns):
        tw = f"{where}.turns[{t}]"
        plays = turn.get("plays") if isinstance(turn, Mapping) else None
        if not isinstance(plays, list) or len(plays) != players:
            problems.append(f"{tw}.plays: expected one card per seat")
            break
        logged = turn.get("placements")
        if not isinstance(logged, list) or len(logged) != players:
            problems.append(f"{tw}.placements: expected one per seat")
            break
        chosen = {
            (p.get("seat"), p.get("card")): p.get("row") for p in logged if isinstance(p, Mapping)
        }

        def choose(seat: int, card: int, _c: dict[Any, Any] = chosen) -> int:
            # A low card's row is the player's free choice: take the one the log records.
            row = _c.get((seat, card))
            return row if isinstance(row, int) and not isinstance(row, bool) else -1

        try:
            mine = hand.push(plays, choose)
        except IllegalMove as exc:
            problems.append(f"{tw}.plays: {exc}" if "hand" in str(exc) else f"{tw}: {exc}")
            break
        for i, (placement, theirs) in enumerate(zip(mine.placements, logged, strict=True)):
            given = to_json(placement)
            if given != (dict(theirs) if isinstance(theirs, Mapping) else theirs):
                problems.append(f"{tw}.placements[{i}]: logged {theirs}, rules give {given}")
            piles[placement.seat].extend(placement.took)
        if _as_rows(turn.get("rows")) != mine.rows:
            problems.append(f"{tw}.rows: logged {turn.get('rows')}, rules give "
                            f"{[list(r) for r in mine.rows]}")
        everything = [c for r in hand.rows for c in r] + [c for h in hand.hands for c in h]
        everything += [c for pile in piles for c in pile] + box
        if sorted(everything) != list(rules.deck):
            problems.append(f"{tw}: rows, hands, taken piles and box are not the deck")
    return problems, hand.penalties


def replay(rules: NiutouwangRules, log: Mapping[str, Any]) -> list[str]:
    """Recheck a log: deal, every placement, take, row state, penalty; [] when legal."""
    problems: list[str] = []
    if log.get("game") != slug:
        return [f"game: expected {slug!r}, got {log.get('game')!r}"]
    variant = log.get("variant", rules.variant) or ""
    try:
        rules = with_variant(rules, variant)
    except ValueError as exc:
        return [f"variant: {exc}"]
    players = log.get("players")
    if not isinstance(players, int) or not rules.min_players <= players <= rules.max_players:
        return [f"players: {players!r} is outside {rules.min_players}–{rules.max_players}"]
    penalties: list[int] | None
    if rules.variant != "official":
        problems, penalties = _replay_deal(rules, players, log, "log")
        if penalties is None:
            return problems
        if log.get("penalties") != penalties:
            problems.append(f"penalties: logged {log.get('penalties')}, rules give {penalties}")
        if "punishment" in log and log["punishment"] != to_json(punish(rules, penalties)):
            problems.append("punishment: does not match the SP ending for these penalties")
    else:
        rounds = log.get("rounds")
        if not isinstance(rounds, list) or not rounds:
            return ["rounds: missing"]
        penalties = [0] * players
        for r, part in enumerate(rounds):
            where = f"rounds[{r}]"
            if not isinstance(part, Mapping):
                return [*problems, f"{where}: expected a mapping"]
            if part.get("round") != r + 1:
                problems.append(f"{where}.round: expected {r + 1}")
            if r > 0 and max(penalties) >= rules.official_end_at:
                problems.append(f"{where}: the game had already ended")
            found, deal_penalties = _replay_deal(rules, players, part, where)
            problems += found
            if deal_penalties is None:
                return problems
            if part.get("penalties") != deal_penalties:
                problems.append(f"{where}.penalties: logged {part.get('penalties')}, "
                                f"rules give {deal_penalties}")
            penalties = [a + b for a, b in zip(penalties, deal_penalties, strict=True)]
            if part.get("totals") != penalties:
                problems.append(f"{where}.totals: logged {part.get('totals')}, "
                                f"rules give {penalties}")
        reached = max(penalties) >= rules.official_end_at
        if not reached and len(rounds) < MAX_OFFICIAL_ROUNDS:
            problems.append(f"rounds: nobody has {rules.official_end_at} yet the game ended")
        if log.get("end") != ("reached" if reached else "round_limit"):
            problems.append(f"end: logged {log.get('end')!r}")
        if log.get("penalties") != penalties:
            problems.append(f"penalties: logged {log.get('penalties')}, rules give {penalties}")
    if "winners" in log and log["winners"] != winners(penalties):
        problems.append(f"winners: logged {log['winners']}, rules give {winners(penalties)}")
    return problems
