"""connect4's first bot: wins if it can, blocks if it must, else plays near the centre."""

from __future__ import annotations

from botarena_connect4.bots.first import FirstBot as Connect4First

from botarena_connect4c.bots import TextBot


class FirstBot(TextBot):
    def __init__(self) -> None:
        super().__init__(Connect4First())


if __name__ == "__main__":
    from botarena_connect4.protocol import PROTOCOL

    from botarena.core.botmain import run_stdio

    run_stdio(Connect4First(), PROTOCOL)
