"""pnp simulate --cluster: a sweep and a plain run on a Dask scheduler give the local run's
JSON byte for byte; an unreachable or malformed address and a missing extra are clear errors.

.ci/run starts a scheduler and two workers on 127.0.0.1 and names it in PNP_TEST_CLUSTER;
without it (a developer's run) the tests start their own and stop them afterwards.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner

from pnp.cli import cli
from pnp.core.errors import PnpError
from pnp.play.cluster import check_address
from pnp.play.simulate import in_job_order
from tests.conftest import ROOT

SMALL_SWEEP = ["simulate", "niutouwang", "--sweep", "rules.row_limit=5,6", "--players", "4..5",
               "--games", "60", "--format", "json"]
UNREACHABLE = "tcp://127.0.0.1:1"


def _own_cluster(folder: Path) -> Iterator[str]:
    """A scheduler on a free port of 127.0.0.1 and two one-thread workers, as plain processes
    of this Python (so they import this pnp)."""
    pytest.importorskip("distributed", reason="the cluster extra is part of the test extra")
    address_file = folder / "scheduler.json"
    quiet = {"stdout": subprocess.DEVNULL, "stderr": subprocess.DEVNULL, "cwd": folder}
    processes = [subprocess.Popen([sys.executable, "-m", "distributed.cli.dask_scheduler", "--host", "127.0.0.1",
                                   "--port", "0", "--no-dashboard", "--scheduler-file", str(address_file)], **quiet)]
    try:
        processes += [subprocess.Popen([sys.executable, "-m", "distributed.cli.dask_worker", "--scheduler-file",
                                        str(address_file), "--nworkers", "1", "--nthreads", "1", "--no-dashboard",
                                        "--host", "127.0.0.1"], **quiet) for _ in range(2)]
        from distributed import Client

        deadline = time.monotonic() + 120
        while not address_file.exists() and time.monotonic() < deadline:
            time.sleep(0.2)
        address = json.loads(address_file.read_text())["address"]
        with Client(address, timeout=60, set_as_default=False) as client:
            client.wait_for_workers(2, timeout=120)
        yield address
    finally:
        for process in reversed(processes):
            process.terminate()
        for process in reversed(processes):
            try:
                process.wait(30)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()


@pytest.fixture(scope="module")
def cluster(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    given = os.environ.get("PNP_TEST_CLUSTER")
    if given:
        yield given
        return
    yield from _own_cluster(tmp_path_factory.mktemp("cluster"))


def _run(args: list[str]) -> bytes:
    result = subprocess.run([sys.executable, "-m", "pnp", *args], cwd=ROOT, capture_output=True, timeout=600)
    assert result.returncode == 0, result.stderr.decode()
    return result.stdout


def test_a_sweep_on_the_cluster_gives_the_local_json_byte_for_byte(cluster: str) -> None:
    local = _run([*SMALL_SWEEP, "--jobs", "1"])
    remote = _run([*SMALL_SWEEP, "--cluster", cluster])
    assert remote == local
    report = json.loads(remote)
    assert [(s["rules"]["rules.row_limit"], s["players"], s["games"]) for s in report["settings"]] == [
        (5, 4, 60), (5, 5, 60), (6, 4, 60), (6, 5, 60)]


def test_a_plain_simulate_on_the_cluster_gives_the_local_json(cluster: str) -> None:
    plain = ["simulate", "niutouwang", "--players", "4", "--games", "90", "--seed", "7", "--format", "json"]
    local = _run([*plain, "--jobs", "1"])
    remote = _run([*plain, "--cluster", cluster])
    assert remote == local
    assert json.loads(remote)["seeds"] == {"first": 7, "last": 96}


def test_an_unreachable_scheduler_is_an_error_and_nothing_is_written(tmp_path: Path) -> None:
    pytest.importorskip("distributed", reason="the cluster extra is part of the test extra")
    out = tmp_path / "report.json"
    result = subprocess.run([sys.executable, "-m", "pnp", *SMALL_SWEEP, "--cluster", UNREACHABLE, "--out", str(out)],
                            cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert result.returncode == 1
    assert result.stderr.startswith(f"Error: --cluster {UNREACHABLE}: no scheduler answered")
    assert "Traceback" not in result.stderr
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("address", ["127.0.0.1:8786", "tcp://127.0.0.1", "tcp://127.0.0.1:70000",
                                     "http://host:8786", "tcp://-bad-:8786", "tcp://a b:8786",
                                     "tcp://" + "a" * 290 + ":8786" + "x" * 500])
def test_text_that_is_no_address_is_a_usage_error(address: str) -> None:
    result = CliRunner().invoke(cli, [*SMALL_SWEEP, "--cluster", address])
    assert result.exit_code == 2
    assert "--cluster" in result.output and "is not a scheduler address" in result.output


def test_jobs_and_cluster_together_are_a_usage_error() -> None:
    result = CliRunner().invoke(cli, [*SMALL_SWEEP, "--jobs", "2", "--cluster", "tcp://127.0.0.1:8786"])
    assert result.exit_code == 2
    assert "--jobs is the number of local processes" in result.output


@pytest.mark.parametrize("address", ["tcp://127.0.0.1:8786", "tcp://scheduler.lab.example:8786",
                                     "tls://10.0.0.5:8786", "tcp://[::1]:8786"])
def test_scheduler_addresses_are_taken(address: str) -> None:
    assert check_address(address) == address


def test_without_the_extra_the_error_says_how_to_install_it(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setitem(sys.modules, "distributed", None)  # import distributed raises ImportError
    out = tmp_path / "report.json"
    result = CliRunner().invoke(cli, [*SMALL_SWEEP, "--cluster", "tcp://127.0.0.1:8786",
                                      "--out", str(out)])
    assert result.exit_code == 1
    assert "Error: --cluster needs the Dask distributed client: pip install 'pnp-zh[cluster]'" in result.output
    assert not out.exists()


def test_results_that_come_in_any_order_are_merged_in_job_order() -> None:
    counted: list[int] = []
    arrived = [(2, "c"), (0, "a"), (3, "dd"), (1, "bbb")]
    assert list(in_job_order(arrived, counted.append, len)) == [(0, "a"), (1, "bbb"), (2, "c"), (3, "dd")]
    assert counted == [1, 1, 2, 3]  # progress as each came, not as each was merged


def test_check_address_names_what_to_write() -> None:
    with pytest.raises(PnpError, match=r"write tcp://HOST:PORT"):
        check_address("scheduler:8786")
