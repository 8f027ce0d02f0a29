"""Playtest-night calculators (``pnp calc``): what a game declares and what it answers.

Each game's calculators live in its package (``pnp/games/<slug>/calc.py``) as
:class:`Calculator` declarations, which ``GamePlugin.calculators`` lists and the command line
mounts as ``pnp calc <slug> <name>``. A calculator's ``run`` is a plain function: it takes the
game's rules (from card_data/<slug>/game.yaml, or the engine's defaults when the game has no
card_data yet) and its declared parameters as keywords, and returns a :class:`CalcResult`: the
JSON object (``data``) and a few lines of text in the game's own script (``lines``). Seats
count from 1 here, as a table counts them. A bad argument raises
:class:`pnp.core.errors.PnpError`, so the user sees ``Error: ...`` and exit status 1.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from types import MappingProxyType
from typing import Any

from pnp.core.records import record
from pnp.games.calcargs import Param


@record
class CalcResult:
    data: Mapping[str, Any]
    lines: tuple[str, ...]

    def as_json(self) -> dict[str, Any]:
        return dict(self.data)

    def text(self) -> str:
        return "\n".join(self.lines)


@record
class Calculator:
    """One calculator: ``run(rules, **values)`` with a value for each of ``params``.

    ``help`` is its one-line description (``pnp calc <slug> --help`` lists it); ``params``
    come in the order help shows them.
    """

    name: str
    help: str
    run: Callable[..., CalcResult]
    params: tuple[Param, ...] = ()


def make_result(data: dict[str, Any], lines: Sequence[str]) -> CalcResult:
    return CalcResult(MappingProxyType(data), tuple(lines))


def money(value: int) -> str:
    return f"{value:,}"
