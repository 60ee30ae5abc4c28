"""The rules of CodeCup Amazes (2010): turns, the look, moves, discovery scoring, the end.

Pure and deterministic: the maze and the start squares come from the seed (or a maze
file), everything else from the players' move strings and faults.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from typing import Any, NamedTuple

from botarena.core.rules import Clock, GameError, Outcome, State, Status
from botarena.games.amazes.knowledge import Knowledge
from botarena.games.amazes.maze import (
    NEIGHBOUR,
    SQUARE_EDGE,
    SQUARES,
    Maze,
    Start,
    check_starts,
    distance2,
    draw_starts,
    generate_maze,
)

RED, BLUE = 0, 1
MAX_POINTS = 1000
CAPTURE_POINTS = 100
TURN_STEP = {"F": 0, "R": 1, "T": 2, "L": 3}
"""How much each letter turns the facing (clockwise quarter turns) before the step."""


class Observation(NamedTuple):
    """What a player reads at the start of its turn (the look).

    `corridors` are ahead, right, behind, left; each letter describes the next square of that
    corridor, its side openings relative to the corridor's direction, and `W` ends it.
    """

    start: bool
    corridors: tuple[str, str, str, str]
    distance2: int


class AmazesState(State):
    """A game of Amazes in progress. Red (seat 0) moves first."""

    def __init__(
        self, maze: Maze, starts: tuple[Start, Start], turns: int = 150, budget_s: float = 5.0
    ) -> None:
        problems = check_starts(maze, starts)
        if problems:
            raise GameError(f"bad start squares: {problems[0]}")
        self.maze = maze
        self.starts = starts
        self.turns = turns
        self.budget_s = budget_s
        self._clock = Clock(budget_s=budget_s)
        self.square = [starts[RED].square, starts[BLUE].square]
        self.facing = [starts[RED].facing, starts[BLUE].facing]
        self.points = [0, 0]
        self.turns_taken = [0, 0]
        self.mover = RED
        self.faults: list[Status | None] = [None, None]
        self.end_reason: str | None = None
        self._found: tuple[list[int], list[int]] = ([], [])  # discovered since the last step
        self.knowledge = (Knowledge(maze, self._scorer(RED)), Knowledge(maze, self._scorer(BLUE)))
        self._last: dict[str, Any] = {}
        self._begin_turn()

    def _scorer(self, seat: int) -> Callable[[int], None]:
        """+1 for each square `seat` discovers, +1 more if the opponent has not yet."""
        found = self._found[seat]

        def score(square: int) -> None:
            self.points[seat] += 1 if self.knowledge[1 - seat].discovered[square] else 2
            found.append(square)

        return score

    # -- the turn -----------------------------------------------------------------------
    def _begin_turn(self) -> None:
        """The information stage: the mover looks around, then infers what follows."""
        knowledge = self.knowledge[self.mover]
        knowledge.look(self.square[self.mover])
        knowledge.infer()

    def to_act(self) -> list[int]:
        if self.end_reason is not None or self.faults[self.mover] is not None:
            return []
        return [self.mover]

    def observation(self, seat: int) -> Observation:
        square, facing = self.square[seat], self.facing[seat]
        corridor = self.maze.corridor
        return Observation(
            seat == RED and self.turns_taken[RED] == 0,
            (
                corridor(square, facing),
                corridor(square, (facing + 1) % 4),
                corridor(square, (facing + 2) % 4),
                corridor(square, (facing + 3) % 4),
            ),
            distance2(self.square[RED], self.square[BLUE]),
        )

    def apply(self, actions: Mapping[int, Any]) -> None:
        seat = self.mover
        other = 1 - seat
        self._found[RED].clear()
        self._found[BLUE].clear()
        jury = seat not in actions
        moves: str = "T" if jury else actions[seat]
        if not jury:
            self.points[seat] -= len(moves)
        knowledge = self.knowledge[seat]
        walls = self.maze.walls
        start = square = self.square[seat]
        facing = self.facing[seat]
        path = []
        for letter in moves:
            d = (facing + TURN_STEP[letter]) % 4
            if walls[SQUARE_EDGE[square * 4 + d]]:
                break  # the whole step is void, facing included; later letters are skipped
            square, facing = NEIGHBOUR[square * 4 + d], d
            path.append(square)
            knowledge.discover(square)
        if square == start:  # the jury's free extra T
            d = (facing + 2) % 4
            if not walls[SQUARE_EDGE[square * 4 + d]]:
                square, facing = NEIGHBOUR[square * 4 + d], d
                path.append(square)
                knowledge.discover(square)
        self.square[seat], self.facing[seat] = square, facing
        if square == self.square[other]:
            if knowledge.count < SQUARES:
                self.points[seat] += CAPTURE_POINTS
            else:
                self.end_reason = "sudden_death"
                self.points[seat] *= 2
                self.points[other] = 0
        self.turns_taken[seat] += 1
        self._last = {"seat": seat, "moves": moves, "jury": jury, "path": path}
        if self.end_reason is None and min(self.turns_taken) >= self.turns:
            self.end_reason = "turns"
        if self.end_reason is None:
            self.mover = other
            self._begin_turn()

    def fault(self, seat: int, status: Status, detail: str) -> None:
        """The jury takes over: one `T` each turn for the rest of the game, final score 0."""
        if self.faults[seat] is None:
            self.faults[seat] = status

    def is_over(self) -> bool:
        return self.end_reason is not None

    def outcome(self) -> Outcome:
        scores: list[float] = [
            0 if self.faults[s] is not None else max(0, min(MAX_POINTS, self.points[s]))
            for s in (RED, BLUE)
        ]
        return Outcome(scores=scores, end_reason=self.end_reason or "unfinished")

    def clock(self, seat: int) -> Clock:
        return self._clock

    @property
    def step_count(self) -> int:
        return sum(self.turns_taken)

    def frame(self) -> dict[str, Any]:
        found = [list(self._found[RED]), list(self._found[BLUE])]
        return {
            "turn": self.step_count,
            **self._last,
            "players": [[self.square[s], self.facing[s]] for s in (RED, BLUE)],
            "points": list(self.points),
            "discovered": [self.knowledge[s].count for s in (RED, BLUE)],
            "found": found,
        }

    def header(self) -> dict[str, Any]:
        return {"maze": self.maze.to_ascii(), "starts": [[s.square, s.facing] for s in self.starts]}


def new_state(
    seed: int | str, options: dict[str, Any], maze: Maze | None, seats: int
) -> AmazesState:
    """A new game: the maze file's (or a generated) maze, start squares from the file or
    drawn from the seed."""
    if seats != 2:
        raise GameError(f"amazes is a 2-player game; {seats} bots were given")
    rng = random.Random(seed)
    if maze is None:
        maze = generate_maze(rng)
    starts = maze.starts or draw_starts(maze, rng)
    return AmazesState(
        maze,
        starts,
        turns=options.get("turns", 150),
        budget_s=options.get("budget_ms", 5000) / 1000,
    )
