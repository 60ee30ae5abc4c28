"""One player's knowledge of the maze and the discovery rules, applied incrementally.

The jury keeps, per player, which squares are discovered, which are known to exist (an
open connection leads to them), which edges (walls or openings) are known, and which
squares are dead ends. `look()` applies what a player sees at the start of its turn, then
`infer()` runs the inference rules to their fixed point; both report every square newly
discovered so the rules can score it. Each rule only adds knowledge, so the fixed point,
and the points it gives, do not depend on the order in which rules fire.
"""

from __future__ import annotations

from collections.abc import Callable

from botarena.games.amazes.maze import (
    EDGE_LATTICE,
    EDGE_SQUARES,
    EDGES,
    LATTICE,
    NEIGHBOUR,
    OUTER_SIDE_OF,
    OUTER_SIDES,
    SIZE,
    SQUARE_EDGE,
    SQUARES,
    Maze,
)


class Knowledge:
    """What one player has discovered; `on_discover(square)` is called for each new square."""

    __slots__ = (
        "_col_seen",
        "_cols",
        "_cols_done",
        "_outer_known",
        "_points",
        "_row_seen",
        "_rows",
        "_rows_done",
        "_squares",
        "_unsettled",
        "count",
        "dead",
        "discovered",
        "exists",
        "known",
        "looked",
        "maze",
        "on_discover",
        "walls",
    )

    def __init__(self, maze: Maze, on_discover: Callable[[int], None]) -> None:
        self.maze = maze
        self.walls = maze.walls
        self.looked = bytearray(SQUARES)  # a second look from a square shows nothing new
        self.discovered = bytearray(SQUARES)
        self.exists = bytearray(SQUARES)
        self.known = bytearray(EDGES)
        self.dead = bytearray(SQUARES)
        self.count = 0  # squares discovered
        self._row_seen = [0] * SIZE
        self._col_seen = [0] * SIZE
        self._rows = 0  # rows with a discovered or existing square
        self._cols = 0
        self._rows_done = False
        self._cols_done = False
        self._outer_known = [0, 0, 0, 0]
        self._unsettled = False  # something was learned since the last fixed point
        self._squares: list[int] = []  # squares whose dead-end count may have changed
        self._points: list[int] = []  # grid points whose corner rule may now fire
        self.on_discover = on_discover

    # -- primitive facts ----------------------------------------------------------------
    def discover(self, square: int) -> None:
        """The player discovers `square` (it sees it, walks on it, or infers it)."""
        if not self.discovered[square]:
            self.discovered[square] = 1
            self.count += 1
            self._mark_exists(square)
            self.on_discover(square)

    def _mark_exists(self, square: int) -> None:
        if self.exists[square]:
            return
        self.exists[square] = 1
        self._unsettled = True
        row, col = divmod(square, SIZE)
        if not self._row_seen[row]:
            self._row_seen[row] = 1
            self._rows += 1
        if not self._col_seen[col]:
            self._col_seen[col] = 1
            self._cols += 1

    def learn(self, edge: int) -> None:
        """The player now knows what `edge` is (a wall or an opening)."""
        if self.known[edge]:
            return
        self.known[edge] = 1
        self._unsettled = True
        squares = EDGE_SQUARES[edge]
        self._squares.extend(squares)
        self._points.extend(EDGE_LATTICE[edge])
        if not self.walls[edge]:
            for square in squares:
                self._mark_exists(square)
        side = OUTER_SIDE_OF[edge]
        if side >= 0:
            self._outer_known[side] += 1

    # -- the information stage ----------------------------------------------------------
    def look(self, square: int) -> None:
        """Apply what a player standing on `square` sees along its four corridors."""
        if self.looked[square]:
            return
        self.looked[square] = 1
        squares, edges = self.maze.look(square)
        for seen in squares:
            self.discover(seen)
        for edge in edges:
            self.learn(edge)

    def infer(self) -> None:
        """Run the inference rules until nothing new follows."""
        if not self._unsettled:
            return
        self._unsettled = False
        while True:
            self._drain()
            if not self._rows_done and self._rows == SIZE:
                self._rows_done = True
                self._learn_all(OUTER_SIDES[0] + OUTER_SIDES[2])
                continue
            if not self._cols_done and self._cols == SIZE:
                self._cols_done = True
                self._learn_all(OUTER_SIDES[1] + OUTER_SIDES[3])
                continue
            opposite = [
                (side + 2) % 4
                for side in range(4)
                if self._outer_known[side] == SIZE and self._outer_known[(side + 2) % 4] < SIZE
            ]
            if not opposite:
                return
            for side in opposite:
                self._learn_all(OUTER_SIDES[side])

    def _learn_all(self, edges: tuple[int, ...]) -> None:
        for edge in edges:
            self.learn(edge)

    def _drain(self) -> None:
        """Dead-end and corner rules over the squares and points touched since last time."""
        walls, known, dead = self.walls, self.known, self.dead
        squares, points = self._squares, self._points
        while squares or points:
            while squares:
                square = squares.pop()
                if dead[square]:
                    continue
                closed = 0
                base = square * 4
                for d in range(4):
                    edge = SQUARE_EDGE[base + d]
                    if known[edge] and (walls[edge] or dead[NEIGHBOUR[base + d]]):
                        closed += 1
                if closed >= 3:
                    self._dead_end(square)
            while points:
                segments = LATTICE[points.pop()]
                unknown = [e for e in segments if not known[e]]
                if len(unknown) == 1 and not any(walls[e] for e in segments if known[e]):
                    self.learn(unknown[0])

    def _dead_end(self, square: int) -> None:
        """`square` has three sides known closed (walls, or openings into dead ends): it is a
        dead end, discovered, and its remaining side is a known opening."""
        self.dead[square] = 1
        self.discover(square)
        base = square * 4
        for d in range(4):
            edge = SQUARE_EDGE[base + d]
            self.learn(edge)
            if not self.walls[edge]:
                self._squares.append(NEIGHBOUR[base + d])
