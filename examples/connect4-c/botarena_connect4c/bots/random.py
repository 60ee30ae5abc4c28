"""connect4's random bot (seeded, so games reproduce)."""

from __future__ import annotations

from botarena_connect4.bots.random import RandomBot as Connect4Random

from botarena_connect4c.bots import TextBot


class RandomBot(TextBot):
    def __init__(self) -> None:
        super().__init__(Connect4Random())


if __name__ == "__main__":
    from botarena_connect4.protocol import PROTOCOL

    from botarena.core.botmain import run_stdio

    run_stdio(Connect4Random(), PROTOCOL)
