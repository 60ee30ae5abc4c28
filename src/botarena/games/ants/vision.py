"""Fog of war, vectorised: which squares each player's live ants see (d² <= viewradius2).

All players are computed at once on one integer array holding a bit per player, so a turn
costs a few dozen whole-array shifts, whatever the number of ants or players.
"""

from __future__ import annotations

import math

import numpy as np


class Vision:
    """Precomputed disk shape for one map size and radius."""

    def __init__(self, rows: int, cols: int, radius2: int) -> None:
        self.rows, self.cols = rows, cols
        reach = math.isqrt(radius2)
        self.half_widths = [(drow, math.isqrt(radius2 - drow * drow))
                            for drow in range(-reach, reach + 1)]
        self.widest = max(width for _, width in self.half_widths)

    def bits(self, ants: list[tuple[int, int, int]]) -> np.ndarray:
        """A (rows, cols) array whose bit p is set where player p sees; ants are (r, c, owner)."""
        seeds = np.zeros((self.rows, self.cols), dtype=np.int64)
        if ants:
            where = np.array(ants, dtype=np.int64)
            np.bitwise_or.at(seeds, (where[:, 0], where[:, 1]), np.left_shift(1, where[:, 2]))
        rows_widened = [seeds]
        current = seeds
        for shift in range(1, self.widest + 1):
            current = current | np.roll(seeds, shift, axis=1) | np.roll(seeds, -shift, axis=1)
            rows_widened.append(current)
        seen = np.zeros_like(seeds)
        for drow, width in self.half_widths:
            seen |= np.roll(rows_widened[width], drow, axis=0)
        return seen
