"""A random Falldown player, like the contest's sample AI: uniform over `U R D L A N`."""

from __future__ import annotations

import random

from botarena.games.falldown.rules import Observation

LETTERS = "URDLAN"


class RandomBot:
    """Draws each command uniformly from `URDLAN`; seeded, so games reproduce."""

    def __init__(self, seed: int | str | None = None) -> None:
        self.rng = random.Random(seed)

    def setup(self, seat: int, seed: str = "") -> None:
        self.rng = random.Random(seed)

    def act(self, observation: Observation) -> str:
        return LETTERS[int(self.rng.random() * 6)]


def main() -> None:
    from botarena.games.falldown.bots.process import run_process

    run_process(RandomBot())


if __name__ == "__main__":
    main()
