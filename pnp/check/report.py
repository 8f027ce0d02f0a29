"""What ``pnp check`` reports: findings, acknowledged lint, and the report per game.

Kept apart from the checks themselves (pnp.check.proof) so a reader of either holds one concern.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import field
from types import MappingProxyType
from typing import Any

from pnp.core.problems import Problem
from pnp.core.records import record

KINDS = ("data", "engine", "table", "reference", "lint", "players", "count", "literal", "typography", "conversion",
         "purity", "glyph")

_EMPTY: Mapping[str, Any] = MappingProxyType({})


@record
class CheckFinding:
    kind: str
    code: str
    message: str
    where: str
    extra: Mapping[str, Any] = field(default_factory=lambda: _EMPTY)
    problem: Problem | None = None
    """The problem the finding reports, when a loader or an engine found it (its file, line,
    column, field path, own code and hint go into the JSON)."""

    @classmethod
    def of(cls, kind: str, code: str, problem: Problem, extra: Mapping[str, Any] = _EMPTY) -> CheckFinding:
        """A finding that reports ``problem`` (its paths already relative to the workspace)."""
        return cls(kind, code, problem.text, problem.place, extra, problem)

    def describe(self) -> str:
        return f"{self.where}: {self.message}" if self.where else self.message

    def as_json(self) -> dict[str, Any]:
        found: dict[str, Any] = {"kind": self.kind, "code": self.code, "message": self.message,
                                 "where": self.where, **self.extra}
        if self.problem is not None:
            p = self.problem
            found.update({"file": p.file, "line": p.line, "column": p.column, "path": list(p.path),
                          "cell": p.cell, "problem_code": p.code, "hint": p.hint})
        return found


@record
class Acknowledgement:
    """An acknowledged lint code and the findings it covered (hid) in this run."""

    code: str
    reason: str
    where: str
    findings: tuple[CheckFinding, ...] = ()

    @property
    def covered(self) -> int:
        return len(self.findings)

    def as_json(self) -> dict[str, Any]:
        return {"code": self.code, "reason": self.reason, "where": self.where,
                "covered": self.covered, "findings": [f.as_json() for f in self.findings]}


@record
class GameReport:
    slug: str
    findings: tuple[CheckFinding, ...]
    acknowledged: tuple[Acknowledgement, ...] = ()
    # What could not be proved but is no fault (a data-only game's printed tables).
    notes: tuple[CheckFinding, ...] = ()

    @property
    def ok(self) -> bool:
        return not self.findings

    def as_json(self) -> dict[str, Any]:
        data = {"ok": self.ok, "findings": [f.as_json() for f in self.findings],
                "acknowledged": [a.as_json() for a in self.acknowledged]}
        if self.notes:
            data["notes"] = [note.as_json() for note in self.notes]
        return data


@record
class CheckReport:
    games: tuple[GameReport, ...]

    @property
    def ok(self) -> bool:
        return all(game.ok for game in self.games)

    @property
    def count(self) -> int:
        return sum(len(game.findings) for game in self.games)

    def as_json(self) -> dict[str, Any]:
        return {"games": {game.slug: game.as_json() for game in self.games}, "ok": self.ok}

    def text(self) -> str:
        """The report grouped by game, one finding a line."""
        lines: list[str] = []
        for game in self.games:
            if game.ok:
                lines.append(f"{game.slug}: ok")
            else:
                n = len(game.findings)
                lines.append(f"{game.slug}: {n} finding{'s' if n != 1 else ''}")
                for finding in game.findings:
                    lines.append(f"  [{finding.kind}] {finding.code}: {finding.describe()}")
            for ack in game.acknowledged:
                for finding in ack.findings:
                    lines.append(f"  acknowledged {finding.code}: {finding.describe()}")
                    lines.append(f"      because: {ack.reason}")
            for note in game.notes:
                lines.append(f"  note {note.code}: {note.describe()}")
        if not self.games:
            lines.append("no games in card_data/")
        return "\n".join(lines)

    def summary(self) -> str:
        bad = [game for game in self.games if not game.ok]
        n = self.count
        if len(bad) == 1:
            return f"check found {n} problem{'s' if n != 1 else ''} in {bad[0].slug}"
        names = ", ".join(f"{game.slug} ({len(game.findings)})" for game in bad)
        return f"check found {n} problems: {names}"
