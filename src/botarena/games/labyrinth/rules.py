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
from functools import cache
from typing import Any, ClassVar

from botarena.core.rules import Clock, Outcome, State, Status
from botarena.games.labyrinth.maze import SIDES, Maze, copy_view, mana_income
from botarena.games.labyrinth.vision import (
    DIR_NAMES,
    EAST,
    OFFSETS,
    SOUTH,
    Position,
    Sight,
    look,
    protected_edges,
    wall_edge,
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
class MazeMasterTurn:
    """The maze master's `takeTurn(mana, maze, adventurers)`, holding the maze as the maze's
    shared view (never changed in place, `Maze.shared_view`): the fresh n×n copy the bot
    receives is made only when `args` is read (an in-process bot, a text protocol), and a
    transport that keeps the maze on the other side sends only the cells that changed."""

    mana: int
    view: list[list[dict[str, Any]]]
    adventurers: list[dict[str, Any]]
    name: ClassVar[str] = "takeTurn"

    @property
    def args(self) -> tuple[int, list[list[dict[str, Any]]], list[dict[str, Any]]]:
        """The call's arguments, a fresh copy of the maze each time."""
        return self.mana, copy_view(self.view), self.adventurers


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
    (shape, a null cell, an interior cell without its own `east`/`south`, disconnected).
    Border values are ignored (the controller forces them to null)."""
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
            if cell is None:
                raise Strike(f"generateMaze({n}): cell [{row}][{col}] is null")
            for side, needed in ((0, col < n - 1), (1, row < n - 1)):
                if not needed:
                    continue
                name = "east" if side == 0 else "south"
                if not isinstance(cell, dict) or name not in cell:
                    raise Strike(
                        f"generateMaze({n}): cell [{row}][{col}] is {_kind(cell)}"
                        f" without an {name!r} property"
                    )
                walls[(row * n + col) * 2 + side] = js_truthy(cell[name])
    if not maze.is_connected():
        raise Strike(f"generateMaze({n}) returned a maze that is not fully connected")
    return maze


def parse_wall(item: Any) -> tuple[int, int, str] | None:
    """A wall coordinate `[row, col, 'south'|'east']` (or null) of the maze master's reply;
    raises Strike when it is anything else, fractional, NaN or infinite included."""
    if item is None:
        return None
    if (
        isinstance(item, list)
        and len(item) == 3
        and item[2] in ("south", "east")
        and all(_is_number(x) and math.isfinite(x) and x == int(x) for x in item[:2])
    ):
        return int(item[0]), int(item[1]), item[2]
    raise Strike(
        f"maze master's takeTurn returned the wall {item!r}; a wall is"
        " [row, col, 'south'|'east'] with integer row and col"
    )


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
    """A game in progress: rounds n = 3, 4, ...; see the module docstring.

    `round` and `n` describe the maze on the board (0 before the first); after a goal the
    board stays as it was, the adventurers on the goal, until the next maze is generated.
    """

    def __init__(
        self,
        seed: int | str,
        max_rounds: int = 500,
        cpu_limits: bool = True,
        wall_slack_s: float = 2.0,
    ) -> None:
        self.seed_text = str(seed)
        self.max_rounds = max_rounds
        self.cpu_limits = cpu_limits
        self.wall_slack_s = wall_slack_s
        self.round = 0
        self.n = 0
        self.completed = 0
        self.turn = 0
        self.total_turns = 0
        self.score = 0
        self.mana = 0
        self.banks = [ROUND_BANK_S, ROUND_BANK_S]
        self.maze = Maze.open(0)
        self.positions: list[Position] = [(0, 0, EAST), (0, 0, SOUTH)]
        self.phase = Phase.GENERATE
        self.end_reason = ""
        self.strike: dict[str, Any] | None = None
        self.last: dict[str, Any] = {}
        self._looked_at: tuple[Any, ...] = ()
        """(maze, its version, positions) the last frame looked at: what the adventurers
        see holds until one of these changes (a maze master's turn that changed no wall
        leaves it as it was)."""
        self._sights: list[dict[str, Any]] = []  # the frame's adventurers, for _looked_at
        self._visions: list[dict[str, Any]] | None = None
        """Their visions, for the adventurers' next call to take once (a bot may change
        what it is handed)."""

    @property
    def next_size(self) -> int:
        """The size of the next maze to generate: 3 for the first round, then one more."""
        return FIRST_MAZE_SIZE + self.round

    # -- whose call, and what it receives ------------------------------------------------
    def to_act(self) -> list[int]:
        phase = self.phase
        if phase is Phase.ADVENTURERS_TURN or phase is Phase.START_ROUND:
            return [ADVENTURERS]
        if phase is Phase.OVER:
            return []
        return [MAZE_MASTER]

    def observation(self, seat: int) -> Call | MazeMasterTurn:
        phase = self.phase
        if phase is Phase.ADVENTURERS_TURN:
            return Call("takeTurn", (self._adventurer_visions(),))
        if phase is Phase.MAZE_MASTER_TURN:
            return MazeMasterTurn(self.mana, self.maze.shared_view(), self.adventurer_views())
        if phase is Phase.GENERATE:
            return Call("generateMaze", (self.next_size,))
        return Call("startRound", (self.n,))

    def _adventurer_visions(self) -> list[dict[str, Any]]:
        """Both adventurers' visions: those the last frame looked up, if the maze and they
        have not changed since (taken once), else looked up now."""
        visions, self._visions = self._visions, None
        if visions is not None and self._still_looked_at():
            return visions
        first, second = self.positions
        return [look(self.maze, first, second), look(self.maze, second, first)]

    def _still_looked_at(self) -> bool:
        """Whether the maze and the adventurers are as the last frame looked at them."""
        looked, maze = self._looked_at, self.maze
        return (
            bool(looked)
            and looked[0] is maze
            and looked[1] == maze.version
            and looked[2] == tuple(self.positions)
        )

    def adventurer_views(self) -> list[dict[str, Any]]:
        """The adventurers as the maze master's third argument: `{row, col, dir}`."""
        return [
            {"row": row, "col": col, "dir": DIR_NAMES[facing]}
            for row, col, facing in self.positions
        ]

    # -- clocks ------------------------------------------------------------------------
    def clock(self, seat: int) -> Clock:
        phase = self.phase
        if phase is Phase.GENERATE:
            cpu = GENERATE_S_PER_CELL * self.next_size**2
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
        if self.phase is Phase.ADVENTURERS_TURN or self.phase is Phase.MAZE_MASTER_TURN:
            self.banks[seat] += TURN_ALLOWANCE_S - cpu_s

    # -- steps -------------------------------------------------------------------------
    def apply(self, actions: Mapping[int, Any]) -> None:
        phase = self.phase
        if phase is Phase.OVER:
            return
        seat = (
            ADVENTURERS
            if phase is Phase.ADVENTURERS_TURN or phase is Phase.START_ROUND
            else MAZE_MASTER
        )
        if seat not in actions:  # the fault rule already struck
            return
        value = actions[seat]
        if isinstance(value, Answer):
            value = value.value
        self.last = {"call": str(phase)}
        try:
            if phase is Phase.ADVENTURERS_TURN:
                self._adventurers_turn(value)
            elif phase is Phase.MAZE_MASTER_TURN:
                self._maze_master_turn(value)
                self.phase = Phase.ADVENTURERS_TURN
            elif phase is Phase.GENERATE:
                self._start_round(parse_maze(value, self.next_size))
            else:
                self.phase = Phase.ADVENTURERS_TURN  # startRound's return value means nothing
        except Strike as strike:
            self._strike(seat, str(strike))

    def fault(self, seat: int, status: Status, detail: str) -> None:
        """Every fault is a strike: a crash (an exception in a bot method), a timeout (over
        a CPU limit) or an invalid reply; a seat faulting out of turn failed the handshake."""
        what = {
            Status.TIMEOUT: "over its time limit",
            Status.CRASHED: "crashed",
            Status.INVALID: "invalid reply",
        }.get(status, str(status))
        call = str(self.phase) if seat in self.to_act() else "setup"  # the handshake
        self._strike(seat, f"{call} {what}: {detail}")

    def _strike(self, seat: int, reason: str) -> None:
        self.strike = {"seat": seat, "role": ROLE_NAMES[seat], "reason": reason}
        self._end(f"strike ({ROLE_NAMES[seat]}): {reason}; outlier")

    def _end(self, reason: str) -> None:
        self.phase = Phase.OVER
        self.end_reason = reason

    def _start_round(self, maze: Maze) -> None:
        """A valid maze is on the board: the controller's startRound from step 5 on."""
        self.maze = maze
        self.round += 1
        self.n = maze.n
        self.mana = 0
        self.banks = [ROUND_BANK_S, ROUND_BANK_S]
        self.turn = 0
        self.positions = [(0, 0, EAST), (0, 0, SOUTH)]
        self.phase = Phase.START_ROUND

    def _adventurers_turn(self, moves: Any) -> None:
        if not isinstance(moves, list):
            raise Strike(f"adventurers' takeTurn returned {_kind(moves)}, not an array")
        codes = [move_code(move) for move in moves]
        if any(code != WAIT for code in codes[2:]):
            raise Strike("adventurers' takeTurn returned an action for a third adventurer")
        codes = [*codes, WAIT, WAIT][:2]
        self.turn += 1
        self.total_turns += 1
        n, walls, positions = self.n, self.maze.walls, self.positions
        for index, code in enumerate(codes):
            if code == WAIT:
                continue
            row, col, facing = positions[index]
            if code != FORWARD:
                positions[index] = (row, col, (facing + code - 1) % 4)
                continue
            edge = wall_edge(n, row, col, facing)
            if edge >= 0 and not walls[edge]:
                d_row, d_col = OFFSETS[facing]
                positions[index] = (row + d_row, col + d_col, facing)
        self.last["moves"] = codes
        self.score -= 1
        goal = n - 1
        if any(row == goal and col == goal for row, col, _ in positions):
            self.score += SCORE_PER_MAZE
            self.completed += 1
            self.last["goal"] = True
            if self.round >= self.max_rounds:
                self._end("round_cap")
            else:
                self.phase = Phase.GENERATE
        elif self.turn >= TURNS_PER_ROUND:
            self._end("turns")
        else:
            self.mana += mana_income(self.turn, n)
            self.phase = Phase.MAZE_MASTER_TURN

    def _maze_master_turn(self, value: Any) -> None:
        """Remove then add one wall, as the controller's takeTurn handling (research §4)."""
        if value is None:
            return
        if not (isinstance(value, list) and len(value) == 2):
            raise Strike(
                f"maze master's takeTurn returned {_kind(value)}; it must be null"
                " or an array of 2 wall coordinates or nulls"
            )
        remove, add = parse_wall(value[0]), parse_wall(value[1])
        if remove is not None and remove == add:
            self.last["ignored"] = "the same wall to remove and to add"
            return
        maze = self.maze
        walls = maze.walls
        slots = []
        total = 0
        for op, wall, wanted in (("remove", remove, False), ("add", add, True)):
            if wall is None:
                continue
            edge = maze.edge(*wall)
            cost = 0 if edge is None or walls[edge] == wanted else maze.cost(edge)
            total += cost
            slots.append((op, wall, edge, cost))
        if total > self.mana:
            self.last["ignored"] = f"costs {total} mana, has {self.mana}"
            return
        self.mana -= total
        # visibility is judged once, before either change, from where the adventurers stand
        protected = protected_edges(maze, self.positions) if total else set()
        changes = self.last["changes"] = []
        added = -1
        for op, wall, edge, cost in slots:
            if edge is None:
                result = "border"
            elif not cost:
                result = "unchanged"
            elif edge in protected:
                result = "visible"
            else:
                maze.set(edge, op == "add")
                result = "changed"
                if op == "add":
                    added = edge
            changes.append({"op": op, "wall": list(wall), "cost": cost, "result": result})
        if added >= 0 and not maze.still_connected(added):
            raise Strike(
                f"the wall {list(maze.coords(added))} added by the maze master's"
                " takeTurn disconnects the maze"
            )

    # -- results -----------------------------------------------------------------------
    def is_over(self) -> bool:
        return self.phase is Phase.OVER

    def outcome(self) -> Outcome:
        """Both roles get the game's one score (the adventurers want it high, the maze master
        low); both rank 1 (each role competes only within its role), except that a bot with
        a strike ranks 2."""
        statuses: list[str | None] = [None, None]
        ranks = [1, 1]
        if self.strike is not None:
            statuses[self.strike["seat"]] = "strike"
            ranks[self.strike["seat"]] = 2
        return Outcome(
            scores=[self.score, self.score],
            end_reason=self.end_reason,
            ranks=ranks,
            statuses=statuses,
        )

    @property
    def step_count(self) -> int:
        return self.total_turns

    def header(self) -> dict[str, Any]:
        return {"seed_string": self.seed_text, "roles": list(ROLE_NAMES)}

    def _maze_changed(self) -> bool:
        """Whether this step drew a new maze or changed a wall (frames carry the maze only
        then: a long game's replay would otherwise repeat it thousands of times)."""
        return self.last.get("call") == Phase.GENERATE or any(
            change["result"] == "changed" for change in self.last.get("changes", ())
        )

    def frame(self) -> dict[str, Any]:
        """The board after this step: the maze (when it changed), both adventurers with
        facing and the cells and walls each one sees, mana, and this step's moves or wall
        changes with their costs (the controller's to-do: show visible cells and changes
        since the last move)."""
        frame: dict[str, Any] = {
            "round": self.round,
            "n": self.n,
            "turn": self.turn,
            "score": self.score,
            "mana": self.mana,
            "next": str(self.phase),
            **self.last,
        }
        if self.round:
            if self._maze_changed():
                frame["maze"] = self.maze.rows_text()
            frame["adventurers"] = self._frame_sights()
        if self.strike is not None:
            frame["strike"] = self.strike
            frame["outlier"] = True
        return frame

    def _frame_sights(self) -> list[dict[str, Any]]:
        """Both adventurers as a frame shows them: where each stands and faces, and the
        cells and walls it sees (the last frame's, while the maze and they are unchanged;
        frames are never changed once made, so they may share it)."""
        if self._still_looked_at():
            return self._sights
        maze, positions = self.maze, tuple(self.positions)
        cell_items, wall_items = _frame_items(maze.n)
        adventurers, visions = [], []
        for index, me in enumerate(positions):
            sight = Sight()
            visions.append(look(maze, me, positions[1 - index], sight))
            adventurers.append(
                {
                    "row": me[0],
                    "col": me[1],
                    "dir": DIR_NAMES[me[2]],
                    "cells": [cell_items[cell] for cell in sorted(set(sight.cells))],
                    "walls": [wall_items[edge] for edge in sorted(sight.edges)],
                }
            )
        self._looked_at = (maze, maze.version, positions)
        self._sights, self._visions = adventurers, visions
        return adventurers


@cache
def _frame_items(n: int) -> tuple[dict[tuple[int, int], list[int]], list[list[int | str]]]:
    """How a frame writes each cell ([row, col]) and each wall edge ([row, col, side]) of an
    n×n maze: made once per size, and shared by every frame that shows them (frames are
    never changed once made), instead of a new list per item per frame."""
    cells = {(row, col): [row, col] for row in range(n) for col in range(n)}
    walls: list[list[int | str]] = []
    for edge in range(2 * n * n):
        row, col = divmod(edge >> 1, n)
        walls.append([row, col, SIDES[edge & 1]])
    return cells, walls
