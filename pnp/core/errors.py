"""The one error root: anything a user can fix surfaces as ``Error: ...`` with exit 1."""

from __future__ import annotations

from collections.abc import Iterable

import click


class PnpError(click.ClickException):
    """Base of every user-facing error; Click prints ``Error: <message>`` and exits 1."""

    exit_code = 1


class ProblemsError(PnpError):
    """An error that carries every problem found, so the user fixes them in one go."""

    def __init__(self, problems: Iterable[str] | str) -> None:
        if isinstance(problems, str):
            problems = [problems]
        self.problems = list(problems)
        count = len(self.problems)
        head = "1 problem found" if count == 1 else f"{count} problems found"
        super().__init__(head + ":\n" + "\n".join(f"  - {p}" for p in self.problems))


class DataError(ProblemsError):
    """card_data (or another user input) is malformed."""


class FontError(DataError):
    """A character the chosen font face cannot print."""


class BuildError(ProblemsError):
    """Rendering failed for a reason the designer can fix (e.g. text too long for its box)."""


class CheckFailed(ProblemsError):
    """``pnp check`` found differences or lint problems."""
