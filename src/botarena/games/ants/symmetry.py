"""Symmetric food, as the 2011 engine draws it: map orientations, food sets, the set cycle.

Every call on the random generator happens in the 2011 engine's order (`choice` of an
orientation set, `shuffle` of the set deque at each new cycle), so a game seeded like the
2011 engine places the same food. Maps are compared a row at a time, each row of a turned
view gathered by `operator.itemgetter` from the map's rows or columns.
"""

from __future__ import annotations

import random
from collections import deque
from collections.abc import Callable, Iterator
from operator import itemgetter

LAND, FOOD, WATER = -2, -3, -4

Orientation = list[tuple[tuple[int, int], int]]
"""One (hill location, aim) per player; player 0's first hill has aim 0."""


def offset_aim(row: int, col: int, aim: int) -> tuple[int, int]:
    """The offset (row, col) turned by one of the eight orientations."""
    return [
        (row, col),
        (-row, col),
        (row, -col),
        (-row, -col),
        (col, row),
        (-col, row),
        (col, -row),
        (-col, -row),
    ][aim]


class MapSymmetry:
    """Finds the orientation sets under which every player's start looks like player 0's."""

    def __init__(self, grid: list[list[int]], hills: list[tuple[int, int, int]]) -> None:
        self.grid = grid  # owner >= 0 for the ant on each hill, LAND, WATER
        self.hills = hills
        self.rows, self.cols = len(grid), len(grid[0])
        self._as_seen: dict[int, list[list[int]]] = {}
        self._columns: dict[int, list[tuple[int, ...]]] = {}

    def _seen_by(self, player: int) -> list[list[int]]:
        """The map as `player` sees it: itself 0, any other player 1, the rest unchanged.
        The 2011 `map_similar` test is then equality of player 0's view with this one's."""
        if player not in self._as_seen:
            self._as_seen[player] = [
                [ilk if ilk < 0 else 0 if ilk == player else 1 for ilk in row] for row in self.grid
            ]
        return self._as_seen[player]

    def _view(self, player: int, loc: tuple[int, int], aim: int) -> Iterator[tuple[int, ...]]:
        """The rows of the map seen by `player` from `loc` turned by `aim`: view square
        (r, c) is map square loc + offset_aim(r, c, aim), wrapped."""
        rows, cols = self.rows, self.cols
        (down, across), (right_down, right_across) = offset_aim(1, 0, aim), offset_aim(0, 1, aim)
        if down:  # view rows run along map rows
            lines: list = self._seen_by(player)
            outer = [(loc[0] + down * r) % rows for r in range(rows)]
            inner = [(loc[1] + right_across * c) % cols for c in range(cols)]
        else:  # view rows run along map columns
            if player not in self._columns:
                self._columns[player] = list(zip(*self._seen_by(player), strict=True))
            lines = self._columns[player]
            outer = [(loc[1] + across * r) % cols for r in range(rows)]
            inner = [(loc[0] + right_down * c) % rows for c in range(cols)]
        pick = itemgetter(*inner) if cols > 1 else lambda line: (line[inner[0]],)
        return (pick(lines[index]) for index in outer)

    def similar(self, loc1: tuple[int, int], loc2: tuple[int, int], aim: int, player: int) -> bool:
        """The 2011 `map_similar` test: is the map seen from loc2 turned by aim like loc1's?"""
        return all(
            mine == theirs
            for mine, theirs in zip(
                self._view(0, loc1, 0), self._view(player, loc2, aim), strict=True
            )
        )

    def orientations(self) -> list[Orientation]:
        """All valid orientation sets, in the 2011 engine's order; raises ValueError if none."""
        hills0 = [(r, c) for r, c, owner in self.hills if owner == 0]
        players = 1 + max(owner for _, _, owner in self.hills)
        sets: list[list[tuple[tuple[int, int], int, int]]] = [[(hills0[0], 0, 0)]]
        for player in range(1, players):
            own = [(r, c) for r, c, owner in self.hills if owner == player]
            if len(own) != len(hills0):
                raise ValueError(
                    f"not symmetric: player 0 has {len(hills0)} hills,"
                    f" player {player} has {len(own)}"
                )
            grown: list[list[tuple[tuple[int, int], int, int]]] = []
            for loc in own:
                for aim in range(8):
                    if self.similar(hills0[0], loc, aim, player):
                        grown.extend([*chosen, (loc, aim, player)] for chosen in sets)
            sets = grown
            if not sets:
                raise ValueError(
                    f"not symmetric: no orientation of player {player} matches player 0"
                )
        valid = [chosen for chosen in sets if self._markers_agree(chosen)]
        if not valid:
            raise ValueError("not symmetric: there are no valid orientation sets")
        return [[(loc, aim) for loc, aim, _ in chosen] for chosen in valid]

    def _markers_agree(self, chosen: list[tuple[tuple[int, int], int, int]]) -> bool:
        """Mark offset (1, 2) under every orientation and check the map is still symmetric."""
        saved = []
        for loc, aim, _ in chosen:
            drow, dcol = offset_aim(1, 2, aim)
            square = ((loc[0] + drow) % self.rows, (loc[1] + dcol) % self.cols)
            saved.append((square, self.grid[square[0]][square[1]]))
            self._mark(square, FOOD)
        try:
            return all(self.similar(chosen[0][0], loc, aim, player) for loc, aim, player in chosen)
        finally:
            for square, ilk in reversed(saved):
                self._mark(square, ilk)

    def _mark(self, square: tuple[int, int], ilk: int) -> None:
        """Write `ilk` on the map and on every player's copy of it (its columns made anew)."""
        self.grid[square[0]][square[1]] = ilk
        for player, seen in self._as_seen.items():
            seen[square[0]][square[1]] = ilk if ilk < 0 else 0 if ilk == player else 1
        self._columns.clear()


def distance2(rows: int, cols: int, a: tuple[int, int], b: tuple[int, int]) -> int:
    drow = abs(a[0] - b[0])
    dcol = abs(a[1] - b[1])
    return min(drow, rows - drow) ** 2 + min(dcol, cols - dcol) ** 2


def _beside(rows: int, cols: int, square: tuple[int, int]) -> set[tuple[int, int]]:
    """The squares at distance2 1 of `square`: one step along a row or a column (on a map
    one square high or wide, that step comes back to the square itself, at distance2 0)."""
    row, col = square
    steps = {((row + 1) % rows, col), ((row - 1) % rows, col)} if rows > 1 else set()
    if cols > 1:
        steps |= {(row, (col + 1) % cols), (row, (col - 1) % cols)}
    return steps


def food_sets(
    rows: int,
    cols: int,
    orientation: Orientation,
    hill_squares: set,
    players: int,
    allowed: Callable[[tuple[int, int]], bool] | None = None,
) -> list[list[tuple[int, int]]]:
    """The 2011 `get_symmetric_food_sets`: squares grouped by their symmetric images.

    Water is not excluded (a 2011 quirk: food sent there waits forever). Sets whose first
    square is next to another of the set are dropped (the mirror-line dead zone). With
    `allowed` (the starting-vision squares), only squares it admits start a set, and only
    full-size sets are kept.
    """
    hill0 = orientation[0][0]
    # each player's image of an offset (r, c) is its hill + (a*r + b*c, d*r + e*c)
    turns = [(loc, offset_aim(1, 0, aim), offset_aim(0, 1, aim)) for loc, aim in orientation]
    visited: set[tuple[int, int]] = set()
    sets = []
    for row in range(rows):
        for col in range(cols):
            if (row, col) in visited or (row, col) in hill_squares:
                continue
            if allowed is not None and not allowed((row, col)):
                continue
            o_row, o_col = row - hill0[0], col - hill0[1]
            # list(set(list)) exactly as in 2011: the set's order picks the `first` square
            locations = list(
                set(
                    [
                        (
                            (hill[0] + a * o_row + b * o_col) % rows,
                            (hill[1] + d * o_row + e * o_col) % cols,
                        )
                        for hill, (a, d), (b, e) in turns
                    ]
                )
            )
            if len(locations) > 1 and _beside(rows, cols, locations[0]).intersection(locations[1:]):
                continue  # the 2011 test: distance2(first, other) == 1 for some other
            if allowed is None or len(locations) == players:
                visited.update(locations)
                sets.append(locations)
    return sets


class FoodCycle:
    """The 2011 deque of food sets with its `None` sentinel: cycled, reshuffled each round."""

    def __init__(self, sets: list[list[tuple[int, int]]]) -> None:
        self.queue: deque = deque(sets)
        self.queue.append(None)

    def draw(self, amount: int, rng: random.Random, pending: dict) -> int:
        """Schedule whole sets into `pending` while they fit in `amount`; return the rest."""
        queue = self.queue
        if len(queue) == 1:
            return amount  # no food sets at all (a map too small or odd for symmetric food)
        while True:
            chosen = queue.pop()
            if chosen is None:
                rng.shuffle(queue)
                queue.appendleft(None)
                chosen = queue.pop()
            if len(chosen) > amount:
                queue.append(chosen)
                return amount
            amount -= len(chosen)
            queue.appendleft(chosen)
            for loc in chosen:
                pending[loc] = pending.get(loc, 0) + 1
