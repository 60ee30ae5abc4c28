"""What a ladder keeps of its games: every result, and the replays of each version's last
`keep_replays` games (the ladder's plan; none: every replay).

A contest's ladder plays thousands of games a day; their replays are most of its storage
(about 800 MB an hour in a contest, files and database together). The results stay, so
standings, ratings, counts and `store check` are untouched; the finals, test competitions,
upload tests and challenges are other tournaments and keep every replay. Workers prune as
they go (every PRUNE_EVERY games they record), `botarena arena prune` at once.
"""

from __future__ import annotations

import contextlib
import os
from dataclasses import dataclass

import sqlalchemy as sa

from botarena.tournament.store import Store, Tournament, games, replays

PRUNE_EVERY = 200
"""Ladder games a worker records between two prunes of that ladder."""
CHUNK = 500
"""Replays deleted in one statement."""


@dataclass(frozen=True)
class Pruned:
    """What a prune did."""

    replays_dropped: int
    replays_kept: int
    bytes_freed: int


def prune(store: Store, ladder: Tournament, keep: int) -> Pruned:
    """Drop the replay (its row and its file) of every game of `ladder` that is not among
    the `keep` newest of any of its seats' versions; results stay."""
    counts: dict[str, int] = {}
    dropped: list[tuple[int, str | None, int]] = []
    kept = 0
    with store.transaction() as conn:
        rows = conn.execute(
            sa.select(games.c.id, games.c.seats, games.c.replay, sa.func.length(replays.c.data))
            .join(replays, replays.c.game_id == games.c.id)
            .where(games.c.tournament_id == ladder.id)
            .order_by(games.c.id.desc())
        ).all()
        for game_id, seats, path, size in rows:
            wanted = any(counts.get(label, 0) < keep for label in seats)
            for label in seats:
                counts[label] = counts.get(label, 0) + 1
            if wanted:
                kept += 1
            else:
                dropped.append((game_id, path, int(size or 0)))
        ids = [game_id for game_id, _, _ in dropped]
        for start in range(0, len(ids), CHUNK):
            part = ids[start : start + CHUNK]
            conn.execute(replays.delete().where(replays.c.game_id.in_(part)))
            conn.execute(games.update().where(games.c.id.in_(part)).values(replay=None))
    freed = sum(size for _, _, size in dropped)
    for _, path, _ in dropped:
        if path:
            with contextlib.suppress(OSError):
                freed += os.stat(path).st_size
                os.unlink(path)
    return Pruned(len(dropped), kept, freed)


def keep_of(ladder: Tournament) -> int | None:
    """The replays a version keeps on this ladder, None for every one."""
    keep = ladder.plan.get("keep_replays")
    return keep if isinstance(keep, int) and not isinstance(keep, bool) and keep >= 0 else None
