"""The bots the kit gives every game: ``random``, ``greedy`` (by the game's evaluation) and
``ismcts`` (pnp.games.kit.ismcts). A game may add named styles of its own."""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping

from pnp.core.records import record
from pnp.games.base import DEFAULT_BUDGET, GameCodeError
from pnp.games.kit.contract import Action, State, evaluates, evaluates_class, no_legal_action
from pnp.games.kit.determinize import determinize
from pnp.games.kit.ismcts import Ismcts
from pnp.games.kit.match import Bot, Match

BotFactory = Callable[[int], Bot]
"""Makes a seat's bot; the argument is the search budget (iterations a decision)."""


class RandomBot:
    """Any legal action, uniformly."""

    def choose(self, match: Match, seat: int, rng: random.Random) -> Action:
        legal = list(match.state.legal_actions())
        if not legal:
            raise no_legal_action(seat)
        return rng.choice(legal)


class GreedyBot:
    """The action after which the game's ``evaluate(seat)`` is highest (the first on a tie).

    It looks one action ahead on a determinization (a state drawn from what ``seat`` knows),
    not on the true state, so an action whose result depends on hidden cards is not judged by
    the cards themselves."""

    def choose(self, match: Match, seat: int, rng: random.Random) -> Action:
        best: Action | None = None
        best_value = float("-inf")
        seen = determinize(match, seat, rng)
        for action in match.state.legal_actions():
            after = seen.clone()
            after.apply(action)
            if not evaluates(after):
                raise GameCodeError("evaluate", "the greedy bot needs a state with "
                                    f"evaluate(seat); {type(after).__name__} has none")
            value = after.evaluate(seat)
            if value > best_value:
                best, best_value = action, value
        if best is None:
            raise no_legal_action(seat)
        return best


@record
class BotKind:
    name: str
    make: BotFactory
    summary: str


GENERIC: Mapping[str, BotKind] = {
    # greedy first: with an evaluation it is the game's default bot
    "greedy": BotKind("greedy", lambda budget: GreedyBot(),
                      "the action that looks best by the game's evaluation"),
    "random": BotKind("random", lambda budget: RandomBot(), "any legal action, uniformly"),
    "ismcts": BotKind("ismcts", lambda budget: Ismcts(budget),
                      "information-set Monte Carlo tree search, BUDGET iterations a decision"),
}


def bot_kinds(state: State, own: Mapping[str, BotKind] = {}) -> dict[str, BotKind]:  # noqa: B006
    """The game's own styles first, then the generic bots its state supports (greedy only with
    an evaluation)."""
    return bot_kinds_of(type(state), own)


def bot_kinds_of(state_class: type, own: Mapping[str, BotKind] = {}  # noqa: B006
                 ) -> dict[str, BotKind]:
    """:func:`bot_kinds` for the states of a class, before any state is made."""
    kinds = dict(own)
    for name, kind in GENERIC.items():
        if name == "greedy" and not evaluates_class(state_class):
            continue
        kinds.setdefault(name, kind)
    return kinds


__all__ = ["DEFAULT_BUDGET", "BotFactory", "BotKind", "GENERIC", "GreedyBot", "RandomBot",
           "bot_kinds", "bot_kinds_of"]
