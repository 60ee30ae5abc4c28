"""Standings the way each contest ranked: total points, a rating from places, or mean score.

Each game declares its tradition (`GameInfo.rank_by`), used unless `--rank-by` picks another:

- `points`: total score over all games; irregular results (crashes, time-outs, invalid
  replies, and the game's own irregular statuses) are the "irregular losses" of the
  tradition, shown and used to break ties (fewer is better).
- `places`: only the place in each game counts (ties share a place); the places feed an
  openskill Plackett–Luce rating, ranked by its ordinal μ − 3σ.
- `mean-score`: mean score per role; a role whose seat wants a low score
  (`GameInfo.better`) ranks lowest first.

Strikes (a game's statuses of kind `StatusKind.STRIKE`): a game with a strike is an outlier
and is thrown out; a bot with three strikes is disqualified and every game it played is
discarded (`counted_games`). docs/standings.md explains each choice.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from botarena.core.rules import StatusKind
from botarena.tournament import ratings
from botarena.tournament.records import GameRecord

RANK_METHODS: tuple[str, ...] = ("points", "places", "mean-score")
"""The names `--rank-by` accepts."""

STRIKES_TO_DISQUALIFY = 3


@dataclass(frozen=True)
class Standing:
    """One bot's line in a standings table; `rank` 1 is best and equal keys share a rank."""

    bot: str
    rank: int
    rating: float
    games: int
    mean_score: float
    wins: int
    draws: int
    losses: int
    faults: int
    role: str | None = None
    points: float = 0.0
    irregular: int = 0
    timeouts: int = 0
    disqualified: bool = False

    def to_dict(self) -> dict[str, Any]:
        """The `standings --json` object: the contract's keys first, then the extras."""
        out: dict[str, Any] = {
            "bot": self.bot,
            "rank": self.rank,
            "rating": self.rating,
            "games": self.games,
            "mean_score": self.mean_score,
            "wins": self.wins,
            "draws": self.draws,
            "losses": self.losses,
            "faults": self.faults,
        }
        if self.role is not None:
            out["role"] = self.role
        out.update(
            points=self.points,
            irregular=self.irregular,
            timeouts=self.timeouts,
            disqualified=self.disqualified,
        )
        return out


def default_rank_by(game: str) -> str:
    """The game's own tradition; raises KeyError naming the known games for an unknown one."""
    from botarena.core.registry import get_game

    return get_game(game).info.rank_by


def _method(game: str, rank_by: str | None) -> str:
    """`rank_by`, or the game's tradition; ValueError for a name not in RANK_METHODS."""
    method = rank_by or default_rank_by(game)
    if method not in RANK_METHODS:
        raise ValueError(f"unknown ranking {method!r} (known: {', '.join(RANK_METHODS)})")
    return method


def irregular_statuses(game: str) -> frozenset[str]:
    """The statuses that make a game an irregular one for that bot: the match's faults and
    the game's own irregular and strike words (`GameInfo.statuses`)."""
    from botarena.core.registry import game_info

    info = game_info(game)
    return info.status_words(StatusKind.IRREGULAR) | info.status_words(StatusKind.STRIKE)


def _strike_statuses(game: str) -> frozenset[str]:
    from botarena.core.registry import game_info

    return game_info(game).status_words(StatusKind.STRIKE)


def strikes(game: str, records: Sequence[GameRecord]) -> dict[str, int]:
    """Strikes per bot over every game it played (a seat with a strike status)."""
    words = _strike_statuses(game)
    count: dict[str, int] = {}
    for record in records:
        for bot, status in zip(record.bots, record.statuses, strict=True):
            if status in words:
                count[bot] = count.get(bot, 0) + 1
    return count


def disqualified(game: str, records: Sequence[GameRecord]) -> set[str]:
    """Bots with three strikes or more."""
    return {bot for bot, n in strikes(game, records).items() if n >= STRIKES_TO_DISQUALIFY}


def counted_games(game: str, records: Sequence[GameRecord]) -> list[GameRecord]:
    """The records standings count, in the order given: without games that have a strike
    (outliers) and without every game of a disqualified bot (in a game without strike
    statuses, every record)."""
    words = _strike_statuses(game)
    out = disqualified(game, records)
    return [
        record
        for record in records
        if words.isdisjoint(record.statuses) and out.isdisjoint(record.bots)
    ]


def outcome(record: GameRecord, seat: int) -> str:
    """`win` (first place alone), `draw` (first place shared) or `loss` (any other place)."""
    if record.ranks[seat] != 1:
        return "loss"
    return "draw" if record.ranks.count(1) > 1 else "win"


@dataclass
class _Tally:
    """What one bot collected; faults over every game it played, the rest over counted ones.
    A game with an irregular status counts at least one fault: a strike for a bad
    board is the rules' verdict, not a transport fault the referee counted."""

    games: int = 0
    points: float = 0.0
    wins: int = 0
    draws: int = 0
    losses: int = 0
    faults: int = 0
    irregular: int = 0
    timeouts: int = 0
    role: str | None = None

    @property
    def mean(self) -> float:
        return self.points / self.games if self.games else 0.0


def _tallies(
    irregular_words: frozenset[str],
    records: Sequence[GameRecord],
    counted: Sequence[GameRecord],
    bots: Sequence[str],
) -> dict[str, _Tally]:
    tallies = {bot: _Tally() for bot in bots}
    for record in records:
        for seat, bot in enumerate(record.bots):
            if bot not in tallies:
                continue
            tally = tallies[bot]
            irregular = record.statuses[seat] in irregular_words
            tally.faults += max(record.faults[seat], irregular)
            tally.irregular += irregular
            tally.timeouts += record.statuses[seat] == "timeout"
            if record.roles is not None:
                tally.role = record.roles[seat]
    for record in counted:
        for seat, bot in enumerate(record.bots):
            if bot not in tallies:
                continue
            tally = tallies[bot]
            tally.games += 1
            tally.points += record.scores[seat]
            result = outcome(record, seat)
            tally.wins += result == "win"
            tally.draws += result == "draw"
            tally.losses += result == "loss"
    return tallies


def _role_facts(game: str) -> tuple[list[str], dict[str, int]]:
    """The game's roles in seat order (lower case, as records name them) and, per role, +1
    when a higher score is better for it, -1 when a lower one is."""
    from botarena.core.registry import game_info

    info = game_info(game)
    names = [name.lower() for name in info.seat_names]
    return names, {name: info.score_sign(seat) for seat, name in enumerate(names)}


def standings(
    game: str,
    records: Sequence[GameRecord],
    bots: Sequence[str],
    *,
    rank_by: str | None = None,
    roles: Mapping[str, str] | None = None,
) -> list[Standing]:
    """One line for every bot in `bots` (also those that have not played), ranked by
    `rank_by` (default: the game's tradition); in role games one ranking per role, the
    roles in seat order. Bots without a counted game rank after those with one, and
    disqualified bots last. Raises ValueError for an unknown `rank_by`."""
    method = _method(game, rank_by)
    counted = counted_games(game, records)
    out = disqualified(game, records)
    tallies = _tallies(irregular_statuses(game), records, counted, bots)
    for bot, role in (roles or {}).items():
        if bot in tallies:
            tallies[bot].role = role
    role_order, signs = _role_facts(game)
    if method == "mean-score":
        rating = {bot: tally.mean for bot, tally in tallies.items()}
    else:
        final = ratings.ordinals(counted)
        prior = ratings.initial_ordinal()
        rating = {bot: final.get(bot, prior) for bot in bots}
    keys: dict[str, Callable[[str], tuple[float, ...]]] = {
        "points": lambda bot: (-sign(bot) * tallies[bot].points, tallies[bot].irregular),
        "places": lambda bot: (-rating[bot],),
        "mean-score": lambda bot: (-sign(bot) * tallies[bot].mean,),
    }

    def sign(bot: str) -> int:
        """+1 when a higher score is better for the bot's role, -1 when a lower one is."""
        return signs.get(tallies[bot].role or "", 1)

    def key(bot: str) -> tuple[float, ...]:
        return (bot in out, tallies[bot].games == 0, *keys[method](bot))

    def group(bot: str) -> tuple[int, str]:
        role = tallies[bot].role
        if role is None:
            return (len(role_order) + 1, "")
        return (role_order.index(role) if role in role_order else len(role_order), role)

    table: list[Standing] = []
    ordered = sorted(bots, key=lambda bot: (group(bot), key(bot), bot))
    position = 0
    for index, bot in enumerate(ordered):
        previous = ordered[index - 1] if index else None
        same_group = previous is not None and group(previous) == group(bot)
        position = position + 1 if same_group else 1
        tied = same_group and previous is not None and key(previous) == key(bot)
        tally = tallies[bot]
        table.append(
            Standing(
                bot=bot,
                rank=table[-1].rank if tied else position,
                rating=rating[bot],
                games=tally.games,
                mean_score=tally.mean,
                wins=tally.wins,
                draws=tally.draws,
                losses=tally.losses,
                faults=tally.faults,
                role=tally.role,
                points=tally.points,
                irregular=tally.irregular,
                timeouts=tally.timeouts,
                disqualified=bot in out,
            )
        )
    return table


def cross_table(
    game: str, records: Sequence[GameRecord], bots: Sequence[str]
) -> dict[str, dict[str, tuple[int, int, int, float]]]:
    """Row bot -> column bot -> (wins, draws, losses, points) from the row bot's side, over
    the games standings count (strike games and disqualified bots' games are left out, as in
    `counted_games`). A game of any number of seats counts once for every pair of its bots:
    a win when the row bot placed above the column bot, a draw on the same place, and the row
    bot's score as its points (in a role game, where roles never compete, every meeting is a
    draw and the points tell). Only pairs that met have a cell."""
    wanted = set(bots)
    cells: dict[str, dict[str, list[float]]] = {row: {} for row in bots}
    for record in counted_games(game, records):
        for seat, row in enumerate(record.bots):
            for other, col in enumerate(record.bots):
                if other == seat or row == col or row not in wanted or col not in wanted:
                    continue
                cell = cells[row].setdefault(col, [0, 0, 0, 0.0])
                mine, theirs = record.ranks[seat], record.ranks[other]
                cell[0 if mine < theirs else 1 if mine == theirs else 2] += 1
                cell[3] += record.scores[seat]
    return {
        row: {col: (int(c[0]), int(c[1]), int(c[2]), float(c[3])) for col, c in line.items()}
        for row, line in cells.items()
    }


def plot_history(
    game: str,
    records: Sequence[GameRecord],
    bots: Sequence[str],
    path: Path,
    *,
    rank_by: str | None = None,
) -> Path:
    """Write a PNG of each bot's rating (places), total points (points) or running mean score
    (mean-score, one panel per role) after each counted game, as steps from its start value
    to the last game; returns `path`. Raises ValueError for an unknown `rank_by`."""
    from botarena.tournament.plot import draw_history

    method = _method(game, rank_by)
    counted = ratings.in_play_order(counted_games(game, records))
    wanted = set(bots)
    prior = ratings.initial_ordinal()
    start = {"places": [(0, prior)], "points": [(0, 0.0)], "mean-score": []}[method]
    series: dict[str, list[tuple[int, float]]] = {bot: list(start) for bot in bots}
    roles: dict[str, str | None] = {}
    totals: dict[str, tuple[int, float]] = {}
    changes = ratings.replay(counted) if method == "places" else None
    current: dict[str, float] = {}
    for x, record in enumerate(counted, start=1):
        if changes is not None:
            current.update(next(changes))
        for seat, bot in enumerate(record.bots):
            if bot not in wanted:
                continue
            games, points = totals.get(bot, (0, 0.0))
            games, points = games + 1, points + record.scores[seat]
            totals[bot] = (games, points)
            roles[bot] = record.roles[seat] if record.roles is not None else None
            if method == "places":
                value = current.get(bot, prior)
            else:
                value = points if method == "points" else points / games
            series[bot].append((x, value))
    for line in series.values():
        if line and line[-1][0] < len(counted):
            line.append((len(counted), line[-1][1]))  # the value holds to the last game
    label = {"places": "rating (μ − 3σ)", "points": "total points", "mean-score": "mean score"}[
        method
    ]
    return draw_history(series, roles, path, title=f"{game}: {label} after each game", ylabel=label)
