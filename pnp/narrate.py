"""Sample games: a seeded game -> the engine's event log -> a narrated transcript.

One seed always gives the same game: every random choice comes from ``random.Random(seed)``
handed to the engine, nothing here iterates a set or reads the clock. The narration is a
Jinja2 template per game (``templates/<slug>/narration.md.j2``), written once in the game's
source script and converted to the other script with the game's glossary, like the rulebook.

Python turns a log into *facts* (who did what, every number and the arithmetic behind each
score); the templates hold every word, so the wording lives in one place per game and the
glossary keeps it in the rulebook's vocabulary.
"""

from __future__ import annotations

import importlib
import logging
import random
import re
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Any

from pnp.data.model import LANGS, Game
from pnp.errors import DataError, PnpError
from pnp.templating import render_template
from pnp.workspace import Workspace

logger = logging.getLogger(__name__)

# Seat names shown to people, fixed per seat and the same in every game. Every character is
# written alike in both scripts (tests check each against every game's converter), so a name
# never changes between the zh-Hant and zh-Hans transcripts.
SEAT_NAMES: tuple[str, ...] = ("阿明", "小芸", "大熊", "美玲", "阿宏", "小安", "志豪", "佳佳",
                               "阿丁", "小青")

TEMPLATE_NAME = "narration.md.j2"

# Every engine seats "greedy" (a simple heuristic, the default) or "random" (any legal move).
BOTS: tuple[str, ...] = ("greedy", "random")


# --------------------------------------------------------------------------------------------
# Engines: one uniform way to build rules, play and replay each game


@dataclass(frozen=True)
class Adapter:
    """How pnp plays one game: the engine module and the few ways the four engines differ."""

    slug: str
    module_name: str
    variants: tuple[str, ...]  # values --variant accepts; None always means the canonical rules

    @property
    def module(self) -> ModuleType:
        return importlib.import_module(self.module_name)

    def rules(self, mapping: Mapping[str, Any], variant: str | None) -> Any:
        engine = self.module
        if self.slug == "aizhewudi":
            # Abilities are a flag of play(), not a rules variant of this engine.
            return engine.rules_from_mapping(mapping)
        return engine.rules_from_mapping(mapping, variant)

    def player_range(self, rules: Any) -> tuple[int, int]:
        return tuple(self.module.player_range(rules))  # type: ignore[return-value]

    def playable(self, rules: Any) -> list[int]:
        if self.slug == "tisigui":
            return list(self.module.playable_counts(rules))
        lo, hi = self.player_range(rules)
        return list(range(lo, hi + 1))

    def default_players(self, rules: Any) -> int:
        return int(self.module.default_players(rules))

    def play(self, rules: Any, players: int, seed: int, variant: str | None,
             bots: str = "greedy") -> dict[str, Any]:
        """One game, every random choice drawn from ``random.Random(seed)``."""
        rng = random.Random(seed)
        engine = self.module
        if bots not in BOTS:
            raise PnpError(f"unknown bots {bots!r} (expected one of: {', '.join(BOTS)})")
        if self.slug == "aizhewudi":
            abilities = True if variant == "abilities" else None
            return engine.play(rules, players, rng, seed, abilities=abilities,
                               bots=[bots] * players)
        if self.slug == "wurenshenghuan":
            return engine.play(rules, players, rng, seed, bot=bots)
        if self.slug == "niutouwang":
            return engine.play(rules, players, rng, seed, bots=[bots] * players)
        return engine.play(rules, players, rng, seed, bots=bots)

    def replay(self, rules: Any, log: Mapping[str, Any]) -> list[str]:
        return list(self.module.replay(rules, log))


ADAPTERS: dict[str, Adapter] = {
    "tisigui": Adapter("tisigui", "pnp.engines.tisigui", ("classic",)),
    "wurenshenghuan": Adapter("wurenshenghuan", "pnp.engines.wurenshenghuan", ()),
    "niutouwang": Adapter("niutouwang", "pnp.engines.niutouwang", ("official",)),
    "aizhewudi": Adapter("aizhewudi", "pnp.engines.aizhewudi", ("abilities",)),
}


def adapter(slug: str) -> Adapter:
    if slug not in ADAPTERS:
        known = ", ".join(sorted(ADAPTERS))
        raise PnpError(f"no sample games for {slug!r}: pnp plays {known}")
    return ADAPTERS[slug]


# --------------------------------------------------------------------------------------------
# Loading a game and its rules


def load_game_data(workspace: Workspace, slug: str) -> Game:
    """The game's card_data, validated; a clear error when its game.yaml is not written yet."""
    from pnp.build import load_games

    adapter(slug)
    game_file = workspace.game_dir(slug) / "game.yaml"
    if not game_file.is_file():
        raise PnpError(
            f"{game_file} not found: pnp plays {slug} with the rules parameters under `rules:` "
            "in that file, so write it first (pnp/engines/" + slug + ".py documents the keys)"
        )
    return load_games(workspace, [slug])[0]


def check_variant(slug: str, variant: str | None) -> str | None:
    variant = variant or None
    known = adapter(slug).variants
    if variant is not None and variant not in known:
        listed = ", ".join(known) if known else "none"
        raise PnpError(f"unknown variant {variant!r} for {slug} (variants: {listed})")
    return variant


def game_rules(game: Game, variant: str | None) -> Any:
    """The engine's rules from game.yaml's ``rules:`` (missing keys take the rulings)."""
    from pnp.engines.base import RulesError

    variant = check_variant(game.slug, variant)
    if not game.info.rules:
        logger.info("%s: game.yaml has no rules: mapping; playing the engine's rulings", game.slug)
    try:
        return adapter(game.slug).rules(game.info.rules, variant)
    except RulesError as exc:
        # The problems name their key; the file's own line mark would point at its top.
        where = re.sub(r":\d+$", "", game.info.where or f"{game.slug}/game.yaml") + ": rules"
        raise DataError([f"{where}.{p}" if not p.startswith("variant") else p
                         for p in exc.problems]) from None


def resolve_players(game: Game, rules: Any, players: int | None) -> int:
    """The requested player count, or the game's common count; out of range is an error."""
    engine = adapter(game.slug)
    playable = engine.playable(rules)
    if players is None:
        common = game.info.players_common
        return common if common in playable else engine.default_players(rules)
    if players not in playable:
        lo, hi = engine.player_range(rules)
        extra = "" if len(playable) == hi - lo + 1 else f" (playable: {', '.join(map(str, playable))})"
        raise PnpError(f"{game.slug} plays {lo}–{hi} players{extra}; got --players {players}")
    return players


# --------------------------------------------------------------------------------------------
# A sample game


@dataclass(frozen=True)
class Sample:
    """One seeded game: its data, the rules it was played under and the engine's event log."""

    game: Game
    rules: Any
    players: int
    seed: int
    variant: str | None
    log: Mapping[str, Any]


def play_sample(workspace: Workspace, slug: str, players: int | None = None, seed: int = 1,
                variant: str | None = None, game: Game | None = None,
                bots: str = "greedy") -> Sample:
    """Play one seeded game of ``slug`` with the engine's bots (every seat the same kind)."""
    game = game or load_game_data(workspace, slug)
    rules = game_rules(game, variant)
    count = resolve_players(game, rules, players)
    variant = check_variant(slug, variant)
    event_log = adapter(slug).play(rules, count, seed, variant, bots)
    return Sample(game, rules, count, seed, variant, event_log)


# --------------------------------------------------------------------------------------------
# Facts for the narration: tisigui


def _tisigui_facts(sample: Sample) -> dict[str, Any]:
    from pnp.engines import tisigui as engine

    rules, game_log = sample.rules, sample.log
    n = game_log["players"]
    row = engine.setup_for(rules, n)
    scores = [0] * n
    big_rounds = []
    die = engine.first_big_die(rules, n)
    for number, big in enumerate(game_log["big_rounds"], start=1):
        ghost, start = big["ghost"], big["start"]
        targets = list(big["targets"])
        markers = big.get("question_markers")
        left = [markers] * n if markers is not None else None
        points = [0] * n
        small_rounds: list[dict[str, Any]] = []
        confirmed: list[int] = []
        turns = big["turns"]
        for t, turn in enumerate(turns):
            seat = turn["seat"]
            if not small_rounds or small_rounds[-1]["number"] != turn["small_round"]:
                small_rounds.append({"number": turn["small_round"], "value": turn["round_value"],
                                     "turns": []})
            actions = []
            for a, action in enumerate(turn["actions"]):
                kind = action["kind"]
                named = list(action["named"])
                scores[seat] += action["points"]
                points[seat] += action["points"]
                confirmed.extend(action.get("confirms", []))
                truth = action.get("truth")
                last = t == len(turns) - 1 and a == len(turn["actions"]) - 1
                actions.append({
                    "kind": kind,
                    "question": action.get("question"),
                    "named": named,
                    "answer": action["answer"],
                    "truth": truth,
                    "lie": seat == ghost and truth is not None and action["answer"] != truth,
                    "points": action["points"],
                    "not_targets": [s for s in named if s not in targets],
                    "confirms": list(action.get("confirms", [])),
                    "total": scores[seat],
                    "ends": big["end"] if last and big["end"] != "rounds_out" else None,
                })
            used = sum(1 for a in turn["actions"] if a["kind"] != "pass")
            if left is not None:
                left[seat] -= used
            small_rounds[-1]["turns"].append({
                "seat": seat,
                "ghost": seat == ghost,
                "actions": actions,
                "used": used,
                "left": None if left is None else left[seat],
                "passed": any(a["kind"] == "pass" for a in turn["actions"]),
                "skipped": not turn["actions"],
            })
        scores[ghost] += big["ghost_points"]
        points[ghost] += big["ghost_points"]
        if "scores_after" in big and big["scores_after"] != scores:
            raise ValueError(f"big round {number}: narrated scores {scores} differ from the log's "
                             f"{big['scores_after']}")
        roll = big["roll"]
        last = number == len(game_log["big_rounds"])
        if die <= 1:
            outcome = "die_one"
        elif roll is not None:
            outcome = "end" if roll > die else "continue"
        elif not rules.end_roll:
            outcome = "no_end_roll_last" if last else "no_end_roll"
        else:
            outcome = "too_high"
        big_rounds.append({
            "number": number,
            "die": big["big_die"],
            "ender": turns[-1]["seat"] if turns and big["end"] != "rounds_out" else None,
            "ghost": ghost,
            "targets": targets,
            "start": start,
            "order": [(start + k) % n for k in range(n)],
            "markers": markers,
            "small_rounds": small_rounds,
            "end": big["end"],
            "confirmed": list(big["confirmed"]),
            "unconfirmed": [s for s in targets if s not in big["confirmed"]],
            "ghost_points": big["ghost_points"],
            "roll": roll,
            "outcome": outcome,
            "last": last,
            "points": points,
            "scores": list(scores),
        })
        die -= 1
    if scores != game_log["scores"]:
        raise ValueError(f"narrated scores {scores} differ from the log's {game_log['scores']}")
    last_start = game_log["big_rounds"][-1]["start"]
    return {
        "players": n,
        "variant": game_log["variant"],
        "classic": game_log["variant"] == "classic",
        "setup": {
            "big_die": engine.first_big_die(rules, n),
            "small_rounds": row.small_rounds,
            "round_values": list(engine.small_round_values(rules, n)),
            "markers": row.question_markers if rules.use_question_markers else None,
        },
        "rule": {
            "times_named": rules.naming_times_named,
            "no_targets_per_player": rules.no_targets_per_player,
            "no_targets_points": engine.no_targets_points(rules, n),
            "ghost_per_player": rules.ghost_per_player,
            "ghost_per_confirmed": rules.ghost_per_confirmed,
            "small_die": rules.small_die_sides,
            "big_die": rules.big_die_sides,
            "end_roll": rules.end_roll,
            "actions": list(rules.actions_per_turn),
            "start_rolled": rules.start_player == "rolled",
            "ties_shared": rules.ties == "shared",
        },
        "big_rounds": big_rounds,
        "scores": scores,
        "ranking": list(game_log["ranking"]),
        "places": list(game_log.get("places") or _places(scores, game_log["ranking"])),
        "winners": list(game_log.get("winners") or [game_log["ranking"][0]]),
        "ties": _tie_groups(scores, game_log["ranking"]),
        "last_start": last_start,
        "clockwise": [(last_start + k) % n for k in range(n)],
    }


def _places(scores: Sequence[int], ranking: Sequence[int]) -> list[int]:
    places = [0] * len(scores)
    for place, seat in enumerate(ranking, start=1):
        places[seat] = place
    return places


def _tie_groups(values: Sequence[Any], order: Sequence[int]) -> list[list[int]]:
    """Seats sharing a value, each group in ``order``; only groups of two or more."""
    groups: dict[Any, list[int]] = {}
    for seat in order:
        groups.setdefault(values[seat], []).append(seat)
    return [g for g in groups.values() if len(g) > 1]


# --------------------------------------------------------------------------------------------
# Facts: wurenshenghuan


def _item_names(game: Game, rules: Any) -> dict[str, str]:
    """Item code -> printed name: W1..Wk are the weapon cards in the item deck's order."""
    from pnp.engines import wurenshenghuan as engine

    for component in game.components:
        weapons = [c for c in component.cards if c.count == rules.copies_per_weapon]
        keys = [c for c in component.cards if c.count == rules.keys]
        if len(weapons) == rules.weapon_kinds and len(component.cards) == rules.weapon_kinds + (
                1 if rules.keys else 0) and (keys or not rules.keys):
            names = {engine.weapon(i): _card_name(card) for i, card in enumerate(weapons, 1)}
            if rules.keys:
                names[engine.KEY] = _card_name(keys[-1])
            if all(names.values()):
                return names
    return {}


def _character_names(game: Game, letters: Sequence[str]) -> dict[str, str]:
    """Character letter -> printed name, from the component whose cards carry both."""
    for component in game.components:
        names = {card.fields["letter"].value: card.fields["name"].value
                 for card in component.cards if "letter" in card.fields and "name" in card.fields}
        if set(letters) <= set(names):
            return {letter: names[letter] for letter in letters}
    return {}


def _card_name(card: Any) -> str:
    for key in ("name", "title"):
        if key in card.fields:
            return card.fields[key].value
    return ""


def _wurenshenghuan_facts(sample: Sample) -> dict[str, Any]:
    from pnp.engines import wurenshenghuan as engine

    rules, game_log = sample.rules, sample.log
    n = game_log["players"]
    characters = list(game_log["characters"])
    murderer = game_log["murderer"]
    own = characters[murderer]
    holder = {letter: seat for seat, letter in enumerate(characters)}
    letters = list(rules.letters)
    days_by_number = {d["day"]: d for d in game_log["days"]}
    kills = 0
    dead: list[str] = []
    days = []
    for night in game_log["nights"]:
        d = night["night"]
        killed = list(night["killed"])
        real = [c for c in killed if c != own]
        kills += len(real)
        dead.extend(killed)
        day = days_by_number.get(d)
        table = night["table"]  # every row after the night; the day looks at these rows
        looks = []
        if day is not None:
            for look in day["looks"]:
                position = look["position"]
                looks.append({"character": look["character"],
                              "position": None if position is None else position + 1,
                              "size": len(table[look["character"]]),
                              "cards": list(look["cards"]),
                              "holder": holder.get(look["character"])})
        swap = night["swap"]
        days.append({
            "number": d,
            "night": {
                "action": night["action"],
                "killed": killed,
                "real": real,
                "feigned": night["feigned"],
                "discarded": list(night["discarded"]),
                "weapons": [x for x in night["discarded"] if x != engine.KEY],
                "key_discarded": engine.KEY in night["discarded"],
                "drawn": list(night["drawn"]),
                "swap": None if swap is None else {
                    "character": swap["character"], "position": swap["position"] + 1,
                    "size": len(table[swap["character"]]),
                    "gave": swap["gave"], "took": swap["took"],
                    "holder": holder.get(swap["character"])},
                "key": night["key"],
                "imprisoned": list(night["imprisoned"]),
                "murderer_imprisoned": night["murderer_imprisoned"],
                "pile_left": night["pile_left"],
                "arranged": list(night["arranged"]),
                "short": len(night["arranged"]) < rules.items_per_character,
                "key_mattered": night["key"] and (
                    night["murderer_imprisoned"]
                    or any(c in night["imprisoned"] for c in killed)
                    or (swap is not None and swap["character"] in night["imprisoned"])),
                "kills_so_far": kills,
            },
            "day": None if day is None else {
                "dead": list(day["dead"]),
                "alive": day["alive"],
                "searches": day["searches"],
                "prisoners": day["prisoners"],
                "decision": day["decision"],
                "looks": looks,
                "imprisoned": list(day["imprisoned"]),
            },
            "guesses": [dict(g) for g in game_log["guesses"] if g["day"] == d],
            "all_dead": len(set(dead)) == len(letters),
        })
    guesses = {g["seat"]: g for g in game_log["guesses"]}
    final = []
    for entry in game_log["final"]:
        seat = entry["seat"]
        guess = guesses.get(seat)
        before_death = (guess is not None and guess["correct"] and entry["died"] is not None
                        and guess["day"] < entry["died"])
        band = None
        if entry["role"] == engine.MURDERER:
            band = next(({"min": b.kills_min, "max": b.kills_max, "points": b.points}
                         for b in rules.murderer_bands if b.covers(entry["kills"])), None)
        final.append({**entry, "guess": guess, "before_death": before_death, "band": band})
    points = [f["points"] for f in game_log["final"]]
    order = sorted(range(n), key=lambda s: (-points[s], s))
    return {
        "players": n,
        "characters": characters,
        "murderer": murderer,
        "own": own,
        "holder": holder,
        "letters": letters,
        "unheld": [c for c in letters if c not in holder],
        "deal": {c: list(game_log["setup"]["deal"][c]) for c in letters},
        "shown": {c: game_log["setup"]["shown"][c] for c in letters},
        "pile": len(game_log["setup"]["pile"]),
        "item_names": _item_names(sample.game, rules),
        "character_names": _character_names(sample.game, letters),
        "rule": {
            "days": rules.days,
            "search_divisor": rules.search_divisor,
            "imprison_divisor": rules.imprison_divisor,
            "max_kills": rules.max_kills_per_night,
            "survival": rules.survival_bonus,
            "guess_points": list(rules.guess_points),
            "per_character": rules.items_per_character,
        },
        "days": days,
        "end": game_log["end"],
        "kills": game_log["kills"],
        "final": final,
        "points": points,
        "order": order,
        "places": [1 + sum(1 for p in points if p > points[s]) for s in range(n)],
        "best": max(points),
    }


# --------------------------------------------------------------------------------------------
# Facts: niutouwang


def _niutouwang_hand(rules: Any, rows: list[list[int]], turns: Sequence[Mapping[str, Any]],
                     penalties: list[int], taken: list[int]) -> list[dict[str, Any]]:
    from pnp.engines import niutouwang as engine

    narrated = []
    rows = [list(r) for r in rows]
    for number, turn in enumerate(turns, start=1):
        placements = []
        for p in turn["placements"]:
            seat, card, index, took = p["seat"], p["card"], p["row"], list(p["took"])
            before = rows[index]
            ends = [r[-1] for r in rows]
            if all(card < e for e in ends):
                kind = "low"
                heads_by_row = [engine.total_heads(rules, r) for r in rows]
                fewest = heads_by_row[index] == min(heads_by_row)
            else:
                kind = "sixth" if took else "append"
                fewest = False
            heads = [engine.heads(rules, c) for c in took]
            penalties[seat] += sum(heads)
            taken[seat] += len(took)
            placements.append({
                "seat": seat, "card": card, "row": index, "kind": kind, "after": before[-1],
                "position": len(before) + 1, "took": took, "heads": heads,
                "sum": sum(heads), "fewest": fewest, "total": penalties[seat],
            })
            rows[index] = [card] if took else before + [card]
        if rows != [list(r) for r in turn["rows"]]:
            raise ValueError(f"turn {number}: narrated rows {rows} differ from the log's")
        narrated.append({
            "number": number,
            "plays": list(turn["plays"]),
            "order": [p["seat"] for p in turn["placements"]],
            "placements": placements,
            "rows": [{"cards": list(r), "heads": engine.total_heads(rules, r)} for r in rows],
            "penalties": list(penalties),
        })
    return narrated


def _niutouwang_facts(sample: Sample) -> dict[str, Any]:
    from pnp.engines import niutouwang as engine

    rules, game_log = sample.rules, sample.log
    n = game_log["players"]
    official = game_log["variant"] == "official"
    penalties = [0] * n
    taken = [0] * n
    rounds = []
    raw_rounds = game_log["rounds"] if official else [game_log]
    for number, rnd in enumerate(raw_rounds, start=1):
        before = list(penalties)
        turns = _niutouwang_hand(rules, rnd["rows"], rnd["turns"], penalties, taken)
        rounds.append({
            "number": number,
            "rows": [{"cards": list(r), "heads": engine.total_heads(rules, r)} for r in rnd["rows"]],
            "hands": [list(h) for h in rnd["hands"]],
            "box": list(rnd["box"]),
            "turns": turns,
            "gained": [p - b for p, b in zip(penalties, before, strict=True)],
            "totals": list(penalties),
        })
    if penalties != list(game_log["penalties"]):
        raise ValueError(f"narrated penalties {penalties} differ from the log's")
    order = sorted(range(n), key=lambda s: (penalties[s], s))
    punishment = []
    if not official:
        by_seat = {p["seat"]: p for p in game_log["punishment"]}
        for k, seat in enumerate(order):
            partner = order[n - 1 - k]
            entry = by_seat[seat]
            punishment.append({"seat": seat, "rank": k + 1, "partner": partner,
                               "partner_penalty": penalties[partner], "hits": entry["hits"],
                               "hitter": entry["hitter"], "tie": entry["tie"],
                               "penalty": penalties[seat]})
    return {
        "players": n,
        "official": official,
        "hand_size": rules.hand_size(n),
        "row_count": rules.rows,
        "row_limit": rules.row_limit,
        "end_at": rules.official_end_at,
        "base": rules.base,
        "paired": rules.paired,
        "rounds": rounds,
        "penalties": penalties,
        "taken": taken,
        "order": order,
        "places": [1 + sum(1 for p in penalties if p < penalties[s]) for s in range(n)],
        "winners": list(game_log["winners"]),
        "ties": _tie_groups(penalties, order),
        "punishment": punishment,
        "end": game_log.get("end"),
    }


# --------------------------------------------------------------------------------------------
# Facts: aizhewudi


def _aizhewudi_facts(sample: Sample) -> dict[str, Any]:
    rules, game_log = sample.rules, sample.log
    n = game_log["players"]
    loved = [0] * n
    fickle = [0] * n
    money = [0] * n
    out: list[int] = []
    rounds = []
    witness = 0  # seat 0 runs the steps; when out, the next player still in on the left
    for rnd in game_log["rounds"]:
        runs_it = witness
        plays = [dict(p) for p in rnd["plays"]]
        events = [dict(e) for e in rnd["abilities"]]
        gained = [rnd["loved"][s] - loved[s] for s in range(n)] if rnd["loved"] else [0] * n
        for seat, group in zip(rnd["sharers"], rnd["groups"], strict=False):
            money[seat] += sum(group)
        discarded = {(d["seat"], d["hand"]): d["reason"] for d in rnd["discarded"]}
        table = list(rnd["carried_in"]) + list(rnd["revealed"])
        standing_before = [s for s in range(n) if s not in out]
        out.extend(rnd["eliminated"])
        if witness in out:
            witness = next(((witness + k) % n for k in range(1, n)
                            if (witness + k) % n not in out), witness)
        rounds.append({
            "number": rnd["round"],
            "witness": runs_it,
            "next_witness": witness if witness != runs_it and witness not in out else None,
            "revealed": list(rnd["revealed"]),
            "revealed_sum": sum(rnd["revealed"]),
            "carried_in": list(rnd["carried_in"]),
            "carried_in_sum": sum(rnd["carried_in"]),
            "table": sorted(table, reverse=True),
            "table_sum": sum(table),
            "in_game": standing_before,
            "plays": [{**p, "fate": discarded.get((p["seat"], p["hand"]), "resolved")}
                      for p in plays],
            "withdrew": list(rnd["withdrew"]),
            "aimed_at_withdrawn": sorted({d["seat"] for d in rnd["discarded"]
                                          if d["reason"] == "aimed_at_withdrawn"}),
            "rushes": _with_hands(rnd["rushes"], plays, "rush"),
            "proposals": _with_hands(rnd["proposals"], plays, "propose"),
            "flees": _with_hands(rnd["flees"], plays, "flee"),
            "abilities": events,
            "armed": [e for e in events if e["event"] == "armed"],
            "discarded": [dict(d) for d in rnd["discarded"]],
            "eliminated": list(rnd["eliminated"]),
            "sharers": list(rnd["sharers"]),
            "share": rnd["share"],
            "groups": [list(g) for g in rnd["groups"]],
            "carried_out": list(rnd["carried_out"]),
            "carried_out_sum": sum(rnd["carried_out"]),
            "ended": rnd["ended"],
            "gained": gained,
            "loved": list(rnd["loved"]) or list(loved),
            "fickle_gained": [rnd["fickle"][s] - fickle[s] for s in range(n)] if rnd["fickle"]
            else [0] * n,
            "fickle": list(rnd["fickle"]) or list(fickle),
            "money": list(money),
            "out": list(out),
            "cupid": next((e for e in events if e["event"] == "triggered"), None),
        })
        loved = rounds[-1]["loved"]
        fickle = rounds[-1]["fickle"]
    final = [dict(f) for f in game_log["final"]]
    for f in final:
        if f["money"] != money[f["seat"]]:
            raise ValueError(f"seat {f['seat']}: narrated money {money[f['seat']]} differs from "
                             f"the log's {f['money']}")
        f["penalty"] = f["fickle"] * rules.fickle_penalty
        f["bank_items"] = [b for b in game_log["bank"] if b["seat"] == f["seat"]]
    standing = [f for f in final if not f["out"]]
    order = [f["seat"] for f in sorted(standing, key=lambda f: (-f["score"], f["fickle"],
                                                                  -f["loved"], f["seat"]))]
    order += [f["seat"] for f in final if f["out"]]
    names = {c.id: c.name for c in rules.action_cards}
    return {
        "ability_names": _ability_names(sample.game),
        "players": n,
        "abilities": game_log["abilities"],
        "dealt": list(game_log.get("dealt") or []),
        "cards": names,
        "per_player": {c.id: c.per_player for c in rules.action_cards},
        "rule": {
            "rounds": rules.rounds,
            "bills_per_round": rules.bills_per_round,
            "eliminated_at": rules.eliminated_at,
            "princess_at": rules.princess_eliminated_at,
            "fickle_penalty": rules.fickle_penalty,
            "bonuses": dict(rules.bonuses),
        },
        "rounds": rounds,
        "lost": list(game_log["lost"]),
        "lost_sum": sum(game_log["lost"]),
        "bank": [dict(b) for b in game_log["bank"]],
        "final": final,
        "order": order,
        "end": game_log["end"],
        "winner": game_log["winner"],
        "shared": list(game_log.get("shared") or []),
        "ties": _aizhewudi_ties(standing),
    }


def _with_hands(aims: Sequence[Mapping[str, Any]], plays: Sequence[Mapping[str, Any]],
                card: str) -> list[dict[str, Any]]:
    """The resolved aims with the set ("hand") each card came from: 千面人 plays two sets."""
    unused = [p for p in plays if p["card"] == card]
    out = []
    for aim in aims:
        match = next((p for p in unused if p["seat"] == aim["seat"]
                      and p["target"] == aim["target"]), None)
        if match is not None:
            unused.remove(match)
        out.append({**aim, "hand": match["hand"] if match is not None else 0})
    return out


def _ability_names(game: Game) -> dict[str, str]:
    """Ability id -> printed name: card_data's cards (ids written with "-") over the engine's."""
    from pnp.engines import aizhewudi as engine

    names = dict(engine.ABILITY_NAMES)
    for component in game.components:
        for card in component.cards:
            key = card.id.replace("-", "_")
            if key in names and "name" in card.fields:
                names[key] = card.fields["name"].value
    return names


def _aizhewudi_ties(standing: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """Groups of standing players with the same score, and how the tie-breaks settle them."""
    by_score: dict[int, list[Mapping[str, Any]]] = {}
    for f in standing:
        by_score.setdefault(f["score"], []).append(f)
    ties = []
    for score in sorted(by_score, reverse=True):
        group = by_score[score]
        if len(group) < 2:
            continue
        fickle = Counter(f["fickle"] for f in group)
        pairs = Counter((f["fickle"], f["loved"]) for f in group)
        ties.append({
            "score": score,
            "seats": [f["seat"] for f in group],
            "by_fickle": len(fickle) > 1,
            "by_loved": any(c == 1 for c in pairs.values()) and any(
                fickle[k[0]] > 1 for k in pairs),
            "unbroken": any(c > 1 for c in pairs.values()),
        })
    return ties


FACTS: dict[str, Callable[[Sample], dict[str, Any]]] = {
    "tisigui": _tisigui_facts,
    "wurenshenghuan": _wurenshenghuan_facts,
    "niutouwang": _niutouwang_facts,
    "aizhewudi": _aizhewudi_facts,
}


# --------------------------------------------------------------------------------------------
# Rendering


def template_path(templates: Path, slug: str) -> Path:
    return templates / slug / TEMPLATE_NAME


def source_markdown(workspace: Workspace, sample: Sample, excerpt: bool = False) -> str:
    """The narration as Markdown in the game's source script."""
    slug = sample.game.slug
    path = template_path(workspace.templates, slug)
    if not path.is_file():
        raise DataError(f"{path}: narration template not found")
    info = sample.game.info
    context = {
        "game": {"name": info.name.value, "slug": slug, "version": info.version},
        "seed": sample.seed,
        "players": sample.players,
        "variant": sample.variant,
        "names": SEAT_NAMES[: sample.players],
        "excerpt": excerpt,
        "facts": FACTS[slug](sample),
        "log": sample.log,
    }
    text = render_template(workspace.templates, f"{slug}/{TEMPLATE_NAME}", context)
    return _tidy(text)


def _tidy(text: str) -> str:
    """At most one blank line in a row and one final newline, whatever the template's loops do."""
    lines: list[str] = []
    for line in text.splitlines():
        line = line.rstrip()
        if not line and (not lines or not lines[-1]):
            continue
        lines.append(line)
    while lines and not lines[-1]:
        lines.pop()
    return "\n".join(lines) + "\n"


def narration(workspace: Workspace, sample: Sample, lang: str) -> str:
    """The narrated transcript in ``lang``, converted from the source with the glossary."""
    from pnp.build import converter_for

    if lang not in LANGS:
        raise PnpError(f"unknown language {lang!r} (expected one of {', '.join(LANGS)})")
    return converter_for(sample.game, lang)(source_markdown(workspace, sample))


def narration_pdf(workspace: Workspace, sample: Sample, lang: str, paper: str = "a4") -> bytes:
    """The transcript typeset like the rulebook (same fonts, page furniture and checks)."""
    from pnp.build import converter_for
    from pnp.errors import BuildError, FontError
    from pnp.fonts import load_family
    from pnp.layout.presets import SHEETS
    from pnp.render.glyphs import GlyphCheck
    from pnp.render.rulebook_pdf import render_rulebook
    from pnp.rulebook import parse_markdown
    from pnp.units import MM

    if paper not in SHEETS:
        raise PnpError(f"unknown paper {paper!r} (expected one of: {', '.join(SHEETS)})")
    spec = SHEETS[paper]
    markdown = narration(workspace, sample, lang)
    fonts = load_family(workspace.fonts, lang)
    glyphs = GlyphCheck(fonts)
    source = str(template_path(workspace.templates, sample.game.slug))
    data = render_rulebook(sample.game, lang, parse_markdown(markdown), fonts,
                           converter_for(sample.game, lang), glyphs, source,
                           (spec.width * MM, spec.height * MM))
    if glyphs.missing:
        raise FontError(glyphs.problems)
    if glyphs.overflows:
        raise BuildError(glyphs.overflows)
    return data


def default_pdf_path(workspace: Workspace, sample: Sample, lang: str) -> Path:
    return (workspace.output / sample.game.slug / lang /
            f"sample-seed{sample.seed}-p{sample.players}.pdf")


# --------------------------------------------------------------------------------------------
# Rulebook examples


def example_markdown(workspace: Workspace, game: Game | str, lang: str | None, seed: int,
                     players: int, variant: str | None = None) -> str:
    """A short narrated excerpt of a seeded game, to embed as a rulebook's worked example.

    The excerpt is the start of the game (tisigui: the first big round; wurenshenghuan: the
    setup and the first night and day; niutouwang: the first three turns; aizhewudi: the first
    two rounds), with headings one level down (``###``) so it sits under a rulebook section.

    ``lang`` is the script of the returned text. A rulebook template should pass the game's
    source language (or None): the rulebook is converted as a whole afterwards, exactly like
    its hand-written text, so the example goes through the same glossary.
    """
    loaded = load_game_data(workspace, game) if isinstance(game, str) else game
    sample = play_sample(workspace, loaded.slug, players, seed, variant, game=loaded)
    text = source_markdown(workspace, sample, excerpt=True)
    if lang is None or lang == loaded.info.source_lang:
        return text
    from pnp.build import converter_for

    if lang not in LANGS:
        raise PnpError(f"unknown language {lang!r} (expected one of {', '.join(LANGS)})")
    return converter_for(loaded, lang)(text)
