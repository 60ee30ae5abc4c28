"""What a bot is told: the turn-0 parameters and one turn's visible state (no numpy here, so
the protocol and the game's registry entry load without the rules)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class Params:
    """What every bot is told at turn 0, plus the player count."""

    rows: int
    cols: int
    players: int
    turns: int
    loadtime: int
    turntime: int
    viewradius2: int
    attackradius2: int
    spawnradius2: int
    player_seed: int


@dataclass
class Observation:
    """What one player is told at a turn, in its own numbering (itself 0).

    `turn` 0 is the parameter block (answered with `go`); `end` marks the final message,
    with `scores`, `statuses` and `playerturns` (None for players it never saw).
    """

    turn: int
    params: Params
    water: list[tuple[int, int]] = field(default_factory=list)
    hills: list[tuple[int, int, int]] = field(default_factory=list)
    ants: list[tuple[int, int, int]] = field(default_factory=list)
    food: list[tuple[int, int]] = field(default_factory=list)
    dead: list[tuple[int, int, int]] = field(default_factory=list)
    end: bool = False
    scores: list[Any] | None = None
    statuses: list[Any] | None = None
    playerturns: list[Any] | None = None
