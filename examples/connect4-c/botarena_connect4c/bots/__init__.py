"""The built-in bots: examples/connect4's, reading the text the C referee sends
(`builtin:connect4c/NAME`, or as processes `python -m botarena_connect4c.bots.NAME`)."""

from __future__ import annotations

import io
from typing import Any

from botarena_connect4.protocol import PROTOCOL


class TextBot:
    """A connect4 bot fed the referee's text, read by connect4's own protocol."""

    reads_text = True

    def __init__(self, bot: Any) -> None:
        self.bot = bot

    def setup(self, seat: int, seed: str = "") -> None:
        if hasattr(self.bot, "setup"):
            self.bot.setup(seat, seed)

    def act(self, observation: Any) -> str:
        """The inner bot's column for `observation`: the text, or the `Sent` it is in."""
        text = getattr(observation, "text", observation)
        return str(self.bot.act(PROTOCOL.read_observation(io.StringIO(text).readline)))
