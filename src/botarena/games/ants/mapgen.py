"""Seeded map generator: one tile per player repeated by translation, so the map has the
symmetry the 2011 food rule needs; caves, mazes or open fields; every map passes
`mapcheck.check_map` (it retries with the next seed otherwise).
"""

from __future__ import annotations

import random
from collections import deque

import numpy as np

from botarena.core.rules import GameError
from botarena.games.ants.mapcheck import MAX_CELLS, MAX_SIDE, check_map
from botarena.games.ants.mapfile import AntsMap

KINDS = ("maze", "cave", "open")
LAYOUTS = {
    2: (1, 2),
    3: (1, 3),
    4: (2, 2),
    5: (1, 5),
    6: (2, 3),
    7: (1, 7),
    8: (2, 4),
    9: (3, 3),
    10: (2, 5),
}
"""Tiles down and across for each player count."""
ATTEMPTS = 60


def _torus_neighbours(grid: np.ndarray) -> np.ndarray:
    """How many of the 8 neighbours of each square are water (wrapping)."""
    total = np.zeros(grid.shape, dtype=np.int32)
    for drow in (-1, 0, 1):
        for dcol in (-1, 0, 1):
            if drow or dcol:
                total += np.roll(np.roll(grid, drow, axis=0), dcol, axis=1)
    return total


def _cave(rng: random.Random, rows: int, cols: int) -> np.ndarray:
    water = np.array([[rng.random() < 0.42 for _ in range(cols)] for _ in range(rows)])
    for _ in range(5):
        around = _torus_neighbours(water.astype(np.int32))
        water = np.where(water, around >= 4, around >= 5)
    return water


def _open(rng: random.Random, rows: int, cols: int) -> np.ndarray:
    water = np.zeros((rows, cols), dtype=bool)
    for _ in range(rows * cols // 60):
        row, col = rng.randrange(rows), rng.randrange(cols)
        for _ in range(rng.randrange(2, 7)):
            water[row % rows, col % cols] = True
            if rng.random() < 0.5:
                row += rng.choice((-1, 1))
            else:
                col += rng.choice((-1, 1))
    return water


def _maze(rng: random.Random, rows: int, cols: int) -> np.ndarray:
    """Recursive back-tracking over 4x4 cells (3 land, 1 wall), with a share of walls
    knocked out so that there are loops to fight over."""
    cell = 4
    cell_rows, cell_cols = max(1, rows // cell), max(1, cols // cell)
    water = np.zeros((rows, cols), dtype=bool)
    for index in range(cell_rows):
        water[index * cell + cell - 1, :] = True
    for index in range(cell_cols):
        water[:, index * cell + cell - 1] = True
    seen = {(0, 0)}
    stack = [(0, 0)]
    while stack:
        row, col = stack[-1]
        options = [
            (row + dr, col + dc, dr, dc)
            for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1))
            if ((row + dr) % cell_rows, (col + dc) % cell_cols) not in seen
        ]
        if not options:
            stack.pop()
            continue
        nrow, ncol, drow, dcol = rng.choice(options)
        _open_wall(water, row, col, drow, dcol, cell)
        nxt = (nrow % cell_rows, ncol % cell_cols)
        seen.add(nxt)
        stack.append(nxt)
    for row in range(cell_rows):
        for col in range(cell_cols):
            if rng.random() < 0.25:
                _open_wall(water, row, col, *rng.choice(((1, 0), (0, 1))), cell)
    return water


def _open_wall(water: np.ndarray, row: int, col: int, drow: int, dcol: int, cell: int) -> None:
    rows, cols = water.shape
    if drow:
        wall_row = (row * cell + (cell - 1 if drow > 0 else -1)) % rows
        water[wall_row, col * cell : col * cell + cell - 1] = False
    else:
        wall_col = (col * cell + (cell - 1 if dcol > 0 else -1)) % cols
        water[row * cell : row * cell + cell - 1, wall_col] = False


def _reachable(water: np.ndarray, start: tuple[int, int]) -> np.ndarray:
    rows, cols = water.shape
    seen = np.zeros(water.shape, dtype=bool)
    seen[start] = True
    queue = deque([start])
    while queue:
        row, col = queue.popleft()
        for nrow, ncol in (
            ((row - 1) % rows, col),
            (row, (col + 1) % cols),
            ((row + 1) % rows, col),
            (row, (col - 1) % cols),
        ):
            if not seen[nrow, ncol] and not water[nrow, ncol]:
                seen[nrow, ncol] = True
                queue.append((nrow, ncol))
    return seen


def generate(players: int, rows: int, cols: int, kind: str, seed: int) -> AntsMap:
    """A map for `players` of about rows x cols (rounded down to whole tiles).

    Raises GameError naming the problem when the request cannot be met.
    """
    if players not in LAYOUTS:
        raise GameError(f"--players {players}: must be 2 to 10")
    if kind not in KINDS:
        raise GameError(f"--kind {kind!r}: must be one of {', '.join(KINDS)}")
    down, across = LAYOUTS[players]
    tile_rows, tile_cols = rows // down, cols // across
    rows, cols = tile_rows * down, tile_cols * across
    if min(tile_rows, tile_cols) < 8 or max(rows, cols) > MAX_SIDE or rows * cols > MAX_CELLS:
        raise GameError(
            f"--size {rows}x{cols}: each player's tile must be at least 8x8 and"
            f" the map at most {MAX_SIDE} a side and {MAX_CELLS} squares"
        )
    if not 900 <= rows * cols / players <= 5000:
        raise GameError(
            f"--size {rows}x{cols}: {rows * cols // players} squares per player;"
            " the 2011 rules want 900 to 5000"
        )
    rng = random.Random(f"ants-map:{seed}:{players}:{rows}x{cols}:{kind}")
    make = {"maze": _maze, "cave": _cave, "open": _open}[kind]
    last = "no attempt"
    for _ in range(ATTEMPTS):
        tile = make(rng, tile_rows, tile_cols)
        land = np.argwhere(~tile)
        if not len(land):
            continue
        centre = np.array([tile_rows // 2, tile_cols // 2])
        hill = tuple(int(v) for v in land[np.argmin(np.abs(land - centre).sum(axis=1))])
        water = np.tile(tile, (down, across))
        hills = [
            (hill[0] + tr * tile_rows, hill[1] + tc * tile_cols, tr * across + tc)
            for tr in range(down)
            for tc in range(across)
        ]
        reached = _reachable(water, hills[0][:2])
        if not all(reached[r, c] for r, c, _ in hills):
            last = "hills not connected"
            continue
        water |= ~reached  # no islands: unreachable land becomes water (keeps symmetry)
        squares = frozenset(zip(*np.nonzero(water), strict=True))
        squares = frozenset((int(r), int(c)) for r, c in squares)
        ants_map = AntsMap(rows, cols, players, squares, hills, f"generated-{kind}-{seed}")
        problems = check_map(ants_map)
        if not problems:
            return ants_map
        last = problems[0]
    raise GameError(
        f"no {kind} map for {players} players at {rows}x{cols} passed the"
        f" 2011 rules in {ATTEMPTS} attempts (last problem: {last})"
    )
