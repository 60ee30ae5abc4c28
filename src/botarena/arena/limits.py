"""Rate limits kept in the store, so one limit holds across every web process of a site.

A sliding window log: each allowed event is a row of `arena_limit_events` (name, key, at);
a key may have `limit` events in any `per_seconds`, and a refused attempt is not counted.
Counting and recording are one transaction that no other process's check of the same key
can interleave with: PostgreSQL takes a transaction-scoped advisory lock on the (name, key)
pair; SQLite's every write transaction (BEGIN IMMEDIATE) already runs alone. Keys are kept
as their SHA-256 digests (an address or a user name is not written down), and events older
than the window are deleted as checks go, so the table holds about one window of events.
"""

from __future__ import annotations

import hashlib
import time
from collections.abc import Callable

import sqlalchemy as sa
from sqlalchemy.engine import Connection

from botarena.arena.store import limit_events
from botarena.tournament.store import Store

SWEEP_BATCH = 100
"""Old events of any key one check deletes at most: a check adds one event, so the table
stays within about one window of events however many keys come and never return."""


def _digest(key: str) -> str:
    return hashlib.sha256(key.encode("utf-8", "surrogatepass")).hexdigest()


def _lock_id(name: str, digest: str) -> int:
    """The advisory lock of one (name, key) pair: a signed 64-bit number from its digest."""
    raw = hashlib.sha256(f"{name}\0{digest}".encode()).digest()[:8]
    return int.from_bytes(raw, "big", signed=True)


class RateLimiter:
    """At most `limit` events per key in any `per_seconds` window, counted in `store` under
    `name` (one name a limit of one contest: `CONTEST/logins`). `clock` gives seconds since
    the epoch: every process of the site must read the same time, as web servers' clocks do."""

    def __init__(
        self,
        store: Store,
        name: str,
        limit: int,
        per_seconds: float,
        clock: Callable[[], float] = time.time,
    ) -> None:
        if limit < 1 or per_seconds <= 0:
            raise ValueError("a rate limit needs limit >= 1 and per_seconds > 0")
        self.store, self.name = store, name
        self.limit, self.per_seconds = limit, per_seconds
        self._clock = clock

    def allow(self, key: str) -> bool:
        """Record an event for `key` and return True, or return False (recording nothing)
        when `key` had `limit` events in the last `per_seconds`."""
        digest = _digest(key)
        with self.store.transaction() as conn:
            if conn.dialect.name == "postgresql":
                conn.execute(sa.select(sa.func.pg_advisory_xact_lock(_lock_id(self.name, digest))))
            now = self._clock()
            self._sweep(conn, now)
            recent = conn.execute(
                sa.select(sa.func.count()).where(*self._of(digest, now))
            ).scalar_one()
            if recent >= self.limit:
                return False
            conn.execute(limit_events.insert().values(name=self.name, key=digest, at=now))
            return True

    def retry_after(self, key: str) -> float:
        """Seconds until `key` is allowed again (0 when it is now): a 429's Retry-After.
        It is when the `limit`-th newest event in the window leaves it."""
        now = self._clock()
        with self.store.engine.connect() as conn:
            leaving = conn.execute(
                sa.select(limit_events.c.at)
                .where(*self._of(_digest(key), now))
                .order_by(limit_events.c.at.desc())
                .offset(self.limit - 1)
                .limit(1)
            ).scalar()
        return 0.0 if leaving is None else max(0.0, leaving + self.per_seconds - now)

    def _of(self, digest: str, now: float) -> tuple[sa.ColumnElement[bool], ...]:
        """The conditions selecting `digest`'s events in the window ending `now`."""
        return (
            limit_events.c.name == self.name,
            limit_events.c.key == digest,
            limit_events.c.at > now - self.per_seconds,
        )

    def _sweep(self, conn: Connection, now: float) -> None:
        """Delete a batch of this limit's events that left the window, any key's: a key
        never seen again leaves nothing behind. On PostgreSQL the sweep skips rows another
        check's sweep holds, so two checks never wait for each other."""
        stale = (
            sa.select(limit_events.c.id)
            .where(limit_events.c.name == self.name, limit_events.c.at <= now - self.per_seconds)
            .limit(SWEEP_BATCH)
            .with_for_update(skip_locked=True)
        )
        conn.execute(limit_events.delete().where(limit_events.c.id.in_(stale.scalar_subquery())))
