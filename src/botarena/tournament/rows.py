"""The tournament store's rows as values: a tournament, a bot's version, a game.

`tournament/store.py` reads them from its tables and exports them under its own name.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Tournament:
    id: int
    name: str
    game: str
    schedule: str
    plan: dict[str, Any]
    options: dict[str, Any]
    replay_dir: str


@dataclass(frozen=True)
class Bot:
    name: str
    label: str
    version: int
    spec: str
    role: str | None
    workdir: str | None
    source: str | None
    active: bool


@dataclass(frozen=True)
class GameRow:
    id: int
    key: str
    round: int
    idx: int
    seed: int
    map: str | None
    seats: tuple[str, ...]
    status: str
    scores: tuple[float, ...] | None
    ranks: tuple[int, ...] | None
    statuses: tuple[str, ...] | None
    faults: tuple[int, ...] | None
    replay: str | None
    error: str | None
    end_reason: str | None = None
    """Why a played game ended, in the game's own words (its `Outcome.end_reason`)."""

    def result(
        self,
    ) -> tuple[tuple[float, ...], tuple[int, ...], tuple[str, ...], tuple[int, ...]]:
        """Scores, ranks, statuses and faults of a played game."""
        if (
            self.scores is None
            or self.ranks is None
            or self.statuses is None
            or (self.faults is None)
        ):
            raise ValueError(f"game {self.key} has no result yet")
        return self.scores, self.ranks, self.statuses, self.faults
