"""Where a runner's games are played: the Executor protocol, and the local pool of worker
processes, each pinned to cores of its own and ending with its runner."""

from __future__ import annotations

import concurrent.futures as cf
import contextlib
import os
import time
from collections.abc import Sequence
from concurrent.futures.process import BrokenProcessPool
from typing import Any, Protocol

from botarena.core.cores import cores
from botarena.tournament.store import Tournament


class Executor(Protocol):
    """Where games run: `submit(job)` returns a concurrent.futures.Future of the result
    dict; `slots` is how many games it runs at once. A cluster executor (Dask's futures are
    wrapped the same way) only has to provide these three."""

    slots: int

    def submit(self, job: dict[str, Any]) -> cf.Future[Any]: ...

    def shutdown(self) -> None: ...


class LocalExecutor:
    """A local pool of worker processes (forkserver: no thread or open database is
    inherited), or the runner's own process when `workers` is 0.

    With two workers or more and no more workers than cores, each worker and every process
    its games start are pinned to cores of their own (`core_shares`): a game then never
    waits on a wake-up from another core or on another game's process start and exit,
    which cost two unpinned workers on 2 cores a tenth of their speed; and a bot never
    competes with another game's bots for its core."""

    def __init__(self, workers: int, pin: bool = True) -> None:
        from botarena.core.supervisor import Backoff

        self.slots = max(1, workers)
        self.workers, self.pin = workers, pin
        self.pool: cf.ProcessPoolExecutor | None = None
        self.handed: Any = None
        """The queue of core shares the pool's workers take theirs from (None: unpinned)."""
        self.pinned = False
        self.backoff = Backoff()
        self.started = time.monotonic()
        if workers > 0:
            from botarena.core import cgroups

            cgroups.available()  # while the jury is alone: see cgroups.v2.JURY_LEAF
            self._start_pool()

    def _start_pool(self) -> None:
        import multiprocessing

        from botarena.core.liveness import start_time

        context = multiprocessing.get_context("forkserver")
        context.set_forkserver_preload(["botarena.tournament.worker"])
        shares = core_shares(self.workers) if self.pin else []
        self.pinned = bool(shares)
        if shares:
            self.handed = context.Queue()
            for share in shares:
                self.handed.put(share)
        self.pool = cf.ProcessPoolExecutor(
            self.workers,
            mp_context=context,
            initializer=_start_worker,
            initargs=(os.getpid(), start_time(os.getpid()), self.handed),
        )
        self.started = time.monotonic()

    def _restart(self) -> None:
        """A worker process died (killed, or out of memory): the pool is broken; log how its
        workers ended, then start a new one after the supervisor's back-off."""
        import logging

        from botarena.core.supervisor import describe

        assert self.pool is not None
        ended = [
            f"{pid} {describe(process.exitcode)}"
            for pid, process in (getattr(self.pool, "_processes", None) or {}).items()
            if process.exitcode is not None
        ]
        self._close_pool()
        pause = self.backoff.pause(time.monotonic() - self.started)
        logging.getLogger("botarena").warning(
            "botarena: a worker process of the pool died (ended: "
            + (", ".join(ended) or "unknown")
            + f"): its games go back, a new pool starts in {pause:g} s"
        )
        time.sleep(pause)
        self._start_pool()

    @classmethod
    def for_tournament(
        cls, tournament: Tournament, specs: Sequence[str], workers: int | None = None
    ) -> LocalExecutor:
        """The pool for `tournament`: `workers` (default: `default_workers`), pinned only
        when each worker's share of cores holds its bots thinking at once (not when more
        workers than the default are asked for: the scheduler balances those)."""
        enough = default_workers(tournament, specs)
        return cls(enough if workers is None else workers, pin=workers is None or workers <= enough)

    def submit(self, job: dict[str, Any]) -> cf.Future[Any]:
        from botarena.tournament.worker import play_game

        if self.pool is not None:
            try:
                return self.pool.submit(play_game, job)
            except BrokenProcessPool:
                self._restart()
                return self.pool.submit(play_game, job)
        future: cf.Future[Any] = cf.Future[Any]()
        future.set_result(play_game(job))
        return future

    def shutdown(self) -> None:
        if self.pool is not None:
            self._close_pool()
            _stop_forkserver()

    def _close_pool(self) -> None:
        """Stop the pool and free its queue of shares now: the queue's semaphores are
        unlinked by their own finalizers, before the resource tracker stops (which would
        unlink them first and leave the finalizers a traceback to print at exit)."""
        import gc

        assert self.pool is not None
        self.pool.shutdown(wait=True, cancel_futures=True)
        self.pool = None
        if self.handed is not None:
            self.handed.close()
            self.handed.join_thread()
            self.handed = None
            gc.collect()  # the pool's reference cycles held the queue too


def _stop_forkserver() -> None:
    """Stop and reap multiprocessing's fork server and resource tracker (both start again on
    demand), so they do not outlive botarena: orphaned, they would end as zombies of whichever
    ancestor is a child subreaper (a jury running botarena, or the test runner). Private API,
    hence the guard."""
    from multiprocessing import forkserver, resource_tracker

    for helper in (forkserver._forkserver, resource_tracker._resource_tracker):
        stop = getattr(helper, "_stop", None)
        if stop is not None:
            stop()


def core_shares(workers: int) -> list[set[int]]:
    """The cores each of `workers` workers is pinned to: the cores this process may use,
    split into equal disjoint sets; none (no pinning) for one worker, for more workers
    than cores, or where affinity cannot be set."""
    if not hasattr(os, "sched_getaffinity"):
        return []
    allowed = sorted(os.sched_getaffinity(0))
    if not 2 <= workers <= len(allowed):
        return []
    size = len(allowed) // workers
    return [set(allowed[index * size : (index + 1) * size]) for index in range(workers)]


RUNNER_CHECK_S = 0.5
"""How often a pool worker looks whether its runner still lives."""


def _start_worker(runner: int, runner_start: str, shares: Any) -> None:
    """A worker's start: it ends when its runner does, even killed -9 (its parent is the
    pool's forkserver, which the workers themselves keep alive, so no parent-death signal
    would come: a thread watches the runner, by its pid and start time, so a runner that
    is a zombie or whose pid was reused counts as dead), killing its games' processes first;
    pinned to the next share of cores when shares are handed and one is left (a worker
    replacing a dead one finds none)."""
    import queue
    import threading

    from botarena.core.liveness import alive
    from botarena.core.sandbox import kill_all

    def watch() -> None:
        while alive(runner, runner_start):
            time.sleep(RUNNER_CHECK_S)
        kill_all()  # the game in progress: its bots, its bubblewrap, its compiler
        os._exit(1)

    threading.Thread(target=watch, name="runner-watch", daemon=True).start()
    if shares is not None:
        with contextlib.suppress(queue.Empty, OSError):
            os.sched_setaffinity(0, shares.get(timeout=1.0))


def default_workers(tournament: Tournament | None = None, specs: Sequence[str] = ()) -> int:
    """Games at once that do not starve the bots: a sequential game keeps one core busy (the
    referee and the bot on turn take turns), a simultaneous game with process bots one per
    seat, since all of them think at once. Without a tournament: one per core."""
    if tournament is None:
        return cores()
    from botarena.core.registry import game_info

    info = game_info(tournament.game)
    processes = any(not spec.startswith("builtin:") for spec in specs)
    thinking = tournament.plan["seats"] if info.turn_model == "simultaneous" and processes else 1
    return max(1, cores() // thinking)
