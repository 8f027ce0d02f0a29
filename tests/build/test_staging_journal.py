"""The staging writer and its journal, in-process: every step of a commit, undone or finished.

A process killed at step k is stood in for by an exception at the fault point with the
in-process rollback switched off, which leaves the disk as the kill would; ``recover`` must
then leave the root holding exactly the old files (before the commit mark) or the new ones
(after it). tests/build/test_kill_swap.py does the same with real SIGKILLs through ``pnp``.
"""

from __future__ import annotations

import hashlib
from pathlib import Path

import pytest

from pnp.build import journal, staging
from pnp.build.staging import Transaction, recover


class Killed(BaseException):
    """Stands for SIGKILL: nothing the process would have done after it happens."""


def tree(root: Path) -> dict[str, str]:
    return {path.relative_to(root).as_posix(): hashlib.sha256(path.read_bytes()).hexdigest()
            for path in sorted(root.rglob("*")) if path.is_file()}


OLD = {"a.pdf": b"old a", "sub/b.pdf": b"old b", "sub/gone.png": b"obsolete", "same.txt": b"same"}
NEW = {"a.pdf": b"new a", "sub/b.pdf": b"new b", "sub/c.pdf": b"brand new", "same.txt": b"same"}


def lay_out(root: Path) -> None:
    for name, data in OLD.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_bytes(data)
    (root / ".x.abcdefgh.tmp").write_bytes(b"the user's")  # shaped like an old temporary


def commit_new(root: Path) -> None:
    transaction = Transaction(root)
    for name, data in NEW.items():
        transaction.stage(Path(name), data)
    transaction.remove(Path("sub/gone.png"))
    transaction.commit()


STEPS = len(NEW) + 1 + 3  # the journal, the mark, each rename and the removal, the clean-up


@pytest.fixture
def root(tmp_path: Path) -> Path:
    folder = tmp_path / "output"
    folder.mkdir()
    lay_out(folder)
    return folder


def expected(root: Path, new: bool) -> dict[str, str]:
    scratch = root.parent / ("new" if new else "old")
    scratch.mkdir()
    lay_out(scratch)
    if new:
        commit_new(scratch)
    return tree(scratch)


@pytest.mark.parametrize("step", range(STEPS))
def test_a_kill_at_any_step_is_finished_or_undone_by_recover(root: Path, step: int, monkeypatch) -> None:
    def fault(at: int) -> None:
        if at == step:
            raise Killed
    monkeypatch.setattr(staging, "_swap_step", fault)
    monkeypatch.setattr(journal.Journal, "roll_back", lambda self: None)  # killed: no undoing
    if step == STEPS - 1:  # after the clean-up: the commit is done, nothing to recover
        with pytest.raises(Killed):
            commit_new(root)
        monkeypatch.undo()
        assert recover(root) == []
        assert tree(root) == expected(root, new=True)
        return
    with pytest.raises(Killed):
        commit_new(root)
    assert [path.name for path in root.glob(".pnp-swap.*.json")], "the journal is on disk"
    monkeypatch.undo()
    done = recover(root)
    assert [item.outcome for item in done] == ["rolled back" if step == 0 else "finished"]
    assert tree(root) == expected(root, new=step > 0)
    assert recover(root) == []


@pytest.mark.parametrize("step", range(STEPS - 1))
def test_an_exception_at_any_step_puts_every_old_file_back(root: Path, step: int, monkeypatch) -> None:
    """Ctrl-C, SIGTERM (pnp turns it into Ctrl-C) or an error mid-commit: undone in-process."""
    before = tree(root)

    def fault(at: int) -> None:
        if at == step:
            raise KeyboardInterrupt
    monkeypatch.setattr(staging, "_swap_step", fault)
    with pytest.raises(KeyboardInterrupt):
        commit_new(root)
    assert tree(root) == before  # no journal, temporary or backup left either


def test_recovery_rolls_back_when_a_new_file_is_not_whole(root: Path, monkeypatch) -> None:
    """Committed, but a temporary no longer holds what was staged: the swap cannot be
    finished, so every file goes back."""
    def fault(at: int) -> None:
        if at == 2:  # one file renamed
            raise Killed
    monkeypatch.setattr(staging, "_swap_step", fault)
    monkeypatch.setattr(journal.Journal, "roll_back", lambda self: None)
    with pytest.raises(Killed):
        commit_new(root)
    monkeypatch.undo()
    damaged = next(root.rglob(".b.pdf.*.tmp"))
    damaged.write_bytes(b"new")  # truncated
    assert [item.outcome for item in recover(root)] == ["rolled back"]
    assert tree(root) == expected(root, new=False)


def test_a_journal_is_written_before_any_temporary(root: Path, monkeypatch) -> None:
    seen = []

    def fault(at: int) -> None:
        if at == 0:
            seen.append(sorted(path.name for path in root.rglob(".*") if path.name != ".x.abcdefgh.tmp"))
    monkeypatch.setattr(staging, "_swap_step", fault)
    commit_new(root)
    assert len(seen) == 1 and len(seen[0]) == 1 and seen[0][0].startswith(".pnp-swap.pnp-")
    assert tree(root) == expected(root, new=True)
