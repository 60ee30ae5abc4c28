"""Tournaments on a Dask cluster: games per second with 1 and 2 single-thread workers.

A local Dask cluster on this machine (`LocalCluster`, worker processes of one thread, each
pinned to a core of its own, as docs/cluster.md says to start real ones) plays the same
round robin of process bots as the local pool would; the runner is the same, only the
executor differs.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path
from typing import Any

from tempdirs import readable_tempdir

BOTS = [f"r{index}={sys.executable} -m botarena.games.amazes.bots.random" for index in range(4)]


def games_per_second(workers: int, per_pair: int) -> float:
    from distributed import LocalCluster

    from botarena.games import get_game
    from botarena.tournament import runner
    from botarena.tournament.cluster import DaskExecutor
    from botarena.tournament.manage import Settings, create, parse_bot_option
    from botarena.tournament.store import Store

    with (
        readable_tempdir() as tmp,
        LocalCluster(
            n_workers=workers, threads_per_worker=1, processes=True, dashboard_address=":0"
        ) as cluster,
    ):
        folder = Path(tmp)
        store = Store.open(f"sqlite:///{folder / 'cluster.db'}")
        rules = get_game("amazes")
        tournament, _ = create(
            store,
            "c",
            rules,
            [parse_bot_option(rules, b) for b in BOTS],
            Settings(games_per_pair=per_pair, seed=1, replay_dir=folder / "replays"),
            folder,
            print,
        )
        executor = DaskExecutor(cluster.scheduler_address)
        pin(executor.client, workers)
        started = time.perf_counter()
        played = runner.run(store, tournament, executor)
        elapsed = time.perf_counter() - started
        executor.shutdown()
        store.close()
    return played / elapsed


def pin(client: Any, workers: int) -> None:
    """Pin each worker to cores of its own, as docs/cluster.md starts them with taskset."""
    import os

    from botarena.tournament.executors import core_shares

    addresses = sorted(client.scheduler_info()["workers"])
    for address, share in zip(addresses, core_shares(workers), strict=False):
        client.run(os.sched_setaffinity, 0, share, workers=[address])


def run(quick: bool) -> list[dict]:
    """The best of 2 runs for each worker count, taken in turns (a run is 6-12 s: one slow
    moment of a shared machine would decide a single one)."""
    per_pair = 2 if quick else 4
    one = two = 0.0
    for _ in range(1 if quick else 2):
        one = max(one, games_per_second(1, per_pair))
        two = max(two, games_per_second(2, per_pair))
    return [
        {
            "name": "Dask cluster, 1 worker: process-bot games (best of 2)",
            "value": one,
            "unit": "games/s",
            "goal": "",
        },
        {
            "name": "Dask cluster, 2 workers: process-bot games (best of 2)",
            "value": two,
            "unit": "games/s",
            "goal": "",
        },
        {
            "name": "Dask cluster, 2 workers / 1 worker",
            "value": two / one,
            "unit": "x",
            "goal": ">= 1.8 on an idle 2-core machine",
        },
    ]
