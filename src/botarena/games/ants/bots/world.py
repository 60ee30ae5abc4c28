"""What a bot knows of the map: water seen so far, last-seen turns, breadth-first distances.

Built-in bots keep one `World`, call `update` with each observation and ask it for
distances over known land (unknown squares count as land, as a 2011 bot would guess).
"""

from __future__ import annotations

from collections import deque

import numpy as np

from botarena.games.ants.rules import AIM, Observation
from botarena.games.ants.vision import Vision

DIRECTIONS = tuple(AIM)


class World:
    """A bot's memory of the map, rebuilt from the observations it is sent."""

    def __init__(self, observation: Observation) -> None:
        params = observation.params
        self.rows, self.cols = params.rows, params.cols
        self.attackradius2 = params.attackradius2
        self.water = np.zeros((self.rows, self.cols), dtype=bool)
        self.last_seen = np.full((self.rows, self.cols), -1, dtype=np.int32)
        self.vision = Vision(self.rows, self.cols, params.viewradius2)
        self.enemy_hills: set[tuple[int, int]] = set()
        self.turn = 0
        self.my_ants: list[tuple[int, int]] = []
        self.enemies: list[tuple[int, int]] = []
        self.food: list[tuple[int, int]] = []
        self.my_hills: list[tuple[int, int]] = []

    def update(self, observation: Observation) -> None:
        self.turn = observation.turn
        for row, col in observation.water:
            self.water[row, col] = True
        self.my_ants = [(r, c) for r, c, owner in observation.ants if owner == 0]
        self.enemies = [(r, c) for r, c, owner in observation.ants if owner != 0]
        self.food = list(observation.food)
        self.my_hills = [(r, c) for r, c, owner in observation.hills if owner == 0]
        seen = self.vision.bits([(r, c, 0) for r, c in self.my_ants]) > 0
        self.last_seen[seen] = self.turn
        visible_hills = {(r, c) for r, c, owner in observation.hills if owner != 0}
        self.enemy_hills = {hill for hill in self.enemy_hills
                            if not seen[hill] or hill in visible_hills} | visible_hills

    def step(self, loc: tuple[int, int], direction: str) -> tuple[int, int]:
        drow, dcol = AIM[direction]
        return (loc[0] + drow) % self.rows, (loc[1] + dcol) % self.cols

    def passable(self, loc: tuple[int, int]) -> bool:
        return not self.water[loc]

    def distances(self, sources: list[tuple[int, int]], limit: int = 10_000) -> np.ndarray:
        """Steps from the nearest source to every square (-1: unreached), over non-water."""
        dist = np.full((self.rows, self.cols), -1, dtype=np.int32)
        queue: deque[tuple[int, int]] = deque()
        for loc in sources:
            if dist[loc] < 0:
                dist[loc] = 0
                queue.append(loc)
        rows, cols, water = self.rows, self.cols, self.water
        dist_list = dist  # local alias for speed
        while queue:
            row, col = queue.popleft()
            here = dist_list[row, col]
            if here >= limit:
                continue
            for nrow, ncol in (((row - 1) % rows, col), (row, (col + 1) % cols),
                               ((row + 1) % rows, col), (row, (col - 1) % cols)):
                if dist_list[nrow, ncol] < 0 and not water[nrow, ncol]:
                    dist_list[nrow, ncol] = here + 1
                    queue.append((nrow, ncol))
        return dist

    def downhill(self, loc: tuple[int, int], dist: np.ndarray) -> list[str]:
        """Directions from `loc` that get closer on the distance map `dist`, best first."""
        here = dist[loc]
        options = []
        for direction in DIRECTIONS:
            nxt = self.step(loc, direction)
            value = dist[nxt]
            if value >= 0 and (here < 0 or value < here):
                options.append((value, direction))
        return [direction for _, direction in sorted(options)]

    def distance2(self, a: tuple[int, int], b: tuple[int, int]) -> int:
        drow = abs(a[0] - b[0])
        dcol = abs(a[1] - b[1])
        return min(drow, self.rows - drow) ** 2 + min(dcol, self.cols - dcol) ** 2


class Mover:
    """Collects one turn's orders so no two own ants end on one square (they would die)."""

    def __init__(self, world: World) -> None:
        self.world = world
        self.taken: set[tuple[int, int]] = set()
        self.orders: list[tuple[int, int, str]] = []
        self.moved: set[tuple[int, int]] = set()
        self.food = set(world.food)

    def try_move(self, ant: tuple[int, int], direction: str) -> bool:
        if ant in self.moved:
            return False
        target = self.world.step(ant, direction)
        if not self.world.passable(target) or target in self.taken or target in self.food:
            return False
        self.taken.add(target)
        self.moved.add(ant)
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
