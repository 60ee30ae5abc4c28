"""The Amazes maze: geometry tables, the ASCII file format, validation, generation, starts.

Squares are numbered `row * 25 + col` (row 0 at the top). Directions are 0 north, 1 east,
2 south, 3 west; right of `d` is `(d + 1) % 4`. Edges (the wall-or-opening between two
squares, or on the outer edge) are numbered: horizontal edge above row `r` (r = 0..25) at
column `c` is `r * 25 + c`; vertical edge left of column `c` (c = 0..25) in row `r` is
`650 + r * 26 + c`. A maze is one bytearray: `walls[edge]` is 1 for a wall.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import ClassVar

from botarena.core.rules import GameError

SIZE = 25
SQUARES = SIZE * SIZE
EDGES = (SIZE + 1) * SIZE * 2
DIRECTIONS = "NESW"
DROW = (-1, 0, 1, 0)
DCOL = (0, 1, 0, -1)
MIN_START_DISTANCE2 = 288
"""Start squares are at squared distance at least 288 (√288 ≈ 17, both rule texts)."""


def h_edge(row: int, col: int) -> int:
    """The horizontal edge above square (row, col); row 25 is the bottom outer edge."""
    return row * SIZE + col


def v_edge(row: int, col: int) -> int:
    """The vertical edge left of square (row, col); col 25 is the right outer edge."""
    return (SIZE + 1) * SIZE + row * (SIZE + 1) + col


def _square_edges() -> tuple[int, ...]:
    table = []
    for square in range(SQUARES):
        row, col = divmod(square, SIZE)
        table += [h_edge(row, col), v_edge(row, col + 1), h_edge(row + 1, col), v_edge(row, col)]
    return tuple(table)


def _neighbours() -> tuple[int, ...]:
    table = []
    for square in range(SQUARES):
        row, col = divmod(square, SIZE)
        for d in range(4):
            r, c = row + DROW[d], col + DCOL[d]
            table.append(r * SIZE + c if 0 <= r < SIZE and 0 <= c < SIZE else -1)
    return tuple(table)


_SIDE_LETTER = ("N", "R", "L", "B")
"""Corridor letter by (left side open) * 2 + (right side open)."""

SQUARE_EDGE = _square_edges()
"""`SQUARE_EDGE[square * 4 + d]`: the edge on side `d` of `square`."""
NEIGHBOUR = _neighbours()
"""`NEIGHBOUR[square * 4 + d]`: the square beyond side `d`, or -1 outside the maze."""


def _edge_squares() -> tuple[tuple[int, ...], ...]:
    sides: list[list[int]] = [[] for _ in range(EDGES)]
    for square in range(SQUARES):
        for d in range(4):
            sides[SQUARE_EDGE[square * 4 + d]].append(square)
    return tuple(tuple(s) for s in sides)


EDGE_SQUARES = _edge_squares()
"""The one or two squares each edge borders."""
INTERIOR_EDGES = tuple(e for e in range(EDGES) if len(EDGE_SQUARES[e]) == 2)
"""The edges between two squares (not on the outer edge)."""


def _lattice() -> tuple[tuple[tuple[int, int, int, int], ...], tuple[tuple[int, ...], ...]]:
    """Interior grid points (where four squares meet) with their four edges, and per edge
    the interior points it touches."""
    points: list[tuple[int, int, int, int]] = []
    touching: list[list[int]] = [[] for _ in range(EDGES)]
    for row in range(1, SIZE):
        for col in range(1, SIZE):
            segments = (
                v_edge(row - 1, col),
                h_edge(row, col),
                v_edge(row, col),
                h_edge(row, col - 1),
            )
            for edge in segments:
                touching[edge].append(len(points))
            points.append(segments)
    return tuple(points), tuple(tuple(t) for t in touching)


LATTICE, EDGE_LATTICE = _lattice()
"""`LATTICE[p]`: the (up, right, down, left) edges meeting at interior point p;
`EDGE_LATTICE[edge]`: the interior points an edge touches."""

OUTER_SIDES = (
    tuple(h_edge(0, c) for c in range(SIZE)),  # top
    tuple(v_edge(r, SIZE) for r in range(SIZE)),  # right
    tuple(h_edge(SIZE, c) for c in range(SIZE)),  # bottom
    tuple(v_edge(r, 0) for r in range(SIZE)),  # left
)
"""The 25 edges of each outer side, in direction order (top, right, bottom, left)."""
OUTER_SIDE_OF = tuple(
    next((side for side, edges in enumerate(OUTER_SIDES) if edge in edges), -1)
    for edge in range(EDGES)
)
"""The outer side (0 top, 1 right, 2 bottom, 3 left) each edge lies on, or -1."""


@dataclass(frozen=True)
class Start:
    """A player's start: square and facing (0 N, 1 E, 2 S, 3 W)."""

    square: int
    facing: int

    def __str__(self) -> str:
        row, col = divmod(self.square, SIZE)
        return f"{row + 1} {col + 1} {DIRECTIONS[self.facing]}"


@dataclass
class Maze:
    """A 25x25 maze: walls per edge, and optionally the two start squares from its file.

    Corridors and looks are computed once per square and kept: players return to the same
    squares all game long.
    """

    rows: ClassVar[int] = SIZE
    cols: ClassVar[int] = SIZE
    walls: bytearray
    starts: tuple[Start, Start] | None = None
    _corridors: list[str | None] = field(
        default_factory=lambda: [None] * (SQUARES * 4), repr=False, compare=False
    )
    _looks: list[tuple[tuple[int, ...], tuple[int, ...]] | None] = field(
        default_factory=lambda: [None] * SQUARES, repr=False, compare=False
    )

    def corridor(self, square: int, d: int) -> str:
        """The look's line for the corridor from `square` in direction `d`: one letter per
        square (its side openings relative to `d`), then `W`."""
        key = square * 4 + d
        line = self._corridors[key]
        if line is None:
            walls = self.walls
            left, right = (d + 3) % 4, (d + 1) % 4
            letters = []
            here = square
            while not walls[SQUARE_EDGE[here * 4 + d]]:
                here = NEIGHBOUR[here * 4 + d]
                letters.append(
                    _SIDE_LETTER[
                        (not walls[SQUARE_EDGE[here * 4 + left]]) * 2
                        + (not walls[SQUARE_EDGE[here * 4 + right]])
                    ]
                )
            letters.append("W")
            line = self._corridors[key] = "".join(letters)
        return line

    def look(self, square: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
        """What standing on `square` shows, whatever the facing: the squares seen (the
        corridors' squares and one square beyond each side opening) and the edges seen
        (corridor sides, the openings joining them, the end walls)."""
        seen = self._looks[square]
        if seen is None:
            walls = self.walls
            squares, edges = [square], []
            for d in range(4):
                here = square
                while True:
                    edge = SQUARE_EDGE[here * 4 + d]
                    edges.append(edge)
                    if walls[edge]:
                        break
                    here = NEIGHBOUR[here * 4 + d]
                    squares.append(here)
                    for side in ((d + 3) % 4, (d + 1) % 4):
                        side_edge = SQUARE_EDGE[here * 4 + side]
                        edges.append(side_edge)
                        if not walls[side_edge]:
                            squares.append(NEIGHBOUR[here * 4 + side])
            seen = self._looks[square] = (tuple(squares), tuple(edges))
        return seen

    def open(self, square: int, d: int) -> bool:
        """Whether side `d` of `square` is an opening."""
        return not self.walls[SQUARE_EDGE[square * 4 + d]]

    def to_ascii(self) -> str:
        """The maze as 51 lines of `+-|` art (the format of the official sample mazes)."""
        lines = []
        for row in range(SIZE + 1):
            lines.append(
                "+"
                + "+".join("-" if self.walls[h_edge(row, c)] else " " for c in range(SIZE))
                + "+"
            )
            if row < SIZE:
                lines.append(_vertical_line(self.walls, row))
        return "\n".join(lines) + "\n"

    def to_file(self) -> str:
        """File text: two start lines (`row col facing`, 1-based) if known, then the art."""
        head = "".join(f"{start}\n" for start in self.starts) if self.starts else ""
        return head + self.to_ascii()


def _vertical_line(walls: bytearray, row: int) -> str:
    cells = []
    for col in range(SIZE + 1):
        cells.append("|" if walls[v_edge(row, col)] else " ")
    return " ".join(cells)


def _looks_like_start(line: str) -> bool:
    """A start line, well formed or not (`12 3 N`, `-1 -1 N`): the art starts with + or |."""
    first = line.strip()[:1]
    return first.isdigit() or (first in ("-", "+") and line.strip()[1:2].isdigit())


def parse_maze(text: str, source: str = "maze") -> Maze:
    """Read a maze file: optional two start lines `row col facing`, then 51 lines of art.

    Raises GameError with one line naming `source`, the line and the problem.
    """
    raw = text.splitlines()
    starts: list[Start] = []
    index = 0
    while index < len(raw) and _looks_like_start(raw[index]):
        starts.append(_parse_start(raw[index], f"{source}:{index + 1}"))
        index += 1
    if len(starts) not in (0, 2):
        raise GameError(f"{source}: {len(starts)} start line(s); give two (Red, Blue) or none")
    art = [line.rstrip() for line in raw[index:]]
    while art and not art[-1]:
        art.pop()
    if len(art) != 2 * SIZE + 1:
        raise GameError(f"{source}: the drawing has {len(art)} lines, a 25x25 maze has 51")
    walls = bytearray(EDGES)
    for offset, line in enumerate(art):
        number = index + offset + 1
        line = line.ljust(2 * SIZE + 1)
        if len(line) > 2 * SIZE + 1:
            raise GameError(f"{source}:{number}: line is {len(line)} characters long, not 51")
        row, odd = divmod(offset, 2)
        for pos, char in enumerate(line):
            if not odd and pos % 2 == 0:
                expected = "+"
            elif not odd:
                expected = "- "
                if char == "-":
                    walls[h_edge(row, pos // 2)] = 1
            elif pos % 2 == 0:
                expected = "| "
                if char == "|":
                    walls[v_edge(row, pos // 2)] = 1
            else:
                expected = " "
            if char not in expected:
                raise GameError(
                    f"{source}:{number}: column {pos + 1} is {char!r}, expected one of {expected!r}"
                )
    maze = Maze(walls, tuple(starts) if starts else None)  # type: ignore[arg-type]
    return maze


def _parse_start(line: str, where: str) -> Start:
    parts = line.split()
    if (
        len(parts) != 3
        or not parts[0].isdigit()
        or not parts[1].isdigit()
        or parts[2].upper() not in DIRECTIONS
    ):
        raise GameError(
            f"{where}: start line {line!r} is not 'row col facing'"
            " (1-based row and column, facing N, E, S or W)"
        )
    row, col = int(parts[0]) - 1, int(parts[1]) - 1
    if not (0 <= row < SIZE and 0 <= col < SIZE):
        raise GameError(f"{where}: start square {row + 1},{col + 1} is outside the 25x25 maze")
    return Start(row * SIZE + col, DIRECTIONS.index(parts[2].upper()))


def load_maze(path: str | Path) -> Maze:
    """Read and validate a maze file; raises GameError naming the file and the problem."""
    from botarena.core.reader import MAZE, read_text

    path = Path(path)
    maze = parse_maze(read_text(path, MAZE), str(path))
    problems = check_maze(maze)
    if problems:
        raise GameError(
            f"{path}: not a valid Amazes maze: {problems[0]}"
            + (f" (and {len(problems) - 1} more problems)" if len(problems) > 1 else "")
        )
    return maze


def check_maze(maze: Maze) -> list[str]:
    """Everything wrong with `maze` under the rules, one sentence each (empty: valid)."""
    problems = []
    walls = maze.walls
    for side, edges in zip(("top", "right", "bottom", "left"), OUTER_SIDES, strict=True):
        gaps = [i + 1 for i, edge in enumerate(edges) if not walls[edge]]
        if gaps:
            problems.append(f"the {side} outer wall has openings at {_list(gaps)}")
    parts = components(maze)
    if len(parts) > 1:
        smallest = min(parts, key=len)
        first = min(smallest)
        problems.append(
            f"the maze falls apart into {len(parts)} separate parts; the smallest"
            f" has {len(smallest)} squares, e.g. row {first // SIZE + 1}"
            f" column {first % SIZE + 1}"
        )
    bare = [p for p, segments in enumerate(LATTICE) if not any(walls[e] for e in segments)]
    if bare:
        where = [f"{p // (SIZE - 1) + 1},{p % (SIZE - 1) + 1}" for p in bare]
        problems.append(
            f"{len(bare)} grid points touch no wall (every corner of a square must):"
            f" after row,column {_list(where)}"
        )
    if maze.starts:
        problems += check_starts(maze, maze.starts)
    return problems


def check_starts(maze: Maze, starts: tuple[Start, Start]) -> list[str]:
    """What is wrong with two start squares under the rules."""
    problems = []
    for name, start in zip(("Red", "Blue"), starts, strict=True):
        if not maze.open(start.square, (start.facing + 2) % 4):
            problems.append(f"{name} starts with a wall behind it")
    if distance2(starts[0].square, starts[1].square) < MIN_START_DISTANCE2:
        problems.append(
            f"the start squares are at squared distance"
            f" {distance2(starts[0].square, starts[1].square)}, below 288"
        )
    return problems


def _list(items: list) -> str:
    shown = ", ".join(str(item) for item in items[:6])
    return shown + (", ..." if len(items) > 6 else "")


def reachable(maze: Maze, origin: int) -> set[int]:
    """The squares connected to `origin` through openings."""
    seen = {origin}
    frontier = [origin]
    while frontier:
        square = frontier.pop()
        for d in range(4):
            nxt = NEIGHBOUR[square * 4 + d]
            if nxt >= 0 and nxt not in seen and not maze.walls[SQUARE_EDGE[square * 4 + d]]:
                seen.add(nxt)
                frontier.append(nxt)
    return seen


def components(maze: Maze) -> list[set[int]]:
    """The maze's connected parts (one for a valid maze)."""
    parts: list[set[int]] = []
    seen: set[int] = set()
    for square in range(SQUARES):
        if square not in seen:
            part = reachable(maze, square)
            seen |= part
            parts.append(part)
    return parts


def distance2(a: int, b: int) -> int:
    """The squared Euclidean distance between two squares."""
    (ra, ca), (rb, cb) = divmod(a, SIZE), divmod(b, SIZE)
    return (ra - rb) ** 2 + (ca - cb) ** 2


@dataclass(frozen=True)
class MazeStats:
    """The figures that make a maze look like the official ones."""

    openings: int
    loops: int
    dead_ends: int


def maze_stats(maze: Maze) -> MazeStats:
    walls = maze.walls
    openings = sum(1 for e in INTERIOR_EDGES if not walls[e])
    wall_count = [0] * SQUARES
    for edge in range(EDGES):
        if walls[edge]:
            for square in EDGE_SQUARES[edge]:
                wall_count[square] += 1
    return MazeStats(
        openings=openings, loops=openings - (SQUARES - 1), dead_ends=wall_count.count(3)
    )


LOOPS = (51, 54)
DEAD_ENDS = (127, 151)
"""Measured on the 10 official sample mazes: 51-54 loops, 127-151 dead-end squares."""


def generate_maze(rng: random.Random) -> Maze:
    """A random maze like the official ones: a spanning tree plus 51-54 loops, every grid
    point touching a wall, 127-151 dead ends; deterministic for a given generator state."""
    while True:
        maze = _spanning_tree(rng)
        if _add_loops(maze, rng, rng.randint(*LOOPS)):
            stats = maze_stats(maze)
            if DEAD_ENDS[0] <= stats.dead_ends <= DEAD_ENDS[1]:
                return maze


def _shuffled(rng: random.Random, items: list[int]) -> list[int]:
    """`items` in a random order drawn from `rng` (sorting by random keys: fast in CPython)."""
    keys = [rng.random() for _ in items]
    return [item for _, item in sorted(zip(keys, items, strict=True))]


def _spanning_tree(rng: random.Random) -> Maze:
    """A uniform-edge-order (Kruskal) spanning tree of the squares."""
    walls = bytearray(b"\x01") * EDGES
    interior = _shuffled(rng, list(INTERIOR_EDGES))
    parent = list(range(SQUARES))

    def root(x: int) -> int:
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    joined = 0
    for edge in interior:
        a, b = EDGE_SQUARES[edge]
        ra, rb = root(a), root(b)
        if ra != rb:
            parent[ra] = rb
            walls[edge] = 0
            joined += 1
            if joined == SQUARES - 1:
                break
    return Maze(walls)


def _add_loops(maze: Maze, rng: random.Random, loops: int) -> bool:
    """Open `loops` more interior walls, never leaving a grid point without a wall."""
    walls = maze.walls
    candidates = _shuffled(rng, [e for e in INTERIOR_EDGES if walls[e]])
    wall_count = [sum(walls[e] for e in segments) for segments in LATTICE]
    added = 0
    for edge in candidates:
        if added == loops:
            return True
        if any(wall_count[p] <= 1 for p in EDGE_LATTICE[edge]):
            continue
        walls[edge] = 0
        for p in EDGE_LATTICE[edge]:
            wall_count[p] -= 1
        added += 1
    return added == loops


def draw_starts(maze: Maze, rng: random.Random) -> tuple[Start, Start]:
    """Red uniformly among (square, facing) pairs with an opening behind; Blue the same
    among those at squared distance >= 288 from Red (by rejection: uniform, and quick).

    Some square is always far enough: from the centre the corners are exactly 288 away."""
    red = _draw_start(maze, rng, lambda square: True)
    return red, _draw_start(
        maze, rng, lambda square: distance2(square, red.square) >= MIN_START_DISTANCE2
    )


def _draw_start(maze: Maze, rng: random.Random, allowed: Callable[[int], bool]) -> Start:
    while True:
        pick = rng.randrange(SQUARES * 4)
        square, facing = divmod(pick, 4)
        if maze.open(square, (facing + 2) % 4) and allowed(square):
            return Start(square, facing)
