"""The organiser's part of the API: a bot disabled or enabled, a game voided, the deadline
set, the finals started, and the export (every version of every bot, the standings and
every game as one tar.gz). The work shared with the command line (rerating, starting
finals) is in arena/admin.py."""

from __future__ import annotations

import io
import json
import tarfile
import tempfile
import time
from typing import Any

import sqlalchemy as sa
from starlette.responses import StreamingResponse

from botarena.arena import store as arena
from botarena.arena.api.games import game_or_404
from botarena.arena.api.http import Routes
from botarena.arena.api.site import ApiError, Call, Site, game_summary, iso, plain, reserved
from botarena.arena.store import ArenaError, arena_bots, uploads, users
from botarena.tournament import ladder, stages
from botarena.tournament.store import bots, games, tournaments


def set_disabled(site: Site, call: Call, name: str, disabled: bool) -> dict[str, Any]:
    from botarena.arena.admin import reenable

    site.needs_organiser(call)
    tournament = site.ladder()
    with site.store.transaction() as conn:
        row = arena.bot_row(conn, site.contest, name)
        on_ladder = conn.execute(
            sa.select(bots.c.id).where(bots.c.tournament_id == tournament.id, bots.c.name == name)
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
            reenable(conn, tournament, name)
    site.changed()
    return {"bot": name, "disabled": disabled}


def void(site: Site, call: Call, game: int) -> dict[str, Any]:
    from botarena.arena.admin import void_game

    site.needs_organiser(call)
    row = game_or_404(site, game)
    if row.status != "done":
        raise ApiError(409, f"game {game} is {row.status}: only a played game is voided")
    on_ladder = row.tournament_id == site.contest.ladder.id
    with site.store.transaction() as conn:
        void_game(conn, game, site.contest.ladder if on_ladder else None)
    site.changed()
    return {"game": game, "status": "void"}


def disable(site: Site, call: Call, bot: str) -> dict[str, Any]:
    return set_disabled(site, call, bot, True)


def enable(site: Site, call: Call, bot: str) -> dict[str, Any]:
    return set_disabled(site, call, bot, False)


def deadline(site: Site, call: Call) -> dict[str, Any]:
    """Set (`{"at": TIME}`, or `{"deadline": TIME}`) or clear (null) the deadline, checked
    by the ladder's one reader of deadlines before anything is written."""
    site.needs_organiser(call)
    body = call.body if isinstance(call.body, dict) else {}
    keys = [key for key in ("at", "deadline") if key in body]
    if len(keys) != 1:
        form = stages.DEADLINE_FORM
        raise ApiError(400, f'give {{"at": TIME}}, or {{"at": null}} for none: {form}')
    given = body[keys[0]]
    try:
        when = None if given is None else stages.deadline_at(given)
    except ValueError as exc:
        raise ApiError(400, str(exc)) from None
    tournament = site.ladder()
    with site.store.transaction() as conn:
        conn.execute(
            tournaments.update()
            .where(tournaments.c.id == tournament.id)
            .values(plan={**tournament.plan, "deadline": when})
        )
    return {"deadline": iso(when)}


def finals(site: Site, call: Call) -> dict[str, Any]:
    from botarena.arena.admin import start_finals

    site.needs_organiser(call)
    body = call.body if isinstance(call.body, dict) else {}
    if not isinstance(body.get("sample", False), bool):
        raise ApiError(400, "sample must be true (the sample bot plays the finals) or false")
    samples = [row.bot for row in site.standings() if reserved(row.bot)]
    try:
        child, count, entrants = start_finals(
            site.store,
            site.ladder(),
            top=body.get("top"),
            schedule=body.get("schedule", "round-robin"),
            games_per_pair=body.get("games_per_pair", 1),
            leave_out=() if body.get("sample") is True else samples,
        )
    except ArenaError as exc:
        raise ApiError(409 if "already" in str(exc) else 400, str(exc)) from None
    return {"tournament": child, "bots": entrants, "games": count}


def export(site: Site, call: Call) -> Any:
    """A tar.gz: every version of every bot as uploaded (`bots.json` marks the one playing),
    the standings and every game."""
    site.needs_organiser(call)
    spool = tempfile.SpooledTemporaryFile(max_size=16 << 20)  # noqa: SIM115 - streamed, closed by chunks()
    family = arena.family(site.contest, site.reader)
    standings = [r.to_dict() for r in ladder.standings(site.reader, site.ladder())]  # fresh
    with tarfile.open(fileobj=spool, mode="w:gz") as tar, site.reader.engine.connect() as conn:
        rows = conn.execute(
            sa.select(arena_bots.c.name, users.c.name.label("owner"), uploads)
            .join(uploads, uploads.c.bot_id == arena_bots.c.id)
            .join(users, users.c.id == arena_bots.c.owner_id)
            .where(arena_bots.c.contest_id == site.contest.id)
            .order_by(arena_bots.c.name, uploads.c.version)
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
                    "playing": row.status == "active",
                    "language": row.language,
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
            "contest": site.contest.name,
            "game": site.contest.ladder.game,
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

    name = f"{site.contest.name}-export.tar.gz"
    return StreamingResponse(
        chunks(),
        media_type="application/gzip",
        headers={"Content-Disposition": f'attachment; filename="{_safe(name)}"'},
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


ROUTES: Routes = {
    ("POST", "/api/admin/bots/{bot}/disable"): disable,
    ("POST", "/api/admin/bots/{bot}/enable"): enable,
    ("POST", "/api/admin/games/{game:id}/void"): void,
    ("POST", "/api/admin/deadline"): deadline,
    ("POST", "/api/admin/finals"): finals,
    ("GET", "/api/admin/export"): export,
}
