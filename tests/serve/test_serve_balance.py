"""The balance page's sweep, through the preview server's HTTP side (no build; the page in a
browser, after real saves, is tests/serve/test_serve_balance_browser.py).

What it shows is checked against the balance report of ``pnp simulate --sweep`` for the same
player counts and seeds, which plays its games in other chunks and in another process pool.
"""

from __future__ import annotations

import http.client
import json
import re
import subprocess
import sys
import time
import urllib.request
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from pnp.core.workspace import Workspace
from pnp.play.balance import report
from pnp.play.sweep import sweep
from pnp.scaffold import scaffold
from pnp.serve.preview import Preview
from pnp.serve.server import PreviewServer
from tests.conftest import edit, game_workspace

RULES = "card_data/niutouwang/game.yaml"
ROOT = Path(__file__).resolve().parents[2]


def _get(server: PreviewServer, path: str, method: str = "GET") -> tuple[int, bytes]:
    name, port = server.url.removeprefix("http://").rstrip("/").rsplit(":", 1)
    connection = http.client.HTTPConnection(name, int(port), timeout=30)
    try:
        connection.request(method, path)
        response = connection.getresponse()
        return response.status, response.read()
    finally:
        connection.close()


def _view(server: PreviewServer, slug: str = "niutouwang", after: object = "") -> dict[str, Any]:
    status, body = _get(server, f"/balance/{slug}.json?after={after}")
    assert status == 200, body
    found: dict[str, Any] = json.loads(body)
    return found


def _until(server: PreviewServer, done: Callable[[dict[str, Any]], bool], timeout: float = 180,
           slug: str = "niutouwang") -> list[dict[str, Any]]:
    """Every view read (long polls, one per change) until ``done`` holds for the last."""
    seen = [_view(server, slug)]
    deadline = time.monotonic() + timeout
    while not done(seen[-1]):
        assert time.monotonic() < deadline, seen[-1]
        seen.append(_view(server, slug, seen[-1]["version"]))
    return seen


def _state(pid: int) -> str:
    """The process's state letter (R running, S sleeping, T stopped, Z zombie)."""
    line = next(line for line in Path(f"/proc/{pid}/status").read_text().splitlines() if line.startswith("State:"))
    return line.split()[1]


def _eventually(check: Callable[[], bool], timeout: float = 30) -> bool:
    deadline = time.monotonic() + timeout
    while not check():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.05)
    return True


def _gone(pid: int, timeout: float = 30) -> bool:
    """The process is gone, reaped and all (a zombie still has its /proc entry)."""
    return _eventually(lambda: not Path(f"/proc/{pid}").exists(), timeout)


@pytest.fixture
def served(tmp_path: Path, request: pytest.FixtureRequest) -> Iterator[tuple[PreviewServer, Preview, Path]]:
    games = getattr(request, "param", 200)
    root = game_workspace(tmp_path, "niutouwang")
    preview = Preview(Workspace(root), "all", balance_games=games)
    with PreviewServer(preview, "127.0.0.1", 0) as server:
        yield server, preview, root


def test_nothing_runs_until_the_page_is_opened_then_figures_fill_in(
        served: tuple[PreviewServer, Preview, Path]) -> None:
    server, _, root = served
    first = _view(server)
    assert (first["status"], first["worker"], first["games"]) == ("not started", None, 0)
    assert _get(server, "/balance/niutouwang", "HEAD")[0] == 200
    assert _view(server)["status"] == "not started"  # a HEAD opens nothing

    status, page = _get(server, "/balance/niutouwang")
    assert status == 200 and b'data-game="niutouwang"' in page and b'src="/balance.js"' in page
    seen = _until(server, lambda v: v["status"] in ("done", "error"))
    last = seen[-1]
    assert last["status"] == "done", last["message"]
    # game.yaml: players common 5, the rules allow 2-10: 4, 5 and 6 players, 200 games each.
    assert [s["players"] for s in last["settings"]] == [4, 5, 6]
    assert last["planned"] == 600 and last["games"] == 600
    assert [s["games"] for s in last["settings"]] == [200, 200, 200]
    counts = [v["games"] for v in seen if v["generation"] == 1]
    assert len(set(counts)) > 3 and counts == sorted(counts)  # filled in a chunk at a time
    assert sum(1 for v in seen if 0 < v["games"] < 600) >= 2

    # The same figures as `pnp simulate niutouwang --players 4,5,6 --games 200 --format json`.
    reference = report(sweep(Workspace(root), "niutouwang", [], players="4,5,6", games=200, jobs=1))
    for live, expected in zip(last["settings"], reference["settings"], strict=True):
        for key in ("label", "players", "games", "length", "scores", "wins", "seat_advantage", "distributions"):
            assert live[key] == expected[key], key
    assert last["flags"] == reference["flags"]
    # One win chart per setting, a bar per seat.
    wins = {c["setting"]: c["svg"] for c in last["charts"] if c["name"].startswith("wins-")}
    assert {k: v.count('class="bar"') for k, v in wins.items()} == {0: 4, 1: 5, 2: 6}

    # Once done, the worker is gone.
    pid = seen[-2]["worker"] if seen[-1]["worker"] is None else seen[-1]["worker"]
    assert pid is not None and _gone(pid)
    assert _until(server, lambda v: v["worker"] is None)[-1]["status"] == "done"


@pytest.mark.parametrize("served", [20_000], indirect=True)
def test_a_rules_save_starts_a_new_generation_and_the_old_worker_is_gone(
        served: tuple[PreviewServer, Preview, Path]) -> None:
    server, preview, root = served
    _get(server, "/balance/niutouwang")
    running = _until(server, lambda v: v["status"] == "running" and v["games"] >= 60)[-1]
    old_worker = running["worker"]
    assert old_worker is not None and Path(f"/proc/{old_worker}").exists()

    # While the sweep plays, the preview still answers at once.
    status, body = _get(server, "/version")
    assert status == 200 and "version" in json.loads(body)
    assert _view(server)["status"] == "running"

    # A save of another file of the game (card text) is no new generation; while the preview
    # rebuilds after it, the worker is stopped by the system, and it goes on after.
    preview.balance.hold(["card_data/niutouwang/components.yaml"])
    paused = _view(server)
    assert (paused["generation"], paused["paused"], paused["worker"]) == (1, True, old_worker)
    assert _eventually(lambda: _state(old_worker) == "T")  # a signal is delivered, not at once
    preview.balance.release()
    assert _view(server)["paused"] is False and _eventually(lambda: _state(old_worker) != "T")
    assert _until(server, lambda v: v["games"] > paused["games"])[-1]["generation"] == 1

    edit(root / RULES, "  row_limit: 6 ", "  row_limit: 5 ")
    preview.balance.hold([RULES])  # what Preview.refresh does around its rebuild
    held = _view(server)
    assert (held["generation"], held["status"], held["games"], held["settings"]) == (2, "waiting", 0, [])
    preview.balance.release()
    assert _gone(old_worker), "the cancelled worker is still there"
    fresh = _until(server, lambda v: v["generation"] == 2 and v["games"] > 0)[-1]
    assert fresh["worker"] not in (None, old_worker)

    server.stop()  # the server's end stops the running worker too
    assert _gone(fresh["worker"])


def test_rules_that_do_not_load_show_their_error_and_the_fix_runs_again(
        served: tuple[PreviewServer, Preview, Path]) -> None:
    server, preview, root = served
    edit(root / RULES, "  row_limit: 6 ", "  row_limit: 0 ")
    _get(server, "/balance/niutouwang")
    failed = _until(server, lambda v: v["status"] in ("done", "error"))[-1]
    assert failed["status"] == "error" and failed["settings"] == []
    assert failed["message"].startswith("Error: ")
    assert "card_data/niutouwang/game.yaml:27: rules.row_limit: must be at least 2, got 0" in failed["message"]
    assert "Traceback" not in failed["message"]

    edit(root / RULES, "  row_limit: 0 ", "  row_limit: 6 ")
    preview.balance.hold([RULES])
    preview.balance.release()
    fixed = _until(server, lambda v: v["generation"] == 2 and v["status"] in ("done", "error"))[-1]
    assert (fixed["status"], fixed["message"], fixed["games"]) == ("done", "", 600)


def test_a_game_without_an_engine_has_a_note_and_no_worker(tmp_path: Path) -> None:
    root = tmp_path / "ws"
    (root / "card_data").mkdir(parents=True)
    scaffold(Workspace(root), "xinyouxi")
    preview = Preview(Workspace(root), "xinyouxi")
    with PreviewServer(preview, "127.0.0.1", 0) as server:
        assert _get(server, "/balance/xinyouxi")[0] == 200
        view = _view(server, "xinyouxi")
        assert (view["status"], view["worker"], view["settings"]) == ("no engine", None, [])
        assert "a balance sweep needs a rules engine, and xinyouxi has none yet" in view["message"]


def test_an_unknown_game_is_404(served: tuple[PreviewServer, Preview, Path]) -> None:
    server, _, _ = served
    for path in ("/balance/nosuchgame.json", "/balance/nosuchgame", "/balance/", "/balance",
                 "/balance/tisigui.json",  # a game the workspace does not have
                 "/balance/niutouwang/x.json", "/balance/niutouwang.json/"):
        assert _get(server, path)[0] == 404, path
    assert _get(server, "/balance/niutouwang.json?after=x")[0] == 400


def _ended(pid: int, timeout: float = 60) -> bool:
    """The process no longer runs: gone, or a zombie its new parent has not reaped yet (an
    orphan's parent is the machine's init, which in a container may be slow to reap)."""
    def ended() -> bool:
        try:
            return _state(pid) == "Z"
        except FileNotFoundError:
            return True
    return _eventually(ended, timeout)


def test_a_worker_whose_server_is_killed_ends_at_its_next_chunk(tmp_path: Path) -> None:
    root = game_workspace(tmp_path, "niutouwang")
    command = [sys.executable, "-m", "tests.serve.standalone", str(root), "niutouwang", "--balance-games", "20000"]
    process = subprocess.Popen(command, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        assert process.stdout is not None
        found = re.match(r"serving (http://127\.0\.0\.1:\d+/)", process.stdout.readline())
        assert found
        url = found.group(1)
        with urllib.request.urlopen(url + "balance/niutouwang", timeout=30) as reply:
            assert reply.status == 200
        view: dict[str, Any] = {"version": ""}
        deadline = time.monotonic() + 180
        while not (view.get("status") == "running" and view.get("games", 0) > 0):
            assert time.monotonic() < deadline, view
            with urllib.request.urlopen(f"{url}balance/niutouwang.json?after={view['version']}", timeout=30) as reply:
                view = json.loads(reply.read())
        worker = view["worker"]
        assert worker is not None and not _ended(worker, timeout=0)
        process.kill()  # no clean-up at all: the worker finds its reader gone
        process.wait(timeout=10)
        assert _ended(worker), "the worker outlived its server"
    finally:
        if process.poll() is None:
            process.kill()
            process.wait(timeout=10)
        if process.stdout is not None:
            process.stdout.close()
