"""A zombie or a reused pid is dead (core/liveness.py), and a runner that is one loses its
claims, games and contest uploads alike, at once (tournament/claims.py)."""

from __future__ import annotations

import os
import random
import signal
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
import sqlalchemy as sa

from botarena.core.liveness import alive, start_time
from botarena.tournament import claims, ladder
from botarena.tournament.store import Store, games, runners
from conftest import botarena_ok


@pytest.fixture
def zombie() -> Iterator[int]:
    """A child that has ended and that this process has not reaped yet."""
    pid = os.fork()
    if pid == 0:
        os._exit(0)
    deadline = time.monotonic() + 10
    while os.waitid(os.P_PID, pid, os.WEXITED | os.WNOHANG | os.WNOWAIT) is None:
        assert time.monotonic() < deadline
        time.sleep(0.01)
    try:
        yield pid
    finally:
        os.waitpid(pid, 0)


def test_a_zombie_is_dead_though_signal_0_reaches_it(zombie: int) -> None:
    os.kill(zombie, 0)  # what was trusted before: it succeeds
    assert start_time(zombie) == ""
    assert not alive(zombie)


def test_a_reused_pid_is_another_process() -> None:
    mine = start_time(os.getpid())
    assert mine and alive(os.getpid()) and alive(os.getpid(), mine)
    assert not alive(os.getpid(), str(int(mine) + 1))  # same pid, another start: not ours


def test_no_such_process_is_dead() -> None:
    assert not alive(0) and not alive(-1) and not alive(2**22 + 1)


def test_a_live_process_named_with_spaces_and_parentheses_is_read(tmp_path: Path) -> None:
    import subprocess

    link = tmp_path / "a (b) c"
    link.symlink_to("/bin/sleep")
    child = subprocess.Popen([str(link), "30"])
    try:
        assert alive(child.pid, start_time(child.pid))
    finally:
        child.kill()
        child.wait()


def ladder_store(folder: Path) -> Store:
    botarena_ok(
        "tournament", "new", "L", "--game", "amazes", "--schedule", "ladder",
        "--bot", "a=builtin:amazes/random", "--bot", "b=builtin:amazes/random", cwd=folder,
    )  # fmt: skip
    return Store.open(f"sqlite:///{folder / 'botarena.db'}")


@pytest.mark.slow
def test_a_zombie_runners_claims_go_back_at_once(tmp_path: Path, zombie: int) -> None:
    store = ladder_store(tmp_path)
    tournament = store.tournament("L")
    assert tournament is not None
    runner = store.register_runner()
    with store.transaction() as conn:  # as if the zombie had registered itself
        conn.execute(runners.update().values(pid=zombie, pid_start=start_time(os.getpid())))
    game = ladder.make_and_claim(store, tournament, runner, random.Random(0))
    assert game is not None and not store.running(tournament)
    assert store.release_stale() == 1
    with store.engine.connect() as conn:
        assert conn.execute(sa.select(games.c.status)).scalar_one() == "pending"
        assert conn.execute(sa.select(sa.func.count()).select_from(runners)).scalar() == 0


@pytest.mark.slow
def test_a_live_runner_past_its_lease_loses_its_claims(tmp_path: Path) -> None:
    """On this host too: a runner frozen (SIGSTOP) or cut off from the store stops beating."""
    store = ladder_store(tmp_path)
    tournament = store.tournament("L")
    assert tournament is not None
    runner = store.register_runner()
    assert ladder.make_and_claim(store, tournament, runner, random.Random(0)) is not None
    assert store.release_stale() == 0
    with store.transaction() as conn:
        conn.execute(runners.update().values(heartbeat=time.time() - claims.LEASE_S - 1))
    assert store.release_stale() == 1


@pytest.mark.slow
def test_the_heartbeat_thread_renews_the_lease(tmp_path: Path) -> None:
    store = ladder_store(tmp_path)
    runner = store.register_runner()
    with store.transaction() as conn:
        conn.execute(runners.update().values(heartbeat=0.0))
    beating = claims.Heartbeat(store.engine, runner, every=0.05)
    try:
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            with store.engine.connect() as conn:
                if conn.execute(sa.select(runners.c.heartbeat)).scalar_one() > 0:
                    break
            time.sleep(0.05)
        else:
            pytest.fail("no heartbeat")
    finally:
        beating.stop()
    store.retire_runner(runner)


def test_a_killed_child_that_is_not_reaped_reads_dead() -> None:
    """kill -9 of a worker whose parent does not reap it: exactly `arena serve`'s bug."""
    import subprocess
    import sys

    child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
    started = start_time(child.pid)
    os.kill(child.pid, signal.SIGKILL)
    deadline = time.monotonic() + 10
    while alive(child.pid, started):
        assert time.monotonic() < deadline
        time.sleep(0.01)
    os.kill(child.pid, 0)  # still there, as a zombie
    child.wait()
