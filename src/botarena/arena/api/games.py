"""A game and its replay: the game's answer (a seat's stderr for its owner and the organiser
only), the replay as the caller may see it (the viewer pages read it too), and the bots'
stderr read from a replay once (the site keeps the latest in memory)."""

from __future__ import annotations

import gzip
import json
from typing import Any

import sqlalchemy as sa

from botarena.arena import store as arena
from botarena.arena.api.http import Routes
from botarena.arena.api.site import ApiError, Call, Site, game_summary, iso, plain
from botarena.arena.store import User, arena_bots, users
from botarena.core.registry import game_info
from botarena.tournament import ladder


def owners_of(site: Site, seats: list[str]) -> list[str | None]:
    """The user owning each seat's bot (None for the sample bot)."""
    names = [label.partition("@")[0] for label in seats]
    with site.reader.engine.connect() as conn:
        rows = conn.execute(
            sa.select(arena_bots.c.name, users.c.name.label("owner"))
            .join(users, users.c.id == arena_bots.c.owner_id)
            .where(arena_bots.c.contest_id == site.contest.id, arena_bots.c.name.in_(names))
        ).all()
    owner = {row.name: row.owner for row in rows}
    return [owner.get(name) for name in names]


def game_or_404(site: Site, game_id: int) -> Any:
    row = arena.game_row(site.reader, site.contest, game_id)
    if row is None:
        raise ApiError(404, f"no game {game_id}")
    return row


def _replay(site: Site, game_id: int) -> dict[str, Any] | None:
    blob = ladder.replay_bytes(site.reader, game_id)
    if blob is None:
        return None
    document: dict[str, Any] = json.loads(gzip.decompress(blob))
    return document


def _stderr(site: Site, game_id: int) -> list[str]:
    """The bots' stderr of a played game (its replay, read once: a replay never changes)."""
    return site.stderr_of(game_id, lambda: list((_replay(site, game_id) or {}).get("stderr") or []))


def get_game(site: Site, call: Call, game: int) -> dict[str, Any]:
    row = game_or_404(site, game)
    owners = owners_of(site, list(row.seats))
    stderr = _stderr(site, game) if row.status in ("done", "void") else []
    seats = []
    for seat, label in enumerate(row.seats):
        entry: dict[str, Any] = {
            "seat": seat,
            "bot": label.partition("@")[0],
            "version": label,
            "owner": owners[seat],
            "score": _at(row.scores, seat),
            "rank": _at(row.ranks, seat),
            "status": _at(row.statuses, seat),
        }
        if site.may_see(call.user, owners[seat]) and seat < len(stderr):
            entry["stderr"] = stderr[seat]
        seats.append(entry)
    kind = next(
        (
            t.plan.get("stage") or t.schedule
            for t in site.reader.tournaments()
            if t.id == row.tournament_id
        ),
        "ladder",
    )
    return {
        **game_summary(row),
        "kind": "test" if kind == "uploads" else kind,
        "seats": seats,
        "statuses": plain(row.statuses),
        "ranks": plain(row.ranks),
        "turns": row.turns,
        "reason": row.end_reason,
        "reason_text": _end_text(site, row.end_reason),
        "voided": row.status == "void",
        "finished": iso(row.finished_at),
    }


def replay_for(site: Site, user: User | None, game_id: int) -> dict[str, Any]:
    """The replay with every stderr `user` may not read emptied and the bots' command
    lines (server paths) left out."""
    row = game_or_404(site, game_id)
    document = _replay(site, game_id)
    if document is None:
        if row.status == "void" and row.finished_at is None:  # its seat's version replaced
            raise ApiError(404, f"game {game_id} was void before it was played: it has no replay")
        if row.status in ("done", "void"):
            raise ApiError(404, f"game {game_id}'s replay was not kept (its result was)")
        raise ApiError(404, f"game {game_id} has no replay (not played yet)")
    owners = owners_of(site, list(row.seats))
    document["stderr"] = [
        text if seat < len(owners) and site.may_see(user, owners[seat]) else ""
        for seat, text in enumerate(document.get("stderr") or [])
    ]
    for bot in document.get("bots") or []:
        bot["spec"] = bot.get("name", "")
    return document


def _end_text(site: Site, reason: str | None) -> str | None:
    """The game's own words for an end reason (`GameInfo.end_reasons`)."""
    return None if reason is None else game_info(site.contest.ladder.game).end_text(reason)


def _at(values: Any, index: int) -> Any:
    return None if values is None or index >= len(values) else values[index]


def replay(site: Site, call: Call, game: int) -> dict[str, Any]:
    return replay_for(site, call.user, game)


ROUTES: Routes = {
    ("GET", "/api/games/{game:id}"): get_game,
    ("GET", "/api/games/{game:id}/replay"): replay,
}
