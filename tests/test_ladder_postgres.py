"""Three ladder workers on a real PostgreSQL, two killed -9 at random moments and restarted:
afterwards every finished game is counted once, none is lost, no claim is left."""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import tempfile
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


def worker(db: str, cwd: Path) -> subprocess.Popen[str]:
    """`tournament work`, its log in a file of its own (`log_of`): a pipe nobody reads while
    it plays would fill and block it in a write, and then it could not stop on SIGTERM."""
    with tempfile.NamedTemporaryFile(
        "w", dir=cwd, prefix="worker-", suffix=".log", delete=False
    ) as log:
        process = subprocess.Popen(
            [sys.executable, "-m", "botarena", "tournament", "work", "--db", db, "--workers", "0"],
            cwd=cwd,
            stdout=subprocess.DEVNULL,
            stderr=log,
            text=True,
        )
    LOGS[process.pid] = Path(log.name)
    return process


LOGS: dict[int, Path] = {}
"""Each worker's log file, by its process id."""


def log_of(process: subprocess.Popen[str]) -> str:
    return LOGS[process.pid].read_text()


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
    assert workers[2].returncode == 0, log_of(workers[2])
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


GAMES_EACH = {"amazes": 200, "labyrinth": 100}
"""Games each racing worker finishes (a role game's finish reads and locks more: fewer)."""


def claim_and_finish(
    db: str, name: str, runner: str, seed: int, shared: bool = False
) -> tuple[str, list[int]]:
    """One worker's loop without the games: claim a ladder game, finish it with a result
    (`shared`: a role game's, one score for both seats, a strike now and then); (the first
    error's text or '', the games it finished)."""
    from botarena.tournament import ladder
    from botarena.tournament.store import Store

    store = Store.open(db)
    tournament = store.tournament(name)
    rng = random.Random(seed)
    finished: list[int] = []
    try:
        for _ in range(GAMES_EACH["labyrinth" if shared else "amazes"]):
            game = ladder.make_and_claim(store, tournament, runner, rng)
            assert game is not None
            if shared:
                ranks = rng.choice([[1, 1], [1, 1], [1, 2], [2, 1]])
                scores = [rng.choice([0, 500, 1000])] * 2
            else:
                ranks = rng.choice([[1, 2], [2, 1]])
                scores = [2 - r for r in ranks]
            result = {
                "scores": scores,
                "ranks": ranks,
                "statuses": ["ok", "ok"],
                "faults": [0, 0],
                "turns": 1,
                "end_reason": "x",
                "replay": None,
            }
            if ladder.finish(store, game, runner, result, True):
                finished.append(game.id)
        return "", finished
    except Exception as exc:
        return f"{type(exc).__name__}: {exc}", finished
    finally:
        store.close()


RACERS = {
    "amazes": [RANDOM] * 6,
    "labyrinth": ["builtin:labyrinth/wallfollower", "builtin:labyrinth/cartographer"] * 2
    + ["builtin:labyrinth/warden", "builtin:labyrinth/static"],
}
"""The six bots b0..b5 of each race: a ladder of places, and one of roles (b0-b3 adventurers,
b4 and b5 maze masters; b0, b1 and b2 are updated as the race goes, to the same spec)."""


@pytest.mark.parametrize("game", ["amazes", pytest.param("labyrinth", marks=pytest.mark.slow)])
def test_claims_finishes_and_updates_racing_on_postgresql_lose_nothing(
    postgres_server: str, tmp_path: Path, game: str
) -> None:
    """Workers claim and finish ladder games while bots are updated. Transactions that
    write the same rows must lock them in one order (PostgreSQL aborts a deadlock's victim:
    it killed a worker; a ladder of roles also rates the earlier versions its games are
    compared with); an update voids only games still unplayed (it once voided a game
    finished meanwhile); a rating is computed from the rows as last committed (else one
    game's update overwrites another's), so the ratings are those computed again."""
    from concurrent.futures import ProcessPoolExecutor

    from botarena.core.registry import get_game
    from botarena.tournament.manage import BotRequest, Settings, create, put_bot
    from botarena.tournament.store import Store, games, ladder_bots
    from botarena.tournament.storeops import recompute

    db = fresh_database(postgres_server)
    store = Store.open(db)
    create(
        store,
        "L",
        get_game(game),
        [BotRequest(f"b{i}", spec) for i, spec in enumerate(RACERS[game])],
        Settings(schedule="ladder", seed=1, replay_dir=tmp_path / "r"),
        tmp_path / "build",
        lambda *_: None,
    )
    tournament = store.tournament("L")
    with ProcessPoolExecutor(3) as pool:
        shared = game == "labyrinth"
        loops = [pool.submit(claim_and_finish, db, "L", f"r{i}", i, shared) for i in range(3)]
        for i in range(3):  # new versions of b0, b1, b2 meanwhile (update-bot)
            time.sleep(0.3)
            put_bot(
                store,
                tournament,
                get_game(game),
                BotRequest(f"b{i}", EXPLORER if game == "amazes" else RACERS[game][i]),
                tmp_path,
                lambda *_: None,
                update=True,
            )
        outcomes = [loop.result() for loop in loops]
    assert [error for error, _ in outcomes] == ["", "", ""]
    finished = sorted(game for _, played in outcomes for game in played)
    with store.engine.connect() as conn:
        rows = conn.execute(sa.select(games.c.id, games.c.status, games.c.seats)).all()
        rated = dict(conn.execute(sa.select(ladder_bots.c.label, ladder_bots.c.games)).all())
    assert sorted(row.id for row in rows if row.status == "done") == finished
    voided = [row for row in rows if row.status != "done"]
    assert all(row.status == "void" for row in voided)
    assert all({"b0", "b1", "b2"} & set(row.seats) for row in voided)
    assert len(voided) < 10
    # each finished game rated once, unless a version of it was replaced before it finished
    with_old = sum(
        1 for row in rows if row.status == "done" and {"b0", "b1", "b2"} & set(row.seats)
    )
    assert 2 * (len(finished) - with_old) <= sum(rated.values()) <= 2 * len(finished)
    with store.engine.connect() as conn:
        stored = {row.label: row for row in conn.execute(sa.select(ladder_bots))}
        again = recompute(conn, tournament.id, list(stored))
    for label, row in stored.items():
        assert (row.games, row.mu, row.sigma) == (
            again[label].games,
            pytest.approx(again[label].mu, abs=1e-9),
            pytest.approx(again[label].sigma, abs=1e-9),
        ), label
    store.close()
