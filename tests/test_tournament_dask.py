"""`tournament run --dask`: games on a real Dask cluster give the standings of the local pool."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

pytestmark = pytest.mark.slow

BOTS = [
    "--bot",
    "builtin:amazes/explorer",
    "--bot",
    "builtin:amazes/random",
    "--bot",
    "other=builtin:amazes/random",
]


def botarena(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "botarena", *args],
        capture_output=True,
        text=True,
        timeout=300,
        cwd=cwd,
    )


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def wait_for_port(port: int, seconds: float = 60) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=1):
                return
        except OSError:
            time.sleep(0.2)
    raise AssertionError(f"nothing listens on port {port}")


@pytest.fixture(scope="module", autouse=True)
def dask_scratch(tmp_path_factory: pytest.TempPathFactory):
    """Dask's scratch folder (`dask-scratch-space`, made by clients and workers alike, in
    this process and in the commands it starts) inside the module's temporary folder."""
    import dask

    folder = tmp_path_factory.mktemp("dask-scratch")
    saved = os.environ.get("DASK_TEMPORARY_DIRECTORY")
    os.environ["DASK_TEMPORARY_DIRECTORY"] = str(folder)
    with dask.config.set({"temporary-directory": str(folder)}):
        yield folder
    if saved is None:
        del os.environ["DASK_TEMPORARY_DIRECTORY"]
    else:
        os.environ["DASK_TEMPORARY_DIRECTORY"] = saved


@pytest.fixture(scope="module")
def dask_cluster(tmp_path_factory: pytest.TempPathFactory, dask_scratch: Path):
    """A real `dask scheduler` and `dask worker` (2 single-thread worker processes) on
    127.0.0.1, as an organiser starts them."""
    port = free_port()
    logs = tmp_path_factory.mktemp("dask")
    scratch = {**os.environ, "DASK_TEMPORARY_DIRECTORY": str(logs)}  # not dask's in TMPDIR
    dask = Path(sys.executable).with_name("dask")
    with (
        open(logs / "scheduler.log", "w") as scheduler_log,
        open(logs / "worker.log", "w") as worker_log,
    ):
        scheduler = subprocess.Popen(
            [str(dask), "scheduler", "--host", "127.0.0.1", "--port", str(port), "--no-dashboard"],
            stdout=scheduler_log,
            stderr=subprocess.STDOUT,
            env=scratch,
        )
        wait_for_port(port)
        worker = subprocess.Popen(
            [
                str(dask),
                "worker",
                f"tcp://127.0.0.1:{port}",
                "--nthreads",
                "1",
                "--nworkers",
                "2",
                "--no-dashboard",
                "--local-directory",
                str(logs),
            ],
            stdout=worker_log,
            stderr=subprocess.STDOUT,
            env=scratch,
        )
    yield f"tcp://127.0.0.1:{port}"
    for process in (worker, scheduler):
        process.terminate()
    for process in (worker, scheduler):
        try:
            process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


def standings(tmp_path: Path, *run_args: str) -> list[dict]:
    db = f"sqlite:///{tmp_path / 'store.db'}"
    made = botarena(
        "tournament",
        "new",
        "t",
        "--game",
        "amazes",
        *BOTS,
        "--games-per-pair",
        "2",
        "--seed",
        "7",
        "--db",
        db,
        cwd=tmp_path,
    )
    assert made.returncode == 0, made.stderr
    ran = botarena("tournament", "run", "t", "--db", db, *run_args, cwd=tmp_path)
    assert ran.returncode == 0, ran.stderr
    shown = botarena("tournament", "standings", "t", "--json", "--db", db, cwd=tmp_path)
    assert shown.returncode == 0, shown.stderr
    return json.loads(shown.stdout)


def test_a_cluster_plays_the_same_tournament_as_the_local_pool(
    dask_cluster: str, tmp_path: Path
) -> None:
    (tmp_path / "local").mkdir()
    (tmp_path / "cluster").mkdir()
    local = standings(tmp_path / "local", "--workers", "2")
    remote = standings(tmp_path / "cluster", "--dask", dask_cluster)
    assert remote == local
    assert sum(row["games"] for row in remote) == 3 * 2 * 2 * 2  # 6 ordered pairs x 2, 2 seats
    assert remote[0]["bot"] == "explorer"


def test_a_local_cluster_object_serves_as_well(tmp_path: Path) -> None:
    import dask
    from distributed import LocalCluster

    with (
        dask.config.set({"temporary-directory": str(tmp_path)}),  # its scratch, not TMPDIR's
        LocalCluster(
            n_workers=2, threads_per_worker=1, processes=True, dashboard_address=":0"
        ) as cluster,
    ):
        rows = standings(tmp_path, "--dask", cluster.scheduler_address)
    assert [row["games"] for row in rows] == [8, 8, 8]


def test_an_unreachable_scheduler_is_one_line_and_exit_2(tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 'store.db'}"
    assert (
        botarena(
            "tournament", "new", "t", "--game", "amazes", *BOTS, "--db", db, cwd=tmp_path
        ).returncode
        == 0
    )
    for address, message in (
        (f"tcp://127.0.0.1:{free_port()}", "cannot reach the scheduler"),
        ("nonsense://x", "not a scheduler address"),
    ):
        started = time.monotonic()
        run = botarena("tournament", "run", "t", "--db", db, "--dask", address, cwd=tmp_path)
        assert run.returncode == 2, run.stderr
        assert run.stderr.startswith("botarena: error: --dask ") and message in run.stderr
        assert run.stderr.count("\n") == 1 and time.monotonic() - started < 30
    counts = botarena("tournament", "games", "t", "--json", "--db", db, cwd=tmp_path)
    assert {game["status"] for game in json.loads(counts.stdout)} == {"pending"}


def test_the_executor_stops_the_workers_sampling_profiler(dask_cluster: str) -> None:
    """A worker samples its threads 100 times a second by default, taking the GIL from the
    referee each time: the executor stops it on the workers it plays on."""
    from botarena.tournament.cluster import DaskExecutor

    def profiling(dask_worker: Any) -> bool:
        found = dask_worker.periodic_callbacks.get("profile")
        return found is not None and found.is_running()

    executor = DaskExecutor(dask_cluster)
    try:
        executor.client.wait_for_workers(2, timeout=30)  # the second may join later: too
        # a worker that joined (or came back) while the plugin was being registered gets it
        # as part of joining, which may finish just after it counts as a worker: poll
        deadline = time.monotonic() + 20
        while list(executor.client.run(profiling).values()) != [False, False]:
            assert time.monotonic() < deadline, executor.client.run(profiling)
            time.sleep(0.2)
    finally:
        executor.shutdown()
