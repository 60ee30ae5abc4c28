"""Plays a random column that is not full (seeded, so games reproduce)."""

from __future__ import annotations

import random

from botarena_connect4.rules import Observation


class RandomBot:
    def __init__(self, seed: int | str | None = None) -> None:
        self.rng = random.Random(seed)

    def setup(self, seat: int, seed: str = "") -> None:
        self.rng = random.Random(seed)

    def act(self, observation: Observation) -> int:
        return self.rng.choice(observation.legal())


if __name__ == "__main__":
    from botarena.core.botmain import run_stdio
    from botarena_connect4.protocol import PROTOCOL

    run_stdio(RandomBot(), PROTOCOL)
