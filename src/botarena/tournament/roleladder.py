"""Rating a ladder of role games: each version against the one its seat held in an earlier game.

Roles never compete in a role game (when the score is shared, every seat ranks 1 unless it
broke a rule), so one game says nothing about who played better. Two games say something
when every other seat held the same versions: the seat's two versions then met the same
opposition, and the one whose own game went better (its place, then its score in its
role's direction) wins a two-player game between them. The live ladder (`ladder.finish`) and
the ratings computed again (`storeops.rating_history`, so `arena/admin.py` `rerate` and
`store check`) both rate through `comparisons` and `rate`, so they cannot disagree.
docs/tournaments.md "Ladders of role games" gives the reasons.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Connection

from botarena.tournament.store import games, ladder_bots, tournaments


@dataclass(frozen=True)
class Played:
    """A rated game as comparisons read it: its versions, places and scores, seat by seat."""

    seats: tuple[str, ...]
    ranks: tuple[int, ...]
    scores: tuple[float, ...]


@dataclass(frozen=True)
class Comparison:
    """The version `label` of a seat of the game rated against `other`, the version of that
    seat in the earlier game: `outcome` 1 when `label` did better, 0 as well, -1 worse."""

    label: str
    other: str
    outcome: int


def comparisons(game: Played, earlier: Sequence[Played], signs: Sequence[int]) -> list[Comparison]:
    """The comparisons that rate `game`, in seat order: for each seat, the latest game of
    `earlier` (oldest first, each rated before `game`) in which every other seat held the
    same version and this seat another one; no such game, no comparison. The better of the
    two is the one whose key (its place, then minus `signs[seat]` times its score: `signs`
    is +1 for a role that wants a high score, -1 for a low one) is smaller; equal keys draw."""
    found = []
    for seat, label in enumerate(game.seats):
        match = next((e for e in reversed(earlier) if _same_but(e, game, seat)), None)
        if match is None:
            continue
        mine, theirs = _key(game, seat, signs[seat]), _key(match, seat, signs[seat])
        found.append(Comparison(label, match.seats[seat], (mine < theirs) - (mine > theirs)))
    return found


def _same_but(earlier: Played, game: Played, seat: int) -> bool:
    """Whether `earlier` had `game`'s versions in every seat but `seat`, and another there."""
    if len(earlier.seats) != len(game.seats) or earlier.seats[seat] == game.seats[seat]:
        return False
    return _others(earlier.seats, seat) == _others(game.seats, seat)


def _key(game: Played, seat: int, sign: int) -> tuple[float, float]:
    return (game.ranks[seat], -sign * game.scores[seat])


def rate(
    ratings: Mapping[str, tuple[float, float]], found: Sequence[Comparison]
) -> dict[str, tuple[float, float]]:
    """The new (μ, σ) of every version the comparisons change: each comparison, in order, an
    openskill Plackett–Luce game of two from the ratings so far. `ratings` holds every
    version named."""
    from openskill.models import PlackettLuce

    model = PlackettLuce()
    changed: dict[str, tuple[float, float]] = {}
    for comparison in found:
        pair = (comparison.label, comparison.other)
        teams = [
            [model.rating(mu=mu, sigma=sigma, name=label)]
            for label in pair
            for mu, sigma in [changed.get(label, ratings[label])]
        ]
        ranks = {1: [1.0, 2.0], 0: [1.0, 1.0], -1: [2.0, 1.0]}[comparison.outcome]
        for label, [rating] in zip(pair, model.rate(teams, ranks=ranks), strict=True):
            changed[label] = (rating.mu, rating.sigma)
    return changed


class History:
    """The rated games so far, kept as `earlier_games` finds them: for each seat and the
    versions of the other seats, the latest game of each version in that seat. Fed the
    games in the order they were rated (`storeops.rating_history`)."""

    def __init__(self) -> None:
        self._latest: dict[tuple[int, tuple[str, ...]], dict[str, tuple[int, Played]]] = {}
        self._count = 0

    def earlier(self, game: Played) -> list[Played]:
        """What `comparisons` needs of the games so far to rate `game`, oldest first."""
        found = []
        for seat, label in enumerate(game.seats):
            versions = self._latest.get((seat, _others(game.seats, seat)), {})
            match = next((p for version, p in reversed(versions.items()) if version != label), None)
            if match is not None:
                found.append(match)
        return [played for _, played in sorted(found, key=lambda pair: pair[0])]

    def add(self, game: Played) -> None:
        """`game` was rated: it is the latest of each of its seats' versions."""
        self._count += 1
        for seat, label in enumerate(game.seats):
            versions = self._latest.setdefault((seat, _others(game.seats, seat)), {})
            versions.pop(label, None)  # to the end: the latest
            versions[label] = (self._count, game)


def _others(seats: Sequence[str], seat: int) -> tuple[str, ...]:
    return (*seats[:seat], "", *seats[seat + 1 :])


def role_signs(conn: Connection, tournament_id: int) -> list[int] | None:
    """Per seat of a role ladder, +1 when its role wants a high score, -1 a low one (the
    game's `GameInfo.better`); None for a ladder of a game without roles."""
    from botarena.core.registry import game_info

    game, plan = conn.execute(
        sa.select(tournaments.c.game, tournaments.c.plan).where(tournaments.c.id == tournament_id)
    ).one()
    if not plan.get("roles"):
        return None
    info = game_info(game)
    return [info.score_sign(seat) for seat in range(len(plan["roles"]))]


def earlier_games(conn: Connection, tournament_id: int, game_id: int) -> list[Played]:
    """For each seat of game `game_id`, the latest game of its ladder rated before it (done,
    earlier by finish time then id, every seat a version of the ladder, as
    `storeops.rating_history` orders and counts them) that had the same versions in every
    other seat and another version in this one; oldest first. Reads one game a seat."""
    seats, finished = conn.execute(
        sa.select(games.c.seats, games.c.finished_at).where(games.c.id == game_id)
    ).one()
    versions = sa.select(ladder_bots.c.label).where(ladder_bots.c.tournament_id == tournament_id)
    found: list[Any] = []
    for seat, label in enumerate(seats):
        same = [games.c.seats[i].as_string() == other for i, other in enumerate(seats) if i != seat]
        row = conn.execute(
            sa.select(games.c.id, games.c.finished_at, games.c.seats, games.c.ranks, games.c.scores)
            .where(
                games.c.tournament_id == tournament_id,
                games.c.status == "done",
                sa.or_(
                    games.c.finished_at < finished,
                    sa.and_(games.c.finished_at == finished, games.c.id < game_id),
                ),
                games.c.seats[seat].as_string() != label,
                games.c.seats[seat].as_string().in_(versions),
                *same,
            )
            .order_by(games.c.finished_at.desc(), games.c.id.desc())
            .limit(1)
        ).first()
        if row is not None:
            found.append(row)
    ordered = sorted(found, key=lambda row: (row.finished_at, row.id))
    return [Played(tuple(row.seats), tuple(row.ranks), tuple(row.scores)) for row in ordered]
