"""Three ladder workers on a real PostgreSQL, two killed -9 at random moments and restarted:
afterwards every finished game is counted once, none is lost, no claim is left."""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
import sqlalchemy as sa

from conftest import fresh_database

RANDOM, EXPLORER = "builtin:amazes/random", "builtin:amazes/explorer"


def finished(db: str) -> int:
    """Games done so far."""
    engine = sa.create_engine(db.replace("postgresql://", "postgresql+psycopg://", 1))
    try:
        with engine.connect() as conn:
            return conn.execute(
                sa.text("SELECT count(*) FROM games WHERE status = 'done'")
            ).scalar_one()
    finally:
        engine.dispose()


def worker(db: str, cwd: Path) -> subprocess.Popen:
    return subprocess.Popen(
        [sys.executable, "-m", "botarena", "tournament", "work", "--db", db, "--workers", "0"],
        cwd=cwd,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )


@pytest.mark.slow
def test_workers_killed_at_random_lose_nothing_and_count_nothing_twice(
    postgres_server: str, tmp_path: Path
) -> None:
    from botarena.tournament import ladder
    from botarena.tournament.store import Store, games, ladder_bots, replays

    db = fresh_database(postgres_server)
    bots = [f"--bot=b{i}={RANDOM if i % 2 else EXPLORER}" for i in range(6)]
    made = subprocess.run(
        [
            sys.executable,
            "-m",
            "botarena",
            "tournament",
            "new",
            "L",
            "--game",
            "amazes",
            "--schedule",
            "ladder",
            *bots,
            "--db",
            db,
            "-o",
            "turns=60",
        ],
        cwd=tmp_path,
        capture_output=True,
        text=True,
    )
    assert made.returncode == 0, made.stderr
    rng = random.Random()
    workers = [worker(db, tmp_path) for _ in range(3)]
    kills = 0
    try:
        for _ in range(4):  # two of the three are killed -9 twice each, and restarted
            time.sleep(rng.uniform(0.5, 2.5))
            victim = rng.choice([0, 1])
            os.kill(workers[victim].pid, signal.SIGKILL)
            workers[victim].wait()
            kills += 1
            workers[victim] = worker(db, tmp_path)
        deadline = time.monotonic() + 240  # a loaded machine: wait for games, not a time
        while finished(db) < 10 and time.monotonic() < deadline:
            time.sleep(0.5)
    finally:
        for process in workers:
            process.send_signal(signal.SIGTERM)
        for process in workers:
            process.wait(timeout=120)
    assert kills == 4
    # SIGTERM: the never-killed worker finishes its game and exits 0; a restarted one may
    # still be starting (143, or -15 before Python runs): it held nothing
    assert workers[2].returncode == 0
    assert {p.returncode for p in workers[:2]} <= {0, 143, -15}
    store = Store.open(db)
    store.release_stale()  # the dead ones' claims, if no live worker handed them back
    tournament = store.tournament("L")
    with store.engine.connect() as conn:
        rows = conn.execute(sa.select(games.c.id, games.c.status, games.c.seats)).all()
        rated = conn.execute(sa.select(sa.func.sum(ladder_bots.c.games))).scalar_one()
        stored = conn.execute(sa.select(sa.func.count()).select_from(replays)).scalar_one()
    done = [row for row in rows if row.status == "done"]
    assert len(done) >= 10
    assert {row.status for row in rows} <= {"done", "pending"}  # no claim left, none lost
    assert rated == 2 * len(done)  # each finished game rated exactly once
    assert stored == len(done)  # and its replay stored once
    assert sum(row.games for row in ladder.standings(store, tournament)) == 2 * len(done)
    # a pending game (handed back) is played by the next worker
    pending = [row.id for row in rows if row.status == "pending"]
    if pending:
        again = subprocess.run(
            [
                sys.executable,
                "-m",
                "botarena",
                "tournament",
                "work",
                "--db",
                db,
                "--workers",
                "0",
                "--games",
                str(len(pending)),
            ],
            cwd=tmp_path,
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert again.returncode == 0, again.stderr
        with store.engine.connect() as conn:
            statuses = dict(conn.execute(sa.select(games.c.id, games.c.status)).all())
        assert all(statuses[game] == "done" for game in pending)
    store.close()
