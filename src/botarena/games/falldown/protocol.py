"""The Falldown wire format: `READY`, then per slot 13 lines in and one command line out.

Replies are read as the original engine (Java's `BufferedReader.readLine`, `String.trim`,
`split(" ")`) reads them, so any text is a command: anything but exactly `U R D L A N` is `N`.
"""

from __future__ import annotations

from collections.abc import Callable
from itertools import chain
from typing import Any

from botarena.core.protocol import Protocol
from botarena.games.falldown.rules import (
    BLOCKS,
    COMMANDS,
    JAVA_BLANKS,
    SEATS,
    Observation,
    command_of,
)

READY = "READY"
EOD = "EOD"

STATE_FORMAT = "\n".join(
    ["%d", "%d", *[" ".join(["%d"] * BLOCKS)] * BLOCKS, *["%d %d %s %d"] * SEATS, EOD, ""]
)
"""One slot's 13 lines, filled in one formatting call (the exchange's largest cost)."""


class FalldownProtocol(Protocol):
    """`id`, `T`, 6 block rows, 4 player lines `x y D S`, `EOD`; the reply is one line."""

    has_handshake = True
    java_line_breaks = True  # the engine reads with Java's readLine: LF, CR or CR LF
    # the engine's READY loop reads null (the end of output) until its 1 s time-out
    handshake_waits_out_a_crash = True

    def handshake_done(self, line: str) -> bool:
        """A line that is `READY` after Java's trim (lines before it are ignored)."""
        return line.strip(JAVA_BLANKS) == READY

    def encode(self, observation: Observation) -> str:
        return STATE_FORMAT % (
            observation.seat,
            observation.turn,
            *observation.blocks,
            *chain.from_iterable(observation.players),
        )

    def parse(self, lines: list[str], observation: Any = None) -> str:
        """The command of the reply line; never raises (no reply is a fault)."""
        line = lines[0] if lines else ""
        return line if line in COMMANDS else command_of(line)

    def read_observation(self, readline: Callable[[], str]) -> Observation | None:
        """Bot side: one state block, or None at the end of input."""
        lines = []
        while True:
            line = readline()
            if not line:
                return None
            lines.append(line.strip())
            if lines[-1] == EOD:
                break
        lines = lines[-(3 + BLOCKS + SEATS) :]
        blocks = tuple(int(value) for row in lines[2 : 2 + BLOCKS] for value in row.split())
        players = []
        for row in lines[2 + BLOCKS : 2 + BLOCKS + SEATS]:
            x, y, facing, wait = row.split()
            players.append((int(x), int(y), facing, int(wait)))
        return Observation(int(lines[0]), int(lines[1]), blocks, tuple(players))


PROTOCOL = FalldownProtocol()
