"""The wire format. A bot reads a line `SEAT COLUMNS ROWS LAST` (its seat 0 or 1, the board's
size, the column played last or -1), then ROWS lines of the board, top row first (`.` empty,
`X` the first player's disc, `O` the second's); it answers one line: a column, 0 at the left.
A column that is not a number, is off the board or is full is an invalid reply."""

from __future__ import annotations

from collections.abc import Callable

from botarena.core.protocol import Protocol
from botarena.core.rules import ProtocolError
from botarena_connect4.rules import Observation


class Connect4Protocol(Protocol):
    def encode(self, observation: Observation) -> str:
        board = observation.board
        head = f"{observation.seat} {len(board[0])} {len(board)} {observation.last}"
        return "\n".join([head, *board, ""])

    def parse(self, lines: list[str], observation: Observation) -> int:
        text = lines[0].strip() if lines else ""
        try:
            column = int(text)
        except ValueError:
            raise ProtocolError(f"{text!r} is not a column number") from None
        if column not in observation.legal():
            raise ProtocolError(f"column {text!r} is off the board or full")
        return column

    def read_observation(self, readline: Callable[[], str]) -> Observation | None:
        head = readline().split()
        if len(head) != 4:
            return None
        seat, _, rows, last = (int(value) for value in head)
        board = tuple(readline().strip() for _ in range(rows))
        return Observation(seat, board, last)


PROTOCOL = Connect4Protocol()
