"""Challenges: an owner's bot against chosen ones, one game now, outside the ladder.

CodinGame's "play against". The game goes to the contest's `NAME-challenges` tournament
(made on the first challenge; stage `challenge`, never scheduled), pending for any worker,
which plays it like a test competition's game: recorded with its replay, never rated. Each
bot plays the version playing on the ladder now; the seats a game needs beyond the bots
named are the contest's sample bot's, as in an upload's test game (in a role game, one bot
sits in each role's seat: the roles not named get their own sample bot). A user may ask for
`challenges_per_hour` of them in any hour; who asked is kept in the game's key.
"""

from __future__ import annotations

import random
import time
import uuid
from collections.abc import Sequence
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Connection

from botarena.arena.store import (
    SAMPLE,
    ArenaError,
    Contest,
    User,
    child_tournament,
    copy_bot,
)
from botarena.tournament.store import Store, Tournament, bots, games, ladder_bots, tournaments

PER_HOUR = 20
"""Challenges a user may ask for in any hour, unless the contest says otherwise."""


class TooMany(ArenaError):
    """Over the hour's challenges; `wait` says how many seconds until the next."""

    def __init__(self, message: str, wait: float) -> None:
        super().__init__(message)
        self.wait = wait


def _playing(conn: Connection, ladder: Tournament, name: str) -> Any:
    """The ladder's `bots` row of the version of `name` playing now, None if none."""
    label = conn.execute(
        sa.select(ladder_bots.c.label).where(
            ladder_bots.c.tournament_id == ladder.id,
            ladder_bots.c.name == name,
            ladder_bots.c.state == "active",
        )
    ).scalar()
    if label is None:
        return None
    return conn.execute(
        sa.select(bots).where(bots.c.tournament_id == ladder.id, bots.c.label == label)
    ).one()


def challenge(
    store: Store,
    contest: Contest,
    user: User,
    mine: str,
    opponents: Sequence[str],
    now: float | None = None,
) -> int:
    """Queue a game of `mine` (the user's bot) against `opponents`, seats drawn at random,
    the seats the game needs beyond them taken by copies of the sample bot; its id.
    ArenaError (one line) when it cannot be; TooMany past the hour's bound."""
    from botarena.core.registry import game_info

    now = time.time() if now is None else now
    ladder = contest.ladder
    info = game_info(ladder.game)
    if not opponents or mine in opponents:
        raise ArenaError("a bot plays a challenge against other bots")
    if len(set(opponents)) != len(opponents):
        raise ArenaError("name each opponent once")
    if 1 + len(opponents) > info.max_seats:
        raise ArenaError(
            f"a {ladder.game} game has at most {info.max_seats} seats:"
            f" name at most {info.max_seats - 1} opponent(s)"
        )
    limit = int(contest.settings.get("challenges_per_hour", PER_HOUR))
    with store.transaction() as conn:
        if conn.dialect.name == "postgresql":  # one challenge of a user at a time
            conn.execute(
                sa.select(tournaments.c.id)
                .where(tournaments.c.id == ladder.id)
                .with_for_update(key_share=True)
            )
        child = child_tournament(conn, store, ladder, "challenges", "challenge", info.min_seats)
        prefix = f"{child.name}/{user.id}/"
        _check_rate(conn, child.id, prefix, limit, now)
        playing = [_version(conn, ladder, name) for name in (mine, *opponents)]
        if contest.roles:
            seats = _role_seats(conn, contest, playing)
        else:
            seats = _seats(conn, contest, playing, info.min_seats)
        for row, label in seats:
            copy_bot(conn, child, row, label, now)
        labels = [label for _, label in seats]
        players = len(labels)
        found = conn.execute(
            games.insert()
            .values(
                tournament_id=child.id,
                key=f"{prefix}{now:.6f}/{uuid.uuid4().hex}",
                round=0,
                pairing="-".join(labels),
                idx=0,
                seed=random.getrandbits(31),
                map=next(
                    (m for m, n in ladder.plan.get("map_players") or [] if n == players), None
                ),
                seats=labels,
                status="pending",
            )
            .returning(games.c.id)
        ).scalar_one()
    return int(found)


def _seats(
    conn: Connection, contest: Contest, playing: list[Any], needed: int
) -> list[tuple[Any, str]]:
    """(bots row, seat label) of each seat, shuffled: the bots named, then copies of the
    sample bot up to the game's fewest seats."""
    seats = [(row, row.label) for row in playing]
    missing = needed - len(seats)
    if missing > 0:
        sample = _playing(conn, contest.ladder, SAMPLE)
        if sample is None:
            raise ArenaError(
                f"a {contest.ladder.game} game has {needed} seats and the sample bot is"
                f" not playing: name {needed - 1} opponents"
            )
        seats += [(sample, f"{SAMPLE}-{k}") for k in range(1, missing + 1)]
    random.shuffle(seats)
    return seats


def _role_seats(conn: Connection, contest: Contest, playing: list[Any]) -> list[tuple[Any, str]]:
    """(bots row, seat label) of each seat of a role game, in seat order: each bot named in
    its role's seat, a role no bot named played by its sample bot."""
    by_role: dict[str, Any] = {}
    for row in playing:
        if row.role in by_role:
            raise ArenaError(
                f"{by_role[row.role].name} and {row.name} both play the {row.role}:"
                " a game has one bot of each role"
            )
        by_role[row.role] = row
    seats = []
    for role in contest.roles:
        row = by_role.get(role)
        if row is None:
            name = contest.sample(role)[0]
            row = _playing(conn, contest.ladder, name)
            if row is None:
                raise ArenaError(f"no bot named plays the {role}, and {name} is not playing")
        seats.append((row, row.label))
    return seats


def _check_rate(conn: Connection, tid: int, prefix: str, limit: int, now: float) -> None:
    """TooMany when the user whose games' keys start with `prefix` asked for `limit`
    challenges in the last hour."""
    asked = [
        float(key.split("/")[2])
        for key in conn.execute(
            sa.select(games.c.key).where(
                games.c.tournament_id == tid, games.c.key.startswith(prefix)
            )
        ).scalars()
    ]
    recent = sorted(at for at in asked if at > now - 3600)
    if len(recent) >= limit:
        wait = recent[0] + 3600 - now
        minutes = max(1, int(-(-wait // 60)))
        raise TooMany(
            f"at most {limit} challenges per hour: try again in {minutes} minute"
            + ("s" if minutes > 1 else ""),
            wait,
        )


def _version(conn: Connection, ladder: Tournament, name: str) -> Any:
    """The ladder's `bots` row of the version of `name` playing now; ArenaError if none."""
    row = _playing(conn, ladder, name)
    if row is None:
        raise ArenaError(f"bot {name!r} has no version playing on the ladder")
    return row
