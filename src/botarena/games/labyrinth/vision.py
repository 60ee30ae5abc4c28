"""What an adventurer sees, exactly as the controller's `calculateVision`, and the set of
edges that sight reveals (the walls the maze master may not change).

Facing offsets are (row, col) steps; the left cell of a cell faced (dr, dc) is at
(row - dc, col + dr) and the right cell at (row + dc, col - dr), as in the original.

>>> from botarena.games.labyrinth.maze import Maze
>>> look(Maze.open(3), (0, 0, EAST), (0, 0, SOUTH))["ahead"][-1]
{'ahead': True, 'left': True, 'right': False}
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, field
from typing import Any

from botarena.games.labyrinth.maze import Maze

NORTH, EAST, SOUTH, WEST = range(4)
DIR_NAMES = ("north", "east", "south", "west")
OFFSETS = ((-1, 0), (0, 1), (1, 0), (0, -1))

Position = tuple[int, int, int]
"""(row, col, facing) with facing 0 = north, 1 = east, 2 = south, 3 = west."""


def wall_edge(n: int, row: int, col: int, facing: int) -> int:
    """The edge number of the wall on side `facing` of in-range cell (row, col); -1 for
    the border."""
    if facing == EAST:
        return (row * n + col) * 2 if col < n - 1 else -1
    if facing == SOUTH:
        return (row * n + col) * 2 + 1 if row < n - 1 else -1
    if facing == NORTH:
        return ((row - 1) * n + col) * 2 + 1 if row > 0 else -1
    return (row * n + col - 1) * 2 if col > 0 else -1


def side_edge(maze: Maze, row: int, col: int, facing: int) -> int | None:
    """The edge number of the wall on side `facing` of cell (row, col), None for border."""
    n = maze.n
    if not (0 <= row < n and 0 <= col < n):
        return None
    edge = wall_edge(n, row, col, facing)
    return None if edge < 0 else edge


@dataclass
class Sight:
    """The edges and cells one look revealed (for protection and for viewers)."""

    edges: set[int] = field(default_factory=set)
    cells: list[tuple[int, int]] = field(default_factory=list)


@functools.lru_cache(maxsize=4)
def cell_sides(n: int) -> tuple[tuple[int, int, int, int], ...]:
    """The edge numbers of each cell's four sides (`wall_edge`, -1 for the border), cell
    `row * n + col`: looked up, not computed, on the walks of `look` (two a turn)."""
    return tuple(
        (
            wall_edge(n, row, col, NORTH),
            wall_edge(n, row, col, EAST),
            wall_edge(n, row, col, SOUTH),
            wall_edge(n, row, col, WEST),
        )
        for row in range(n)
        for col in range(n)
    )


def look(maze: Maze, me: Position, other: Position, sight: Sight | None = None) -> dict[str, Any]:
    """The controller's vision object for `me`; `other` is the friend (where it stood before
    this turn's moves). When `sight` is given, every in-range edge examined and every cell
    seen is added to it. A side is walled where its edge is the border or a wall."""
    n, walls, sides = maze.n, maze.walls, cell_sides(maze.n)
    row, col, facing = me
    d_row, d_col = OFFSETS[facing]
    left, right = (facing + 3) % 4, (facing + 1) % 4
    other_row, other_col = other[0], other[1]
    friend = [0, 0] if row == other_row and col == other_col else None
    ahead = []
    r, c, steps = row, col, 0
    while True:
        cell = sides[r * n + c]
        front, on_left, on_right = cell[facing], cell[left], cell[right]
        if sight is not None:
            sight.cells.append((r, c))
            sight.edges.update(edge for edge in (front, on_left, on_right) if edge >= 0)
        blocked = front < 0 or walls[front]
        ahead.append(
            {
                "ahead": blocked,
                "left": on_left < 0 or walls[on_left],
                "right": on_right < 0 or walls[on_right],
            }
        )
        if blocked:
            break
        r, c, steps = r + d_row, c + d_col, steps + 1
        if r == other_row and c == other_col:
            friend = [steps, 0]
    left_ahead = right_ahead = None
    for side, open_side, sign in (
        (left, not ahead[0]["left"], -1),
        (right, not ahead[0]["right"], 1),
    ):
        if not open_side:
            continue
        r, c = row + sign * d_col, col - sign * d_row
        edge = sides[r * n + c][facing]
        if sight is not None:
            sight.cells.append((r, c))
            if edge >= 0:
                sight.edges.add(edge)
        seen = edge < 0 or walls[edge]
        if side == left:
            left_ahead = seen
        else:
            right_ahead = seen
        if r == other_row and c == other_col:
            friend = [0, sign]
    return {"ahead": ahead, "leftAhead": left_ahead, "rightAhead": right_ahead, "friend": friend}


def seen_edges(maze: Maze, me: Position, into: set[int]) -> None:
    """Add to `into` every in-range edge `look` reveals to `me`: the same walk, without
    building the vision object (the maze master's visibility check, on every turn)."""
    n, walls = maze.n, maze.walls
    row, col, facing = me
    d_row, d_col = OFFSETS[facing]
    left, right = (facing + 3) % 4, (facing + 1) % 4
    for side, sign in ((left, -1), (right, 1)):
        edge = wall_edge(n, row, col, side)
        if edge >= 0:
            into.add(edge)
            if not walls[edge]:
                ahead = wall_edge(n, row + sign * d_col, col - sign * d_row, facing)
                if ahead >= 0:
                    into.add(ahead)
    r, c = row, col
    while True:
        edge = wall_edge(n, r, c, facing)
        if edge < 0:
            return
        into.add(edge)
        if walls[edge]:
            return
        r, c = r + d_row, c + d_col
        for side in (left, right):
            edge = wall_edge(n, r, c, side)
            if edge >= 0:
                into.add(edge)


def protected_edges(maze: Maze, adventurers: list[Position]) -> set[int]:
    """Every edge either adventurer's vision reveals: the maze master cannot change them."""
    edges: set[int] = set()
    for me in adventurers:
        seen_edges(maze, me, edges)
    return edges
