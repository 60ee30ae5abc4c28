"""A bot's own estimate of its CPU bank (50 ms a round + 1 ms a turn), so that the
built-in bots skip expensive thinking rather than earn a time strike."""

from __future__ import annotations

import time


class Bank:
    """Tracks process CPU time spent in a bot's takeTurn against the round's bank."""

    def __init__(self, reserve_s: float = 0.015) -> None:
        self.reserve_s = reserve_s
        self.left_s = 0.050
        self._started = 0.0

    def new_round(self) -> None:
        self.left_s = 0.050

    def begin(self) -> None:
        self.left_s += 0.001
        self._started = time.process_time()

    def end(self) -> None:
        self.left_s -= time.process_time() - self._started

    @property
    def can_think(self) -> bool:
        """Whether there is room for an expensive turn."""
        return self.left_s > self.reserve_s
