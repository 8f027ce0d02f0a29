"""無人生還 (wurenshenghuan): the game's plugin and its reference engine.

Rules as settled in docs/rulings.md (section wurenshenghuan). The engine is pure: no I/O,
randomness only from a passed ``random.Random``.

Vocabulary used throughout:

- *characters* are the lettered cards A, B, C, ... on the table; each player secretly plays
  one of them (seat -> letter) and characters no player holds are still in play.
- *items* are strings: ``"W1"`` ... ``"W10"`` for the weapon kinds (numbered in the order of
  the item deck in card_data) and ``"KEY"`` for the key. Copies of one kind are
  indistinguishable, so a kind string identifies a card well enough to conserve the deck.
- a character's *row* is its items left to right; the last one is the one shown at setup.
- the *pile* is the murderer's draw pile, top card first.

The game is one state machine written to the engine kit's contract,
``machine.WurenshenghuanState`` over a frozen ``State`` of the table (pnp.games.kit: one
chance step deals, the murderer's night in steps, the table's day by a chair going round the
table, a slip round after each day). The kit's loop plays it with a bot per seat, replays a
log's ``steps`` through the same rules, and the rulebook's worked example is played through
it too; ``play`` writes the event log from the match and ``replay`` compares every logged
fact with the replayed one.

The event log (seats from 0; letters for characters; items as above) is described field by
field in docs/sample-and-simulate.md (section wurenshenghuan); every ruling the engine follows,
those the seed is silent on included, is in docs/rulings.md (section wurenshenghuan).

Bots (``bot="greedy"``; ``"random"`` is a legal-move fuzzer; ``"ismcts"`` is the kit's search,
dealing the hidden roles and items again from its seat's view, resample.py). The hand-written
ones draw from the seeded stream left after the deal, as they always did, and the day's chair
decides with its own bot. They reason only from public play (``suspicion.PublicView``):
shown and searched cards, deaths and discards, who was locked up, and which nights were quiet.
Its suspicion scores add up evidence as rough log-odds
(a quiet night with the murderer's character locked up, a kill that clears the prisoners, a
row seen to change or shrink, discards matching cards seen, the dead counting only when
their death may have been feigned), and ``confidence`` turns them into chances.

- The murderer kills as many as it can with the weapons the table has not seen under its
  own character (with every weapon seen, one kill with the kind seen most elsewhere), leaves
  the cards it keeps where they lay, fakes its own death when it is the table's clear top
  suspect, and frames someone when it cannot kill.
- The table locks up the likeliest living suspects every day but the last (searching told
  it less), and searches on the last day.
- Each other player hands in a guess, for the likeliest suspect, once today's points times
  its chance beat tomorrow's points times a somewhat better chance (how much better differs
  from player to player), guarding the survival bonus against tonight's kills too; everyone
  guesses on the last day or when the game may end tonight.

The code lives in rules.py (parameters), tables.py (scoring and printed tables), lint.py,
state.py (the table), machine.py (the rules' state machine), suspicion.py (what the table
knows), resample.py (the hidden cards dealt again for the search bot), bots.py and play.py;
this module is the plugin, everything pnp asks of the game.
"""

from __future__ import annotations

from pnp.games.base import GamePlugin, NarrationPart, PlayPart, ReportPart, RulesPart, SupplyPart, TablesPart
from pnp.games.wurenshenghuan import (
    calc,
    example,
    lint,
    narration,
    play,
    rules,
    summary,
    supply,
    tables,
)

GAME = GamePlugin(
    slug="wurenshenghuan",
    title="無人生還",
    rules=RulesPart(rules.rules_from_mapping, lint=lint.lint, doc="pnp/games/wurenshenghuan/rules.py"),
    play=PlayPart(play.play, play.replay, rules.player_range, rules.default_players,
                  bots=rules.BOTS, kit=play.KIT),
    tables=TablesPart(tables.compute_tables, tables.COLUMNS),
    narration=NarrationPart(narration.facts, example.example_moments, example.WORKED),
    report=ReportPart(summary.summarise, summary.report_sections, summary.role_lines,
                      summary.supply_lines),
    supply=SupplyPart(supply.requirements),
    calculators=calc.CALCULATORS,
)
