"""A random Amazes player: one legal step per turn, never into a wall it can see."""

from __future__ import annotations

import random

from botarena.games.amazes.rules import Observation

LETTERS = "FRTL"
"""Move letter for each corridor (ahead, right, behind, left)."""


class RandomBot:
    """Steps into a uniformly chosen open corridor; seeded, so games reproduce."""

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)
        self.turn = 0
        self.done = False

    def setup(self, seat: int, seed: str = "") -> None:
        self.rng = random.Random(seed)
        self.turn = 0
        self.done = False

    def act(self, observation: Observation) -> str:
        self.turn += 1
        self.done = self.turn >= 150
        open_sides = [
            LETTERS[k] for k, corridor in enumerate(observation.corridors) if corridor != "W"
        ]
        return self.rng.choice(open_sides)


def main() -> None:
    from botarena.core.botmain import run_stdio
    from botarena.games.amazes.protocol import PROTOCOL

    run_stdio(RandomBot(), PROTOCOL)


if __name__ == "__main__":
    main()
