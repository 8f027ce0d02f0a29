"""The plainest legal 愛者無敵 game without ability cards: the same deck, sets and rounds,
every choice random, no bots, no log.

Each round reveals the bills; each player still in plays a random card of their set at a
random other player still in and withdraws on a coin flip; then the 搶婚 resolve together,
then the 嫁給我吧 (each gives a 被愛 and lays the target down), players at 3 被愛 go out
after each step, and the standing players split the table with the rules' own split.
"""

from __future__ import annotations

import random

from pnp.games.aizhewudi.rules import AizhewudiRules
from pnp.games.aizhewudi.split import split

RULES = AizhewudiRules()


def plain_game(rng: random.Random, players: int) -> None:
    rules = RULES
    deck = rules.deck
    rng.shuffle(deck)
    sets = [[c.id for c in rules.action_cards for _ in range(c.per_player)]
            for _ in range(players)]
    loved = [0] * players
    out = [False] * players
    money = [0] * players
    table: list[int] = []
    for _ in range(rules.rounds):
        table += [deck.pop() for _ in range(min(rules.bills_per_round, len(deck)))]
        ins = [s for s in range(players) if not out[s]]
        down = dict.fromkeys(ins, False)
        plays: list[tuple[int, str, int]] = []
        for seat in ins:
            if sets[seat]:
                card = sets[seat].pop(rng.randrange(len(sets[seat])))
                plays.append((seat, card, rng.choice([t for t in ins if t != seat])))
        for seat in ins:
            if rng.random() < 0.15:
                down[seat] = True
        plays = [pl for pl in plays if not down[pl[0]] and not down[pl[2]]]
        for step in ("rush", "propose"):
            hits = [pl for pl in plays if pl[1] == step]
            if step == "rush":
                rushed = {pl[2] for pl in hits}
                plays = [pl for pl in plays if pl[1] != "rush" and pl[0] not in rushed]
            for pl in hits:
                loved[pl[2]] += 1
                down[pl[2]] = True
            for seat in ins:
                if not out[seat] and loved[seat] >= rules.eliminated_at:
                    out[seat] = down[seat] = True
            plays = [pl for pl in plays if not out[pl[0]] and not out[pl[2]]]
            if sum(not o for o in out) <= 1:
                return
        sharers = [s for s in ins if not down[s]]
        shared = split(table, len(sharers), rules)
        for seat in sharers:
            money[seat] += shared.share
        table = list(shared.carried)
