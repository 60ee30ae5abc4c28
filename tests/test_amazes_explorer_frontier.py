"""Reference Amazes players the explorer must beat (tests and bench only, not built-ins): a
greedy frontier walker, a completer that explores at any cost then hunts for sudden death,
and a contestant-grade player (`ContestantBot`).
"""

from __future__ import annotations

import math
from collections import deque

import pytest

import botarena
from botarena.games.amazes.bots.mapping import (
    CENTRE,
    FRAME,
    NEIGHBOUR,
    OPEN,
    SIDE_EDGE,
    UNKNOWN,
    BotMap,
)
from botarena.games.amazes.bots.tracking import ring as squares_at
from botarena.games.amazes.rules import Observation
from testdata import AMAZES_MAZES

LETTER = "FRTL"
MAZES = AMAZES_MAZES


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
            if square != self.square and any(
                edge[SIDE_EDGE[square * 4 + d]] == UNKNOWN for d in range(4)
            ):
                target = square
                break
            for d in range(4):
                nxt = NEIGHBOUR[square * 4 + d]
                if edge[SIDE_EDGE[square * 4 + d]] == OPEN and nxt not in parent:
                    parent[nxt] = square
                    queue.append(nxt)
        if target < 0:  # nothing left to see: one step to any open neighbour
            target = next(
                NEIGHBOUR[self.square * 4 + d]
                for d in range(4)
                if edge[SIDE_EDGE[self.square * 4 + d]] == OPEN
            )
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
            targets = [
                s
                for s in order
                if (bot_map.maze_coords(s)[0] - me_row) ** 2
                + (bot_map.maze_coords(s)[1] - me_col) ** 2
                == self.distance2
            ]
        else:

            def unknown_neighbours(square: int) -> int:
                return sum(
                    1
                    for d in range(4)
                    if not exists[NEIGHBOUR[square * 4 + d]]
                    and edge[SIDE_EDGE[square * 4 + d]] != 2
                )

            most = max(unknown_neighbours(s) for s in order)
            targets = [s for s in order if unknown_neighbours(s) == most] if most else []
        target = next((s for s in targets if s != self.square), order[1] if len(order) > 1 else -1)
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


# -- a contestant-grade reference opponent ----------------------------------------------------

FULL = 625
LOOK_AHEAD_UNKNOWN = 1.5
"""Squares expected past an unknown edge at a corridor's end (the corridor may go on)."""
LOOK_SIDE_UNKNOWN = 0.6
CAPTURE_MARGIN = 20.0
"""A capture hunt must promise this many points more than its letters cost."""


class ContestantBot:
    """What a good CodeCup contestant writes, independent of the explorer's code: the map
    with the inference rules (the shared `BotMap`), multi-letter moves to the square whose
    walk and look find the most squares per letter, an opponent tracker that keeps every
    square consistent with the squared distances (weighted by how far the opponent must have
    walked), +100 captures when they pay, sudden death as soon as all 625 squares are
    discovered, and evasion (ambiguous distances) once the opponent may have discovered all."""

    def __init__(self) -> None:
        self.setup(0)

    def setup(self, seat: int, seed: str = "") -> None:
        self.map = BotMap()
        self.square, self.facing, self.turn, self.done = CENTRE, 0, 0, False
        self.belief: dict[int, float] = {}
        self.points = 0.0

    def act(self, observation: Observation) -> str:
        before = self.map.count
        self.map.look(self.square, self.facing, observation.corridors)
        self.points += 1.5 * (self.map.count - before)
        self._track(observation.distance2)
        depth, parent, walked = self._search()
        target = self._choose(depth, walked)
        path = []
        while target != self.square:
            path.append(target)
            target = parent[target]
        letters = []
        for square in reversed(path):
            d = next(d for d in range(4) if NEIGHBOUR[self.square * 4 + d] == square)
            letters.append(LETTER[(d - self.facing) % 4])
            self.square, self.facing = square, d
            if self.map.discover(square):
                self.points += 1.5
        self.points -= len(letters)
        self.turn += 1
        self.done = self.turn >= 150
        return "".join(letters)

    # -- the opponent ------------------------------------------------------------------
    def _track(self, distance2: int) -> None:
        """Candidates at the read distance, each weighted by how near it is to the earlier
        candidates (an opponent walks a few squares a turn, rarely many)."""
        candidates = squares_at(self.map, self.square, distance2)
        prior = [(divmod(s, FRAME), p) for s, p in self.belief.items()]
        weights = {}
        for square in candidates:
            r, c = divmod(square, FRAME)
            weight = 0.001
            for (orow, ocol), p in prior:
                weight += p * math.exp(-(abs(r - orow) + abs(c - ocol)) / 4.0)
            weights[square] = weight
        total = sum(weights.values()) or 1.0
        self.belief = {s: w / total for s, w in weights.items()}

    def _danger(self, square: int) -> float:
        """Chance that a hunter knowing the whole maze guesses `square` from the squared
        distance it reads: 1 / (squares at that distance) for each likely opponent square."""
        row, col = divmod(square, FRAME)
        likely = sorted(self.belief.items(), key=lambda item: -item[1])[:5]
        risk = 0.0
        for other, p in likely:
            orow, ocol = divmod(other, FRAME)
            ring = squares_at(self.map, other, (row - orow) ** 2 + (col - ocol) ** 2)
            risk += p / max(1, len(ring))
        return risk

    # -- the move ----------------------------------------------------------------------
    def _search(self) -> tuple[dict[int, int], dict[int, int], dict[int, int]]:
        """Breadth-first over known openings, up to 256 steps: depth, parent and the
        undiscovered squares walked on the way to each square."""
        links, discovered = self.map.links, self.map.discovered
        depth, parent, walked = {self.square: 0}, {self.square: -1}, {self.square: 0}
        queue = deque([self.square])
        while queue:
            square = queue.popleft()
            if depth[square] == 256:
                continue
            for nxt in links[square]:
                if nxt not in depth:
                    depth[nxt] = depth[square] + 1
                    parent[nxt] = square
                    walked[nxt] = walked[square] + (not discovered[nxt])
                    queue.append(nxt)
        return depth, parent, walked

    def _look_value(self, square: int) -> float:
        edge, discovered = self.map.edge, self.map.discovered
        value = 0.0
        for d in range(4):
            here = square
            while True:
                state = edge[SIDE_EDGE[here * 4 + d]]
                if state != OPEN:
                    value += LOOK_AHEAD_UNKNOWN if state == UNKNOWN else 0.0
                    break
                here = NEIGHBOUR[here * 4 + d]
                value += not discovered[here]
                for side in ((d + 1) % 4, (d + 3) % 4):
                    state = edge[SIDE_EDGE[here * 4 + side]]
                    if state == UNKNOWN:
                        value += LOOK_SIDE_UNKNOWN
                    elif state == OPEN and not discovered[NEIGHBOUR[here * 4 + side]]:
                        value += 1
        return value

    def _choose(self, depth: dict[int, int], walked: dict[int, int]) -> int:
        reachable = [s for s in depth if s != self.square]
        if self.map.count == FULL:  # sudden death: the likeliest reachable opponent square
            return max(reachable, key=lambda s: (self.belief.get(s, 0.0), -depth[s]))
        capped = self.points > 1050
        offset = 25.0 if capped or self.turn >= 70 else 2.0
        look = 0.0 if self.turn == 149 else 1.0
        scored = sorted(
            ((walked[s] + look * self._look_value(s), s) for s in reachable),
            key=lambda item: -item[0] / (depth[item[1]] + offset),
        )
        if not capped:
            prey = max(reachable, key=lambda s: 100 * self.belief.get(s, 0.0) - depth[s])
            if 100 * self.belief.get(prey, 0.0) - depth[prey] > CAPTURE_MARGIN:
                return prey
        fear = 1000 * min(1.0, max(0.0, (self.turn - 95) / 35))
        if fear == 0:
            return scored[0][1]
        return max(
            scored[:20],
            key=lambda item: (item[0] - fear * self._danger(item[1])) / (depth[item[1]] + offset),
        )[1]


@pytest.mark.slow
def test_contestant_beats_the_completer_on_official_mazes() -> None:
    """The contestant is a stronger yardstick than the completer: it wins more of the
    official mazes' games, seats both ways."""
    wins = 0
    for maze in (1, 2, 3):
        for seat in (0, 1):
            bots = [ContestantBot(), CompleterBot()]
            if seat:
                bots.reverse()
            result = botarena.play("amazes", bots, map=MAZES / f"maze{maze:02d}.txt", seed=maze)
            wins += result.scores[seat] > result.scores[1 - seat]
    assert wins >= 4
