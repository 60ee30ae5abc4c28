"""The rules of The Ever-Changing Labyrinth, as the original controller plays them, with its
visibility bug fixed, an iterative connectivity check and every malformed output a strike.

Seat 0 is the adventurers, seat 1 the maze master. One step is one call of a bot's
interface: `generateMaze`, `startRound`, the adventurers' `takeTurn`, the maze master's
`takeTurn`. Pure and deterministic: everything comes from the seed string and the replies.
"""

from __future__ import annotations

import enum
import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from botarena.core.rules import Clock, Outcome, State, Status
from botarena.games.labyrinth.maze import Maze, mana_income
from botarena.games.labyrinth.vision import (
    DIR_NAMES,
    EAST,
    OFFSETS,
    SOUTH,
    Position,
    Sight,
    look,
    protected_edges,
    side_edge,
)

ADVENTURERS, MAZE_MASTER = 0, 1
ROLE_NAMES = ("adventurers", "maze master")
FIRST_MAZE_SIZE = 3
TURNS_PER_ROUND = 1000
SCORE_PER_MAZE = 1000
ROUND_BANK_S = 0.050
TURN_ALLOWANCE_S = 0.001
START_ROUND_S = 0.010
GENERATE_S_PER_CELL = 0.001
HANDSHAKE_S = 10.0

WAIT, FORWARD, TURN_RIGHT, TURN_AROUND, TURN_LEFT = range(5)


class Phase(enum.StrEnum):
    """Whose call comes next."""

    GENERATE = "generateMaze"
    START_ROUND = "startRound"
    ADVENTURERS_TURN = "adventurers.takeTurn"
    MAZE_MASTER_TURN = "mazeMaster.takeTurn"
    OVER = "over"


@dataclass(frozen=True)
class Call:
    """One call of a bot's interface: the method name and its arguments, the JSON shapes
    the original controller passes (what a protocol encodes, what Python bots receive)."""

    name: str
    args: tuple[Any, ...] = ()


@dataclass(frozen=True)
class Answer:
    """A bot's return value (any JSON value; None is null)."""

    value: Any


class Strike(Exception):
    """A strike: the game ends here and is an outlier. The message is the reason."""


def js_truthy(value: Any) -> bool:
    """JavaScript's `!!value` for a JSON value."""
    if value is None or isinstance(value, bool):
        return bool(value)
    if isinstance(value, int | float):
        return value != 0 and value == value
    if isinstance(value, str):
        return value != ""
    return True


def _is_number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def move_code(move: Any) -> int:
    """The action a move value names; anything but 0..4 (strictly, as JS `===`) waits."""
    if _is_number(move) and move in (1, 2, 3, 4):
        return int(move)
    return WAIT


def parse_maze(value: Any, n: int) -> Maze:
    """The maze a `generateMaze` return value describes; raises Strike when it is illegal
    (shape, a missing interior property, a non-object cell). Border values are ignored."""
    if not isinstance(value, list):
        raise Strike(f"generateMaze({n}) returned {_kind(value)}, not an array of rows")
    if len(value) != n:
        raise Strike(f"generateMaze({n}) returned {len(value)} rows, expected {n}")
    maze = Maze.open(n)
    walls = maze.walls
    for row, cells in enumerate(value):
        if not isinstance(cells, list):
            raise Strike(f"generateMaze({n}): row {row} is {_kind(cells)}, not an array")
        if len(cells) != n:
            raise Strike(f"generateMaze({n}): row {row} has {len(cells)} cells, expected {n}")
        for col, cell in enumerate(cells):
            for side, needed in ((0, col < n - 1), (1, row < n - 1)):
                if not needed:
                    continue
                name = "east" if side == 0 else "south"
                if not isinstance(cell, dict) or name not in cell:
                    raise Strike(f"generateMaze({n}): cell [{row}][{col}] is {_kind(cell)}"
                                 f" without an {name!r} property")
                walls[(row * n + col) * 2 + side] = js_truthy(cell[name])
    if not maze.is_connected():
        raise Strike(f"generateMaze({n}) returned a maze that is not fully connected")
    return maze


def _kind(value: Any) -> str:
    """A short description of a JSON value for strike reasons."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return f"the boolean {str(value).lower()}"
    if isinstance(value, dict):
        return "an object"
    if isinstance(value, list):
        return f"an array of {len(value)}"
    return f"{type(value).__name__} {value!r}"


class LabyrinthState(State):
    """A game in progress: rounds n = 3, 4, ...; see the module docstring."""

    def __init__(self, seed: int | str, max_rounds: int = 500, cpu_limits: bool = True,
                 wall_slack_s: float = 2.0) -> None:
        self.seed_text = str(seed)
        self.max_rounds = max_rounds
        self.cpu_limits = cpu_limits
        self.wall_slack_s = wall_slack_s
        self.n = FIRST_MAZE_SIZE - 1
        self.round = 0
        self.completed = 0
        self.turn = 0
        self.total_turns = 0
        self.score = 0
        self.mana = 0
        self.banks = [ROUND_BANK_S, ROUND_BANK_S]
        self.maze = Maze.open(1)
        self.positions: list[Position] = [(0, 0, EAST), (0, 0, SOUTH)]
        self.phase = Phase.GENERATE
        self.end_reason = ""
        self.strike: dict[str, Any] | None = None
        self.last: dict[str, Any] = {}
        self._next_round()

    # -- whose call, and what it receives ------------------------------------------------
    def to_act(self) -> list[int]:
        if self.phase in (Phase.GENERATE, Phase.MAZE_MASTER_TURN):
            return [MAZE_MASTER]
        if self.phase is Phase.OVER:
            return []
        return [ADVENTURERS]

    def observation(self, seat: int) -> Call:
        phase = self.phase
        if phase is Phase.GENERATE:
            return Call("generateMaze", (self.n,))
        if phase is Phase.START_ROUND:
            return Call("startRound", (self.n,))
        if phase is Phase.ADVENTURERS_TURN:
            first, second = self.positions
            return Call("takeTurn", ([look(self.maze, first, second),
                                      look(self.maze, second, first)],))
        return Call("takeTurn", (self.mana, self.maze.bot_view(), self.adventurer_views()))

    def adventurer_views(self) -> list[dict[str, Any]]:
        """The adventurers as the maze master's third argument: `{row, col, dir}`."""
        return [{"row": row, "col": col, "dir": DIR_NAMES[facing]}
                for row, col, facing in self.positions]

    # -- clocks ------------------------------------------------------------------------
    def clock(self, seat: int) -> Clock:
        phase = self.phase
        if phase is Phase.GENERATE:
            cpu = GENERATE_S_PER_CELL * self.n * self.n
        elif phase is Phase.START_ROUND:
            cpu = START_ROUND_S
        else:
            cpu = max(0.0, self.banks[seat] + TURN_ALLOWANCE_S)
        if not self.cpu_limits:
            return Clock(reply_s=self.wall_slack_s + 10 * cpu)
        return Clock(reply_s=self.wall_slack_s + 10 * cpu, cpu_s=cpu)

    def handshake_clock(self, seat: int) -> Clock:
        return Clock(reply_s=HANDSHAKE_S + self.wall_slack_s)

    def charge(self, seat: int, cpu_s: float) -> None:
        """A takeTurn's CPU comes out of the round's bank, 1 ms a turn comes in."""
        if self.phase in (Phase.ADVENTURERS_TURN, Phase.MAZE_MASTER_TURN):
            self.banks[seat] += TURN_ALLOWANCE_S - cpu_s

    # -- steps -------------------------------------------------------------------------
    def apply(self, actions: Mapping[int, Any]) -> None:
        if self.phase is Phase.OVER:
            return
        seat = self.to_act()[0]
        if seat not in actions:  # the fault rule already struck
            return
        value = actions[seat]
        if isinstance(value, Answer):
            value = value.value
        self.last = {"call": str(self.phase)}
        try:
            if self.phase is Phase.GENERATE:
                self.maze = parse_maze(value, self.n)
                self.phase = Phase.START_ROUND
            elif self.phase is Phase.START_ROUND:
                self.phase = Phase.ADVENTURERS_TURN  # its return value means nothing
            elif self.phase is Phase.ADVENTURERS_TURN:
                self._adventurers_turn(value)
            else:
                self._maze_master_turn(value)
                self.phase = Phase.ADVENTURERS_TURN
        except Strike as strike:
            self._strike(seat, str(strike))

    def fault(self, seat: int, status: Status, detail: str) -> None:
        """Every fault is a strike: a crash (an exception in a bot method), a timeout (over
        a CPU limit) or an invalid reply."""
        what = {Status.TIMEOUT: "over its time limit", Status.CRASHED: "crashed",
                Status.INVALID: "invalid reply"}.get(status, str(status))
        self._strike(seat, f"{self.phase} {what}: {detail}")

    def _strike(self, seat: int, reason: str) -> None:
        self.strike = {"seat": seat, "role": ROLE_NAMES[seat], "reason": reason}
        self._end(f"strike ({ROLE_NAMES[seat]}): {reason}; outlier")

    def _end(self, reason: str) -> None:
        self.phase = Phase.OVER
        self.end_reason = reason

    def _next_round(self) -> None:
        if self.round >= self.max_rounds:
            self._end("round_cap")
            return
        self.round += 1
        self.n += 1
        self.phase = Phase.GENERATE
        self.mana = 0
        self.banks = [ROUND_BANK_S, ROUND_BANK_S]
        self.turn = 0
        self.positions = [(0, 0, EAST), (0, 0, SOUTH)]

    def _adventurers_turn(self, moves: Any) -> None:
        if not isinstance(moves, list):
            raise Strike(f"adventurers' takeTurn returned {_kind(moves)}, not an array")
        codes = [move_code(move) for move in moves]
        if any(code != WAIT for code in codes[2:]):
            raise Strike("adventurers' takeTurn returned an action for a third adventurer")
        self.turn += 1
        self.total_turns += 1
        for index, code in enumerate(codes[:2]):
            self.positions[index] = self._moved(self.positions[index], code)
        self.last["moves"] = codes[:2] + [WAIT] * (2 - len(codes[:2]))
        self.score -= 1
        n = self.n
        if any(row >= n - 1 and col >= n - 1 for row, col, _ in self.positions):
            self.score += SCORE_PER_MAZE
            self.completed += 1
            self.last["goal"] = True
            self._next_round()
        elif self.turn >= TURNS_PER_ROUND:
            self._end("turns")
        else:
            self.mana += mana_income(self.turn, n)
            self.phase = Phase.MAZE_MASTER_TURN

    def _moved(self, position: Position, code: int) -> Position:
        row, col, facing = position
        if code == FORWARD:
            edge = side_edge(self.maze, row, col, facing)
            if edge is None or self.maze.walls[edge]:
                return position
            d_row, d_col = OFFSETS[facing]
            return row + d_row, col + d_col, facing
        if code in (TURN_RIGHT, TURN_AROUND, TURN_LEFT):
            return row, col, (facing + code - 1) % 4
        return position

    def _maze_master_turn(self, value: Any) -> None:
        """Remove then add one wall, as the controller's takeTurn handling (research §4)."""
        if value is None:
            return
        if not (isinstance(value, list) and len(value) == 2):
            raise Strike(f"maze master's takeTurn returned {_kind(value)}; it must be null"
                         " or an array of 2 wall coordinates or nulls")
        for item in value:
            if item is not None and not (
                    isinstance(item, list) and len(item) == 3 and _is_number(item[0])
                    and _is_number(item[1]) and item[2] in ("south", "east")):
                raise Strike(f"maze master's takeTurn returned the wall {item!r}; a wall is"
                             " [row, col, 'south'|'east']")
        remove, add = value
        changes = self.last.setdefault("changes", [])
        if remove is not None and add is not None and all(
                a == b for a, b in zip(remove, add, strict=True)):  # JS ===: NaN differs
            self.last["ignored"] = "the same wall to remove and to add"
            return
        for item in (remove, add):
            if item is not None and not all(math.isfinite(x) and x == int(x) for x in item[:2]):
                raise Strike(f"maze master's takeTurn: wall {item!r} has a non-integer"
                             " coordinate")
        maze = self.maze
        slots = []
        total = 0
        for op, item in (("remove", remove), ("add", add)):
            if item is None:
                continue
            edge = maze.edge(int(item[0]), int(item[1]), item[2])
            wanted = op == "add"
            cost = 0 if edge is None or maze.walls[edge] == wanted else maze.cost(edge)
            total += cost
            slots.append((op, item, edge, wanted, cost))
        if total > self.mana:
            self.last["ignored"] = f"costs {total} mana, has {self.mana}"
            return
        self.mana -= total
        protected = protected_edges(maze, self.positions)
        added = None
        for op, item, edge, wanted, cost in slots:
            wall = [int(item[0]), int(item[1]), item[2]]
            if edge is None:
                result = "border"
            elif maze.walls[edge] == wanted:
                result = "unchanged"
            elif edge in protected:
                result = "visible"
            else:
                maze.set(edge, wanted)
                result = "changed"
                if wanted:
                    added = wall
            changes.append({"op": op, "wall": wall, "cost": cost, "result": result})
        if added is not None and not maze.is_connected():
            raise Strike(f"the wall {added} added by the maze master's takeTurn disconnects"
                         " the maze")

    # -- results -----------------------------------------------------------------------
    def is_over(self) -> bool:
        return self.phase is Phase.OVER

    def outcome(self) -> Outcome:
        statuses: list[str | None] = [None, None]
        if self.strike is not None:
            statuses[self.strike["seat"]] = "strike"
        return Outcome(scores=[self.score, self.score], end_reason=self.end_reason,
                       ranks=[1, 1], statuses=statuses)

    @property
    def step_count(self) -> int:
        return self.total_turns

    def header(self) -> dict[str, Any]:
        return {"seed_string": self.seed_text, "roles": list(ROLE_NAMES)}

    def frame(self) -> dict[str, Any]:
        """The maze, both adventurers with what each sees, mana, banks and this step's
        changes (the controller's to-do: show visible cells and changes since last move)."""
        frame: dict[str, Any] = {
            "round": self.round, "n": self.n, "turn": self.turn, "score": self.score,
            "mana": self.mana, "next": str(self.phase), **self.last,
        }
        if self.maze.n == self.n:
            frame["maze"] = self.maze.rows_text()
            adventurers = []
            for index, me in enumerate(self.positions):
                sight = Sight()
                look(self.maze, me, self.positions[1 - index], sight)
                adventurers.append({
                    "row": me[0], "col": me[1], "dir": DIR_NAMES[me[2]],
                    "cells": sorted(set(sight.cells)),
                    "walls": [list(self.maze.coords(edge)) for edge in sorted(sight.edges)],
                })
            frame["adventurers"] = adventurers
        if self.strike is not None:
            frame["strike"] = self.strike
            frame["outlier"] = True
        return frame
