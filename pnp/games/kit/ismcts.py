"""Information-set Monte Carlo tree search (single observer; Cowling, Powley and Whitehouse,
2012) for any game written to the contract.

Each iteration draws a determinization of the searching seat's information set, walks the
tree choosing among the actions legal in that determinization by UCB1 with availability
counts (an action is scored against the times it could have been chosen), adds one node,
finishes the game with random play and credits every node on the path with the result of
the seat that moved into it. After ``budget`` iterations the most visited action is played.
Everything random comes from the seat's own stream, so a seed gives the same game.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass, field

from pnp.games.base import DEFAULT_BUDGET
from pnp.games.kit.contract import CHANCE, Action, State
from pnp.games.kit.determinize import determinize
from pnp.games.kit.match import Match, draw_chance

EXPLORATION = 0.7


@dataclass(eq=False)
class _Node:
    mover: int  # the seat whose action led here (-1 at the root)
    action: Action | None = None
    parent: _Node | None = None
    visits: int = 0
    available: int = 0
    reward: float = 0.0
    children: dict[Action, _Node] = field(default_factory=dict)

    def ucb(self) -> float:
        if self.visits == 0:
            return math.inf
        return (self.reward / self.visits
                + EXPLORATION * math.sqrt(math.log(max(self.available, 1)) / self.visits))


@dataclass(frozen=True)
class Ismcts:
    budget: int = DEFAULT_BUDGET

    def choose(self, match: Match, seat: int, rng: random.Random) -> Action:
        legal = list(match.state.legal_actions())
        if len(legal) == 1:
            return legal[0]
        root = _Node(mover=-1)
        for _ in range(self.budget):
            _iterate(root, determinize(match, seat, rng), rng)
        visited = [(root.children[a].visits, -i, a) for i, a in enumerate(legal)
                   if a in root.children]
        if not visited:
            return legal[0]
        return max(visited, key=lambda item: (item[0], item[1]))[2]


def _iterate(root: _Node, state: State, rng: random.Random) -> None:
    node = root
    while not state.is_over():
        mover = state.to_move()
        if mover == CHANCE:
            state.apply(draw_chance(state, rng))
            continue
        legal = state.legal_actions()
        children = [node.children[a] for a in legal if a in node.children]
        for child in children:
            child.available += 1
        if len(children) < len(legal):
            untried = [a for a in legal if a not in node.children]
            action = untried[rng.randrange(len(untried))]
            state.apply(action)
            child = _Node(mover, action, node, available=1)
            node.children[action] = child
            node = child
            break
        node = max(children, key=_Node.ucb)
        state.apply(node.action)
    _rollout(state, rng)
    rewards = state.outcome().rewards()
    while node is not None:
        node.visits += 1
        if node.mover >= 0:
            node.reward += rewards[node.mover]
        node = node.parent  # type: ignore[assignment]


def _rollout(state: State, rng: random.Random) -> None:
    while not state.is_over():
        if state.to_move() == CHANCE:
            state.apply(draw_chance(state, rng))
        else:
            legal = state.legal_actions()
            state.apply(legal[rng.randrange(len(legal))])
