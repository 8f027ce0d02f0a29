"""無人生還: the bots, reasoning only from what the whole table has seen."""

from __future__ import annotations

import math
import random
from collections import Counter
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from pnp.games.wurenshenghuan.game import DayEvent, Game, GuessEvent, NightEvent
from pnp.games.wurenshenghuan.rules import KEY, WurenshenghuanRules
from pnp.games.wurenshenghuan.state import (
    DayDecision,
    DayResult,
    Frame,
    Idle,
    Imprison,
    Kill,
    Look,
    NightAction,
    NightResult,
    Search,
    State,
    refill,
    without,
)
from pnp.games.wurenshenghuan.tables import prison_allowance, search_allowance


def _overlap(a: Iterable[str], b: Iterable[str]) -> int:
    """How many items ``a`` and ``b`` share, copies counted (both hold at most a row)."""
    rest = list(b)
    shared = 0
    for item in a:
        if item in rest:
            rest.remove(item)
            shared += 1
    return shared


@dataclass
class _KillMemory:
    night: int
    weapons: tuple[str, ...]
    key_discarded: bool
    imprisoned: frozenset[str]
    key_seen_at: str | None


@dataclass
class PublicView:
    """What every player at the table knows: shown cards, deaths, discards, searches.

    Internal to the bots; it never reads hidden cards from ``State``.
    """

    rules: WurenshenghuanRules
    seen: dict[str, dict[int, str]] = field(default_factory=dict)
    sizes: dict[str, int] = field(default_factory=dict)
    dead: set[str] = field(default_factory=set)
    imprisoned: frozenset[str] = frozenset()
    kills: list[_KillMemory] = field(default_factory=list)
    key_seen_at: str | None = None
    # Nights nobody died while these characters were locked up, shared among the prisoners.
    quiet: dict[str, float] = field(default_factory=dict)
    # Looks that found a card other than the one seen there before: the row was reached.
    changed: dict[str, int] = field(default_factory=dict)
    # Characters killed while they were the table's top suspect: a feigned death fits.
    died_suspected: set[str] = field(default_factory=set)
    # What each kill says about each character never changes once made, so it is summed
    # as the kills happen (in kill order, the same float additions as summing afresh).
    kill_evidence: dict[str, float] = field(default_factory=dict)
    used: set[str] = field(default_factory=set)  # weapon kinds seen discarded in a kill
    # The view changes only through observe_night / observe_day, so the scores are kept
    # between them: every bot and every guesser asks for them several times a day. Each
    # observation marks the letters whose score it can change; None marks every letter.
    _scores: dict[str, float] | None = field(default=None, repr=False, compare=False)
    _stale: set[str] = field(default_factory=set, repr=False, compare=False)
    _suspects: list[str] | None = field(default=None, repr=False, compare=False)

    @classmethod
    def at_setup(cls, rules: WurenshenghuanRules, state: State) -> PublicView:
        view = cls(rules)
        for letter in state.letters:
            row = state.items(letter)
            view.sizes[letter] = len(row)
            view.seen[letter] = {len(row) - 1: row[-1]} if row else {}
            if row and row[-1] == KEY:
                view.key_seen_at = letter
        return view

    def observe_night(self, night: int, result: NightResult, sizes: dict[str, int]) -> None:
        if result.killed:
            before = self.suspicion()
            living = [c for c in self.rules.letters if c not in self.dead]
            top = max(before[c] for c in living)
            runner_up = max((before[c] for c in living if before[c] < top), default=top)
            self.died_suspected |= {c for c in result.killed
                                    if before[c] == top and top > 0 and top > runner_up}
        elif result.imprisoned:
            # The murderer kills whenever they can, so a quiet night points at the prisoners.
            for letter in result.imprisoned:
                self.quiet[letter] = self.quiet.get(letter, 0.0) + 1 / len(result.imprisoned)
        if result.killed:
            weapons = tuple(i for i in result.discarded if i != KEY)
            memory = _KillMemory(
                night, weapons, KEY in result.discarded, frozenset(result.imprisoned),
                self.key_seen_at)
            self.kills.append(memory)
            self.used.update(weapons)
            for letter in self.rules.letters:
                self.kill_evidence[letter] = self._kill_score(
                    self.kill_evidence.get(letter, 0.0), memory, letter,
                    self.seen[letter].values())
            if KEY in result.discarded:
                self.key_seen_at = None
            self._scores = None  # every letter's kill evidence moved
        else:
            self._stale.update(result.imprisoned)
        self.dead |= set(result.killed)
        for letter, size in sizes.items():
            if size != self.sizes[letter]:
                # Only the murderer's row changes size, and whatever was seen there is gone.
                self.seen[letter] = {}
                self.sizes[letter] = size
                self._stale.add(letter)
        self._suspects = None

    def observe_day(self, result: DayResult) -> None:
        self.imprisoned = frozenset(result.imprisoned)
        for look in result.looks:
            seen = self.seen[look.character]
            cards = dict(enumerate(look.cards)) if look.position is None else {
                look.position: look.cards[0]}
            if any(seen.get(i, item) != item for i, item in cards.items()):
                # Only the murderer's own row and a framed row ever change.
                self.changed[look.character] = self.changed.get(look.character, 0) + 1
            if look.position is None:
                self.seen[look.character] = cards
            else:
                seen.update(cards)
            if KEY in look.cards:
                self.key_seen_at = look.character
            self._stale.add(look.character)
        self._suspects = None

    def feigned_plausible(self, letter: str) -> bool:
        """Could ``letter``'s public death be the murderer's feigned one?

        Yes when it died as the table's clear top suspect (the murderer's reason to fake
        it), or when its row changed afterwards or is short (the dead hold still).
        """
        return (letter in self.died_suspected or self.changed.get(letter, 0) > 0
                or self.sizes[letter] < self.rules.items_per_character)

    @staticmethod
    def _kill_score(score: float, memory: _KillMemory, letter: str,
                    before: Collection[str]) -> float:
        """``score`` plus what one kill says about ``letter``, whose cards ``before`` had
        been seen when it happened."""
        # A weak hint: a careful murderer kills with cards nobody has seen.
        score += 0.5 * _overlap(memory.weapons, before)
        if memory.key_discarded and KEY in before:
            score += 3
        # An imprisoned murderer cannot kill unless they hold the key.
        if letter in memory.imprisoned and memory.key_seen_at != letter:
            score -= 3
        return score

    def suspects(self) -> list[str]:
        """Letters that may be the murderer's: the living, and the dead whose death may have
        been feigned (shared until the view next changes)."""
        if self._suspects is None:
            self._suspects = [c for c in self.rules.letters
                              if c not in self.dead or self.feigned_plausible(c)]
        return self._suspects

    def suspicion(self) -> dict[str, float]:
        """Log-odds-like scores: higher = likelier the murderer's character (public only).

        Each piece of evidence adds roughly the log of how much likelier it is if the
        character is the murderer's: so ``confidence`` can turn the scores into chances.
        The dict is shared until the view next changes; callers only read it.
        """
        scores = self._scores
        stale = self._stale
        if scores is not None and not stale:
            return scores
        if scores is None:
            letters: Iterable[str] = self.rules.letters
            scores = {}
        else:
            letters = [c for c in self.rules.letters if c in stale]
            scores = dict(scores)  # a caller may still hold the previous scores
        used = self.used
        full = self.rules.items_per_character
        evidence, seen, sizes, dead = self.kill_evidence, self.seen, self.sizes, self.dead
        quiet, changed = self.quiet, self.changed
        for letter in letters:
            score = evidence.get(letter, 0.0)
            score += 0.25 * len([item for item in seen[letter].values() if item in used])
            if sizes[letter] < full:
                score += 10  # only the murderer's row ever shrinks
            score += QUIET_WEIGHT * quiet.get(letter, 0.0)
            score += CHANGED_WEIGHT * changed.get(letter, 0)
            if letter in dead:
                # The dead do not kill, unless the death was feigned.
                score -= 1.5 if self.feigned_plausible(letter) else 5
            scores[letter] = score
        stale.clear()
        self._scores = scores
        return scores


# A quiet night is about ten times likelier with the murderer among the prisoners (a free
# murderer kills whenever they can); a row seen to change is the murderer's or a framed one.
QUIET_WEIGHT = 2.3
CHANGED_WEIGHT = 1.5


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


def confidence(view: PublicView, own: str) -> tuple[list[str], dict[str, float]]:
    """Suspects for a player holding ``own``, likeliest first, with the chance of each.

    The chances are a softmax of the public suspicion scores (one point of score is worth a
    factor e), which matched how often the top suspect really was the murderer in seeded
    games. A publicly dead character is no suspect unless its death may have been feigned.
    """
    letters, chances = _chances(view, own)
    by_letter = dict(zip(letters, chances, strict=True))
    return sorted(letters, key=lambda c: (-by_letter[c], c)), by_letter


def _chances(view: PublicView, own: str) -> tuple[list[str], list[float]]:
    """``confidence``'s suspects (in letter order) and chances, unsorted."""
    scores = view.suspicion()
    letters = [c for c in view.suspects() if c != own]
    if not letters:
        return [], []
    top = max(map(scores.__getitem__, letters))
    weights = [math.exp(scores[c] - top) for c in letters]
    total = sum(weights)
    return letters, [w / total for w in weights]


def likeliest(view: PublicView, own: str) -> tuple[str, float] | None:
    """``confidence``'s first suspect and its chance, without sorting them all."""
    letters, chances = _chances(view, own)
    if not letters:
        return None
    best = min(range(len(letters)), key=lambda i: (-chances[i], letters[i]))
    return letters[best], chances[best]


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
