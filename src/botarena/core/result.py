"""A finished game's result: a line per seat and the whole (`botarena play --json`).

Its own module so that the referee (`match`) and `verify` (`replay`), which both build one,
import it from here rather than from each other.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass
class PlayerResult:
    """One seat's line of the result table."""

    bot: str
    score: float
    rank: int
    status: str
    time_ms: float
    faults: int
    spec: str = ""
    cpu_ms: float = 0.0

    def to_dict(self) -> dict[str, Any]:
        return {
            "bot": self.bot,
            "score": self.score,
            "rank": self.rank,
            "status": self.status,
            "time_ms": round(self.time_ms, 1),
            "faults": self.faults,
        }


@dataclass
class MatchResult:
    """A finished game. `to_dict()` is the `botarena play --json` object."""

    game: str
    seed: int | str
    turns: int
    end_reason: str
    players: list[PlayerResult]
    replay: str | None = None
    document: dict[str, Any] = field(default_factory=dict, repr=False)
    stderr: list[str] = field(default_factory=list, repr=False)
    """What each bot wrote on stderr (capped), recorded or not."""

    def to_dict(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "seed": self.seed,
            "turns": self.turns,
            "end_reason": self.end_reason,
            "replay": self.replay,
            "players": [player.to_dict() for player in self.players],
        }

    @property
    def scores(self) -> list[float]:
        return [player.score for player in self.players]
