"""The SVG path subset symbols are written in: M L H V C Q Z and their relative forms.

Paths are parsed once, at load time, into absolute segments (M, L, C, Z): a typo in a
path is a validation problem with its file and line, not a drawing surprise, and the
renderer only ever sees moves, lines and cubic curves.
"""

from __future__ import annotations

import re

from pnp.core.limits import MAX_VIEWBOX
from pnp.data.model import PathSegment

_TOKEN = re.compile(r"\s*(?:([MmLlHhVvCcQqZz])|([-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?))\s*,?")
_ARITY = {"M": 2, "L": 2, "H": 1, "V": 1, "C": 6, "Q": 4, "Z": 0}


class PathSyntaxError(ValueError):
    pass


def _tokens(d: str) -> list[str | float]:
    out: list[str | float] = []
    pos = 0
    d = d.strip()
    while pos < len(d):
        match = _TOKEN.match(d, pos)
        if not match or match.end() == pos:
            raise PathSyntaxError(f"unexpected {d[pos:pos + 8]!r} at character {pos + 1} "
                                  "(supported: M L H V C Q Z, upper or lower case, and numbers)")
        if match.group(1):
            out.append(match.group(1))
        else:
            number = float(match.group(2))
            if not abs(number) <= MAX_VIEWBOX:  # also refuses inf from an exponent like 1e999
                raise PathSyntaxError(f"number {match.group(2)!r} at character {pos + 1} is beyond "
                                      f"±{MAX_VIEWBOX:g}")
            out.append(number)
        pos = match.end()
    return out


def parse_path(d: str) -> tuple[PathSegment, ...]:
    """Absolute segments for a path string; raises PathSyntaxError saying what is wrong."""
    tokens = _tokens(d)
    if not tokens:
        raise PathSyntaxError("empty path")
    if not isinstance(tokens[0], str) or tokens[0].upper() != "M":
        raise PathSyntaxError("a path must start with M (move to)")
    segments: list[PathSegment] = []
    x = y = 0.0
    start = (0.0, 0.0)
    i = 0
    command = ""
    while i < len(tokens):
        token = tokens[i]
        if isinstance(token, str):
            command = token
            i += 1
        elif command.upper() == "Z":
            raise PathSyntaxError(f"number {token:g} after Z needs a command before it")
        op = command.upper()
        relative = command.islower()
        arity = _ARITY[op]
        args = tokens[i:i + arity]
        if len(args) < arity or any(isinstance(a, str) for a in args):
            raise PathSyntaxError(f"{command} needs {arity} numbers")
        numbers = [float(a) for a in args]
        i += arity
        if op == "Z":
            segments.append(PathSegment("Z"))
            x, y = start
            continue
        if op == "H":
            x = numbers[0] + (x if relative else 0.0)
            segments.append(PathSegment("L", ((x, y),)))
            continue
        if op == "V":
            y = numbers[0] + (y if relative else 0.0)
            segments.append(PathSegment("L", ((x, y),)))
            continue
        points = [(numbers[k] + (x if relative else 0.0), numbers[k + 1] + (y if relative else 0.0))
                  for k in range(0, arity, 2)]
        if op == "M":
            segments.append(PathSegment("M", (points[0],)))
            start = points[0]
            # Pairs after a move are lines, as in SVG.
            command = "l" if relative else "L"
        elif op == "L":
            segments.append(PathSegment("L", (points[0],)))
        elif op == "C":
            segments.append(PathSegment("C", tuple(points)))
        elif op == "Q":
            # A quadratic curve is the cubic whose control points sit 2/3 of the way to its one.
            (qx, qy), end = points
            c1 = (x + 2 / 3 * (qx - x), y + 2 / 3 * (qy - y))
            c2 = (end[0] + 2 / 3 * (qx - end[0]), end[1] + 2 / 3 * (qy - end[1]))
            segments.append(PathSegment("C", (c1, c2, end)))
        x, y = points[-1]
    return tuple(segments)
