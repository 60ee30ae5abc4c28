"""Adventurers `cartographer`: both adventurers share one map, each walks the shortest path
to the goal through walls seen open or never seen (so they explore the frontier nearest the
goal), and they replan whenever what they see contradicts the map (walls change)."""

from __future__ import annotations

from typing import Any

from botarena.games.labyrinth.api import Adventurers
from botarena.games.labyrinth.bots.wallfollower import WallFollower
from botarena.games.labyrinth.maze import FAR, Maze, distances
from botarena.games.labyrinth.vision import EAST, OFFSETS, SOUTH, side_edge

UNKNOWN, OPEN, WALL = 0, 1, 2
FORWARD = 1
TURN_FOR = {1: 2, 2: 3, 3: 4}
"""Action that turns the facing by k quarter turns clockwise."""
MEMORY = 20
"""Turns a seen wall is trusted: the maze master may move any wall out of sight."""
REPLAN_EVERY = 10

PLAN_S_PER_CELL = 4e-6
"""What a plan costs per cell of the maze, for the bot's bank: two searches at most, 2.1 µs
measured on the slowest host yet (3.5 ms at n = 41; 0.6 µs on an earlier one), doubled for
slower machines. At 1.5 µs the bot believed it had its 15 ms reserve left while its real
bank was down to 2.7 ms, and it struck in one seed of 8; at 4 µs its real bank stayed above
38 ms."""


class Cartographer(Adventurers):
    """Optimistic shortest-path exploration on a shared, self-correcting map."""

    def start_round(self, maze_size: int) -> None:
        self.n = maze_size
        self.grid = Maze.open(maze_size)  # geometry only: edge numbering and the border
        self.known = [UNKNOWN] * (2 * maze_size * maze_size)
        self.seen = [0] * (2 * maze_size * maze_size)  # turn each edge was last seen
        self.turn = 0
        self.shifting = False
        self.scout = WallFollower()
        self.scout.start_round(maze_size)
        self.positions = [(0, 0, EAST), (0, 0, SOUTH)]
        self.distance: list[int] = []
        self.stale = True

    def take_turn(self, vision: list[dict[str, Any]]) -> list[int]:
        self.turn += 1
        if self.turn % REPLAN_EVERY == 0:
            self.stale = True  # old walls may have moved: forget them now and then
        for position, sight in zip(self.positions, vision, strict=True):
            self._learn(position, sight)
        if self.stale and (not self.distance or self.bank.think(PLAN_S_PER_CELL * self.n**2)):
            self._plan()
        actions = [self._choose(0, (3, 1)), self.scout._step(1, vision[1], "right")]
        for index, action in enumerate(actions):
            row, col, facing = self.positions[index]
            if action == FORWARD:
                if not vision[index]["ahead"][0]["ahead"]:
                    d_row, d_col = OFFSETS[facing]
                    self.positions[index] = (row + d_row, col + d_col, facing)
            else:
                turns = {2: 1, 3: 2, 4: 3}[action]
                self.positions[index] = (row, col, (facing + turns) % 4)
        return actions

    def _note(self, row: int, col: int, side: int, wall: bool) -> None:
        edge = side_edge(self.grid, row, col, side)
        if edge is None:
            return
        value = WALL if wall else OPEN
        self.seen[edge] = self.turn
        if self.known[edge] != value:
            if self.known[edge] != UNKNOWN:
                self.shifting = True  # a wall moved: the maze master is at work
            self.known[edge] = value
            self.stale = True

    def _learn(self, position: tuple[int, int, int], sight: dict[str, Any]) -> None:
        row, col, facing = position
        d_row, d_col = OFFSETS[facing]
        left, right = (facing + 3) % 4, (facing + 1) % 4
        for steps, cell in enumerate(sight["ahead"]):
            r, c = row + steps * d_row, col + steps * d_col
            self._note(r, c, facing, cell["ahead"])
            self._note(r, c, left, cell["left"])
            self._note(r, c, right, cell["right"])
        if sight["leftAhead"] is not None:
            self._note(row - d_col, col + d_row, facing, sight["leftAhead"])
        if sight["rightAhead"] is not None:
            self._note(row + d_col, col - d_row, facing, sight["rightAhead"])

    def _plan(self) -> None:
        """Distances to the goal through every edge not known to be a wall."""
        self.distance = self._distances()
        if any(self.distance[r * self.n + c] >= FAR for r, c, _ in self.positions):
            self.known = [OPEN if value == OPEN else UNKNOWN for value in self.known]
            self.distance = self._distances()  # stale walls hid every path: forget them
        self.stale = False

    def _distances(self) -> list[int]:
        oldest = self.turn - MEMORY if self.shifting else 0
        walls = [
            value == WALL and seen >= oldest
            for value, seen in zip(self.known, self.seen, strict=True)
        ]
        return distances(self.n, walls, self.n * self.n - 1)

    def _choose(self, index: int, tie: tuple[int, int]) -> int:
        """Forward if the best neighbour is ahead, else the turn toward it."""
        row, col, facing = self.positions[index]
        n = self.n
        best, best_turns = None, 0
        for turns in (0, tie[0], tie[1], 2):
            side = (facing + turns) % 4
            edge = side_edge(self.grid, row, col, side)
            if edge is None or self.known[edge] == WALL:
                continue
            d_row, d_col = OFFSETS[side]
            cost = self.distance[(row + d_row) * n + col + d_col] + (turns != 0)
            if best is None or cost < best:
                best, best_turns = cost, turns
        if best is None:
            return TURN_FOR[2]
        return FORWARD if best_turns == 0 else TURN_FOR[best_turns]


def main() -> None:
    from botarena.core.botmain import run_stdio
    from botarena.games.labyrinth.protocol import PROTOCOL

    run_stdio(Cartographer(), PROTOCOL)


if __name__ == "__main__":
    main()
