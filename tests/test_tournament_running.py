"""A tournament is `running` only while a live runner plays one of its games: unfinished
games alone (a runner stopped, or killed -9) do not make it so (#22)."""

from __future__ import annotations

import time
from pathlib import Path

import pytest
import sqlalchemy as sa

from botarena.tournament.claims import LEASE_S
from botarena.tournament.store import Store, runners
from botarena.web.leaderboard import Board
from conftest import botarena_ok


def new_tournament(folder: Path) -> Store:
    botarena_ok(
        "tournament", "new", "cup", "--game", "amazes",
        "--bot", "a=builtin:amazes/random", "--bot", "b=builtin:amazes/random", cwd=folder,
    )  # fmt: skip
    return Store.open(f"sqlite:///{folder / 'botarena.db'}")


def listed_running(store: Store) -> bool:
    (row,) = Board(store, "sqlite://").tournaments()
    return row["running"]


def test_pending_games_without_a_runner_are_not_running(tmp_path: Path) -> None:
    store = new_tournament(tmp_path)
    cup = store.tournament("cup")
    assert cup is not None and store.counts(cup) == {"pending": 2}
    assert not store.running(cup)
    assert not listed_running(store)


@pytest.mark.slow
def test_a_claim_of_a_live_runner_is_running_and_of_a_dead_one_is_not(tmp_path: Path) -> None:
    store = new_tournament(tmp_path)
    cup = store.tournament("cup")
    assert cup is not None
    runner = store.register_runner()  # this test's own process: alive
    assert store.claim(cup, runner) is not None
    assert store.running(cup) and listed_running(store)

    with store.transaction() as conn:  # the same pid, but another process started it: gone
        conn.execute(runners.update().values(pid_start="0"))
    assert not store.running(cup)
    assert not listed_running(store)


@pytest.mark.slow
def test_a_runner_on_another_host_counts_until_its_lease_runs_out(tmp_path: Path) -> None:
    store = new_tournament(tmp_path)
    cup = store.tournament("cup")
    assert cup is not None
    runner = store.register_runner()
    assert store.claim(cup, runner) is not None
    with store.transaction() as conn:
        conn.execute(runners.update().values(host="elsewhere", heartbeat=time.time() - 5))
    assert store.running(cup)
    with store.transaction() as conn:
        conn.execute(runners.update().values(heartbeat=time.time() - LEASE_S - 1))
    assert not store.running(cup)


@pytest.mark.slow
def test_a_stopped_runner_leaves_nothing_running(tmp_path: Path) -> None:
    store = new_tournament(tmp_path)
    cup = store.tournament("cup")
    assert cup is not None
    runner = store.register_runner()
    assert store.claim(cup, runner) is not None
    store.retire_runner(runner)
    assert not store.running(cup)
    with store.engine.connect() as conn:
        assert conn.execute(sa.select(sa.func.count()).select_from(runners)).scalar() == 0
