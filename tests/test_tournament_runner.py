"""The local executor: how many games run at once by default, and the cores each worker is
pinned to (its games' processes inherit them)."""

from __future__ import annotations

import os
import time

import pytest

from botarena.tournament import executors
from botarena.tournament.executors import LocalExecutor, core_shares
from botarena.tournament.store import Tournament


def allowed(monkeypatch: pytest.MonkeyPatch, cpus: set[int]) -> None:
    monkeypatch.setattr(os, "sched_getaffinity", lambda pid: set(cpus))


def tournament(game: str, seats: int) -> Tournament:
    return Tournament(
        id=1,
        name="t",
        game=game,
        schedule="round-robin",
        plan={"seats": seats},
        options={},
        replay_dir="r",
    )


@pytest.mark.parametrize(
    ("cpus", "workers", "shares"),
    [
        ({0, 1}, 2, [{0}, {1}]),
        ({0, 1, 2, 3}, 2, [{0, 1}, {2, 3}]),
        ({0, 1, 2, 3}, 3, [{0}, {1}, {2}]),  # a core left over stays the runner's
        ({2, 5, 7, 9}, 2, [{2, 5}, {7, 9}]),  # only the cores this process may use
        ({0, 1, 2, 3}, 1, []),  # one worker: everything, unpinned
        ({0, 1}, 3, []),  # more workers than cores: the scheduler shares them
        ({0, 1}, 0, []),
    ],
)
def test_core_shares_split_the_allowed_cores(
    monkeypatch: pytest.MonkeyPatch, cpus: set[int], workers: int, shares: list[set[int]]
) -> None:
    allowed(monkeypatch, cpus)
    assert core_shares(workers) == shares


def where_am_i() -> tuple[int, frozenset[int]]:
    time.sleep(0.3)  # long enough for the other worker to take a job too
    return os.getpid(), frozenset(os.sched_getaffinity(0))


@pytest.mark.slow  # seconds on 2 cores
def test_two_workers_run_on_cores_of_their_own() -> None:
    mine = os.sched_getaffinity(0)
    executor = LocalExecutor(2)
    try:
        assert executor.pool is not None
        seen = dict(
            future.result() for future in [executor.pool.submit(where_am_i) for _ in range(4)]
        )
    finally:
        executor.shutdown()
    assert len(seen) == 2
    first, second = seen.values()
    if len(mine) >= 2:
        assert first.isdisjoint(second)
        assert first | second <= mine
        assert len(first) == len(second) == len(mine) // 2
    else:  # one core: nothing to split
        assert first == second == mine


@pytest.mark.slow
def test_unpinned_workers_keep_every_core() -> None:
    executor = LocalExecutor(2, pin=False)
    try:
        assert executor.pool is not None
        seen = {
            future.result()[1] for future in [executor.pool.submit(where_am_i) for _ in range(2)]
        }
    finally:
        executor.shutdown()
    assert seen == {frozenset(os.sched_getaffinity(0))}


def test_default_workers_leave_a_core_to_each_thinking_bot(monkeypatch: pytest.MonkeyPatch) -> None:
    """A sequential game keeps one core busy; in a simultaneous game every process bot
    thinks at once (Ants: 4 seats take 4 cores)."""
    allowed(monkeypatch, set(range(8)))
    assert executors.default_workers() == 8
    assert executors.default_workers(tournament("amazes", 2), ["python3 bot.py"]) == 8
    assert executors.default_workers(tournament("ants", 4), ["python3 bot.py"]) == 2
    assert executors.default_workers(tournament("ants", 4), ["builtin:ants/greedy"]) == 8
    assert executors.default_workers(tournament("ants", 10), ["python3 bot.py"]) == 1


def test_a_tournaments_pool_is_pinned_only_when_shares_hold_its_thinking_bots(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Amazes bots take turns: 2 workers on 2 cores are pinned. Ants' 4 process bots think
    at once: the default is 1 worker, and 2 asked for are left to the scheduler rather than
    squeezed 4 to a core."""
    allowed(monkeypatch, {0, 1})
    bots = ["python3 bot.py"] * 4
    cases = [
        (tournament("amazes", 2), None, 2, True),
        (tournament("amazes", 2), 2, 2, True),
        (tournament("amazes", 2), 3, 3, False),
        (tournament("ants", 4), None, 1, False),
        (tournament("ants", 4), 2, 2, False),
    ]
    for game, asked, slots, pinned in cases:
        executor = LocalExecutor.for_tournament(game, bots, asked)
        try:
            assert (executor.slots, executor.pinned) == (slots, pinned), (game.game, asked)
        finally:
            executor.shutdown()
