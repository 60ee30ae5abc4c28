"""One finished tournament game as standings and ratings see it, whatever the store."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class GameRecord:
    """A finished game: per seat, in seat order, the bot's name and what it got.

    `roles` holds each seat's role name in role games (the game's seat names in lower
    case, `GameInfo.roles`), None elsewhere. `order` is the position of the game in
    the schedule, so ratings are replayed game by game in the same order however many workers
    played them and whatever order they finished in.
    """

    key: str
    bots: tuple[str, ...]
    scores: tuple[float, ...]
    ranks: tuple[int, ...]
    """1 is first; tied seats share a rank (the rules' places)."""
    statuses: tuple[str, ...]
    """`ok`, `crashed`, `timeout`, `invalid`, or a word of the game's own
    (`GameInfo.statuses`)."""
    faults: tuple[int, ...]
    roles: tuple[str, ...] | None = None
    order: int = 0

    @property
    def seats(self) -> int:
        return len(self.bots)
