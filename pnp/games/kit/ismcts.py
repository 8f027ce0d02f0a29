"""Information-set Monte Carlo tree search (single observer; Cowling, Powley and Whitehouse,
2012) for any game written to the contract.

Each iteration draws a determinization of the searching seat's information set, walks the
tree choosing among the actions legal in that determinization by UCB1 with availability
counts (an action is scored against the times it could have been chosen), adds one node,
finishes the game with random play and credits every node on the path with the result of
the seat that moved into it. After ``budget`` iterations the most visited action is played,
ties going to the best mean result (see ``Ismcts.choose``).
Everything random comes from the seat's own stream, so a seed gives the same game.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass, field

from pnp.core.records import record
from pnp.games.base import DEFAULT_BUDGET, GameCodeError
from pnp.games.draws import below
from pnp.games.kit.contract import CHANCE, Action, State, no_legal_action, outcome_of
from pnp.games.kit.determinize import determinize
from pnp.games.kit.match import MAX_STEPS, Match, draw_chance, never_ended

EXPLORATION = 0.7


@dataclass(eq=False, slots=True)
class _Node:
    mover: int  # the seat whose action led here (-1 at the root)
    action: Action | None = None
    parent: _Node | None = None
    visits: int = 0
    available: int = 0
    reward: float = 0.0
    children: dict[Action, _Node] = field(default_factory=dict)


@record
class Ismcts:
    budget: int = DEFAULT_BUDGET

    def choose(self, match: Match, seat: int, rng: random.Random) -> Action:
        legal = list(match.state.legal_actions())
        if len(legal) == 1:
            return legal[0]
        if not legal:
            raise no_legal_action(seat)
        try:
            set(legal)
        except TypeError:
            raise GameCodeError("legal_actions", "expected actions that can be hashed (ISMCTS "
                                "keys its search tree by them: a number, a text or a tuple), got "
                                + ", ".join(sorted({type(a).__name__ for a in legal}))) from None
        root = _Node(mover=-1)
        for _ in range(self.budget):
            _iterate(root, determinize(match, seat, rng), rng)
        # The most visited action; among equally visited ones (every one once, when the budget
        # is below the number of actions) the best mean result, then the first listed.
        visited = [(child.visits, child.reward / child.visits, -i, a) for i, a in enumerate(legal)
                   if (child := root.children.get(a)) is not None and child.visits]
        if not visited:
            return legal[0]
        return max(visited, key=lambda item: item[:3])[3]


def _iterate(root: _Node, state: State, rng: random.Random) -> None:
    # Thousands of these a decision: the state's methods are bound once, each legal action's
    # child is looked up once, and UCB1 (mean reward plus EXPLORATION * sqrt(ln available /
    # visits), an unvisited child first) is worked inline, the first best kept.
    is_over, to_move, legal_actions, apply = (state.is_over, state.to_move,
                                              state.legal_actions, state.apply)
    sqrt, log, inf = math.sqrt, math.log, math.inf
    node = root
    while not is_over():
        mover = to_move()
        if mover == CHANCE:
            apply(draw_chance(state, rng))
            continue
        legal = legal_actions()
        if not legal:
            raise no_legal_action(mover)
        known = node.children
        children = []
        untried = []
        for action in legal:
            child = known.get(action)
            if child is None:
                untried.append(action)
            else:
                child.available += 1
                children.append(child)
        if untried:
            action = untried[rng.randrange(len(untried))]
            apply(action)
            child = _Node(mover, action, node, available=1)
            known[action] = child
            node = child
            break
        best, best_value = children[0], -inf
        for child in children:
            visits = child.visits
            value = inf if visits == 0 else (
                child.reward / visits
                + EXPLORATION * sqrt(log(max(child.available, 1)) / visits))
            if value > best_value:
                best, best_value = child, value
        node = best
        apply(node.action)
    _rollout(state, rng)
    rewards = outcome_of(state).rewards()
    walked: _Node | None = node
    while walked is not None:
        walked.visits += 1
        if walked.mover >= 0:
            walked.reward += rewards[walked.mover]
        walked = walked.parent


def _rollout(state: State, rng: random.Random) -> None:
    is_over, to_move, legal_actions, apply = (state.is_over, state.to_move,
                                              state.legal_actions, state.apply)
    randrange = below(rng)
    for _ in range(MAX_STEPS):
        if is_over():
            return
        seat = to_move()
        if seat == CHANCE:
            apply(draw_chance(state, rng))
        else:
            legal = legal_actions()
            if not legal:  # drawing from nothing would never return
                raise no_legal_action(seat)
            apply(legal[randrange(len(legal))])
    if not is_over():
        raise never_ended()
