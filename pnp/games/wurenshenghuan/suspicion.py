"""無人生還: what the whole table knows, and whom it suspects. ``PublicView`` keeps the public
record of a game (cards shown and searched, deaths and discards, who was locked up, which
nights were quiet) and sums it into suspicion scores as rough log-odds; ``confidence`` and
``likeliest`` turn them into chances. It never reads a hidden card: the bots decide from it
alone.
"""

from __future__ import annotations

import math
from collections.abc import Collection, Iterable
from dataclasses import dataclass, field

from pnp.games.wurenshenghuan.rules import KEY, WurenshenghuanRules
from pnp.games.wurenshenghuan.state import DayResult, NightResult, State


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
