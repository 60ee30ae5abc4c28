"""The Amazes wire format: the look as five (or six) lines, the move as one line of FTLR."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from botarena.core.protocol import Protocol
from botarena.core.rules import ProtocolError
from botarena.games.amazes.rules import Observation

MAX_STEPS = 256
MOVE_LETTERS = frozenset("FTLR")


class AmazesProtocol(Protocol):
    """`Start` (Red's first turn only), ahead, right, behind, left, squared distance;
    the reply is one line of 1 to 256 letters F, T, L, R."""

    def encode(self, observation: Observation) -> str:
        head = "Start\n" if observation.start else ""
        corridors = "\n".join(observation.corridors)
        return f"{head}{corridors}\n{observation.distance2}\n"

    def parse(self, lines: list[str], observation: Any = None) -> str:
        line = lines[0]
        if not line:
            raise ProtocolError("empty line; a move has 1 to 256 letters F, T, L, R")
        if len(line) > MAX_STEPS:
            raise ProtocolError(
                f"{len(line)} steps in one move, more than {MAX_STEPS}: {line[:20]!r}..."
            )
        if line.strip("FTLR"):
            bad = next(char for char in line if char not in MOVE_LETTERS)
            raise ProtocolError(
                f"illegal character {bad!r} in move {line[:40]!r}; only F, T, L and R are allowed"
            )
        return line

    def farewell(self, state: Any, seat: int) -> str | None:
        """Both programs read `Quit` when sudden death ends the game early; after 150 turns
        each they exit by themselves."""
        return "Quit\n" if state.end_reason == "sudden_death" else None

    def read_observation(self, readline: Callable[[], str]) -> Observation | None:
        first = readline()
        if not first or first.strip() == "Quit":
            return None
        start = first.strip() == "Start"
        lines = [] if start else [first.strip()]
        while len(lines) < 5:
            line = readline()
            if not line:
                return None
            lines.append(line.strip())
        return Observation(
            start=start,
            corridors=tuple(lines[:4]),  # type: ignore[arg-type]
            distance2=int(lines[4]),
        )


PROTOCOL = AmazesProtocol()
