"""無人生還: the bots, reasoning only from what the whole table has seen (``suspicion``)."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence

from pnp.games.wurenshenghuan.game import DayEvent, Game, GuessEvent, NightEvent
from pnp.games.wurenshenghuan.rules import KEY, WurenshenghuanRules
from pnp.games.wurenshenghuan.state import (
    DayDecision,
    Frame,
    Idle,
    Imprison,
    Kill,
    Look,
    NightAction,
    Search,
    State,
    refill,
    without,
)
from pnp.games.wurenshenghuan.suspicion import PublicView, likeliest
from pnp.games.wurenshenghuan.tables import prison_allowance, search_allowance


def _ranked(scores: Mapping[str, float], rng: random.Random,
            among: Iterable[str]) -> list[str]:
    """Letters by score, highest first; ties in a seeded random order."""
    letters = list(among)
    rng.shuffle(letters)
    return sorted(letters, key=lambda c: -scores[c])


def murderer_greedy(rules: WurenshenghuanRules, state: State, view: PublicView,
                     rng: random.Random) -> NightAction:
    own = state.murderer
    row = state.items(own)
    if own in state.imprisoned and not state.murderer_has_key:
        return Idle()
    weapons = [item for item in row if item != KEY]
    targets = [c for c in state.alive if c != own and state.free(c)]
    scores = view.suspicion()
    if weapons and targets:
        # Kill with the weapons the table has not seen under the murderer's own character,
        # so what is shown at daybreak points elsewhere; with every weapon seen, kill with
        # one only, of the kind seen under the most other characters.
        seen_here = Counter(view.seen[own].values())
        unseen = list(weapons)
        for item, count in seen_here.items():
            for _ in range(count):
                if item in unseen:
                    unseen.remove(item)
        if unseen:
            discard = unseen[: rules.max_kills_per_night]
        else:
            elsewhere = Counter(item for c in state.letters if c != own
                                for item in view.seen[c].values())
            discard = [max(weapons, key=lambda item: (elsewhere[item], rng.random()))]
        count = min(len(discard), len(targets))
        discard = discard[:count]
        chosen = rng.sample(targets, count)
        ranked = _ranked(scores, rng, rules.letters)
        # The table's top suspect fakes their own death, if a kill slot can spare it.
        if (count >= 2 and own in state.alive and state.free(own) and ranked[0] == own
                and scores[own] >= scores[ranked[1]] + 1):
            chosen[-1] = own
        return Kill(tuple(chosen), tuple(discard), _keep_places(rules, row, discard,
                                                                state.pile))
    others = [c for c in state.letters if c != own and state.free(c) and state.items(c)]
    if not others or not row:
        return Idle()
    # A living character's row is where a later search would find the planted item. The
    # murderer sees only their own row: the card taken is picked by its place, blind
    # (docs/rulings.md#wurenshenghuan-frame-blind); a row's length is public.
    target = rng.choice([c for c in others if c not in state.dead] or others)
    position = rng.randrange(len(state.items(target)))
    if weapons:
        used = {w for memory in view.kills for w in memory.weapons}
        # Hand over the most incriminating item: one of a kind already used to kill.
        give = max(weapons, key=lambda item: (item in used, item in view.seen[own].values()))
    else:
        give = row[0]  # holding only keys, trade one away for what may be a weapon
    return Frame(target, position, give)


def _keep_places(rules: WurenshenghuanRules, row: Sequence[str], discard: Sequence[str],
                 pile: Sequence[str]) -> tuple[str, ...]:
    """The murderer's row after a kill with every kept card left where it lay and the drawn
    cards in the gaps, so that a card the table saw there is still there."""
    rest = without(row, discard) or ()
    drawn = list(refill(rules, rest, pile)[0])
    gone = Counter(discard)
    arranged: list[str] = []
    for item in row:
        if gone[item]:
            gone[item] -= 1
            if drawn:
                arranged.append(drawn.pop(0))
        else:
            arranged.append(item)
    return tuple(arranged + drawn)


def murderer_random(rules: WurenshenghuanRules, state: State,
                     rng: random.Random) -> NightAction:
    own = state.murderer
    row = state.items(own)
    options: list[NightAction] = [Idle()]
    if own in state.imprisoned and not state.murderer_has_key:
        return Idle()
    weapons = [item for item in row if item != KEY]
    targets = [c for c in state.alive if state.free(c)]
    if weapons and targets:
        count = rng.randint(1, min(len(weapons), rules.max_kills_per_night, len(targets)))
        discard = rng.sample(weapons, count)
        if KEY in row and rng.random() < 0.3:
            discard.append(KEY)
        rest = without(row, discard) or ()
        drawn, _ = refill(rules, rest, state.pile)
        arranged = list(rest + drawn)
        rng.shuffle(arranged)
        options.append(Kill(tuple(rng.sample(targets, count)), tuple(discard), tuple(arranged)))
    others = [c for c in state.letters if c != own and state.free(c) and state.items(c)]
    if row and others:
        target = rng.choice(others)
        theirs = state.items(target)
        position = rng.randrange(len(theirs))
        give = rng.choice(row)
        mine = list(row)
        mine[mine.index(give)] = theirs[position]
        rng.shuffle(mine)
        options.append(Frame(target, position, give, tuple(mine)))
    return rng.choice(options)


def table_greedy(rules: WurenshenghuanRules, state: State, view: PublicView, day: int,
                  rng: random.Random) -> DayDecision:
    alive = state.alive
    searches = search_allowance(rules, len(alive))
    prisoners = prison_allowance(rules, len(alive))
    scores = view.suspicion()
    ranked = _ranked(scores, rng, rules.letters)
    # Locking up the likeliest living suspects stops the murderer if they are among them,
    # and the night tells: a quiet one points at the prisoners, a kill clears them. It
    # only matters if another night follows.
    # (In seeded games this beat searching at every player count: a careful murderer kills
    # with cards nobody has seen, so looks find little.)
    suspects = [c for c in ranked if c in alive]
    if day < rules.days and prisoners and suspects:
        return Imprison(tuple(suspects[:prisoners]))
    looks: list[Look] = []
    dead_unseen = [c for c in rules.letters if c in view.dead
                   and len(view.seen[c]) < view.sizes[c]]
    for c in dead_unseen[:searches]:
        looks.append(Look(c))
    living = sorted(alive, key=lambda c: (-scores[c], len(view.seen[c]), rng.random()))
    picked: dict[str, set[int]] = {}
    while len(looks) < searches and living:
        progressed = False
        for c in living:
            if len(looks) >= searches:
                break
            unseen = [p for p in range(view.sizes[c])
                      if p not in view.seen[c] and p not in picked.get(c, set())]
            if unseen:
                picked.setdefault(c, set()).add(unseen[0])
                looks.append(Look(c, unseen[0]))
                progressed = True
        if not progressed:
            # Everything is seen already: recheck a random card of the top suspects.
            for c in living:
                if len(looks) >= searches:
                    break
                if view.sizes[c]:
                    looks.append(Look(c, rng.randrange(view.sizes[c])))
            break
    return Search(tuple(looks))


def table_random(rules: WurenshenghuanRules, state: State,
                  rng: random.Random) -> DayDecision:
    alive = len(state.alive)
    if rng.random() < 0.5:
        count = rng.randint(0, prison_allowance(rules, alive))
        return Imprison(tuple(rng.sample(rules.letters, count)))
    looks = []
    for _ in range(search_allowance(rules, alive)):
        who = rng.choice(rules.letters)
        size = len(state.items(who))  # row sizes are public: the cards lie on the table
        if who in state.dead:
            looks.append(Look(who))
        elif size:
            looks.append(Look(who, rng.randrange(size)))
    return Search(tuple(looks))


def guess_greedy(rules: WurenshenghuanRules, own: str, view: PublicView, day: int,
                  alive: int, patience: float) -> str | None:
    """Hand in a guess once waiting a day no longer looks worth it.

    Guessing today pays ``p`` × today's points; waiting pays tomorrow's points with a
    sharper guess, ``p + patience``. A player whose character still lives also guards the
    survival bonus by guessing before tonight's kills (a correct guess handed in before
    one's death keeps it). Everyone guesses on the last day, or when tonight's kills could
    leave nobody alive.
    """
    found = likeliest(view, own)
    if found is None:
        return None
    best, p = found
    if day >= rules.days or alive <= rules.max_kills_per_night:
        return best
    risk = 0.0
    if own not in view.dead:
        risk = min(1.0, EXPECTED_KILLS / max(1, alive)) * rules.survival_bonus
    # day < rules.days here, so both days are in the game; a short table pays 0.
    table = rules.guess_points
    today = table[day - 1] if day <= len(table) else 0
    tomorrow = table[day] if day < len(table) else 0
    now = p * (today + risk)
    later = min(1.0, p + patience) * tomorrow
    return best if now >= later else None


EXPECTED_KILLS = 2.0  # what a player expects the murderer to kill in a night


class Bots:
    """The seated bots as a ``Policy``: ``bots[seat]`` names each seat's bot.

    The murderer's seat picks the night actions and each other seat its own guess. The
    day's decision belongs to the whole table, so it follows the table's bot when every
    innocent seat plays the same one, and the greedy bot otherwise.
    """

    def __init__(self, rules: WurenshenghuanRules, bots: Sequence[str], rng: random.Random,
                 murderer_seat: int, state: State) -> None:
        self.rules = rules
        self.bots = list(bots)
        self.rng = rng
        self.view = PublicView.at_setup(rules, state)
        innocents = {name for seat, name in enumerate(self.bots) if seat != murderer_seat}
        self.table = innocents.pop() if len(innocents) == 1 else "greedy"
        players = len(self.bots)
        # Each random innocent settles in advance on the day they will guess.
        self.guess_day = {seat: rng.randint(1, rules.days) for seat in range(players)}
        # How much sharper each greedy player expects a guess to get by waiting a day.
        self.patience = {seat: rng.uniform(0.1, 0.3) for seat in range(players)}

    def night(self, game: Game) -> NightAction:
        if self.bots[game.murderer_seat] == "greedy":
            return murderer_greedy(self.rules, game.state, self.view, self.rng)
        return murderer_random(self.rules, game.state, self.rng)

    def saw_night(self, game: Game, event: NightEvent) -> None:
        state = game.state
        self.view.observe_night(event.night, event.result,
                                dict(zip(state.letters, map(len, state.rows), strict=True)))

    def day(self, game: Game) -> DayDecision:
        if self.table == "greedy":
            return table_greedy(self.rules, game.state, self.view, game.night, self.rng)
        return table_random(self.rules, game.state, self.rng)

    def saw_day(self, game: Game, event: DayEvent) -> None:
        self.view.observe_day(event.result)

    def guesses(self, game: Game) -> list[tuple[int, str]]:
        rules, day = self.rules, game.night
        alive = len(game.state.alive)
        picks: list[tuple[int, str]] = []
        for seat in game.guessers():
            letter = game.characters[seat]
            pick: str | None
            if self.bots[seat] == "greedy":
                pick = guess_greedy(rules, letter, self.view, day, alive, self.patience[seat])
            else:
                others = [c for c in rules.letters if c != letter]
                pick = self.rng.choice(others) if self.guess_day[seat] == day else None
            if pick is not None:
                picks.append((seat, pick))
        return picks

    def saw_guess(self, game: Game, event: GuessEvent) -> None:
        pass
