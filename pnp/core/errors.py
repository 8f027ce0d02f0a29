"""The one error root: anything a user can fix surfaces as ``Error: ...`` with exit 1.

The core raises these and never prints or exits; the command line (``pnp.cli``) shows the
message and sets the exit status, so no layer below it depends on click.
"""

from __future__ import annotations

from collections.abc import Iterable

from pnp.core.problems import Problem, as_problems


class PnpError(Exception):
    """Base of every user-facing error; the command line prints ``Error: <message>`` and
    exits with ``exit_code``."""

    exit_code = 1

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message

    def format_message(self) -> str:
        return self.message

    def as_printed(self) -> str:
        """The words the command line prints for this error (a preview page shows the same)."""
        return f"Error: {self.format_message()}"

    def __str__(self) -> str:
        return self.message


class ProblemsError(PnpError):
    """An error that carries every problem found, so the user fixes them in one go.

    ``records`` are the problems as values (:class:`~pnp.core.problems.Problem`), which every
    report reads; ``problems`` are their text renderings, as the user sees them. A bare string
    is accepted for a problem that has no place (a missing tool, a whole-run limit)."""

    def __init__(self, problems: Iterable[Problem | str] | Problem | str) -> None:
        self.records = as_problems(problems)
        self.problems = [str(p) for p in self.records]
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
