"""The store's ceiling for a ladder: games chosen, claimed and recorded per second by 1, 4
and 16 concurrent workers on one PostgreSQL store (and one SQLite file), games stubbed.

Each worker is a process of its own with its own connection, looping `ladder.make_and_claim`
then `ladder.finish` with a fixed two-seat result and a 20 KB replay, for a few seconds, over
a ladder of 100 bots: every claim takes the tournament's row, so this is the rate at which
the whole fleet can be handed games, whatever the games cost. PostgreSQL is started for the
bench (Debian's, tests/pgserver.py); docs/cluster.md "Sized for a season" reads these figures.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import os
import random
import tempfile
import time
from pathlib import Path

from tempdirs import readable_tempdir

WORKERS = (1, 4, 16)
BOTS = 100


def _make_ladder(url: str, folder: Path) -> None:
    from botarena.games import get_game
    from botarena.tournament.manage import Settings, create, parse_bot_option
    from botarena.tournament.store import Store

    store = Store.open(url)
    rules = get_game("amazes")
    bots = [parse_bot_option(rules, f"b{i}=builtin:amazes/random") for i in range(BOTS)]
    settings = Settings(schedule="ladder", seed=1, replay_dir=folder)
    create(store, "L", rules, bots, settings, folder, lambda *_: None)
    store.close()


def _worker(url: str, replay: str, seconds: float, start: float, index: int, out) -> None:
    from botarena.tournament import ladder
    from botarena.tournament.store import Store

    store = Store.open(url)
    tournament = store.tournament("L")
    rng = random.Random(index)
    result = {
        "scores": [1, 0],
        "ranks": [1, 2],
        "statuses": ["ok", "ok"],
        "faults": [0, 0],
        "turns": 1,
        "end_reason": "x",
        "replay": replay,
    }
    runner = f"bench{index}"
    time.sleep(max(0.0, start - time.time()))  # every worker starts at once
    done = 0
    while time.time() < start + seconds:
        game = ladder.make_and_claim(store, tournament, runner, rng)
        if game is not None and ladder.finish(store, game, runner, result, True):
            done += 1
    store.close()
    out.put(done)


def games_per_second(url: str, workers: int, seconds: float, folder: Path) -> float:
    """Games chosen, claimed and recorded per second by `workers` processes on `url`."""
    replay = folder / "r.json.gz"
    replay.write_bytes(os.urandom(20_000))
    spawn = multiprocessing.get_context("fork")  # run.py loads this file by path: no import by name
    out = spawn.Queue()
    start = time.time() + 1.0  # every process connected first
    processes = [
        spawn.Process(target=_worker, args=(url, str(replay), seconds, start, i, out))
        for i in range(workers)
    ]
    for process in processes:
        process.start()
    total = sum(out.get(timeout=seconds + 120) for _ in processes)
    for process in processes:
        process.join()
    return total / seconds


def _fresh_database(server: str, name: str) -> str:
    import sqlalchemy as sa

    engine = sa.create_engine(
        f"{server.replace('postgresql://', 'postgresql+psycopg://', 1)}/postgres",
        isolation_level="AUTOCOMMIT",
    )
    with engine.connect() as conn:
        conn.execute(sa.text(f"CREATE DATABASE {name}"))
    engine.dispose()
    return f"{server}/{name}"


def run(quick: bool) -> list[dict]:
    import pgserver

    seconds = 4.0 if quick else 10.0
    rows = []
    with readable_tempdir() as tmp, contextlib.ExitStack() as stack:
        folder = Path(tmp)
        server = stack.enter_context(pgserver.running()) if pgserver.bindir() else None
        for workers in WORKERS if server else ():
            url = _fresh_database(server, f"claims{workers}")
            rows.append(_row("PostgreSQL", url, workers, seconds, folder))
        for workers in WORKERS[:2]:  # one writer at a time: more only wait
            url = f"sqlite:///{tempfile.mkdtemp(dir=folder)}/claims.db"
            rows.append(_row("SQLite", url, workers, seconds, folder))
    return rows


def _row(kind: str, url: str, workers: int, seconds: float, folder: Path) -> dict:
    _make_ladder(url, folder)
    return {
        "name": f"{kind}: ladder games handed out and recorded, {workers} worker(s)",
        "value": games_per_second(url, workers, seconds, folder),
        "unit": "games/s",
        "goal": "",
    }
