"""The contest's stages beside its ladder: its test competitions and its finals, each with
its own standings, ranked the way the game's contest ranked (docs/standings.md), and its
progress (games played of those scheduled)."""

from __future__ import annotations

from typing import Any

import sqlalchemy as sa

from botarena.arena.api.http import Routes
from botarena.arena.api.site import ApiError, Call, Site, iso
from botarena.tournament import stages
from botarena.tournament.store import Tournament, games

STAGES = ("test", "finals")


def _stages(site: Site) -> list[Tournament]:
    ladder_now = site.ladder()
    return [t for kind in STAGES for t in stages.children(site.reader, ladder_now, kind)]


def _progress(site: Site, tournament: Tournament) -> dict[str, Any]:
    with site.reader.engine.connect() as conn:
        counts: dict[str, int] = dict(
            conn.execute(
                sa.select(games.c.status, sa.func.count())
                .where(games.c.tournament_id == tournament.id)
                .group_by(games.c.status)
            ).all()
        )
    return {
        "tournament": tournament.name,
        "stage": tournament.plan["stage"],
        "games": sum(counts.values()),
        "played": counts.get("done", 0),
        "made": iso(tournament.plan.get("made_at")),
    }


def list_stages(site: Site, call: Call) -> list[dict[str, Any]]:
    return [_progress(site, t) for t in _stages(site)]


def get_stage(site: Site, call: Call, name: str) -> dict[str, Any]:
    from botarena.tournament import ranking

    tournament = next((t for t in _stages(site) if t.name == name), None)
    if tournament is None:
        known = ", ".join(t.name for t in _stages(site)) or "none yet"
        raise ApiError(404, f"no stage {name!r} of {site.contest.name} (its stages: {known})")
    records, current = site.reader.records(tournament)
    roles = {bot.name: bot.role for bot in current if bot.role}
    table = ranking.standings(
        tournament.game, records, [bot.name for bot in current], roles=roles or None
    )
    return {**_progress(site, tournament), "standings": [row.to_dict() for row in table]}


ROUTES: Routes = {
    ("GET", "/api/stages"): list_stages,
    ("GET", "/api/stages/{name}"): get_stage,
}
