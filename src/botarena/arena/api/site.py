"""The site API's shared context: one contest served from one store, who is asking and what
they may see, the ladder's standings and the games' stderr kept in memory, and the small
helpers the resources' answers share. Everything a request may change lives in the store
(sessions, rate limits, the CSRF secret), so several web processes serve one site; the
memory holds caches only. Every handler (accounts.py, bots.py, games.py,
organiser.py) takes the Site first."""

from __future__ import annotations

import math
import re
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from starlette.requests import Request

from botarena.arena import store as arena
from botarena.arena.store import ArenaError, User
from botarena.tournament import ladder
from botarena.tournament.store import Store

SESSION_COOKIE = "botarena_session"
LOGIN_ATTEMPTS = (10, 60.0)
"""Log-in attempts per user and address: this many per this many seconds."""
USER_ATTEMPTS = (60, 60.0)
"""Log-in attempts per user from anywhere (a guesser with many addresses)."""
SIGNUPS = (20, 3600.0)
"""Accounts made from one address per hour."""
STANDINGS_TTL_S = 0.5
"""How old the standings a reader gets may be (a worker's result shows within this)."""
STDERR_CACHE = 256
"""Games whose stderr is kept in memory (a game page needs it; its replay is inflated once)."""


def reserved(name: str) -> bool:
    """Names the site uses itself: the sample bot's seats (`sample`, `sample-2`...), whose
    stderr is the organiser's, in any case or width (names are compared folded)."""
    return re.fullmatch(r"sample(-.*)?", arena.fold(name)) is not None


class ApiError(Exception):
    """An answer other than 2xx: its code and one reason. A 429 or 503 must say when to try
    again (`retry_after` seconds): it is sent as `Retry-After`, in whole seconds."""

    def __init__(self, status: int, reason: str, retry_after: float | None = None) -> None:
        super().__init__(reason)
        if status in (429, 503) and retry_after is None:
            raise ValueError(f"a {status} answer says when to try again")
        self.status, self.reason = status, reason
        self.headers = {} if retry_after is None else {"Retry-After": str(_seconds(retry_after))}


def _seconds(wait: float) -> int:
    """A wait as Retry-After gives it: whole seconds, at least 1 (0 would invite a flood)."""
    return max(1, math.ceil(wait))


@dataclass
class Call:
    """One request as a handler sees it."""

    request: Request
    body: Any
    user: User | None
    session: str | None
    """The session's digest when the caller came with the cookie."""


class Site:
    """One contest served from one store."""

    def __init__(self, store: Store, name: str, insecure: bool = False) -> None:
        from botarena.arena.limits import RateLimiter

        found = arena.contest(store, name)
        if found is None:
            raise ArenaError(f"no contest {name!r} in this --db (arena new makes one)")
        self.store, self.contest, self.insecure = store, found, insecure
        arena.fill_names(store, found)
        self.reader = _reader(store)
        """Reads go here: on SQLite a reader takes no write lock (WAL), so pages and API
        readers never wait for a worker's result or for one another."""
        # counted in the store: a limit holds across every web process of the site
        self.logins = RateLimiter(store, f"{name}/logins", *LOGIN_ATTEMPTS)
        self.per_user = RateLimiter(store, f"{name}/per-user", *USER_ATTEMPTS)
        self.signups = RateLimiter(store, f"{name}/signups", *SIGNUPS)
        self._lock = threading.Lock()
        self._standings: tuple[float, list[Any]] | None = None
        self._stderrs: OrderedDict[int, list[str]] = OrderedDict()

    def ladder(self) -> Any:
        """The ladder as it is now (the deadline changes)."""
        tournament = self.reader.tournament(self.contest.name)
        assert tournament is not None
        return tournament

    # -- who is asking ---------------------------------------------------------------------
    def identify(self, request: Request) -> tuple[User | None, str | None]:
        from botarena.arena.auth import csrf_ok, token_digest

        header = request.headers.get("authorization", "")
        if header:
            scheme, _, token = header.partition(" ")
            if scheme.lower() != "bearer" or not token.strip():
                raise ApiError(401, "the Authorization header must be: Bearer TOKEN")
            user = arena.holder(self.reader, self.contest, token_digest(token.strip()), "token")
            if user is None:
                raise ApiError(401, "this token is not valid (revoked, or never issued)")
            return user, None
        cookie = request.cookies.get(SESSION_COOKIE)
        if not cookie:
            return None, None
        digest = token_digest(cookie)
        user = arena.holder(self.reader, self.contest, digest, "session")
        if user is None:
            return None, None
        if request.method not in ("GET", "HEAD") and not csrf_ok(
            self.contest.secret, digest, request.headers.get("x-csrf-token", "")
        ):
            raise ApiError(403, "missing or wrong CSRF token (reload the page)")
        return user, digest

    def may_see(self, user: User | None, owner: str | None) -> bool:
        """Logs and stderr: their owner's and the organiser's only."""
        return user is not None and (user.organiser or (owner is not None and user.name == owner))

    def needs_user(self, call: Call) -> User:
        if call.user is None:
            raise ApiError(401, "log in first")
        return call.user

    def needs_organiser(self, call: Call) -> User:
        user = self.needs_user(call)
        if not user.organiser:
            raise ApiError(403, "only the organiser may do this")
        return user

    # -- the standings -----------------------------------------------------------------------
    def standings(self) -> list[Any]:
        """The ladder's standings, computed at most every STANDINGS_TTL_S (every page of
        every reader polls them) and at once after a change made here."""
        now = time.monotonic()
        with self._lock:
            if self._standings is not None and now - self._standings[0] < STANDINGS_TTL_S:
                return self._standings[1]
        table = ladder.standings(self.reader, self.ladder())
        with self._lock:
            self._standings = (now, table)
        return table

    def changed(self) -> None:
        """Something the standings show changed here: the next reader computes them."""
        with self._lock:
            self._standings = None

    def ratings(self) -> dict[str, tuple[int, float, int]]:
        """Active ladder label -> (rank, ordinal, games)."""
        return {row.label: (row.rank, row.ordinal, row.games) for row in self.standings()}

    # -- the games' stderr ------------------------------------------------------------------
    def stderr_of(self, game_id: int, read: Callable[[], list[str]]) -> list[str]:
        """A played game's stderr: kept for the STDERR_CACHE games asked for last, else
        `read` (its replay) and kept."""
        with self._lock:
            if game_id in self._stderrs:
                self._stderrs.move_to_end(game_id)
                return self._stderrs[game_id]
        stderr = read()
        with self._lock:
            self._stderrs[game_id] = stderr
            while len(self._stderrs) > STDERR_CACHE:
                self._stderrs.popitem(last=False)
        return stderr


def _reader(store: Store) -> Store:
    """A second handle on a SQLite store for reads only (its transactions BEGIN without
    the write lock every writer's BEGIN IMMEDIATE takes); other databases share `store`."""
    if store.engine.dialect.name != "sqlite":
        return store
    return Store.open(store.engine.url.render_as_string(hide_password=False), read_only=True)


def plain(values: Any) -> list[Any] | None:
    return None if values is None else list(values)


def iso(when: float | None) -> str | None:
    if when is None:
        return None
    return datetime.fromtimestamp(when, UTC).isoformat(timespec="seconds")


def game_summary(row: Any) -> dict[str, Any]:
    return {
        "id": row.id,
        "bots": [label.partition("@")[0] for label in row.seats],
        "scores": plain(row.scores),
        "status": row.status,
    }
