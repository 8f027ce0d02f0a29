"""The hostile-input corpus (tests/hostile/*.yaml): every case exits with a located error,
no traceback, nothing written to output/, within a wall-clock limit. See tests/hostile/README.md."""

from __future__ import annotations

import os
import random
import re
import shutil
import subprocess
import sys
from collections.abc import Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[1]
CORPUS = ROOT / "tests" / "hostile"
# A hostile case must fail fast: a hang or a slow refusal is a failure, not a wait.
TIME_LIMIT_S = 30


def _cases() -> list[Any]:
    cases = []
    for file in sorted(CORPUS.glob("*.yaml")):
        for case in yaml.safe_load(file.read_text(encoding="utf-8")):
            cases.append(pytest.param(case, id=f"{file.stem}:{case['id']}"))
    return cases


def _substitute(value: Any, tmp: Path) -> Any:
    if isinstance(value, str):
        return value.replace("{tmp}", str(tmp))
    if isinstance(value, list):
        return [_substitute(item, tmp) for item in value]
    if isinstance(value, dict):
        return {key: _substitute(item, tmp) for key, item in value.items()}
    return value


_LINE = re.compile(r"(?P<file>[\w.-]+):\{line(?P<offset>[+-]\d+)?\}")


def _edit_line(root: Path, rel: str, op: dict[str, Any], before: str) -> int:
    """The line where a case's edit starts in the edited file: what `{line}` stands for, so a
    case names the line of its own edit without hard-coding where that falls today."""
    text = (root / rel).read_text(encoding="utf-8")
    if "replace" in op:
        start = text.index(op["replace"][1])
    elif "append" in op:
        start = len(before) + len(op["append"]) - len(op["append"].lstrip("\n"))
    else:
        start = 0
    return text.count("\n", 0, start) + 1


def _resolve_lines(fragment: str, starts: dict[str, int]) -> str:
    def line(match: re.Match[str]) -> str:
        name = match.group("file")
        hits = [start for rel, start in starts.items() if rel.endswith("/" + name) or rel == name]
        assert len(hits) == 1, f"{{line}} after {name}: the case must edit exactly one such file"
        return f"{name}:{hits[0] + int(match.group('offset') or 0)}"
    return _LINE.sub(line, fragment)


def _apply(root: Path, rel: str, op: dict[str, Any]) -> None:
    path = root / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    if "copy" in op:  # a file of this checkout, then optionally edited (replace/append)
        shutil.copyfile(ROOT / op["copy"], path)
        op = {key: value for key, value in op.items() if key != "copy"}
        if not op:
            return
    if "append" in op:
        with path.open("a", encoding="utf-8") as handle:
            handle.write(op["append"])
    elif "replace" in op:
        old, new = op["replace"]
        text = path.read_text(encoding="utf-8")
        assert old in text, f"case edit: {old!r} not in {rel}"
        path.write_text(text.replace(old, new, 1), encoding="utf-8")
    elif "text" in op:
        path.unlink(missing_ok=True)
        path.write_bytes(op["text"].encode(op.get("encoding", "utf-8")))
    elif "bytes_hex" in op:
        path.unlink(missing_ok=True)
        path.write_bytes(bytes.fromhex(op["bytes_hex"]))
    elif "symlink" in op:
        if path.is_dir() and not path.is_symlink():
            shutil.rmtree(path)
        else:
            path.unlink(missing_ok=True)
        target = Path(op["symlink"])
        path.symlink_to(target if target.is_absolute() else root / target)
    elif op.get("fifo"):
        path.unlink(missing_ok=True)
        os.mkfifo(path)
    elif "sparse" in op:  # a file of that many bytes that takes no room on disk
        path.unlink(missing_ok=True)
        with path.open("wb") as handle:
            handle.truncate(int(op["sparse"]))
    elif op.get("remove"):
        if path.is_dir() and not path.is_symlink():
            shutil.rmtree(path)
        else:
            path.unlink(missing_ok=True)
    elif "face" in op:  # one of pnp's bundled faces, cut short or with bytes flipped
        data = bytearray((ROOT / "pnp" / "core" / "faces" / op["face"]).read_bytes())
        del data[op.get("truncate", len(data)):]
        for at in random.Random(0).sample(range(len(data) // 2, len(data)), op.get("flip", 0)):
            data[at] ^= 0x55
        path.unlink(missing_ok=True)
        path.write_bytes(bytes(data))
    elif op.get("mkdir"):
        path.unlink(missing_ok=True)
        path.mkdir(parents=True, exist_ok=True)
    else:
        raise AssertionError(f"unknown file operation {op!r}")


def _snapshot(folder: Path) -> dict[str, bytes]:
    if not folder.exists():
        return {}
    if folder.is_file():
        return {".": folder.read_bytes()}
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


@dataclass(frozen=True)
class _Run:
    """What a case's subprocess did: its output, exit code and what output/ held around it."""

    tmp: Path
    output: str
    returncode: int | None  # None: killed at the time limit
    before: dict[str, bytes]
    after: dict[str, bytes]
    starts: dict[str, int]  # where each edited file's edit starts, for {line} in messages


def _run_case(case: dict[str, Any], tmp_path: Path, env: dict[str, str]) -> _Run:
    root = tmp_path / "ws"
    root.mkdir()
    shutil.copytree(ROOT / "card_data", root / "card_data")
    shutil.copytree(ROOT / "templates", root / "templates")
    (root / "output").mkdir()
    (root / "output" / "sentinel.txt").write_text("untouched\n", encoding="utf-8")
    case = _substitute(case, tmp_path)
    starts: dict[str, int] = {}
    for rel, op in (case.get("files") or {}).items():
        path = root / rel
        before = path.read_text(encoding="utf-8") if path.is_file() and ("append" in op or "replace" in op) else ""
        _apply(root, rel, op)
        if "append" in op or "replace" in op:
            starts[rel] = _edit_line(root, rel, op, before)
    before = _snapshot(root / "output")
    try:
        done = subprocess.run(
            [sys.executable, "-m", "pnp", *[str(arg) for arg in case["run"]]],
            cwd=root, env=env, capture_output=True, text=True, timeout=TIME_LIMIT_S,
            stdin=subprocess.DEVNULL,
        )
    except subprocess.TimeoutExpired:
        return _Run(tmp_path, "", None, before, before, starts)
    return _Run(tmp_path, done.stdout + done.stderr, done.returncode, before,
                _snapshot(root / "output"), starts)


# Each case is a subprocess that mostly waits on its own CPU work, so the selected cases run a
# few at a time in the background while the tests read their results in order; every case
# keeps its own time limit and its own assertions.
WORKERS = int(os.environ.get("PNP_HOSTILE_JOBS", "0")) or min(4, os.cpu_count() or 1)


@pytest.fixture(scope="session")
def hostile_runs(request: pytest.FixtureRequest,
                 tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Future[_Run]]]:
    selected = [item for item in request.session.items
                if getattr(item, "originalname", None) == "test_hostile_case"]
    pool = ThreadPoolExecutor(max_workers=WORKERS)
    # Copied here, once, in pytest's own thread: pytest rewrites os.environ (PYTEST_CURRENT_TEST)
    # while the cases run, and a worker thread copying it at that moment fails.
    # PYTHONPATH: the pnp of this checkout, whatever is installed.
    env = {**os.environ, "PYTHONHASHSEED": "0", "COLUMNS": "200", "PYTHONPATH": str(ROOT)}
    env.pop("PYTEST_CURRENT_TEST", None)
    runs = {}
    for item in selected:
        key = item.callspec.id  # type: ignore[attr-defined]
        folder = tmp_path_factory.mktemp("hostile")
        runs[key] = pool.submit(_run_case, item.callspec.params["case"], folder, env)  # type: ignore[attr-defined]
    yield runs
    pool.shutdown(wait=True, cancel_futures=True)


@pytest.mark.parametrize("case", _cases())
def test_hostile_case(case: dict[str, Any], request: pytest.FixtureRequest,
                      hostile_runs: dict[str, Future[_Run]]) -> None:
    run = hostile_runs[request.node.callspec.id].result()
    if run.returncode is None:
        pytest.fail(f"{case['id']}: no answer within {TIME_LIMIT_S} s (a hang)")
    output = run.output
    assert "Traceback (most recent call last)" not in output, output
    assert run.returncode == case["exit"], output
    assert ("Error:" if case["exit"] == 1 else "Usage:") in output, output
    for fragment in (_resolve_lines(f, run.starts) for f in case.get("message", [])):
        assert fragment in output, f"{fragment!r} not in:\n{output}"
    for fragment in case.get("unsaid", []):
        assert fragment not in output, f"{fragment!r} shown (read from where it must not be):\n{output}"
    assert run.after == run.before, "output/ was changed"
    for name in case.get("forbid", []):
        assert not list(run.tmp.rglob(name)), f"{name} was created: the input ran code"
