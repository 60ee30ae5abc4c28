"""The built-in Amazes explorer: maps the maze, walks to the best unknown area, hunts.

Each turn it applies the look to its own map (`mapping.BotMap`, the jury's discovery rules
in its own frame), updates where the opponent may be (`tracking.Tracker`, a filter over the
squared-distance history), then searches the squares it can reach through known openings
(so no step ever hits a wall and its position stays certain) for the move finding most
squares per letter: on the way and at the next look. Finishing the map first is what wins
against a strong opponent, so it does not chase +100 captures; once the opponent may have
discovered everything (`_danger`), moves where a hunter would guess it are avoided
(`evasion`); once all 625 squares are discovered it hunts for sudden death (the mover's
points double and the opponent's become 0) at a square drawn from the filter's belief.
"""

from __future__ import annotations

import random
from collections import deque

from botarena.games.amazes.bots import evasion
from botarena.games.amazes.bots.lookgain import LookGains
from botarena.games.amazes.bots.mapping import CELLS, CENTRE, NEIGHBOUR, BotMap, MapConflict
from botarena.games.amazes.bots.mapping import SQUARES as MAZE_SQUARES
from botarena.games.amazes.bots.tracking import Tracker, Walks
from botarena.games.amazes.rules import Observation

TURNS = 150
MAX_STEPS = 256
LETTER = "FRTL"
"""Letter for a step turning (direction - facing) % 4 quarter turns clockwise."""
CAPTURE = 100.0
STEP_OFFSET = 10.0
"""Moves are ranked by points per letter, counting this many letters more: high enough that
squares per turn count too, since a strong opponent also reaches the 1000 cap and only a
sudden death (all 625 squares discovered first) decides the game."""
COVER_OFFSET = 30.0
"""Once the points are safe, letters are free: moves are ranked by squares per turn."""
SAFE_POINTS = 1100.0
"""Estimated points above which letters are spent freely (the score is capped at 1000)."""
CAUGHT_RATE = 0.2
"""What being caught by an opponent who has discovered everything costs, in the units moves
are ranked by (expected new squares per letter): more than any move can gain."""
DANGER_FROM, DANGER_RAMP = 120, 40
"""Opponents may have discovered all squares from about turn 120 (a completer at any cost
does by 115-130); weighed fully by turn 160, so evasion costs little coverage."""
THRIFT_FROM, RESERVE, MIN_STEPS = 90, 150.0, 12
"""From turn THRIFT_FROM a move spends at most the estimated points above RESERVE (and at
least MIN_STEPS letters may always be spent)."""
DANGER_LEFT, DANGER_LEFT_FULL = 50, 5
"""The opponent explores about as fast as this bot: it may have discovered everything once
this bot has fewer than DANGER_LEFT squares left, surely by DANGER_LEFT_FULL."""
HUNT_SHARPNESS = 2
"""The hunt draws its square with weight (chance - risk) ** HUNT_SHARPNESS: mostly the
likeliest, not always (an evader that models its hunter expects the likeliest)."""
HUNT_CARE = 1.0
"""How much a hunt weighs the risk of being caught where it misses."""
HUNTED_RATE = 2.0
"""The same, added as far as the filter sees the opponent hunting this bot already."""
EVASION_OPTIONS = 24
"""How many of the best exploration moves are weighed again with their risk."""
EVASION_SLACK = 10
"""An evasive move may take at most this many letters more than the best exploring move:
evasion must not burn the points a sudden-death win doubles."""


class ExplorerBot:
    """Explores for points and hunts the opponent; see the module docstring."""

    def __init__(self, seed: int | None = None) -> None:
        self.setup(0)

    def setup(self, seat: int, seed: str = "") -> None:
        self.rng = random.Random(f"explorer:{seed}")
        self.map = BotMap()
        self.square = CENTRE
        self.facing = 0
        self.turn = 0
        self.done = False
        self.tracker = Tracker()
        self.walks = Walks(self.map)
        self.gains = LookGains()
        self.points = 0.0
        """Estimated points so far (whether a square was first and a capture hit are not
        seen, so those count at their expected value)."""

    def act(self, observation: Observation) -> str:
        try:
            return self._turn(observation)
        except MapConflict:
            # Lost (the maze is not what the map says): start a fresh map here rather
            # than crash; the game goes on, only the knowledge of the past is dropped.
            turn, points = self.turn, self.points
            self.setup(0)
            self.turn, self.points = turn, points
            return self._turn(observation)

    def _turn(self, observation: Observation) -> str:
        before = self.map.count
        self.map.look(self.square, self.facing, observation.corridors)
        self.walks.clear()
        self.tracker.observe(self.walks, self.square, observation.distance2, self._danger())
        self.points += (self.map.count - before) * self._square_value()
        path = self._plan()
        self.turn += 1
        self.done = self.turn >= TURNS
        before = self.map.count
        letters = self._walk(path) or "F"
        self.points += (
            (self.map.count - before) * self._square_value()
            - len(letters)
            + CAPTURE * self.tracker.belief.get(self.square, 0.0)
        )
        if self.map.count == MAZE_SQUARES:  # if the game goes on, the opponent is not here
            self.tracker.miss(self.square)
        return letters

    def _square_value(self) -> float:
        """Expected points for a new square: 1, and 1 more while the opponent lacks it (less
        likely as the game goes on)."""
        return 2.0 - self.turn / TURNS

    # -- choosing the move ----------------------------------------------------------------
    def _plan(self) -> list[int]:
        """The squares of the best move, in order (never empty, never ending where it
        starts). A breadth-first search over known openings, stopped once no farther square
        can beat the best found (the hunt searches every square it may afford)."""
        bot_map = self.map
        self.gains.refresh(bot_map)
        gains = self.gains.gain
        discovered, links = bot_map.discovered, bot_map.links
        last_turn = self.turn + 1 >= TURNS
        look = 0.0 if last_turn else 1.0
        value = self._square_value()
        complete = bot_map.count == MAZE_SQUARES
        offset = STEP_OFFSET if self.points < SAFE_POINTS else COVER_OFFSET
        max_steps = self._affordable()
        most = value * (bot_map.exist_count - bot_map.count + look * max(gains))
        start = self.square
        parent = [-1] * CELLS
        walked = [0] * CELLS
        depth = [-1] * CELLS
        depth[start] = 0
        queue = deque([start])
        best_score = float("-inf")
        options: list[tuple[float, int, int, int, float]] = []
        while queue:
            square = queue.popleft()
            steps = depth[square]
            if not complete and best_score >= most / (steps + offset):
                break
            if square != start:
                gain = value * (walked[square] + look * gains[square])
                score = gain / (steps + offset)
                if score > best_score:
                    best_score = score
                options.append((-score, steps, len(options), square, gain))
            if steps == max_steps:
                continue
            for nxt in links[square]:
                if depth[nxt] < 0:
                    parent[nxt] = square
                    depth[nxt] = steps + 1
                    walked[nxt] = walked[square] + (not discovered[nxt])
                    queue.append(nxt)
        if not options:  # no known opening: only an impossible look gets here
            return []
        best = self._hunt(depth) if complete else self._safest(options, offset, depth)
        path = []
        while best != start:
            path.append(best)
            best = parent[best]
        path.reverse()
        return path

    def _affordable(self) -> int:
        """The most letters this move may take: late in the game, what keeps the points
        above RESERVE, since a sudden-death win doubles the points and a win with points at
        or below 0 scores 0, a tie."""
        if self.turn < THRIFT_FROM:
            return MAX_STEPS
        return max(MIN_STEPS, min(MAX_STEPS, int(self.points - RESERVE)))

    def _danger(self) -> float:
        """How likely the opponent has discovered all squares by now (it can then end the
        game by landing on this bot)."""
        by_turn = (self.turn - DANGER_FROM) / DANGER_RAMP
        left = MAZE_SQUARES - self.map.count
        by_progress = (DANGER_LEFT - left) / (DANGER_LEFT - DANGER_LEFT_FULL)
        return max(0.0, min(1.0, max(by_turn, by_progress)))

    def _hunt(self, depth: list[int]) -> int:
        """All squares discovered: the likeliest opponent square, unless a miss there is
        likely to be caught in return (the opponent may have discovered everything too)."""
        danger = self._danger() * HUNT_CARE
        threats = evasion.hunters(self.tracker) if danger > 0 else []
        squares, weights = [], []
        for square, chance in self.tracker.belief.items():
            if square == self.square or depth[square] < 0:
                continue
            score = chance
            if threats:
                score -= (
                    danger * (1 - chance) * evasion.risk(self.walks, threats, self.square, square)
                )
            squares.append(square)
            weights.append(max(score, 0.0) ** HUNT_SHARPNESS + 1e-12)
        if not squares:  # nowhere to guess: any neighbour
            return self.map.links[self.square][0]
        return self.rng.choices(squares, weights)[0]

    def _safest(
        self, options: list[tuple[float, int, int, int, float]], offset: float, depth: list[int]
    ) -> int:
        """The best of the top exploration moves once the risk of being caught where it ends
        is counted: late in the game an opponent may have discovered everything, and being
        caught then costs every point (sudden death). The opponent's own likeliest squares
        are weighed too: ending on the hunter's square is safe. `options` are (-score,
        steps, order found, square, gain): sorted as tuples, best score first, then fewest
        steps, then first found."""
        options.sort()
        loss = CAUGHT_RATE * self._danger() + HUNTED_RATE * self.tracker.hunting
        if loss <= 0 or not self.tracker.belief:
            return options[0][3]
        threats = evasion.hunters(self.tracker)
        value = self._square_value()
        moves = [(square, gain, steps) for _, steps, _, square, gain in options[:EVASION_OPTIONS]]
        seen = {square for square, _, _ in moves}
        for _, square in threats:
            if square not in seen and square != self.square and depth[square] >= 0:
                moves.append((square, value * self.gains.gain[square], depth[square]))
        best, best_score = options[0][3], float("-inf")
        most_steps = options[0][1] + EVASION_SLACK
        for square, gain, steps in moves:
            if steps > most_steps:
                continue
            risk = evasion.risk(self.walks, threats, self.square, square)
            score = gain / (steps + offset) - loss * risk
            if score > best_score:
                best, best_score = square, score
        return best

    def _walk(self, path: list[int]) -> str:
        """The letters for `path`; moves the bot and discovers the squares it walks on."""
        letters = []
        for square in path:
            d = _direction(self.square, square)
            letters.append(LETTER[(d - self.facing) % 4])
            self.square, self.facing = square, d
            self.map.discover(square)
        return "".join(letters)


def _direction(a: int, b: int) -> int:
    for d in range(4):
        if NEIGHBOUR[a * 4 + d] == b:
            return d
    raise ValueError(f"squares {a} and {b} are not neighbours")


def main() -> None:
    from botarena.core.botmain import run_stdio
    from botarena.games.amazes.protocol import PROTOCOL

    run_stdio(ExplorerBot(), PROTOCOL)


if __name__ == "__main__":
    main()
