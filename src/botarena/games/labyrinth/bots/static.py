"""Maze master `static`: a random perfect maze (randomised depth-first search), never
changed: the baseline opponent."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from botarena.games.labyrinth.api import MazeMaster


def perfect_maze(n: int, random: Callable[[], float]) -> list[list[dict[str, bool]]]:
    """A recursive-backtracker maze as `generateMaze` returns it: every cell reachable by
    exactly one path, long winding corridors."""
    cells = [[{"east": True, "south": True} for _ in range(n)] for _ in range(n)]
    seen = [[False] * n for _ in range(n)]
    seen[0][0] = True
    stack = [(0, 0)]
    while stack:
        row, col = stack[-1]
        options = [
            (r, c)
            for r, c in ((row - 1, col), (row, col + 1), (row + 1, col), (row, col - 1))
            if 0 <= r < n and 0 <= c < n and not seen[r][c]
        ]
        if not options:
            stack.pop()
            continue
        r, c = options[int(random() * len(options))]
        if r == row:
            cells[row][min(col, c)]["east"] = False
        else:
            cells[min(row, r)][col]["south"] = False
        seen[r][c] = True
        stack.append((r, c))
    return cells


class Static(MazeMaster):
    """Generates one random perfect maze a round and leaves it alone."""

    def generate_maze(self, maze_size: int) -> Any:
        return perfect_maze(maze_size, self.random)


def main() -> None:
    from botarena.core.botmain import run_stdio
    from botarena.games.labyrinth.protocol import PROTOCOL

    run_stdio(Static(), PROTOCOL)


if __name__ == "__main__":
    main()
