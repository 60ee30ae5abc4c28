"""Fog of war, vectorised: which squares each player's live ants see (d² <= viewradius2).

All players are computed at once on one integer array holding a bit per player: the ants
are spread along rows, then along columns, over a copy of the map padded by wrapping, so a
turn costs a few dozen whole-array ORs on views, whatever the number of ants or players.
"""

from __future__ import annotations

import math

import numpy as np


class Vision:
    """Precomputed disk shape and wrap-padding indices for one map size and radius."""

    def __init__(self, rows: int, cols: int, radius2: int) -> None:
        self.rows, self.cols = rows, cols
        self.reach = reach = math.isqrt(radius2)
        self.half_widths = [(drow, math.isqrt(radius2 - drow * drow))
                            for drow in range(-reach, reach + 1)]
        self.widest = widest = max(width for _, width in self.half_widths)
        self.row_index = np.arange(-reach, rows + reach) % rows
        self.col_index = np.arange(-widest, cols + widest) % cols

    def bits(self, ants: list[tuple[int, int, int]]) -> np.ndarray:
        """A (rows, cols) array whose bit p is set where player p sees; ants are (r, c, owner)."""
        rows, cols, reach, widest = self.rows, self.cols, self.reach, self.widest
        seeds = np.zeros((rows, cols), dtype=np.uint16)
        if not ants:
            return seeds
        where = np.array(ants, dtype=np.int64)
        np.bitwise_or.at(seeds, (where[:, 0], where[:, 1]),
                         np.left_shift(1, where[:, 2]).astype(np.uint16))
        padded = seeds[self.row_index][:, self.col_index]
        current = padded[:, widest:widest + cols].copy()
        spread = {0: current.copy()}
        for shift in range(1, widest + 1):
            current |= padded[:, widest + shift:widest + shift + cols]
            current |= padded[:, widest - shift:widest - shift + cols]
            spread[shift] = current.copy()
        seen = np.zeros((rows, cols), dtype=np.uint16)
        for drow, width in self.half_widths:
            seen |= spread[width][reach + drow:reach + drow + rows]
        return seen
