"""無人生還: the bots, reasoning only from what the whole table has seen (``suspicion``)."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterable, Mapping

from pnp.games.kit import Action, BotKind, Match
from pnp.games.wurenshenghuan.machine import (
    DONE,
    NONE,
    PASS,
    SEARCH,
    WurenshenghuanState,
)
from pnp.games.wurenshenghuan.murderer import kill_steps, order_of
from pnp.games.wurenshenghuan.rules import KEY, WurenshenghuanRules
from pnp.games.wurenshenghuan.state import State, refill, without
from pnp.games.wurenshenghuan.suspicion import PublicView, likeliest
from pnp.games.wurenshenghuan.tables import prison_allowance, search_allowance


def _ranked(scores: Mapping[str, float], rng: random.Random,
            among: Iterable[str]) -> list[str]:
    """Letters by score, highest first; ties in a seeded random order."""
    letters = list(among)
    rng.shuffle(letters)
    return sorted(letters, key=lambda c: -scores[c])


def murderer_greedy(rules: WurenshenghuanRules, state: State, view: PublicView,
                     rng: random.Random) -> list[Action]:
    """The night's steps."""
    own = state.murderer
    row = state.items(own)
    if state.murderer_locked:
        return [NONE]
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
        return kill_steps(rules, state, chosen, discard)  # the kept cards where they lay
    others = state.frame_targets()
    if not others or not row:
        return [NONE]
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
    return [("frame", give, tuple(range(len(row)))), ("take", target, position)]


def murderer_random(rules: WurenshenghuanRules, state: State,
                     rng: random.Random) -> list[Action]:
    own = state.murderer
    row = state.items(own)
    options: list[list[Action]] = [[NONE]]
    if state.murderer_locked:
        return [NONE]
    weapons = [item for item in row if item != KEY]
    targets = state.victims()
    if weapons and targets:
        count = rng.randint(1, min(len(weapons), rules.max_kills_per_night, len(targets)))
        discard = rng.sample(weapons, count)
        if KEY in row and rng.random() < 0.3:
            discard.append(KEY)
        rest = without(row, discard) or ()
        drawn, _ = refill(rules, rest, state.pile)
        arranged = list(rest + drawn)
        rng.shuffle(arranged)
        options.append(kill_steps(rules, state, rng.sample(targets, count), discard, arranged))
    others = state.frame_targets()
    if row and others:
        target = rng.choice(others)
        theirs = state.items(target)
        position = rng.randrange(len(theirs))
        give = rng.choice(row)
        mine = list(row)
        mine[mine.index(give)] = theirs[position]
        arranged = list(mine)
        rng.shuffle(arranged)
        options.append([("frame", give, order_of(mine, arranged)), ("take", target, position)])
    return rng.choice(options)


def table_greedy(rules: WurenshenghuanRules, state: State, view: PublicView, day: int,
                  rng: random.Random) -> list[Action]:
    """The day's steps."""
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
        return [("imprison", tuple(suspects[:prisoners]))]
    looks: list[Action] = []
    dead_unseen = [c for c in rules.letters if c in view.dead
                   and len(view.seen[c]) < view.sizes[c]]
    for c in dead_unseen[:searches]:
        looks.append(("look", c, None))
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
                looks.append(("look", c, unseen[0]))
                progressed = True
        if not progressed:
            # Everything is seen already: recheck a random card of the top suspects.
            for c in living:
                if len(looks) >= searches:
                    break
                if view.sizes[c]:
                    looks.append(("look", c, rng.randrange(view.sizes[c])))
            break
    return [SEARCH, *looks]


def table_random(rules: WurenshenghuanRules, state: State,
                  rng: random.Random) -> list[Action]:
    alive = len(state.alive)
    if rng.random() < 0.5:
        count = rng.randint(0, prison_allowance(rules, alive))
        return [("imprison", tuple(rng.sample(rules.letters, count)))]
    looks: list[Action] = [SEARCH]
    for _ in range(search_allowance(rules, alive)):
        who = rng.choice(rules.letters)
        size = len(state.items(who))  # row sizes are public: the cards lie on the table
        if who in state.dead:
            looks.append(("look", who, None))
        elif size:
            looks.append(("look", who, rng.randrange(size)))
    return looks


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


class Table:
    """What the hand-written bots at one table share: the random stream, each seat's settled
    guess day and patience, and the public view, caught up with the game before each choice.

    The stream is chance's, left after the deal (the engine's bots always went on drawing
    from it, and the deal is the game's only chance step): seeded logs stay as they were.
    """

    def __init__(self, state: WurenshenghuanState, rng: random.Random) -> None:
        rules = self.rules = state.rules
        self.rng = rng
        rows = tuple(state.dealt[c] for c in rules.letters)
        self.view = PublicView.at_setup(rules, State(rules.letters, rows, (), state.table.murderer))
        players = state.players
        # Each random innocent settles in advance on the day they will guess.
        self.guess_day = {seat: rng.randint(1, rules.days) for seat in range(players)}
        # How much sharper each greedy player expects a guess to get by waiting a day.
        self.patience = {seat: rng.uniform(0.1, 0.3) for seat in range(players)}
        self.nights = self.days = 0  # how many of each the view has taken in
        self.plan: list[Action] = []  # the steps still to take of a night or a search day

    def catch_up(self, state: WurenshenghuanState) -> None:
        view = self.view
        while self.nights < len(state.nights) or self.days < len(state.days):
            if self.nights == self.days:
                event = state.nights[self.nights]
                view.observe_night(event.night, event.result,
                                   {c: len(row) for c, row in event.table})
                self.nights += 1
            else:
                view.observe_day(state.days[self.days].result)
                self.days += 1


class Style:
    """A hand-written bot at one seat of the kit's play loop: as the murderer it acts at
    night, as the day's chair it decides for the table, and as an innocent it hands in its
    guess when its reasoning says so."""

    def __init__(self, kind: str) -> None:
        self.greedy = kind == "greedy"

    def choose(self, match: Match, seat: int, rng: random.Random) -> Action:
        state: WurenshenghuanState = match.state  # type: ignore[assignment]
        if state.bot_table is None:
            state.bot_table = Table(state, state.after_deal or rng)
        table: Table = state.bot_table
        table.catch_up(state)
        rules, now = state.rules, state.table
        if state.phase == "guess":
            return self._guess(seat, state, table)
        if state.first is not None or state.looks is not None:  # a night or a search going on
            return table.plan.pop(0) if table.plan else DONE
        if state.phase == "night" and self.greedy:
            steps = murderer_greedy(rules, now, table.view, table.rng)
        elif state.phase == "night":
            steps = murderer_random(rules, now, table.rng)
        elif self.greedy:
            steps = table_greedy(rules, now, table.view, state.night, table.rng)
        else:
            steps = table_random(rules, now, table.rng)
        first, *table.plan = steps
        return first

    def _guess(self, seat: int, state: WurenshenghuanState, table: Table) -> Action:
        if seat == state.murderer_seat or seat in state.guessed:
            return PASS
        rules, day, letter = table.rules, state.night, state.characters[seat]
        pick: str | None
        if self.greedy:
            pick = guess_greedy(rules, letter, table.view, day, len(state.table.alive),
                                table.patience[seat])
        else:
            others = [c for c in rules.letters if c != letter]
            pick = table.rng.choice(others) if table.guess_day[seat] == day else None
        return PASS if pick is None else ("guess", pick)


STYLES = {
    "greedy": BotKind("greedy", lambda budget: Style("greedy"),
                      "the murderer kills with unseen weapons; the table locks up its "
                      "suspects; guesses when waiting no longer pays"),
    "random": BotKind("random", lambda budget: Style("random"),
                      "a legal-move fuzzer (the table's day and the slips at random)"),
}
