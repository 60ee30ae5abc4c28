"""Standings the way each contest ranked: points, places with a rating, or mean score per role."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from botarena.tournament.records import GameRecord

RANK_METHODS: tuple[str, ...] = ("points", "places", "mean-score")


@dataclass(frozen=True)
class Standing:
    """One bot's line in a standings table."""

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

    def to_dict(self) -> dict:
        raise NotImplementedError


def default_rank_by(game: str) -> str:
    raise NotImplementedError


def counted_games(game: str, records: Sequence[GameRecord]) -> list[GameRecord]:
    raise NotImplementedError


def standings(
    game: str,
    records: Sequence[GameRecord],
    bots: Sequence[str],
    *,
    rank_by: str | None = None,
    roles: Mapping[str, str] | None = None,
) -> list[Standing]:
    raise NotImplementedError


def cross_table(
    records: Sequence[GameRecord], bots: Sequence[str]
) -> dict[str, dict[str, tuple[int, int, int, float]]]:
    raise NotImplementedError


def plot_history(
    game: str,
    records: Sequence[GameRecord],
    bots: Sequence[str],
    path: Path,
    *,
    rank_by: str | None = None,
) -> Path:
    raise NotImplementedError
