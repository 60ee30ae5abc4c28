"""What a bot knows of the map: water seen so far, last-seen turns, breadth-first distances.

Built-in bots keep one `World`, call `update` with each observation and ask it for
distances over known land (unknown squares count as land, as a 2011 bot would guess).
Squares are flat indices (row * cols + col) inside, so searches run on plain lists.
"""

from __future__ import annotations

import math

import numpy as np

from botarena.games.ants.rules import AIM, Observation
from botarena.games.ants.vision import Vision

DIRECTIONS = tuple(AIM)  # n, e, s, w


class World:
    """A bot's memory of the map, rebuilt from the observations it is sent."""

    def __init__(self, observation: Observation) -> None:
        params = observation.params
        self.rows, self.cols = rows, cols = params.rows, params.cols
        self.attackradius2 = params.attackradius2
        self.water = bytearray(rows * cols)
        self.last_seen = np.full((rows, cols), -1, dtype=np.int32)
        self.vision = Vision(rows, cols, params.viewradius2)
        self.neighbors = [
            tuple(((r + dr) % rows) * cols + (c + dc) % cols for dr, dc in AIM.values())
            for r in range(rows)
            for c in range(cols)
        ]
        self.enemy_hills: set[tuple[int, int]] = set()
        self.turn = 0
        self.my_ants: list[tuple[int, int]] = []
        self.enemies: list[tuple[int, int]] = []
        self.food: list[tuple[int, int]] = []
        self.my_hills: list[tuple[int, int]] = []

    def update(self, observation: Observation) -> None:
        self.turn = observation.turn
        for row, col in observation.water:
            self.water[row * self.cols + col] = 1
        self.my_ants = [(r, c) for r, c, owner in observation.ants if owner == 0]
        self.enemies = [(r, c) for r, c, owner in observation.ants if owner != 0]
        self.food = list(observation.food)
        self.my_hills = [(r, c) for r, c, owner in observation.hills if owner == 0]
        seen = self._as_array(self.vision.bits([(r, c, 0) for r, c in self.my_ants]))
        self.last_seen[seen] = self.turn
        visible_hills = {(r, c) for r, c, owner in observation.hills if owner != 0}
        self.enemy_hills = {
            hill for hill in self.enemy_hills if not seen[hill] or hill in visible_hills
        } | visible_hills

    def _as_array(self, sight: list[int]) -> np.ndarray:
        """A one-player sight (a row integer, a bit per column) as a (rows, cols) bool array."""
        width = (self.cols + 7) // 8
        packed = np.frombuffer(b"".join(row.to_bytes(width, "little") for row in sight), np.uint8)
        bits = np.unpackbits(packed, bitorder="little").reshape(self.rows, width * 8)
        return bits[:, : self.cols].astype(bool)

    def index(self, loc: tuple[int, int]) -> int:
        return loc[0] * self.cols + loc[1]

    def step(self, loc: tuple[int, int], direction: str) -> tuple[int, int]:
        drow, dcol = AIM[direction]
        return (loc[0] + drow) % self.rows, (loc[1] + dcol) % self.cols

    def passable(self, loc: tuple[int, int]) -> bool:
        return not self.water[loc[0] * self.cols + loc[1]]

    def distances(self, sources: list, limit: int = 1 << 30) -> list[int]:
        """Steps from the nearest source ((row, col) or flat index) to every square (flat list,
        -1: unreached)."""
        dist = [-1] * (self.rows * self.cols)
        frontier = []
        for loc in sources:
            index = loc if isinstance(loc, int) else self.index(loc)
            if dist[index] < 0:
                dist[index] = 0
                frontier.append(index)
        water, neighbors = self.water, self.neighbors
        steps = 0
        while frontier and steps < limit:
            steps += 1
            following = []
            for index in frontier:
                for nxt in neighbors[index]:
                    if dist[nxt] < 0 and not water[nxt]:
                        dist[nxt] = steps
                        following.append(nxt)
            frontier = following
        return dist

    def downhill(self, loc: tuple[int, int], dist: list[int]) -> list[str]:
        """Directions from `loc` that get closer on the distance map `dist`, best first."""
        here = dist[self.index(loc)]
        options = []
        for direction, nxt in zip(DIRECTIONS, self.neighbors[self.index(loc)], strict=True):
            value = dist[nxt]
            if value >= 0 and (here < 0 or value < here):
                options.append((value, direction))
        return [direction for _, direction in sorted(options)]

    def distance2(self, a: tuple[int, int], b: tuple[int, int]) -> int:
        drow = abs(a[0] - b[0])
        dcol = abs(a[1] - b[1])
        return min(drow, self.rows - drow) ** 2 + min(dcol, self.cols - dcol) ** 2

    def coverage(self, locs: list[tuple[int, int]], radius2: int) -> dict[int, int]:
        """How many of `locs` lie within radius2 of each square (only squares that have some)."""
        reach = math.isqrt(radius2)
        offsets = [
            (dr, dc)
            for dr in range(-reach, reach + 1)
            for dc in range(-reach, reach + 1)
            if dr * dr + dc * dc <= radius2
        ]
        counts: dict[int, int] = {}
        rows, cols = self.rows, self.cols
        for row, col in locs:
            for dr, dc in offsets:
                index = ((row + dr) % rows) * cols + (col + dc) % cols
                counts[index] = counts.get(index, 0) + 1
        return counts


class Mover:
    """Collects one turn's orders so no two own ants end on one square (they would die)."""

    def __init__(self, world: World) -> None:
        self.world = world
        self.taken: set[tuple[int, int]] = set()
        self.orders: list[tuple[int, int, str]] = []
        self.moved: set[tuple[int, int]] = set()
        self.food = set(world.food)
        self.occupied = set(world.my_ants)
        self.vacated: set[tuple[int, int]] = set()

    def try_move(self, ant: tuple[int, int], direction: str) -> bool:
        """Order `ant` one step unless water, food, a claimed square or a friend that has
        not left yet is there (a friend that stays would kill both)."""
        if ant in self.moved:
            return False
        target = self.world.step(ant, direction)
        if not self.world.passable(target) or target in self.taken or target in self.food:
            return False
        if target in self.occupied and target not in self.vacated:
            return False
        self.taken.add(target)
        self.moved.add(ant)
        if direction != "-":
            self.vacated.add(ant)
        self.orders.append((ant[0], ant[1], direction))
        return True

    def hold_rest(self) -> list[tuple[int, int, str]]:
        """Ants without an order stay; an ant whose square is claimed tries to step aside."""
        for ant in self.world.my_ants:
            if ant in self.moved:
                continue
            if ant in self.taken:
                for direction in DIRECTIONS:
                    if self.try_move(ant, direction):
                        break
            else:
                self.taken.add(ant)
                self.moved.add(ant)
        return self.orders
