"""Who holds a claim and whether it still lives: runners, their heartbeats and leases, and
the one place where a dead runner's claims (games, contest uploads) are handed back.

A runner (`tournament run`, `tournament work`, the worker `arena serve` starts) registers
with its host, pid and the pid's start time (/proc), and a thread of its own renews its
heartbeat every HEARTBEAT_S. It is gone when, on this host, its process has ended (a zombie
counts as ended, a reused pid is another process: core/liveness.py), or, on any host, its
heartbeat is older than LEASE_S (another machine's pid cannot be checked from here). Its
claims then go back at once, whoever notices: a supervisor that reaped it, or any runner
(every few seconds, and before each claim of an upload). A claim whose runner id has no row
(removed when it stopped) is an orphan and goes back too.
"""

from __future__ import annotations

import contextlib
import logging
import os
import socket
import threading
import time
import uuid
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Connection, Engine

from botarena.core.liveness import alive, start_time
from botarena.tournament.schema import runners

LEASE_S = 120.0
"""A runner not heard of for this long is gone (on another host the only sign; on this
host its process's end is noticed at once, and a runner that stopped beating, frozen or cut
off from the store, loses its claims at the end of its lease all the same)."""
HEARTBEAT_S = 10.0
"""How often a runner's heartbeat thread renews its lease (twelve beats a lease)."""

CLAIMS: tuple[tuple[str, tuple[str, ...], str], ...] = (
    ("games", ("claimed",), "pending"),
    ("arena_uploads", ("building", "testing"), "building"),
)
"""(table, statuses a claim holds, the status it goes back to): every kind of claim. A
contest upload goes back to be built again from the start."""

log = logging.getLogger("botarena")


def gone(row: Any, host: str, now: float) -> bool:
    """Whether runner `row` (of the runners table) is gone: its process ended on this host,
    or its lease ran out on any."""
    if row.host == host and not alive(row.pid, row.pid_start):
        return True
    return bool(now - row.heartbeat > LEASE_S)


def register(engine: Engine) -> str:
    """A new runner row for this process; its id."""
    runner = uuid.uuid4().hex
    with engine.begin() as conn:
        conn.execute(
            runners.insert().values(
                id=runner,
                host=socket.gethostname(),
                pid=os.getpid(),
                pid_start=start_time(os.getpid()),
                heartbeat=time.time(),
            )
        )
    return runner


def beat(engine: Engine, runner: str) -> None:
    """Renew `runner`'s lease."""
    with engine.begin() as conn:
        conn.execute(runners.update().where(runners.c.id == runner).values(heartbeat=time.time()))


def _give_back(conn: Connection, holders: Any) -> int:
    """Hand back every claim whose holder `holders` selects (a runner id, or a condition on
    claimed_by); how many."""
    inspector = sa.inspect(conn)
    released = 0
    for name, held, back in CLAIMS:
        if name != "games" and not inspector.has_table(name):
            continue  # a store without contests
        table = sa.table(name, *(sa.column(c) for c in ("status", "claimed_by", "claimed_at")))
        where = table.c.claimed_by == holders if isinstance(holders, str) else holders(table)
        released += conn.execute(
            table.update()
            .where(table.c.status.in_(held), table.c.claimed_by.is_not(None), where)
            .values(status=back, claimed_by=None, claimed_at=None)
        ).rowcount
    return released


def release_gone(conn: Connection) -> int:
    """In `conn`'s transaction: forget the runners that are gone and hand back their claims
    and every orphan claim; how many claims went back."""
    host, now = socket.gethostname(), time.time()
    dead = [row.id for row in conn.execute(sa.select(runners)).all() if gone(row, host, now)]
    if dead:
        conn.execute(runners.delete().where(runners.c.id.in_(dead)))
    live = sa.select(runners.c.id)
    return _give_back(conn, lambda table: table.c.claimed_by.not_in(live))


def retire(conn: Connection, runner: str) -> int:
    """A runner stopping: its claims go back and its row goes; how many claims."""
    released = _give_back(conn, runner)
    conn.execute(runners.delete().where(runners.c.id == runner))
    return released


def live(engine: Engine, ids: list[str]) -> bool:
    """Whether any of these runners is alive."""
    if not ids:
        return False
    with engine.connect() as conn:
        rows = conn.execute(sa.select(runners).where(runners.c.id.in_(ids))).all()
    host, now = socket.gethostname(), time.time()
    return any(not gone(row, host, now) for row in rows)


class Heartbeat:
    """A thread renewing a runner's lease every HEARTBEAT_S while the runner works, so a
    long game played in the runner's own process (`--workers 0`) or a slow commit never lets
    the lease run out under a live runner. A store that fails a beat is tried at the next."""

    def __init__(self, engine: Engine, runner: str, every: float = HEARTBEAT_S) -> None:
        self.engine, self.runner, self.every = engine, runner, every
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="heartbeat", daemon=True)
        self._thread.start()

    def _run(self) -> None:
        while not self._stop.wait(self.every):
            try:
                beat(self.engine, self.runner)
            except sa.exc.SQLAlchemyError as exc:
                reason = str(getattr(exc, "orig", None) or exc).strip().splitlines()[0]
                log.warning(f"botarena: heartbeat failed ({reason}): trying again")

    def stop(self) -> None:
        self._stop.set()
        with contextlib.suppress(RuntimeError):
            self._thread.join(timeout=5)
