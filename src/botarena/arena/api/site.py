"""The site API's shared context: one contest served from one store, who is asking, the
ladder's standings (cached), and the small helpers the resources' answers share."""

from __future__ import annotations

import io
import json
import math
import re
import tarfile
import tempfile
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

import sqlalchemy as sa
from starlette.requests import Request
from starlette.responses import StreamingResponse

from botarena.arena import store as arena
from botarena.arena.store import ArenaError, User, arena_bots, uploads, users
from botarena.tournament import ladder
from botarena.tournament.store import Store, bots, games, ladder_bots, tournaments

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
        from botarena.arena.auth import RateLimiter

        found = arena.contest(store, name)
        if found is None:
            raise ArenaError(f"no contest {name!r} in this --db (arena new makes one)")
        self.store, self.contest, self.insecure = store, found, insecure
        arena.fill_names(store, found)
        self.reader = _reader(store)
        """Reads go here: on SQLite a reader takes no write lock (WAL), so pages and API
        readers never wait for a worker's result or for one another."""
        self.logins = RateLimiter(*LOGIN_ATTEMPTS)
        self.per_user = RateLimiter(*USER_ATTEMPTS)
        self.signups = RateLimiter(*SIGNUPS)
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

    def ratings(self) -> dict[str, tuple[int, float, int]]:
        """Active ladder label -> (rank, ordinal, games)."""
        return {row.label: (row.rank, row.ordinal, row.games) for row in self.standings()}

    # -- the organiser -----------------------------------------------------------------------
    def set_disabled(self, call: Call, name: str, disabled: bool) -> dict[str, Any]:
        self.needs_organiser(call)
        tournament = self.ladder()
        with self.store.transaction() as conn:
            row = arena.bot_row(conn, self.contest, name)
            on_ladder = conn.execute(
                sa.select(bots.c.id).where(
                    bots.c.tournament_id == tournament.id, bots.c.name == name
                )
            ).first()
            if row is None and on_ladder is None:
                raise ApiError(404, f"no bot {name!r}")
            if row is not None:  # else a bot of the organiser's own (the sample)
                conn.execute(
                    arena_bots.update().where(arena_bots.c.id == row.id).values(disabled=disabled)
                )
            if disabled:
                ladder.retire(conn, tournament, name)
            else:
                _enable(conn, tournament, name)
        self.changed()
        return {"bot": name, "disabled": disabled}

    def void(self, call: Call, game_id: int) -> dict[str, Any]:
        from botarena.arena.admin import rerate

        self.needs_organiser(call)
        from botarena.arena.api.games import game_or_404  # moves with void (next)

        row = game_or_404(self, game_id)
        if row.status != "done":
            raise ApiError(409, f"game {game_id} is {row.status}: only a played game is voided")
        with self.store.transaction() as conn:
            conn.execute(games.update().where(games.c.id == game_id).values(status="void"))
            if row.tournament_id == self.contest.ladder.id:
                rerate(conn, self.contest.ladder)
        self.changed()
        return {"game": game_id, "status": "void"}

    def deadline(self, call: Call) -> dict[str, Any]:
        """Set (`{"at": TIME}`, or `{"deadline": TIME}`) or clear (null) the deadline, checked
        by the ladder's one reader of deadlines before anything is written."""
        self.needs_organiser(call)
        body = call.body if isinstance(call.body, dict) else {}
        keys = [key for key in ("at", "deadline") if key in body]
        if len(keys) != 1:
            form = ladder.DEADLINE_FORM
            raise ApiError(400, f'give {{"at": TIME}}, or {{"at": null}} for none: {form}')
        given = body[keys[0]]
        try:
            when = None if given is None else ladder.deadline_at(given)
        except ValueError as exc:
            raise ApiError(400, str(exc)) from None
        tournament = self.ladder()
        with self.store.transaction() as conn:
            conn.execute(
                tournaments.update()
                .where(tournaments.c.id == tournament.id)
                .values(plan={**tournament.plan, "deadline": when})
            )
        return {"deadline": iso(when)}

    def finals(self, call: Call) -> dict[str, Any]:
        from botarena.arena.admin import start_finals

        self.needs_organiser(call)
        body = call.body if isinstance(call.body, dict) else {}
        try:
            child, count, entrants = start_finals(
                self.store,
                self.ladder(),
                top=body.get("top"),
                schedule=body.get("schedule", "round-robin"),
                games_per_pair=body.get("games_per_pair", 1),
            )
        except ArenaError as exc:
            raise ApiError(409 if "already" in str(exc) else 400, str(exc)) from None
        return {"tournament": child, "bots": entrants, "games": count}

    def export(self, call: Call) -> Any:
        """A tar.gz: every bot's latest source as uploaded, the standings and every game."""
        self.needs_organiser(call)
        spool = tempfile.SpooledTemporaryFile(max_size=16 << 20)  # noqa: SIM115 - streamed, closed by chunks()
        family = arena.family(self.contest, self.reader)
        standings = [r.to_dict() for r in ladder.standings(self.reader, self.ladder())]  # fresh
        with tarfile.open(fileobj=spool, mode="w:gz") as tar, self.reader.engine.connect() as conn:
            latest = (
                sa.select(uploads.c.bot_id, sa.func.max(uploads.c.version).label("version"))
                .group_by(uploads.c.bot_id)
                .subquery()
            )
            rows = conn.execute(
                sa.select(arena_bots.c.name, users.c.name.label("owner"), uploads)
                .join(latest, latest.c.bot_id == arena_bots.c.id)
                .join(
                    uploads,
                    sa.and_(
                        uploads.c.bot_id == latest.c.bot_id, uploads.c.version == latest.c.version
                    ),
                )
                .join(users, users.c.id == arena_bots.c.owner_id)
                .where(arena_bots.c.contest_id == self.contest.id)
                .order_by(arena_bots.c.name)
            ).all()
            index = []
            for row in rows:
                stored = f"sources/{row.name}/v{row.version}/{_safe(row.filename)}"
                _add(tar, stored, bytes(row.source))
                index.append(
                    {
                        "bot": row.name,
                        "owner": row.owner,
                        "version": row.version,
                        "status": row.status,
                        "file": stored,
                    }
                )
            played = conn.execute(
                sa.select(games, tournaments.c.name.label("tournament"))
                .join(tournaments, tournaments.c.id == games.c.tournament_id)
                .where(games.c.tournament_id.in_(family))
                .order_by(games.c.id)
            ).all()
            results = {
                "contest": self.contest.name,
                "game": self.contest.ladder.game,
                "exported": iso(time.time()),
                "standings": standings,
                "games": [
                    {
                        **game_summary(g),
                        "tournament": g.tournament,
                        "ranks": plain(g.ranks),
                        "statuses": plain(g.statuses),
                        "reason": g.end_reason,
                    }
                    for g in played
                ],
            }
            _add(tar, "bots.json", json.dumps(index, indent=1).encode())
            _add(tar, "results.json", json.dumps(results, indent=1).encode())
        spool.seek(0)

        def chunks() -> Any:
            with spool:
                while chunk := spool.read(1 << 16):
                    yield chunk

        name = f"{self.contest.name}-export.tar.gz"
        return StreamingResponse(
            chunks(),
            media_type="application/gzip",
            headers={"Content-Disposition": f'attachment; filename="{_safe(name)}"'},
        )


def _reader(store: Store) -> Store:
    """A second handle on a SQLite store for reads only (its transactions BEGIN without
    the write lock every writer's BEGIN IMMEDIATE takes); other databases share `store`."""
    if store.engine.dialect.name != "sqlite":
        return store
    return Store.open(store.engine.url.render_as_string(hide_password=False), read_only=True)


def _enable(conn: Any, tournament: Any, name: str) -> None:
    """Put a disabled bot's latest ladder version back (its rating as it was)."""
    latest = conn.execute(
        sa.select(ladder_bots.c.label)
        .where(ladder_bots.c.tournament_id == tournament.id, ladder_bots.c.name == name)
        .order_by(ladder_bots.c.added_at.desc())
        .limit(1)
    ).scalar()
    if latest is None:
        return
    conn.execute(
        ladder_bots.update()
        .where(ladder_bots.c.tournament_id == tournament.id, ladder_bots.c.label == latest)
        .values(state="active")
    )
    conn.execute(
        bots.update()
        .where(bots.c.tournament_id == tournament.id, bots.c.label == latest)
        .values(active=True)
    )


def _add(tar: tarfile.TarFile, name: str, data: bytes) -> None:
    info = tarfile.TarInfo(name)
    info.size, info.mtime, info.mode = len(data), int(time.time()), 0o644
    tar.addfile(info, io.BytesIO(data))


def _safe(name: str) -> str:
    """A file name fit for a path in the export and a header (the upload checked it)."""
    return (
        "".join(c if c.isalnum() or c in "._-" else "_" for c in name.rsplit("/", 1)[-1])
        or "source"
    )


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
