"""The few moments of a seeded game the rulebook's worked example is written from: who
scored what and why, how the game ended, a tie broken, as plain values the template words.

And the rulebook's hand-worked examples (``WORKED``, called from the template as
``worked.<name>``): a first night and day the template scripts, played by the engine, with
what the table can conclude from it; and the points of a player the scoring example
describes. The template names the inputs; every death, look, allowance, conclusion and point
it prints comes from here.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from itertools import combinations, permutations
from typing import Any

from pnp.games.wurenshenghuan.machine import (
    DONE,
    NONE,
    PASS,
    SEARCH,
    WurenshenghuanState,
)
from pnp.games.wurenshenghuan.murderer import kill_steps, weapons
from pnp.games.wurenshenghuan.rules import KEY, WurenshenghuanRules, weapon
from pnp.games.wurenshenghuan.state import LookResult, State, refill
from pnp.games.wurenshenghuan.tables import innocent_score, score_parts

Facts = Mapping[str, Any]


def example_moments(f: Facts, names: Sequence[str]) -> dict[str, Any]:
    murderer = f["murderer"]
    by_seat = {entry["seat"]: entry for entry in f["final"]}
    guesses = []
    for day in f["days"]:
        for guess in day["guesses"]:
            seat = guess["seat"]
            guesses.append({"name": names[seat], "day": guess["day"],
                            "character": guess["character"], "correct": guess["correct"],
                            "points": by_seat[seat]["guess_points"],
                            "before_death": by_seat[seat]["before_death"]})
    final = [{"name": names[s], "points": by_seat[s]["points"], "alive": by_seat[s]["alive"],
              "guess_points": by_seat[s]["guess_points"],
              "survival_points": by_seat[s]["survival_points"],
              "murderer": s == murderer} for s in f["order"]]
    band = by_seat[murderer]["band"]
    return {
        "players": f["players"],
        "names": list(names),
        "murderer": names[murderer],
        "own": f["own"],
        "own_name": f["character_names"][f["own"]],
        "days": len(f["days"]),
        "killed_per_night": [len(d["night"]["real"]) for d in f["days"]],
        "imprisoned_per_day": [len(d["day"]["imprisoned"]) if d["day"] else 0 for d in f["days"]],
        "kills": f["kills"],
        "band": band,
        "end": f["end"],
        "guesses": guesses,
        "wrong": [g for g in guesses if not g["correct"]],
        "right": [g for g in guesses if g["correct"]],
        "final": final,
        # Everyone with the game's best score, in seat order: a single game has no winner (the
        # winner is decided over several games), only this game's best score, which may be shared.
        "top": [names[s] for s in range(f["players"]) if f["points"][s] == f["best"]],
    }


# ------------------------------------------------------------------ hand-worked examples


class _Labels:
    """The template's item names (weapon kinds in the item deck's order, then the key) and
    the engine's item strings, both ways."""

    def __init__(self, rules: WurenshenghuanRules, kinds: Sequence[str], key: str) -> None:
        if len(kinds) != rules.weapon_kinds or len(set(kinds)) != len(kinds) or key in kinds:
            raise ValueError(f"name the {rules.weapon_kinds} weapon kinds once each, in the item "
                             f"deck's order, and the key apart; got {list(kinds)} and {key!r}")
        self.to_code = {name: weapon(i) for i, name in enumerate(kinds, 1)} | {key: KEY}
        self.to_name = {code: name for name, code in self.to_code.items()}

    def codes(self, names: Sequence[str]) -> tuple[str, ...]:
        unknown = [n for n in names if n not in self.to_code]
        if unknown:
            raise ValueError(f"{unknown} are not items of the game ({', '.join(self.to_code)})")
        return tuple(self.to_code[n] for n in names)

    def names(self, codes: Sequence[str]) -> list[str]:
        return [self.to_name[c] for c in codes]


def _deck(rules: WurenshenghuanRules, rows: Mapping[str, Sequence[str]],
          pile_top: Sequence[str]) -> list[str]:
    """The item deck dealt as a script fixes it: the rows it names, then the other rows and
    the rest of the pile from the cards left, in the deck's own order (no shuffle: the same
    script is the same table on every build)."""
    unknown = [c for c in rows if c not in rules.letters]
    if unknown:
        raise ValueError(f"no characters {unknown} (the characters are {''.join(rules.letters)})")
    left = list(rules.deck())
    for card in [card for row in rows.values() for card in row] + list(pile_top):
        if card not in left:
            raise ValueError(f"the script deals more {card} than the item deck holds")
        left.remove(card)
    deck: list[str] = []
    for letter in rules.letters:
        row = list(rows.get(letter, ()))
        if letter in rows and len(row) != rules.items_per_character:
            raise ValueError(f"{letter} is dealt {len(row)} items; each character gets "
                             f"{rules.items_per_character}")
        if letter not in rows:
            row, left = left[: rules.items_per_character], left[rules.items_per_character:]
            if len(row) < rules.items_per_character:
                raise ValueError(f"the item deck is too small to deal every character "
                                 f"{rules.items_per_character} items besides the script's "
                                 f"{len(pile_top)} on the pile")
        deck += row
    return deck + list(pile_top) + left


def _played(state: WurenshenghuanState, steps: Sequence[Any], what: str) -> WurenshenghuanState:
    """``state`` after ``steps``, each checked by the rules; ValueError names ``what`` broke
    them."""
    for step in steps:
        refused = state.why_illegal(step)
        if refused is not None:
            raise ValueError(f"{what} breaks the rules: {refused}")
        state.apply(step)
    return state


def _kill_moves(rules: WurenshenghuanRules, state: WurenshenghuanState) -> list[str]:
    """The characters whose items any legal kill tonight would leave changed: every choice
    of items to discard, of victims and of order afterwards, each played by the rules."""
    table = state.table
    row = table.items(table.murderer)
    moved: set[str] = set()
    for size in range(1, len(row) + 1):
        for picked in combinations(range(len(row)), size):
            discard = tuple(row[i] for i in picked)
            rest = tuple(item for i, item in enumerate(row) if i not in picked)
            kept = len(rest) + len(refill(rules, rest, table.pile)[0])
            for victims in combinations(table.alive, weapons(discard)):
                for order in permutations(range(kept)):
                    try:
                        after = _played(state.clone(), [("kill", discard, order),
                                                        *(("victim", c) for c in victims)], "")
                    except ValueError:
                        continue
                    moved |= {c for c in table.letters if after.table.items(c) != table.items(c)}
    return sorted(moved)


def first_night(rules: WurenshenghuanRules, *, kinds: Sequence[str], key: str,
                players: Mapping[str, str], murderer: str, deal: Mapping[str, Sequence[str]],
                pile: Sequence[str], kill: Mapping[str, Sequence[str]],
                looks: Sequence[Sequence[Any]], guesses: Mapping[str, str]) -> dict[str, Any]:
    """The first night and day of a scripted game, played by the rules' state machine.

    ``kinds`` and ``key`` name the items as the book does; ``players`` seats each player
    (by name, in seat order) on a character; ``deal`` fixes the rows the story needs (left
    to right) and ``pile`` the top of the murderer's pile. The night is ``kill``
    (``targets``, ``discard``, ``arrange``: the murderer's row afterwards); the day searches
    with ``looks`` (a character and a position from 1 for a living one, none for a dead one);
    ``guesses`` are the slips handed in that day.

    Besides what the table sees, it gives what the table can conclude: the rows a kill can
    change (every legal kill of the night, tried), whether a second action could follow the
    kill, the looks that found a card other than the one seen there before, and the character
    that is certainly the murderer's when the night was a kill and exactly one row was seen
    to change.
    """
    labels = _Labels(rules, kinds, key)
    seats = list(players)
    if murderer not in players:
        raise ValueError(f"the murderer {murderer!r} is not one of {', '.join(seats)}")
    unknown = [name for name in guesses if name not in players]
    if unknown:
        raise ValueError(f"{unknown[0]!r} hands in a slip but is not one of {', '.join(seats)}")
    deck = _deck(rules, {c: labels.codes(row) for c, row in deal.items()}, labels.codes(pile))
    state = WurenshenghuanState(rules, len(seats))
    state.apply((seats.index(murderer), tuple(players.values()), tuple(deck)))
    before = state.table
    shown = {c: before.items(c)[-1] for c in before.letters}
    kill_moves = _kill_moves(rules, state)
    _played(state, kill_steps(rules, before, kill["targets"], labels.codes(kill["discard"]),
                              labels.codes(kill["arrange"])), "the night's kill")
    if state.phase == "night":
        raise ValueError("the night's kill breaks the rules: it names fewer victims than it "
                         "discards weapons")
    # The rules refuse any second action before daybreak.
    one_action = state.why_illegal(NONE) is not None
    after = state.table
    _played(state, [SEARCH, *(("look", c, None if not at else at[0] - 1) for c, *at in looks)],
            "the day's search")
    if state.phase == "day":  # fewer looks than the allowance
        _played(state, [DONE], "the day's search")
    result, day = state.nights[0].result, state.days[0]
    seen = [_look_seen(labels, look, before, after, shown) for look in day.result.looks]
    changed = sorted({s["character"] for s in seen if s["changed"]})
    certain = (changed[0] if result.killed and one_action and len(changed) == 1
               and kill_moves == [after.murderer] else None)
    while state.phase == "guess":
        name = seats[state.to_move()]
        _played(state, [("guess", guesses[name]) if name in guesses else PASS], f"{name}'s slip")
    slips = [_slip(rules, state, players, name, after) for name in guesses]
    return {
        "players": dict(players), "murderer": murderer, "own": players[murderer],
        "shown": {c: labels.to_name[item] for c, item in shown.items()},
        "night": {"action": result.action, "killed": list(result.killed),
                  "discarded": labels.names(result.discarded), "drawn": labels.names(result.drawn),
                  "arranged": labels.names(result.arranged)},
        "one_action": one_action,
        "kill_moves": kill_moves,
        "moved": sorted(c for c in after.letters if after.items(c) != before.items(c)),
        "day": {"dead": list(day.dead), "alive": day.result.alive,
                "searches": day.result.searches, "prisoners": day.result.prisoners,
                "looks": seen},
        "changed": changed,
        "certain": certain,
        "guesses": slips,
    }


def _look_seen(labels: _Labels, look: LookResult, before: State, after: State,
               shown: Mapping[str, str]) -> dict[str, Any]:
    """One look of the day's search: the cards found, and whether the last card of the row,
    shown since the deal, is still the one found there."""
    size = len(after.items(look.character))
    position = size - 1 if look.position is None else look.position
    was = shown[look.character] if position == len(before.items(look.character)) - 1 else None
    now = look.cards[-1] if look.position is None else look.cards[0]
    return {"character": look.character,
            "position": None if look.position is None else look.position + 1,
            "size": size, "cards": labels.names(look.cards),
            "shown": labels.to_name[shown[look.character]],
            "was": None if was is None else labels.to_name[was],
            "changed": was is not None and was != now}


def _slip(rules: WurenshenghuanRules, state: WurenshenghuanState, players: Mapping[str, str],
          name: str, after: State) -> dict[str, Any]:
    """A slip handed in on the day, with the points it keeps and what survival would pay if
    its player's character, alive ``after`` the night, were killed later."""
    seat = list(players).index(name)
    slip = next(event for event in state.guesses if event.seat == seat)
    alive = players[name] not in after.dead
    kept = innocent_score(rules, guess_day=slip.day, correct=slip.correct, died=None)
    later = innocent_score(rules, guess_day=slip.day, correct=slip.correct,
                           died=slip.day + 1 if alive else state.death_nights()[players[name]])
    return {"name": name, "character": slip.character, "day": slip.day,
            "correct": slip.correct, "own": players[name], "own_alive": alive,
            "guess_points": kept.guess, "survival_points": kept.survival,
            "survival_if_killed_later": later.survival}


def score(rules: WurenshenghuanRules, *, kills: int | None = None, day: int | None = None,
          correct: bool = False, died: int | None = None) -> dict[str, int]:
    """A player's points as the engine scores them: the murderer's for ``kills`` real kills,
    or another player's for a slip handed in on ``day`` (None: none) that named the
    murderer's character or not, whose own character was killed on night ``died`` (None:
    alive at the end)."""
    if kills is not None:
        parts = score_parts(rules, role="murderer", kills=kills)
    else:
        parts = innocent_score(rules, guess_day=day, correct=correct, died=died)
    return {"guess": parts.guess, "survival": parts.survival, "murderer": parts.murderer,
            "total": parts.total}


# The functions the rulebook template calls as worked.<name>(...), the rules bound first.
WORKED: dict[str, Callable[..., Any]] = {"first_night": first_night, "score": score}
