"""An in-process maze master is handed its fresh copy of the maze made before its clock
starts: the copy is the jury's work, as the controller made it before its timed call
(docs/games/labyrinth.md, "Time")."""

from __future__ import annotations

import time
from typing import Any

import pytest

import botarena
from botarena.games.labyrinth import rules
from botarena.games.labyrinth.api import MazeMaster
from botarena.games.labyrinth.bots.static import perfect_maze

COPY_CPU_S = 0.01
"""What the slowed copy burns: ten times the 1 ms a turn adds to a bank of 50 ms."""


class Watcher(MazeMaster):
    """Leaves the maze alone; keeps the size of each maze it is handed."""

    def __init__(self) -> None:
        super().__init__()
        self.sizes: list[int] = []

    def generate_maze(self, maze_size: int) -> Any:
        return perfect_maze(maze_size, self.random)

    def take_turn(self, mana: int, maze: Any, adventurers: Any) -> Any:
        self.sizes.append(len(maze))
        return None


def test_the_copy_of_the_maze_is_not_the_bots_time(monkeypatch: pytest.MonkeyPatch) -> None:
    copy = rules.copy_view

    def slow_copy(view: Any) -> Any:
        until = time.thread_time() + COPY_CPU_S
        while time.thread_time() < until:
            pass
        return copy(view)

    monkeypatch.setattr(rules, "copy_view", slow_copy)
    watcher = Watcher()
    result = botarena.play(
        "labyrinth", ["builtin:labyrinth/wallfollower", watcher], seed=4, max_rounds=2
    )
    assert "strike" not in result.end_reason, result.end_reason
    assert len(watcher.sizes) > 10  # more turns than a bank charged for the copies lasts
    assert set(watcher.sizes) <= {3, 4} and len(set(watcher.sizes)) == 2
