"""The organiser's changes that reach into the ladder: a game voided (the ratings computed
again), a bot enabled again, finals."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Connection

from botarena.arena.store import ArenaError
from botarena.tournament import ladder, stages
from botarena.tournament.store import (
    Store,
    Tournament,
    bots,
    games,
    ladder_bots,
    ladder_ratings,
)


def rerate(conn: Connection, tournament: Tournament) -> None:
    """Every version's μ, σ and game count computed again from the prior over the ladder's
    played games in the order they finished, void ones left out (a voided game changes the
    standings as if it had never been played). A game counts when each of its seats has a
    ladder row, as when it was rated (a version's games are those of its own row)."""
    from botarena.tournament.storeops import rating_history

    rows = ladder.lock_rows(conn, tournament.id)
    found, history = rating_history(conn, tournament.id, [row.label for row in rows])
    conn.execute(ladder_ratings.delete().where(ladder_ratings.c.tournament_id == tournament.id))
    if history:
        conn.execute(ladder_ratings.insert(), history)
    for label, rated in found.items():
        conn.execute(
            ladder_bots.update()
            .where(ladder_bots.c.tournament_id == tournament.id, ladder_bots.c.label == label)
            .values(
                mu=rated.mu,
                sigma=rated.sigma,
                games=rated.games,
                queue=0 if rated.sigma > ladder.SETTLED_SIGMA else 1,
            )
        )


def void_game(conn: Connection, game_id: int, ladder_of_game: Tournament | None) -> None:
    """Mark a played game void; when it is a ladder's, that ladder is rated again without it."""
    conn.execute(games.update().where(games.c.id == game_id).values(status="void"))
    if ladder_of_game is not None:
        rerate(conn, ladder_of_game)


def reenable(conn: Connection, tournament: Tournament, name: str) -> None:
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


def start_finals(
    store: Store,
    tournament: Tournament,
    *,
    top: Any = None,
    schedule: Any = "round-robin",
    games_per_pair: Any = 1,
    leave_out: Sequence[str] = (),
) -> tuple[str, int, list[str]]:
    """`tournament finals` from the site: NAME-finals over the ladder's top `top` (or every
    active bot) but the bots in `leave_out`, the ladder frozen; (its name, games scheduled,
    its bots)."""
    if schedule not in ("adaptive", "round-robin"):
        raise ArenaError(f"schedule {schedule!r}: adaptive or round-robin")
    if (
        not isinstance(games_per_pair, int)
        or isinstance(games_per_pair, bool)
        or games_per_pair < 1
    ):
        raise ArenaError("games_per_pair must be a whole number, at least 1")
    if top is not None and (not isinstance(top, int) or isinstance(top, bool) or top < 2):
        raise ArenaError("top must be a whole number, at least 2")
    try:
        child, count, table = stages.start_finals(
            store, tournament, top, schedule, games_per_pair, leave_out
        )
    except ValueError as exc:
        raise ArenaError(str(exc)) from None
    return child.name, count, [r.bot for r in table]
