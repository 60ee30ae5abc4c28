"""What the organiser's page lists: every bot (owner, versions, status, games), every user,
the games (filtered by bot and status, newest first), the upload queue and the workers
(live from their heartbeats). The changes (disable, void, deadline, finals) are in
organiser.py; these only read."""

from __future__ import annotations

import socket
import time
from typing import Any

import sqlalchemy as sa

from botarena.arena.api.http import Routes
from botarena.arena.api.site import ApiError, Call, Site, game_summary, iso
from botarena.arena.store import arena_bots, uploads, users
from botarena.tournament.schema import runners
from botarena.tournament.store import games

GAME_STATUSES = ("pending", "claimed", "done", "void", "error")


def all_bots(site: Site, call: Call) -> list[dict[str, Any]]:
    site.needs_organiser(call)
    ratings = site.ratings()
    with site.reader.engine.connect() as conn:
        rows = conn.execute(
            sa.select(
                arena_bots.c.id,
                arena_bots.c.name,
                arena_bots.c.disabled,
                users.c.name.label("owner"),
            )
            .join(users, users.c.id == arena_bots.c.owner_id)
            .where(arena_bots.c.contest_id == site.contest.id)
            .order_by(arena_bots.c.name)
        ).all()
        versions: dict[int, list[Any]] = {}
        for version in conn.execute(
            sa.select(uploads.c.bot_id, uploads.c.version, uploads.c.status, uploads.c.label)
            .join(arena_bots, arena_bots.c.id == uploads.c.bot_id)
            .where(arena_bots.c.contest_id == site.contest.id)
            .order_by(uploads.c.version)
        ):
            versions.setdefault(version.bot_id, []).append(version)
    listed = []
    for row in rows:
        theirs = versions.get(row.id, [])
        playing = next((v for v in reversed(theirs) if v.status == "active"), None)
        rank, rating, played = (None, None, 0)
        if playing is not None and playing.label in ratings:
            rank, rating, played = ratings[playing.label]
        listed.append(
            {
                "bot": row.name,
                "owner": row.owner,
                "versions": len(theirs),
                "status": theirs[-1].status if theirs else None,
                "playing": None if playing is None else playing.version,
                "rank": rank,
                "rating": rating,
                "games": played,
                "disabled": bool(row.disabled),
            }
        )
    return listed


def all_users(site: Site, call: Call) -> list[dict[str, Any]]:
    site.needs_organiser(call)
    with site.reader.engine.connect() as conn:
        counts: dict[int, int] = dict(
            conn.execute(
                sa.select(arena_bots.c.owner_id, sa.func.count())
                .where(arena_bots.c.contest_id == site.contest.id)
                .group_by(arena_bots.c.owner_id)
            ).all()
        )
        rows = conn.execute(
            sa.select(users).where(users.c.contest_id == site.contest.id).order_by(users.c.name)
        ).all()
    return [
        {
            "user": row.name,
            "organiser": bool(row.organiser),
            "bots": counts.get(row.id, 0),
            "joined": iso(row.created_at),
        }
        for row in rows
    ]


def all_games(site: Site, call: Call) -> dict[str, Any]:
    """The contest's games, newest first: `?bot=NAME&status=S&before=ID&limit=N`."""
    from botarena.arena.api.botgames import scan

    site.needs_organiser(call)
    params = call.request.query_params
    status = params.get("status")
    if status is not None and status not in GAME_STATUSES:
        raise ApiError(400, f"status must be one of {', '.join(GAME_STATUSES)}")
    bot = params.get("bot") or None

    def shown(row: Any) -> dict[str, Any] | None:
        if bot is not None and bot not in [label.partition("@")[0] for label in row.seats]:
            return None
        return {**game_summary(row), "finished": iso(row.finished_at), "worker": row.claimed_by}

    where = [] if status is None else [games.c.status == status]
    page, following = scan(site, call, where, bot, shown)
    return {"games": page, "next": following}


def upload_queue(site: Site, call: Call) -> list[dict[str, Any]]:
    """Versions waiting for a worker or being built and tested, oldest first."""
    site.needs_organiser(call)
    with site.reader.engine.connect() as conn:
        rows = conn.execute(
            sa.select(
                arena_bots.c.name,
                uploads.c.version,
                uploads.c.status,
                uploads.c.language,
                uploads.c.claimed_by,
                uploads.c.created_at,
            )
            .join(arena_bots, arena_bots.c.id == uploads.c.bot_id)
            .where(
                arena_bots.c.contest_id == site.contest.id,
                uploads.c.status.in_(("building", "testing")),
            )
            .order_by(uploads.c.created_at)
        ).all()
    now = time.time()
    return [
        {
            "bot": row.name,
            "version": row.version,
            "status": row.status,
            "language": row.language,
            "worker": row.claimed_by,
            "waiting_s": round(now - row.created_at, 1),
        }
        for row in rows
    ]


def workers(site: Site, call: Call) -> list[dict[str, Any]]:
    """The runners of the store, each live or gone as claims.py judges it."""
    from botarena.tournament.claims import gone

    site.needs_organiser(call)
    with site.reader.engine.connect() as conn:
        rows = conn.execute(sa.select(runners).order_by(runners.c.host, runners.c.pid)).all()
    here, now = socket.gethostname(), time.time()
    return [
        {
            "worker": row.id,
            "host": row.host,
            "pid": row.pid,
            "heartbeat_s": round(now - row.heartbeat, 1),
            "live": not gone(row, here, now),
        }
        for row in rows
    ]


ROUTES: Routes = {
    ("GET", "/api/admin/bots"): all_bots,
    ("GET", "/api/admin/users"): all_users,
    ("GET", "/api/admin/games"): all_games,
    ("GET", "/api/admin/uploads"): upload_queue,
    ("GET", "/api/admin/workers"): workers,
}
