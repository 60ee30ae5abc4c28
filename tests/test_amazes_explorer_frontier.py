"""A greedy frontier player for Amazes, the yardstick the explorer must beat (tests and bench
only, not a built-in): it walks, through known openings, to the nearest square that still
has an unknown side, and never hunts.
"""

from __future__ import annotations

from collections import deque

import botarena
from botarena.games.amazes.bots.mapping import CENTRE, NEIGHBOUR, OPEN, SIDE_EDGE, UNKNOWN, BotMap
from botarena.games.amazes.rules import Observation

LETTER = "FRTL"


class FrontierBot:
    """Nearest-frontier explorer: the simple strategy a first C player would use."""

    def __init__(self) -> None:
        self.setup(0)

    def setup(self, seat: int, seed: str = "") -> None:
        self.map = BotMap()
        self.square, self.facing, self.turn, self.done = CENTRE, 0, 0, False

    def act(self, observation: Observation) -> str:
        self.map.look(self.square, self.facing, observation.corridors)
        path = self._nearest_frontier()
        letters = []
        for square in path:
            d = next(d for d in range(4) if NEIGHBOUR[self.square * 4 + d] == square)
            letters.append(LETTER[(d - self.facing) % 4])
            self.square, self.facing = square, d
            self.map.discover(square)
        self.turn += 1
        self.done = self.turn >= 150
        return "".join(letters)

    def _nearest_frontier(self) -> list[int]:
        edge = self.map.edge
        parent = {self.square: -1}
        queue = deque([self.square])
        target = -1
        while queue:
            square = queue.popleft()
            if square != self.square and any(edge[SIDE_EDGE[square * 4 + d]] == UNKNOWN
                                             for d in range(4)):
                target = square
                break
            for d in range(4):
                nxt = NEIGHBOUR[square * 4 + d]
                if edge[SIDE_EDGE[square * 4 + d]] == OPEN and nxt not in parent:
                    parent[nxt] = square
                    queue.append(nxt)
        if target < 0:  # nothing left to see: one step to any open neighbour
            target = next(NEIGHBOUR[self.square * 4 + d] for d in range(4)
                          if edge[SIDE_EDGE[self.square * 4 + d]] == OPEN)
            parent.setdefault(target, self.square)
        path = []
        while target != self.square:
            path.append(target)
            target = parent[target]
        return path[::-1]


class CompleterBot(FrontierBot):
    """Explores to all 625 squares, then hunts for sudden death: walks (any distance) to the
    square with the most unknown neighbours, nearest first; once everything is discovered,
    to the nearest square at the opponent's distance. No points per letter reckoning."""

    def act(self, observation: Observation) -> str:
        self.distance2 = observation.distance2
        return super().act(observation)

    def _nearest_frontier(self) -> list[int]:
        bot_map = self.map
        edge, exists = bot_map.edge, bot_map.exists
        parent = {self.square: -1}
        queue = deque([self.square])
        order = []
        while queue:
            square = queue.popleft()
            order.append(square)
            for nxt in bot_map.links[square]:
                if nxt not in parent:
                    parent[nxt] = square
                    queue.append(nxt)
        if bot_map.count == 625 and bot_map.located:
            me_row, me_col = bot_map.maze_coords(self.square)
            targets = [s for s in order
                       if (bot_map.maze_coords(s)[0] - me_row) ** 2
                       + (bot_map.maze_coords(s)[1] - me_col) ** 2 == self.distance2]
        else:
            def unknown_neighbours(square: int) -> int:
                return sum(1 for d in range(4) if not exists[NEIGHBOUR[square * 4 + d]]
                           and edge[SIDE_EDGE[square * 4 + d]] != 2)
            most = max(unknown_neighbours(s) for s in order)
            targets = [s for s in order if unknown_neighbours(s) == most] if most else []
        target = next((s for s in targets if s != self.square), order[1] if len(order) > 1
                      else -1)
        path = []
        while target != self.square:
            path.append(target)
            target = parent[target]
        return path[::-1]


def test_frontier_player_beats_random() -> None:
    """The yardstick itself is a real player: it out-scores random."""
    for seed in range(3):
        result = botarena.play("amazes", [FrontierBot(), "builtin:amazes/random"], seed=seed)
        frontier, random_bot = result.scores
        assert frontier > random_bot
