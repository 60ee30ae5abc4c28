"""The explorer's own map: what it has discovered, in a frame fixed at its first look.

A bot does not know where it is nor which way it faces. Its frame puts its first square at
the centre of a 51x51 grid, facing frame-north. The maze is 25x25, so every real square lies
within 24 steps of the start: the frame never wraps and each real square has exactly one
frame square (the frame is the real maze turned and shifted). Once the squares it knows span
25 frame rows and 25 frame columns, the maze's box in the frame is known: the bot then knows
its position in maze coordinates up to a rotation, which squared distances do not see.

`BotMap` applies the jury's discovery rules (botarena.games.amazes.knowledge) to what the
bot sees, so its set of discovered squares is exactly the jury's for this player: a look
discovers the own square, every corridor square and the one square beyond each side opening;
walking discovers squares only; the inference rules (dead ends, corners, rows and columns,
opposite outer side) run after the look.
"""

from __future__ import annotations

FRAME = 51
"""Frame width; real squares lie in rows and columns 1..49, the border is never real."""
CELLS = FRAME * FRAME
CENTRE = 25 * FRAME + 25
SIZE = 25
SQUARES = SIZE * SIZE
DROW = (-1, 0, 1, 0)
DCOL = (0, 1, 0, -1)
STEP = tuple(DROW[d] * FRAME + DCOL[d] for d in range(4))
"""Frame square offset of one step in direction d (0 N, 1 E, 2 S, 3 W)."""
V_EDGES = (FRAME + 1) * FRAME
EDGES = 2 * V_EDGES
UNKNOWN, OPEN, WALL = 0, 1, 2


def h_edge(row: int, col: int) -> int:
    """The horizontal edge above frame square (row, col)."""
    return row * FRAME + col


def v_edge(row: int, col: int) -> int:
    """The vertical edge left of frame square (row, col)."""
    return V_EDGES + row * (FRAME + 1) + col


def _tables() -> tuple[
    tuple[int, ...],
    tuple[int, ...],
    tuple[tuple[int, ...], ...],
    tuple[tuple[int, int, int, int], ...],
    tuple[tuple[int, ...], ...],
]:
    side_edge, neighbour = [], []
    edge_squares: list[list[int]] = [[] for _ in range(EDGES)]
    for square in range(CELLS):
        row, col = divmod(square, FRAME)
        edges = (h_edge(row, col), v_edge(row, col + 1), h_edge(row + 1, col), v_edge(row, col))
        for d in range(4):
            side_edge.append(edges[d])
            edge_squares[edges[d]].append(square)
            r, c = row + DROW[d], col + DCOL[d]
            neighbour.append(r * FRAME + c if 0 <= r < FRAME and 0 <= c < FRAME else -1)
    points: list[tuple[int, int, int, int]] = []
    touching: list[list[int]] = [[] for _ in range(EDGES)]
    for row in range(1, FRAME):
        for col in range(1, FRAME):
            segments = (
                v_edge(row - 1, col),
                h_edge(row, col),
                v_edge(row, col),
                h_edge(row, col - 1),
            )
            for edge in segments:
                touching[edge].append(len(points))
            points.append(segments)
    return (
        tuple(side_edge),
        tuple(neighbour),
        tuple(tuple(s) for s in edge_squares),
        tuple(points),
        tuple(tuple(t) for t in touching),
    )


SIDE_EDGE, NEIGHBOUR, EDGE_SQUARES, LATTICE, EDGE_LATTICE = _tables()
"""`SIDE_EDGE[s*4+d]` edge on side d of s; `NEIGHBOUR[s*4+d]` square beyond it (-1 off the
frame); `EDGE_SQUARES[e]` squares an edge borders; `LATTICE[p]` the four edges meeting at grid
point p; `EDGE_LATTICE[e]` the grid points an edge touches."""


class MapConflict(ValueError):
    """A look contradicts the map: the bot is not where it believes (another jury's rules,
    or a move that did not go as planned)."""


class BotMap:
    """One player's knowledge in its own frame, kept equal to the jury's knowledge of it."""

    def __init__(self) -> None:
        self.edge = bytearray(EDGES)  # UNKNOWN, OPEN or WALL
        self.discovered = bytearray(CELLS)
        self.exists = bytearray(CELLS)
        self.dead = bytearray(CELLS)
        self.count = 0
        self.row_span = [FRAME, -1]  # min and max frame row of an existing square
        self.col_span = [FRAME, -1]
        self.top: int | None = None  # frame row of the maze's row 0, once known
        self.left: int | None = None  # frame column of the maze's column 0, once known
        self.exist_count = 0
        self.links: list[list[int]] = [[] for _ in range(CELLS)]
        """Per square, the squares beyond its known openings."""
        self.touched: list[int] = []
        """Squares whose facts (discovered, a side) changed; the planner empties it."""
        self._squares: list[int] = []
        self._points: list[int] = []

    # -- facts --------------------------------------------------------------------------
    def discover(self, square: int) -> bool:
        """Mark `square` discovered; True if it was new (it scored for this player)."""
        if self.discovered[square]:
            return False
        self.discovered[square] = 1
        self.count += 1
        self.touched.append(square)
        self._mark_exists(square)
        return True

    def _mark_exists(self, square: int) -> None:
        if self.exists[square]:
            return
        self.exists[square] = 1
        self.exist_count += 1
        row, col = divmod(square, FRAME)
        if row < self.row_span[0] or row > self.row_span[1]:
            self.row_span = [min(self.row_span[0], row), max(self.row_span[1], row)]
            self._learn_outer_row(row)  # its left and right outer walls, if already known
        if col < self.col_span[0] or col > self.col_span[1]:
            self.col_span = [min(self.col_span[0], col), max(self.col_span[1], col)]
            self._learn_outer_col(col)

    def learn(self, edge: int, state: int) -> None:
        """The player now knows that `edge` is OPEN or a WALL."""
        if self.edge[edge]:
            return
        self.edge[edge] = state
        squares = EDGE_SQUARES[edge]
        self._squares.extend(squares)
        self._points.extend(EDGE_LATTICE[edge])
        self.touched.extend(squares)
        if state == OPEN:
            a, b = squares
            self.links[a].append(b)
            self.links[b].append(a)
            self._mark_exists(a)
            self._mark_exists(b)

    # -- the information stage ----------------------------------------------------------
    def look(self, square: int, facing: int, corridors: tuple[str, ...]) -> None:
        """Apply the five-line look (corridors ahead, right, behind, left) at `square`,
        then run the inference rules to their fixed point."""
        self.discover(square)
        for k, corridor in enumerate(corridors):
            d = (facing + k) % 4
            left, right = (d + 3) % 4, (d + 1) % 4
            here = square
            for letter in corridor:
                edge = SIDE_EDGE[here * 4 + d]
                if letter == "W":
                    self._see(edge, WALL)
                    break
                self._see(edge, OPEN)
                here = NEIGHBOUR[here * 4 + d]
                if here < 0:
                    raise MapConflict("a corridor leaves the frame")
                self.discover(here)
                for side, is_open in ((left, letter in "LB"), (right, letter in "RB")):
                    self._see(SIDE_EDGE[here * 4 + side], OPEN if is_open else WALL)
                    if is_open:
                        self.discover(NEIGHBOUR[here * 4 + side])
        self.infer()

    def _see(self, edge: int, state: int) -> None:
        if self.edge[edge] not in (UNKNOWN, state):
            raise MapConflict(f"edge {edge} seen {'open' if state == OPEN else 'wall'}")
        self.learn(edge, state)

    def infer(self) -> None:
        """Dead ends, corners, rows/columns and opposite sides, until nothing new follows."""
        while True:
            self._drain()
            if self.top is None and self.row_span[1] - self.row_span[0] == SIZE - 1:
                self._set_top(self.row_span[0])
                continue
            if self.left is None and self.col_span[1] - self.col_span[0] == SIZE - 1:
                self._set_left(self.col_span[0])
                continue
            if self._opposite_side():
                continue
            return

    def _drain(self) -> None:
        edge, dead = self.edge, self.dead
        squares, points = self._squares, self._points
        while squares or points:
            while squares:
                square = squares.pop()
                if dead[square]:
                    continue
                closed = 0
                base = square * 4
                for d in range(4):
                    state = edge[SIDE_EDGE[base + d]]
                    if state == WALL or (state == OPEN and dead[NEIGHBOUR[base + d]]):
                        closed += 1
                if closed >= 3:
                    self._dead_end(square)
            while points:
                segments = LATTICE[points.pop()]
                states = [edge[e] for e in segments]
                if states.count(OPEN) == 3 and UNKNOWN in states:
                    self.learn(segments[states.index(UNKNOWN)], WALL)

    def _dead_end(self, square: int) -> None:
        """Three sides closed: a dead end, discovered; a side not yet known must be its
        opening (the maze is connected)."""
        self.dead[square] = 1
        self.discover(square)
        base = square * 4
        for d in range(4):
            edge = SIDE_EDGE[base + d]
            self.learn(edge, OPEN)
            if self.edge[edge] == OPEN:
                self._squares.append(NEIGHBOUR[base + d])

    # -- the outer walls ------------------------------------------------------------------
    def _set_top(self, top: int) -> None:
        """The maze spans frame rows top..top+24: its horizontal outer walls are known."""
        self.top = top
        self._learn_outline()

    def _set_left(self, left: int) -> None:
        self.left = left
        self._learn_outline()

    def _learn_outline(self) -> None:
        """The outer walls known so far: all four sides once the box is known; before
        that, those of one axis along the squares known on the other."""
        rows = range(self.row_span[0], self.row_span[1] + 1)
        cols = range(self.col_span[0], self.col_span[1] + 1)
        if self.top is not None and self.left is not None:
            rows = range(self.top, self.top + SIZE)
            cols = range(self.left, self.left + SIZE)
        for col in cols:
            self._learn_outer_col(col)
        for row in rows:
            self._learn_outer_row(row)

    def _learn_outer_col(self, col: int) -> None:
        """The top and bottom outer walls of frame column `col`. The jury learns all 25 at
        once; while the columns are not placed, the bot learns each as its column comes
        into view, which the rules cannot tell apart: only a square with another known
        side can use an outer wall, and such a square's column is in view."""
        if self.top is not None:
            self.learn(h_edge(self.top, col), WALL)
            self.learn(h_edge(self.top + SIZE, col), WALL)

    def _learn_outer_row(self, row: int) -> None:
        if self.left is not None:
            self.learn(v_edge(row, self.left), WALL)
            self.learn(v_edge(row, self.left + SIZE), WALL)

    def _opposite_side(self) -> bool:
        """One outer side seen wall by wall reveals the opposite side. Only a line of 25 known
        walls across the whole maze can be an outer side (the maze is connected); it is the
        top (or left) side when the known squares lie below (or right of) it."""
        edge, exists = self.edge, self.exists
        if self.left is not None and self.top is None:
            left = self.left
            for row in range(self.row_span[0], self.row_span[1] + 2):
                if all(edge[h_edge(row, left + c)] == WALL for c in range(SIZE)):
                    below = any(exists[row * FRAME + left + c] for c in range(SIZE))
                    self._set_top(row if below else row - SIZE)
                    return True
        if self.top is not None and self.left is None:
            top = self.top
            for col in range(self.col_span[0], self.col_span[1] + 2):
                if all(edge[v_edge(top + r, col)] == WALL for r in range(SIZE)):
                    right = any(exists[(top + r) * FRAME + col] for r in range(SIZE))
                    self._set_left(col if right else col - SIZE)
                    return True
        return False

    # -- where things are -----------------------------------------------------------------
    @property
    def located(self) -> bool:
        """Whether the maze's box in the frame is known (position known up to a rotation)."""
        return self.top is not None and self.left is not None

    def maze_coords(self, square: int) -> tuple[int, int]:
        """(row, col) of a frame square in the maze's box; only when `located`."""
        row, col = divmod(square, FRAME)
        return row - self.top, col - self.left  # type: ignore[operator]

    def frame_square(self, row: int, col: int) -> int:
        """The frame square of maze box square (row, col); only when `located`."""
        return (row + self.top) * FRAME + col + self.left  # type: ignore[operator]

    def in_maze(self, square: int) -> bool:
        """Whether a frame square can be a real square, given what is known of the box."""
        row, col = divmod(square, FRAME)
        if self.top is not None:
            if not self.top <= row < self.top + SIZE:
                return False
        elif not self.row_span[1] - SIZE < row < self.row_span[0] + SIZE:
            return False
        if self.left is not None:
            return self.left <= col < self.left + SIZE
        return self.col_span[1] - SIZE < col < self.col_span[0] + SIZE
