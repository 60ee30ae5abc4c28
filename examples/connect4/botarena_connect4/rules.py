"""The rules of Connect Four: drop a disc in a column; four in a row (across, down or
diagonal) wins; a full board is a draw; a bot that faults forfeits."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from botarena.core.rules import Clock, Outcome, State, Status

DISCS = "XO"
EMPTY = "."
LINES = ((0, 1), (1, 0), (1, 1), (1, -1))  # (row, column) steps: across, down, diagonals


@dataclass(frozen=True)
class Observation:
    """What a bot is shown: its seat, the board (top row first) and the last column played
    (-1 at the start)."""

    seat: int
    board: tuple[str, ...]
    last: int

    def legal(self) -> list[int]:
        """The columns that are not full."""
        return [column for column, disc in enumerate(self.board[0]) if disc == EMPTY]


class Connect4State(State):
    """A game in progress. The seed plays no part: Connect Four has no chance."""

    def __init__(self, columns: int, rows: int, turn_ms: int) -> None:
        self.grid = [[EMPTY] * columns for _ in range(rows)]
        self.turn_s = turn_ms / 1000
        self.moves: list[int] = []
        self.winner: int | None = None
        self.line: list[tuple[int, int]] = []
        self.forfeit: int | None = None

    @property
    def seat(self) -> int:
        return len(self.moves) % 2

    def to_act(self) -> list[int]:
        return [] if self.is_over() else [self.seat]

    def observation(self, seat: int) -> Observation:
        last = self.moves[-1] if self.moves else -1
        return Observation(seat, tuple("".join(row) for row in self.grid), last)

    def apply(self, actions: Mapping[int, Any]) -> None:
        if self.is_over() or self.seat not in actions:
            return  # a faulting bot forfeited: nothing to play
        column = int(actions[self.seat])
        row = max(r for r in range(len(self.grid)) if self.grid[r][column] == EMPTY)
        self.grid[row][column] = DISCS[self.seat]
        self.moves.append(column)
        self.line = self._four(row, column)
        if self.line:
            self.winner = 1 - self.seat  # the seat that just moved

    def _four(self, row: int, column: int) -> list[tuple[int, int]]:
        """The squares of a line of four or more through (row, column), or []."""
        disc = self.grid[row][column]
        for dr, dc in LINES:
            line = [(row, column)]
            for sign in (1, -1):
                r, c = row + sign * dr, column + sign * dc
                while 0 <= r < len(self.grid) and 0 <= c < len(self.grid[0]):
                    if self.grid[r][c] != disc:
                        break
                    line.append((r, c))
                    r, c = r + sign * dr, c + sign * dc
            if len(line) >= 4:
                return sorted(line)
        return []

    def is_over(self) -> bool:
        return self.winner is not None or len(self.moves) == len(self.grid) * len(self.grid[0])

    def fault(self, seat: int, status: Status, detail: str) -> None:
        """A bot that crashes, times out or answers badly forfeits the game."""
        if self.winner is None:
            self.forfeit, self.winner = seat, 1 - seat

    def outcome(self) -> Outcome:
        if self.winner is None:
            return Outcome([1, 1], "board full")
        scores = [0, 0]
        scores[self.winner] = 2
        return Outcome(scores, "forfeit" if self.forfeit is not None else "four in a row")

    def clock(self, seat: int) -> Clock:
        return Clock(reply_s=self.turn_s)

    def frame(self) -> dict[str, Any]:
        return {
            "board": ["".join(row) for row in self.grid],
            "move": self.moves[-1] if self.moves else None,
            "winner": self.winner,
            "line": [list(square) for square in self.line],
        }

    @property
    def step_count(self) -> int:
        return len(self.moves)


def new_state(seed: int | str, options: dict[str, Any], map_data: Any, seats: int) -> State:
    return Connect4State(options["columns"], options["rows"], options["turn_ms"])
