"""Filling a tournament within the caller's transaction: its row, its bots' versions and
its planned games.

`Store.create`, `Store.add_bot` and `Store.add_games` are these functions: a tournament is
made or changed by several of them in one transaction, so each takes the connection.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Connection

from botarena.tournament.rows import Bot, Tournament
from botarena.tournament.schema import bots, games, tournaments


def create(
    conn: Connection,
    name: str,
    game: str,
    schedule: str,
    plan: dict[str, Any],
    options: dict[str, Any],
    replay_dir: str,
) -> Tournament:
    """Insert a tournament within `conn`'s transaction (with its bots and games)."""
    tid = conn.execute(
        tournaments.insert().values(
            name=name,
            game=game,
            schedule=schedule,
            plan=plan,
            options=options,
            replay_dir=replay_dir,
            created_at=time.time(),
        )
    ).inserted_primary_key
    assert tid is not None
    return Tournament(tid[0], name, game, schedule, plan, options, replay_dir)


def add_bot(
    conn: Connection,
    tournament: Tournament,
    name: str,
    spec: str,
    role: str | None,
    workdir: str | None,
    source: str | None,
    version: int | None = None,
) -> Bot:
    """Register a bot, or a new version of one (the old version stops counting and its
    unplayed games are voided). `version` numbers it as its maker does (a contest's
    upload, so the site and the ladder say the same `@vN`); by default the next one."""
    old = conn.execute(
        sa.select(bots)
        .where(bots.c.tournament_id == tournament.id, bots.c.name == name)
        .order_by(bots.c.version.desc())
    ).first()
    following = 1 if old is None else old.version + 1
    if version is None:
        version = following
    elif version < following:
        raise ValueError(f"{name}: version {version} after version {following - 1}")
    label = name if version == 1 else f"{name}@v{version}"
    if old is not None:
        conn.execute(
            bots.update()
            .where(bots.c.tournament_id == tournament.id, bots.c.name == name)
            .values(active=False)
        )
        for row in conn.execute(
            sa.select(games.c.id, games.c.seats, games.c.status).where(
                games.c.tournament_id == tournament.id,
                games.c.status.in_(("pending", "claimed", "error")),
            )
        ).all():
            if any(seat.startswith(f"{name}@") or seat == name for seat in row.seats):
                conn.execute(  # unless a worker finished it since it was read
                    games.update()
                    .where(games.c.id == row.id, games.c.status == row.status)
                    .values(status="void")
                )
    conn.execute(
        bots.insert().values(
            tournament_id=tournament.id,
            name=name,
            label=label,
            version=version,
            spec=spec,
            role=role,
            workdir=workdir,
            source=source,
            active=True,
            created_at=time.time(),
        )
    )
    return Bot(name, label, version, spec, role, workdir, source, True)


def add_games(conn: Connection, tournament: Tournament, planned: Sequence[Any]) -> int:
    """Insert planned games (schedule.PlannedGame) in their order; the order of ids is
    the schedule's order, which ratings replay."""
    rows = [
        dict(
            tournament_id=tournament.id,
            key=game.key(tournament.name),
            round=game.round,
            pairing=game.pairing,
            idx=game.index,
            seed=game.seed,
            map=game.map,
            seats=list(game.seats),
            status="pending",
        )
        for game in planned
    ]
    if rows:
        conn.execute(games.insert(), rows)
    return len(rows)
