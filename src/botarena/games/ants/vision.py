"""Fog of war, vectorised: which squares each player's live ants see (d² <= viewradius2).

All players are computed at once on one integer array holding a bit per player. With few
ants, each stamps its disk (its owner's bit) on a padded copy of the map, which is then
folded back by wrapping: a few small ORs an ant. With many, the ants are spread along rows,
then along columns, over a copy of the map padded by wrapping: a few dozen whole-array ORs,
whatever the number of ants. Both give the same bits (tests/test_ants_vision.py).
"""

from __future__ import annotations

import math

import numpy as np

STAMP_LIMIT = 30
"""Up to this many ants, stamping disks is cheaper than spreading over the whole map."""


class Vision:
    """Precomputed disk shape and wrap-padding indices for one map size and radius."""

    def __init__(self, rows: int, cols: int, radius2: int) -> None:
        self.rows, self.cols = rows, cols
        self.reach = reach = math.isqrt(radius2)
        self.half_widths = [
            (drow, math.isqrt(radius2 - drow * drow)) for drow in range(-reach, reach + 1)
        ]
        self.widest = widest = max(width for _, width in self.half_widths)
        self.row_index = np.arange(-reach, rows + reach) % rows
        self.col_index = np.arange(-widest, cols + widest) % cols
        disk = np.zeros((2 * reach + 1, 2 * widest + 1), dtype=np.uint16)
        for drow, width in self.half_widths:
            disk[reach + drow, widest - width : widest + width + 1] = 1
        self.disks = [disk << owner for owner in range(16)]
        """Per owner (bit), the disk of squares an ant sees, centred."""

    def bits(self, ants: list[tuple[int, int, int]]) -> np.ndarray:
        """A (rows, cols) array whose bit p is set where player p sees; ants are (r, c, owner)."""
        if len(ants) <= STAMP_LIMIT:
            return self.stamped(ants)
        return self.spread(ants)

    def stamped(self, ants: list[tuple[int, int, int]]) -> np.ndarray:
        """`bits` by stamping each ant's disk on the padded map, then folding the padding
        back onto the map (padding wider than the map folds more than once)."""
        reach, widest, disks = self.reach, self.widest, self.disks
        padded = np.zeros((self.rows + 2 * reach, self.cols + 2 * widest), dtype=np.uint16)
        for row, col, owner in ants:
            padded[row : row + 2 * reach + 1, col : col + 2 * widest + 1] |= disks[owner]
        return _fold(_fold(padded, self.rows, reach).T, self.cols, widest).T

    def spread(self, ants: list[tuple[int, int, int]]) -> np.ndarray:
        """`bits` by spreading every ant along rows, then columns, over the whole map."""
        rows, cols, reach, widest = self.rows, self.cols, self.reach, self.widest
        seeds = np.zeros((rows, cols), dtype=np.uint16)
        if not ants:
            return seeds
        where = np.array(ants, dtype=np.int64)
        np.bitwise_or.at(
            seeds, (where[:, 0], where[:, 1]), np.left_shift(1, where[:, 2]).astype(np.uint16)
        )
        padded = seeds[self.row_index][:, self.col_index]
        current = padded[:, widest : widest + cols].copy()
        spread = {0: current.copy()}
        for shift in range(1, widest + 1):
            current |= padded[:, widest + shift : widest + shift + cols]
            current |= padded[:, widest - shift : widest - shift + cols]
            spread[shift] = current.copy()
        seen = np.zeros((rows, cols), dtype=np.uint16)
        for drow, width in self.half_widths:
            seen |= spread[width][reach + drow : reach + drow + rows]
        return seen


def _fold(padded: np.ndarray, size: int, pad: int) -> np.ndarray:
    """OR a map padded by `pad` rows at both ends back onto its `size` rows: padded row i
    is row (i - pad) mod size (a pad wider than the map wraps more than once)."""
    folded = padded[pad : pad + size].copy()
    row, length = 0, padded.shape[0]
    while row < length:
        if row == pad:  # the map itself
            row += size
            continue
        target = (row - pad) % size
        end = min(row + size - target, pad if row < pad else length)
        folded[target : target + end - row] |= padded[row:end]
        row = end
    return folded
