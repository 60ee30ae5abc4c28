"""What an adventurer sees, exactly as the controller's `calculateVision`, and the set of
edges that sight reveals (the walls the maze master may not change).

>>> from botarena.games.labyrinth.maze import Maze
>>> look(Maze.open(3), (0, 0, EAST), (0, 0, SOUTH))["ahead"][-1]
{'ahead': True, 'left': True, 'right': False}
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from botarena.games.labyrinth.maze import Maze

NORTH, EAST, SOUTH, WEST = range(4)
DIR_NAMES = ("north", "east", "south", "west")
OFFSETS = ((-1, 0), (0, 1), (1, 0), (0, -1))

Position = tuple[int, int, int]
"""(row, col, facing) with facing 0 = north, 1 = east, 2 = south, 3 = west."""


def side_edge(maze: Maze, row: int, col: int, facing: int) -> int | None:
    """The edge number of the wall on side `facing` of cell (row, col), None for border."""
    if facing == NORTH:
        return maze.edge(row - 1, col, "south")
    if facing == EAST:
        return maze.edge(row, col, "east")
    if facing == SOUTH:
        return maze.edge(row, col, "south")
    return maze.edge(row, col - 1, "east")


@dataclass
class Sight:
    """The edges and cells one look revealed (for protection and for viewers)."""

    edges: set[int] = field(default_factory=set)
    cells: list[tuple[int, int]] = field(default_factory=list)


def look(maze: Maze, me: Position, other: Position, sight: Sight | None = None
         ) -> dict[str, Any]:
    """The controller's vision object for `me`; `other` is the friend. When `sight` is
    given, every in-range edge examined and every cell seen is added to it."""
    row, col, facing = me
    d_row, d_col = OFFSETS[facing]
    left, right = (facing + 3) % 4, (facing + 1) % 4
    walls = maze.walls

    def wall(r: int, c: int, side: int) -> bool:
        edge = side_edge(maze, r, c, side)
        if edge is None:
            return True
        if sight is not None:
            sight.edges.add(edge)
        return walls[edge]

    def cell(r: int, c: int) -> dict[str, bool]:
        if sight is not None:
            sight.cells.append((r, c))
        return {"ahead": wall(r, c, facing), "left": wall(r, c, left),
                "right": wall(r, c, right)}

    other_row, other_col = other[0], other[1]
    ahead = [cell(row, col)]
    friend = [0, 0] if (row, col) == (other_row, other_col) else None
    while not ahead[-1]["ahead"]:
        steps = len(ahead)
        r, c = row + steps * d_row, col + steps * d_col
        ahead.append(cell(r, c))
        if (r, c) == (other_row, other_col):
            friend = [steps, 0]
    left_ahead = right_ahead = None
    if not ahead[0]["left"]:
        r, c = row - d_col, col + d_row
        if sight is not None:
            sight.cells.append((r, c))
        left_ahead = wall(r, c, facing)
        if (r, c) == (other_row, other_col):
            friend = [0, -1]
    if not ahead[0]["right"]:
        r, c = row + d_col, col - d_row
        if sight is not None:
            sight.cells.append((r, c))
        right_ahead = wall(r, c, facing)
        if (r, c) == (other_row, other_col):
            friend = [0, 1]
    return {"ahead": ahead, "leftAhead": left_ahead, "rightAhead": right_ahead,
            "friend": friend}


def protected_edges(maze: Maze, adventurers: list[Position]) -> set[int]:
    """Every edge either adventurer's vision reveals: the maze master cannot change them."""
    sight = Sight()
    for index, me in enumerate(adventurers):
        look(maze, me, adventurers[1 - index], sight)
    return sight.edges
