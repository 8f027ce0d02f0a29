"""Sample games: a seeded game -> the engine's event log -> a narrated transcript.

One seed always gives the same game: every random choice comes from ``random.Random(seed)``
handed to the engine, nothing here iterates a set or reads the clock. The narration is a
Jinja2 template per game (``templates/<slug>/narration.md.j2``), written once in the game's
source script and converted to the other script with the game's glossary, like the rulebook.

The game's plugin turns a log into *facts* (who did what, every number and the arithmetic
behind each score); the templates hold every word, so the wording lives in one place per
game and the glossary keeps it in the rulebook's vocabulary.
"""

from __future__ import annotations

import json
import logging
import random
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from pnp.core.choices import LANGS
from pnp.core.errors import DataError, PnpError
from pnp.core.workspace import Workspace
from pnp.data.gameset import load_games
from pnp.data.model import Game
from pnp.games import ruleset
from pnp.games.base import DEFAULT_BUDGET, GamePlugin, Sample
from pnp.games.draws import deferred_random
from pnp.games.registry import game_slugs, get_game, has_game, tables_from_engine
from pnp.text.convert import converter_for
from pnp.text.templating import render_template

logger = logging.getLogger(__name__)

# Seat names shown to people, fixed per seat and the same in every game. Every character is
# written alike in both scripts (tests check each against every game's converter), so a name
# never changes between the zh-Hant and zh-Hans transcripts.
SEAT_NAMES: tuple[str, ...] = ("阿明", "小芸", "大熊", "美玲", "阿宏", "小安", "志豪", "佳佳",
                               "阿丁", "小青")

TEMPLATE_NAME = "narration.md.j2"
# A decision of a searching bot past this many iterations is minutes of thinking: a typo.
MAX_BUDGET = 100_000


# --------------------------------------------------------------------------------------------
# The game's plugin


def plugin(slug: str) -> GamePlugin:
    """The plugin of a game pnp can play; a clear error for one it cannot."""
    if not has_game(slug):
        known = ", ".join(game_slugs())
        raise PnpError(f"no sample games for {slug!r}: pnp plays {known}")
    return get_game(slug)


def default_bot(slug: str) -> str:
    """The bot every seat takes when none is named: the game's first (greedy when it has one)."""
    return plugin(slug).play.bots[0]


def check_bots(game: GamePlugin, bots: str | None, players: int | None = None) -> str:
    """``bots``: one bot name for every seat, or a comma list with one name per seat; None is
    the game's first bot for every seat, as on the command line."""
    names = [name.strip() for name in (bots or game.play.bots[0]).split(",")]
    for name in names:
        if name not in game.play.bots:
            raise PnpError(f"unknown bots {name!r} (expected one of: {', '.join(game.play.bots)}, "
                           "or one per seat separated by commas)")
    if players is not None and len(names) not in (1, players):
        raise PnpError(f"--bots names {len(names)} bots for {players} players: name one for "
                       "every seat, or one per seat in seat order")
    return ",".join(names)


def check_budget(budget: int) -> int:
    if not 1 <= budget <= MAX_BUDGET:
        raise PnpError(f"--budget must be 1–{MAX_BUDGET:,} iterations a decision, got {budget:,}")
    return budget


def play(game: GamePlugin, rules: Any, players: int, seed: int, variant: str | None,
         bots: str | Sequence[str], budget: int = DEFAULT_BUDGET) -> dict[str, Any]:
    """One game, every random choice drawn from ``random.Random(seed)``; ``bots`` is one kind
    for every seat, a comma list of one per seat, or a list of one per seat."""
    seats = bots.split(",") if isinstance(bots, str) else list(bots)
    if len(seats) == 1:
        seats = seats * players
    if game.play.kit is None:  # a plugin written before the engine kit has no searching bots
        return game.play.run(rules, players, random.Random(seed), seed=seed, variant=variant,
                             bots=seats)
    # A kit game draws from the kit's own streams: the generator it is handed is seeded only
    # if it is used.
    return game.play.run(rules, players, deferred_random(seed), seed=seed, variant=variant,
                         bots=seats, budget=budget)


# --------------------------------------------------------------------------------------------
# Loading a game and its rules


def load_game_data(workspace: Workspace, slug: str) -> Game:
    """The game's card_data, validated; a clear error when its game.yaml is not written yet."""
    game = plugin(slug)
    game_file = workspace.game_dir(slug) / "game.yaml"
    if not game_file.is_file():
        raise PnpError(
            f"{game_file} not found: pnp plays {slug} with the rules parameters under `rules:` "
            f"in that file, so write it first ({game.rules.doc or 'the game package'} "
            "documents the keys)"
        )
    return load_games(workspace, [slug], tables_from_engine)[0]


def check_variant(game: Game, variant: str | None) -> str | None:
    return ruleset.check_variant(plugin(game.slug), variant, game.info.rules)


def game_rules(game: Game, variant: str | None) -> Any:
    """The engine's rules from game.yaml's ``rules:`` (missing keys take the rulings)."""
    if not game.info.rules:
        logger.info("%s: game.yaml has no rules: mapping; playing the engine's rulings", game.slug)
    return ruleset.game_rules(plugin(game.slug), game, variant)


def resolve_players(game: Game, rules: Any, players: int | None) -> int:
    """The requested player count, or the game's common count; out of range is an error."""
    engine = plugin(game.slug)
    playable = engine.play.playable_counts(rules)
    if players is None:
        common = game.info.players_common
        return common if common in playable else engine.play.default_players(rules)
    if players not in playable:
        lo, hi = engine.play.player_range(rules)
        extra = "" if len(playable) == hi - lo + 1 else f" (playable: {', '.join(map(str, playable))})"
        raise PnpError(f"{game.slug} plays {lo}–{hi} players{extra}; got --players {players}")
    return players


# --------------------------------------------------------------------------------------------
# A sample game


def play_sample(workspace: Workspace, slug: str, players: int | None = None, seed: int = 1,
                variant: str | None = None, game: Game | None = None,
                bots: str | None = None, budget: int = DEFAULT_BUDGET) -> Sample:
    """Play one seeded game of ``slug`` with the engine's bots (every seat the same kind)."""
    engine = plugin(slug)
    game = game or load_game_data(workspace, slug)
    rules = game_rules(game, variant)
    count = resolve_players(game, rules, players)
    variant = check_variant(game, variant)
    bots = check_bots(engine, bots, count)
    event_log = play(engine, rules, count, seed, variant, bots, check_budget(budget))
    return Sample(game, rules, count, seed, variant, event_log)


def facts(sample: Sample) -> dict[str, Any]:
    """What the game's narration template reads about one played game."""
    engine = plugin(sample.game.slug)
    if engine.narration is None:
        raise PnpError(f"{engine.slug} has no narration (its plugin gives no facts)")
    return engine.narration.facts(sample)


# --------------------------------------------------------------------------------------------
# Rendering


def template_path(templates: Path, slug: str) -> Path:
    return templates / slug / TEMPLATE_NAME


def source_markdown(workspace: Workspace, sample: Sample, excerpt: bool = False) -> str:
    """The narration as Markdown in the game's source script."""
    slug = sample.game.slug
    path = template_path(workspace.templates, slug)
    if not path.is_file():
        if "steps" in sample.log and "outcome" in sample.log:
            return step_list(sample, excerpt)
        raise DataError(f"{path}: narration template not found")
    info = sample.game.info
    context = {
        "game": {"name": info.name.value, "slug": slug, "version": info.version},
        "seed": sample.seed,
        "players": sample.players,
        "variant": sample.variant,
        "names": SEAT_NAMES[: sample.players],
        "excerpt": excerpt,
        "facts": facts(sample),
        "log": sample.log,
    }
    text = render_template(workspace.templates, f"{slug}/{TEMPLATE_NAME}", context)
    return _tidy(text)


# The words of the kit's plain narration, in each source script.
_STEP_WORDS = {
    "zh-Hant": {"title": "{name}：示範局", "setup": "種子 {seed}，{players} 人。",
                "chance": "隨機", "result": "結果：{winners} 勝（{ended_by}）。得分：{scores}。"},
    "zh-Hans": {"title": "{name}：示范局", "setup": "种子 {seed}，{players} 人。",
                "chance": "随机", "result": "结果：{winners} 胜（{ended_by}）。得分：{scores}。"},
}


def step_list(sample: Sample, excerpt: bool = False) -> str:
    """The kit's narration of a game without a narration template: every step, who took it,
    the action and the events it caused, as the engine wrote them."""
    words = _STEP_WORDS[sample.game.info.source_lang]
    log = sample.log
    names = SEAT_NAMES[: sample.players]
    lines = ["# " + words["title"].format(name=sample.game.info.name.value), "",
             words["setup"].format(seed=sample.seed, players=sample.players), ""]
    steps = log["steps"][:12] if excerpt else log["steps"]
    events: dict[int, list[Any]] = {}
    for turn, event in log.get("events", []):
        events.setdefault(turn, []).append(event)
    for turn, (seat, action) in enumerate(steps, start=1):
        who = words["chance"] if seat < 0 else names[seat]
        said = "".join(f"　{json.dumps(e, ensure_ascii=False)}" for e in events.get(turn, []))
        lines.append(f"- {turn}. {who}：`{json.dumps(action, ensure_ascii=False)}`{said}")
    if not excerpt:
        outcome = log["outcome"]
        winners = "、".join(names[s] for s, place in enumerate(outcome["places"]) if place == 1)
        # as the log writes them: an engine's scores may be whole numbers or not
        scores = "、".join(f"{names[s]} {json.dumps(score)}" for s, score in enumerate(outcome["scores"]))
        lines += ["", words["result"].format(winners=winners, ended_by=outcome["ended_by"], scores=scores)]
    return "\n".join(lines) + "\n"


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
    if lang not in LANGS:
        raise PnpError(f"unknown language {lang!r} (expected one of {', '.join(LANGS)})")
    return converter_for(sample.game, lang)(source_markdown(workspace, sample))


# --------------------------------------------------------------------------------------------
# Rulebook examples


def example_markdown(workspace: Workspace, game: Game | str, lang: str | None, seed: int,
                     players: int, variant: str | None = None) -> str:
    """A short narrated excerpt of a seeded game, to embed as a rulebook's worked example.

    The excerpt is the start of the game (as much as the game's narration template shows when
    ``excerpt`` is true), with headings one level down (``###``) so it sits under a rulebook
    section.

    ``lang`` is the script of the returned text. A rulebook template should pass the game's
    source language (or None): the rulebook is converted as a whole afterwards, exactly like
    its hand-written text, so the example goes through the same glossary.
    """
    loaded = load_game_data(workspace, game) if isinstance(game, str) else game
    sample = play_sample(workspace, loaded.slug, players, seed, variant, game=loaded)
    text = source_markdown(workspace, sample, excerpt=True)
    if lang is None or lang == loaded.info.source_lang:
        return text
    if lang not in LANGS:
        raise PnpError(f"unknown language {lang!r} (expected one of {', '.join(LANGS)})")
    return converter_for(loaded, lang)(text)
