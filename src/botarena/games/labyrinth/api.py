"""The in-process Python interface: subclass `Adventurers` or `MazeMaster` and write the
original controller's methods (`start_round`/`take_turn`, `generate_maze`/`take_turn`).

Each bot gets `self.random`, the controller's seeded RNG (seed + ':A' or ':M'), so a game
is reproduced from its seed. The same object also runs as a process through the JSON-lines
protocol (`run_stdio`), so a built-in bot plays the same way in both.
"""

from __future__ import annotations

import functools
import inspect
import json
from collections.abc import Callable
from typing import Any, ClassVar

from botarena.core.rules import GameError
from botarena.games.labyrinth.protocol import bot_seed
from botarena.games.labyrinth.rng import seeded_random
from botarena.games.labyrinth.rules import ROLE_NAMES, Answer, Call


class LabyrinthBot:
    """Dispatches interface calls to methods; the return value goes through JSON so an
    in-process bot is judged on exactly what a process would have sent."""

    seat: int = -1
    methods: ClassVar[dict[str, str]] = {}

    def __init__(self) -> None:
        self.random: Callable[[], float] = seeded_random(bot_seed("", self.seat))
        self.bank = Bank()

    def setup(self, seat: int, seed: str) -> None:
        """Called by the in-process player with `GAMESEED:SEAT`: check the role, seed the RNG."""
        if seat != self.seat:
            raise GameError(
                f"{type(self).__name__} plays the {ROLE_NAMES[self.seat]}, it"
                f" cannot take seat {seat} ({ROLE_NAMES[seat]})"
            )
        self.random = seeded_random(bot_seed(seed.rsplit(":", 1)[0], seat))

    def act(self, call: Call) -> Answer:
        if call.name == "setup":  # a process bot's handshake: its role and its seed
            if call.args[0] != ROLE_NAMES[self.seat]:
                raise GameError(
                    f"{type(self).__name__} plays the {ROLE_NAMES[self.seat]},"
                    f" not the {call.args[0]}"
                )
            self.random = seeded_random(call.args[1])
            return Answer("ready")
        if call.name != "takeTurn":
            self.bank.new_round()
            return self._call(call)
        self.bank.begin()
        try:
            return self._call(call)
        finally:
            self.bank.end()

    def _call(self, call: Call) -> Answer:
        method = getattr(self, self.methods[call.name])
        args = call.args[
            : positional_count(getattr(method, "__func__", method)) - hasattr(method, "__func__")
        ]  # a 2-argument take_turn still runs
        return Answer(json.loads(json.dumps(method(*args))))


@functools.cache
def positional_count(function: Callable[..., Any]) -> int:
    """How many positional arguments `function` takes (a large number for *args)."""
    count = 0
    for parameter in inspect.signature(function).parameters.values():
        if parameter.kind is parameter.VAR_POSITIONAL:
            return 1 << 20
        if parameter.kind in (parameter.POSITIONAL_ONLY, parameter.POSITIONAL_OR_KEYWORD):
            count += 1
    return count


class Adventurers(LabyrinthBot):
    """The two adventurers: `start_round(maze_size)`, `take_turn([vision_a, vision_b])`
    returning two actions (0 wait, 1 forward, 2 turn right, 3 turn around, 4 turn left)."""

    seat = 0
    methods: ClassVar[dict[str, str]] = {"startRound": "start_round", "takeTurn": "take_turn"}

    def start_round(self, maze_size: int) -> Any:
        return None

    def take_turn(self, vision: list[dict[str, Any]]) -> Any:
        return [0, 0]


class MazeMaster(LabyrinthBot):
    """The maze master: `generate_maze(maze_size)` returning rows of `{east, south}` cells,
    `take_turn(mana, maze, adventurers)` returning `[remove, add]` walls or None. The third
    argument is optional: a `take_turn(mana, maze)` written for the original is called
    with two."""

    seat = 1
    methods: ClassVar[dict[str, str]] = {"generateMaze": "generate_maze", "takeTurn": "take_turn"}

    def generate_maze(self, maze_size: int) -> Any:
        raise NotImplementedError

    def take_turn(
        self, mana: int, maze: list[list[dict[str, Any]]], adventurers: list[dict[str, Any]]
    ) -> Any:
        return None


class Bank:
    """A bot's own estimate of its CPU bank (50 ms a round + 1 ms a turn), so a bot can skip
    expensive thinking rather than earn a time strike.

    A turn is charged what its work is estimated to cost (TURN_S, plus the estimate a bot
    gives `think` for a turn that thinks), never a clock's reading: the same seed plays the
    same game on any machine, loaded or not."""

    TURN_S = 0.0002
    """A turn that does not think: the call, the bookkeeping, the moves."""

    def __init__(self, reserve_s: float = 0.015) -> None:
        self.reserve_s = reserve_s
        self.left_s = 0.050
        self._turn_s = 0.0  # this turn's estimated cost so far

    def new_round(self) -> None:
        self.left_s = 0.050

    def begin(self) -> None:
        self.left_s += 0.001
        self._turn_s = self.TURN_S

    def end(self) -> None:
        self.left_s -= self._turn_s

    def think(self, cost_s: float) -> bool:
        """Whether an expensive step estimated at `cost_s` fits this turn, keeping
        `reserve_s` in the bank; a True answer charges it to the turn."""
        if self.left_s - self._turn_s - cost_s < self.reserve_s:
            return False
        self._turn_s += cost_s
        return True
