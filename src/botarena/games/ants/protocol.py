"""The 2011 wire format: turn-0 parameters and `ready`, `turn N` ... `go`, orders, `end`.

Jury side: the greeting is the parameter block; a bot answers it with `go`. Each turn a bot
reads `turn N`, its visible state (`w`, `h`, `a`, `f`, `d` lines in its own numbering) and
`go`, and answers with `o ROW COL DIR` lines and `go`. Order lines are never a protocol
fault: the rules log bad ones and drop them (or kill the bot in strict mode), as in 2011.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from botarena.core.protocol import Protocol
from botarena.games.ants.observation import Observation, Params

DIRECTIONS = frozenset("nesw")
PARAMETER_ORDER = (
    "loadtime",
    "turntime",
    "rows",
    "cols",
    "turns",
    "viewradius2",
    "attackradius2",
    "spawnradius2",
    "player_seed",
)


def parameter_block(params: Params) -> str:
    """`turn 0`, one `key value` line per parameter in the 2011 order, then `ready`."""
    lines = ["turn 0"] + [f"{key} {getattr(params, key)}" for key in PARAMETER_ORDER]
    return "\n".join(lines) + "\nready\n"


def _join(values: list[Any]) -> str:
    return " ".join(str(value) for value in values)


def _own_ants(observation: Observation) -> list[tuple[int, int]]:
    return [(row, col) for row, col, owner in observation.ants if owner == 0]


class AntsProtocol(Protocol):
    """Ants 2011. Bot side: one instance per bot; it remembers the turn-0 parameters."""

    has_handshake = True
    simultaneous_handshake = True  # the 2011 engine sends turn 0 to all, then waits for all

    def __init__(self) -> None:
        self._params: Params | None = None

    def greeting(self, state: Any, seat: int) -> str:
        return parameter_block(state.params)

    def handshake_done(self, line: str) -> bool:
        return line.strip().lower() == "go"

    def encode(self, observation: Observation) -> str:
        if observation.end:
            head = (
                f"end\nplayers {observation.params.players}\n"
                f"score {_join(observation.scores or [])}\n"
                f"status {_join(observation.statuses or [])}\n"
                f"playerturns {_join(observation.playerturns or [])}\n"
            )
        else:
            head = f"turn {observation.turn}\n"
        parts = [head]
        parts += [f"w {r} {c}\n" for r, c in observation.water]
        parts += [f"h {r} {c} {o}\n" for r, c, o in observation.hills]
        parts += [f"a {r} {c} {o}\n" for r, c, o in observation.ants]
        parts += [f"f {r} {c}\n" for r, c in observation.food]
        parts += [f"d {r} {c} {o}\n" for r, c, o in observation.dead]
        parts.append("go\n")
        return "".join(parts)

    def reply_complete(self, lines: list[str]) -> bool:
        return bool(lines) and lines[-1].strip().lower() == "go"

    def parse(self, lines: list[str], observation: Any = None) -> list[str]:
        """The order lines before `go`; the rules judge each one."""
        return [line for line in lines if line.strip().lower() != "go"]

    def format(self, action: Any) -> str:
        """Orders as (row, col, direction) tuples or lines, then `go`."""
        lines = [
            item if isinstance(item, str) else "o {} {} {}".format(*tuple(item)) for item in action
        ]
        return "\n".join([*lines, "go"])

    def pack_reply(self, text: str, observation: Any) -> str | None:
        """One letter per own ant in the order the bot was told them (`-`: no order), as the
        2011 replay stores moves, then `/` and the ants' indices in the bot's order when it
        ordered them otherwise; None when the reply is not exactly such orders."""
        if not isinstance(observation, Observation) or observation.turn == 0:
            return None
        index = {
            (str(row), str(col)): number for number, (row, col) in enumerate(_own_ants(observation))
        }
        letters = ["-"] * len(index)
        order = []
        for line in text.split("\n")[:-1]:
            words = line.split(" ")
            number = index.get((words[1], words[2])) if len(words) == 4 else None
            if number is None or words[0] != "o" or words[3] not in DIRECTIONS:
                return None
            letters[number] = words[3]
            order.append(number)
        packed = "".join(letters).rstrip("-")
        if order != sorted(order):
            packed += "/" + ",".join(map(str, order))
        return packed

    def unpack_reply(self, packed: str, observation: Any) -> str:
        letters, _, order_text = packed.partition("/")
        own = _own_ants(observation)
        order = (
            [int(number) for number in order_text.split(",")]
            if order_text
            else [number for number, letter in enumerate(letters) if letter != "-"]
        )
        lines = [f"o {own[number][0]} {own[number][1]} {letters[number]}" for number in order]
        return "\n".join([*lines, "go"])

    def farewell(self, state: Any, seat: int) -> str | None:
        """The `end` message: kept from the turn a bot was eliminated, else the final one."""
        observation = state.end_observations.get(seat)
        if observation is None and state.is_alive(seat):
            observation = state.end_observation(seat)
        return None if observation is None else self.encode(observation)

    # -- bot side ----------------------------------------------------------------------
    def read_observation(self, readline: Callable[[], str]) -> Observation | None:
        """Read the parameter block (turn 0), a turn, or the end (returns None)."""
        first = readline()
        while first and not first.strip():
            first = readline()
        if not first:
            return None
        head = first.strip().lower().split()
        if head[:2] == ["turn", "0"]:
            values: dict[str, int] = {}
            for line in iter(readline, ""):
                words = line.split()
                if words and words[0].lower() == "ready":
                    break
                if len(words) == 2 and words[0] in PARAMETER_ORDER:
                    values[words[0]] = int(words[1])
            values.setdefault("player_seed", 0)
            self._params = Params(players=0, **{k: values.get(k, 0) for k in PARAMETER_ORDER})
            return Observation(turn=0, params=self._params)
        if head[0] == "end" or self._params is None:
            return None
        observation = Observation(turn=int(head[1]), params=self._params)
        for line in iter(readline, ""):
            words = line.split()
            if not words:
                continue
            kind = words[0]
            if kind == "go":
                break
            numbers = tuple(int(word) for word in words[1:])
            if kind == "w":
                observation.water.append(numbers)  # type: ignore[arg-type]
            elif kind == "f":
                observation.food.append(numbers)  # type: ignore[arg-type]
            elif kind in "had" and len(numbers) == 3:
                listed = {"h": observation.hills, "a": observation.ants, "d": observation.dead}
                listed[kind].append(numbers)
        return observation


PROTOCOL = AntsProtocol()
