"""The 2011 map-maker rules, each checked on its own so a report names what a map breaks.

The rules (research/ants.md §4, from the contest website): 2-10 players, at most 200 a side,
900-5 000 squares per player and 25 000 in all, symmetric (for symmetric food), no islands,
enemy hills 20-150 steps apart and at least 6 squares apart, and a path through all hills
for a 3x3 block.
"""

from __future__ import annotations

from collections import deque

import numpy as np

from botarena.games.ants.mapfile import MAX_SIDE, AntsMap
from botarena.games.ants.symmetry import MapSymmetry

MIN_HILL_STEPS, MAX_HILL_STEPS = 20, 150
MIN_HILL_DISTANCE2 = 36
MIN_CELLS_PER_PLAYER, MAX_CELLS_PER_PLAYER = 900, 5000
MAX_CELLS = 25_000


def _walk(ants_map: AntsMap, start: tuple[int, int]) -> np.ndarray:
    """Steps from `start` to every land square (-1 where unreachable)."""
    rows, cols = ants_map.rows, ants_map.cols
    water = np.zeros((rows, cols), dtype=bool)
    for loc in ants_map.water:
        water[loc] = True
    dist = np.full((rows, cols), -1, dtype=np.int32)
    dist[start] = 0
    queue = deque([start])
    while queue:
        row, col = queue.popleft()
        for nrow, ncol in (
            ((row - 1) % rows, col),
            (row, (col + 1) % cols),
            ((row + 1) % rows, col),
            (row, (col - 1) % cols),
        ):
            if dist[nrow, ncol] < 0 and not water[nrow, ncol]:
                dist[nrow, ncol] = dist[row, col] + 1
                queue.append((nrow, ncol))
    return dist


def _block_cut_off(ants_map: AntsMap) -> list[tuple[int, int]]:
    """Hills a 3x3 block cannot reach from the first hill: the block covers its hill, steps
    one square at a time in the 4 directions (wrapping) and never covers water."""
    rows, cols = ants_map.rows, ants_map.cols
    water = np.zeros((rows, cols), dtype=bool)
    for loc in ants_map.water:
        water[loc] = True
    wet = np.zeros((rows, cols), dtype=bool)
    for drow in (-1, 0, 1):
        for dcol in (-1, 0, 1):
            wet |= np.roll(np.roll(water, drow, axis=0), dcol, axis=1)
    dry = (~wet).tolist()  # centres where the block covers no water

    def centres(row: int, col: int) -> list[tuple[int, int]]:
        around = [((row + dr) % rows, (col + dc) % cols) for dr in (-1, 0, 1) for dc in (-1, 0, 1)]
        return [(r, c) for r, c in around if dry[r][c]]

    first = ants_map.hills[0]
    queue = deque(centres(first[0], first[1]))
    seen = set(queue)
    while queue:
        row, col = queue.popleft()
        for step in (
            ((row - 1) % rows, col),
            (row, (col + 1) % cols),
            ((row + 1) % rows, col),
            (row, (col - 1) % cols),
        ):
            if dry[step[0]][step[1]] and step not in seen:
                seen.add(step)
                queue.append(step)
    return [
        (row, col)
        for row, col, _ in ants_map.hills
        if not any(centre in seen for centre in centres(row, col))
    ]


def check_map(ants_map: AntsMap) -> list[str]:
    """Every 2011 map-maker rule `ants_map` breaks, as one line each (empty: it passes)."""
    problems = []
    rows, cols, players = ants_map.rows, ants_map.cols, ants_map.players
    cells = rows * cols
    if max(rows, cols) > MAX_SIDE:
        problems.append(f"size: {rows}x{cols} has a side over {MAX_SIDE}")
    if cells > MAX_CELLS:
        problems.append(f"size: {cells} cells, more than {MAX_CELLS}")
    if not MIN_CELLS_PER_PLAYER <= cells / players <= MAX_CELLS_PER_PLAYER:
        problems.append(
            f"size: {cells / players:.0f} cells per player, outside"
            f" {MIN_CELLS_PER_PLAYER}-{MAX_CELLS_PER_PLAYER}"
        )
    grid = np.full((rows, cols), -2, dtype=np.int64)
    for loc in ants_map.water:
        grid[loc] = -4
    for row, col, owner in ants_map.hills:
        grid[row, col] = owner
    try:
        MapSymmetry(grid.tolist(), list(ants_map.hills)).orientations()
    except ValueError as exc:
        problems.append(f"symmetry: {exc}")
    first = ants_map.hills[0]
    dist = _walk(ants_map, first[:2])
    land = np.ones((rows, cols), dtype=bool)
    for loc in ants_map.water:
        land[loc] = False
    if np.any(land & (dist < 0)):
        problems.append(
            f"islands: {int(np.sum(land & (dist < 0)))} land squares cannot be"
            " reached from the first hill"
        )
    cut_off = _block_cut_off(ants_map)
    if cut_off:
        problems.append(
            f"3x3 block: cannot travel from hill {first[:2]} to hill"
            f"{'s' if len(cut_off) > 1 else ''} {', '.join(map(str, cut_off))}"
        )
    for index, (row, col, owner) in enumerate(ants_map.hills):
        steps = _walk(ants_map, (row, col)) if index else dist
        for other_row, other_col, other in ants_map.hills[index + 1 :]:
            if other == owner:
                continue
            walk = int(steps[other_row, other_col])
            drow = min(abs(row - other_row), rows - abs(row - other_row))
            dcol = min(abs(col - other_col), cols - abs(col - other_col))
            where = f"hills {(row, col)} and {(other_row, other_col)}"
            if walk >= 0 and not MIN_HILL_STEPS <= walk <= MAX_HILL_STEPS:
                problems.append(
                    f"hill distance: {where} are {walk} steps apart, outside"
                    f" {MIN_HILL_STEPS}-{MAX_HILL_STEPS}"
                )
            if drow * drow + dcol * dcol < MIN_HILL_DISTANCE2:
                problems.append(f"hill distance: {where} are closer than 6 squares")
    return problems
