"""The labyrinth's walls: an n×n grid of east/south walls with per-edge change counts,
the controller's border rule, fibonacci costs, and an iterative connectivity check.

A cell (row, col) stores its east wall (col < n-1) and its south wall (row < n-1); the
north wall of (r, c) is (r-1, c, 'south') and the west wall is (r, c-1, 'east'). Anything
outside the grid counts as a wall, as the original `checkWall` says.

>>> maze = Maze.open(3)
>>> maze.check(0, 2, "east"), maze.check(0, 1, "east")
(True, False)
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

EAST, SOUTH = 0, 1
SIDES = ("east", "south")
SIDE_INDEX = {"east": EAST, "south": SOUTH}


_FIB = [1, 1]
"""fib(0), fib(1), ... as far as any edge's count has gone (a memo, extended on demand)."""


def fib(count: int) -> int:
    """Mana to change an edge already changed `count` times: 1, 1, 2, 3, 5, 8, ..."""
    while len(_FIB) <= count:
        _FIB.append(_FIB[-1] + _FIB[-2])
    return _FIB[count]


def mana_income(turn: int, n: int) -> int:
    """1 + ⌊log_n turn⌋ in exact integer arithmetic (the controller's float log agrees on
    every turn the maze master plays)."""
    exponent, power = 0, n
    while power <= turn:
        exponent += 1
        power *= n
    return 1 + exponent


_NEIGHBOURS: dict[int, list[tuple[tuple[int, int], ...]]] = {}
"""Per maze size, each cell's (neighbour, edge between) pairs (a memo)."""


def neighbours(n: int) -> list[tuple[tuple[int, int], ...]]:
    """For each cell of an n×n grid, its neighbours and the edge numbers between them."""
    table = _NEIGHBOURS.get(n)
    if table is None:
        table = []
        for cell in range(n * n):
            row, col = divmod(cell, n)
            pairs = []
            if col < n - 1:
                pairs.append((cell + 1, cell * 2))
            if row < n - 1:
                pairs.append((cell + n, cell * 2 + 1))
            if col > 0:
                pairs.append((cell - 1, cell * 2 - 2))
            if row > 0:
                pairs.append((cell - n, (cell - n) * 2 + 1))
            table.append(tuple(pairs))
        _NEIGHBOURS[n] = table
    return table


FAR = 1 << 30
"""The distance `distances` gives a cell it cannot reach."""


def distances(n: int, walls: Sequence[bool], start: int, cut: int | None = None) -> list[int]:
    """Steps from cell `start` to every cell of an n×n grid through edges that are not walls
    (`walls[edge]` true), with edge `cut` closed too; FAR where there is no way."""
    table = neighbours(n)
    distance = [FAR] * (n * n)
    distance[start] = 0
    frontier = [start]
    while frontier:
        following = []
        for cell in frontier:
            step = distance[cell] + 1
            for other, edge in table[cell]:
                if not walls[edge] and edge != cut and distance[other] > step:
                    distance[other] = step
                    following.append(other)
        frontier = following
    return distance


def copy_view(view: list[list[dict]]) -> list[list[dict]]:
    """A fresh copy of a maze master's view, which the bot may change freely."""
    return [[cell.copy() for cell in row] for row in view]


class Maze:
    """The walls and change counts of one round's maze. Edges are numbered
    `(row * n + col) * 2 + side` (side 0 = east, 1 = south).

    Change walls with `set`: it keeps the maze master's view (`shared_view`) in step.
    """

    __slots__ = ("_view", "changes", "n", "version", "walls")

    def __init__(self, n: int, walls: list[bool]) -> None:
        self.n = n
        self.walls = walls  # indexed by edge number; border slots stay False, unused
        self.changes = [0] * (2 * n * n)
        self.version = 0
        """How many walls `set` has changed: what was seen of the maze at one version
        holds until the next."""
        self._view: list[list[dict]] | None = None

    @classmethod
    def open(cls, n: int) -> Maze:
        return cls(n, [False] * (2 * n * n))

    @classmethod
    def closed(cls, n: int) -> Maze:
        """Every interior wall present (not connected: for tests and generators)."""
        maze = cls.open(n)
        for edge in maze.edges():
            maze.walls[edge] = True
        return maze

    def edge(self, row: int, col: int, side: str) -> int | None:
        """The edge number of an in-range wall, or None for the border and beyond."""
        n = self.n
        if row < 0 or col < 0:
            return None
        if side == "east":
            if col >= n - 1 or row >= n:
                return None
            return (row * n + col) * 2
        if row >= n - 1 or col >= n:
            return None
        return (row * n + col) * 2 + 1

    def check(self, row: int, col: int, side: str) -> bool:
        """Whether there is a wall (the border and anything outside count as walls)."""
        edge = self.edge(row, col, side)
        return True if edge is None else self.walls[edge]

    def edges(self) -> Iterator[int]:
        """Every interior edge number."""
        n = self.n
        for row in range(n):
            for col in range(n):
                base = (row * n + col) * 2
                if col < n - 1:
                    yield base
                if row < n - 1:
                    yield base + 1

    def coords(self, edge: int) -> tuple[int, int, str]:
        cell, side = divmod(edge, 2)
        row, col = divmod(cell, self.n)
        return row, col, SIDES[side]

    def cost(self, edge: int) -> int:
        return fib(self.changes[edge])

    def set(self, edge: int, wall: bool) -> bool:
        """Set an edge; counts a change only when the wall really changes. Returns that."""
        if self.walls[edge] == wall:
            return False
        self.walls[edge] = wall
        self.changes[edge] += 1
        self.version += 1
        if self._view is not None:  # copy on write: views handed out stay as they were
            cell, side = divmod(edge, 2)
            row, col = divmod(cell, self.n)
            rows = self._view = self._view[:]
            cells = rows[row] = rows[row][:]
            entry = cells[col] = cells[col].copy()
            name = SIDES[side]
            entry[name] = wall
            entry[name + "Cost"] = fib(self.changes[edge])
        return True

    def is_connected(self) -> bool:
        """Whether every cell is reachable from (0, 0): an iterative flood fill (the
        original's recursion overflowed the stack on large open mazes)."""
        return self._flood(0, -1) == self.n * self.n

    def still_connected(self, edge: int) -> bool:
        """Whether a connected maze stays connected after wall `edge` went up (and any walls
        came down): every cell still reaches one of its two cells, so it is enough that they
        still reach each other."""
        cell, side = divmod(edge, 2)
        return self._flood(cell, cell + 1 if side == 0 else cell + self.n) < 0

    def _flood(self, start: int, target: int) -> int:
        """Cells reachable from `start`, or -1 as soon as `target` is reached."""
        walls, table = self.walls, neighbours(self.n)
        seen = bytearray(self.n * self.n)
        seen[start] = 1
        stack = [start]
        count = 1
        while stack:
            for other, edge in table[stack.pop()]:
                if not walls[edge] and not seen[other]:
                    if other == target:
                        return -1
                    seen[other] = 1
                    count += 1
                    stack.append(other)
        return count

    def shared_view(self) -> list[list[dict]]:
        """The maze master's view as it is now: `{east, eastCost, south, southCost}` per
        cell, border values null (their cost 1, meaningless). Never changed in place: `set`
        replaces the cells, rows and list it changes (copy on write), so it costs nothing to
        keep, and a cell or row that is still the same object has not changed. Read it only;
        `bot_view` is a copy a bot may change."""
        if self._view is None:
            n, walls, changes = self.n, self.walls, self.changes
            self._view = [
                [
                    {
                        "east": walls[edge] if col < n - 1 else None,
                        "eastCost": fib(changes[edge]),
                        "south": walls[edge + 1] if row < n - 1 else None,
                        "southCost": fib(changes[edge + 1]),
                    }
                    for col, edge in enumerate(range(2 * n * row, 2 * n * (row + 1), 2))
                ]
                for row in range(n)
            ]
        return self._view

    def bot_view(self) -> list[list[dict]]:
        """The fresh copy a maze master's takeTurn receives (see `shared_view`)."""
        return copy_view(self.shared_view())

    def rows_text(self) -> list[str]:
        """One string per row, a digit per cell: 1 = east wall, 2 = south wall, 3 = both."""
        n, walls = self.n, self.walls
        return [
            "".join(
                str(walls[(row * n + col) * 2] + 2 * walls[(row * n + col) * 2 + 1])
                for col in range(n)
            )
            for row in range(n)
        ]

    @classmethod
    def from_rows_text(cls, rows: list[str]) -> Maze:
        """Inverse of `rows_text` (change counts start at zero)."""
        n = len(rows)
        maze = cls.open(n)
        for row, text in enumerate(rows):
            for col, digit in enumerate(text):
                value = int(digit)
                if col < n - 1:
                    maze.walls[(row * n + col) * 2] = bool(value & 1)
                if row < n - 1:
                    maze.walls[(row * n + col) * 2 + 1] = bool(value & 2)
        return maze
