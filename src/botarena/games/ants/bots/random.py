"""`random`: every ant steps in a random direction that is not water or a friend's square."""

from __future__ import annotations

import random as _random

from botarena.games.ants.bots.world import DIRECTIONS, Mover, World
from botarena.games.ants.rules import Observation


class RandomBot:
    def __init__(self) -> None:
        self.rng = _random.Random(0)
        self.world: World | None = None

    def setup(self, seat: int, seed: str) -> None:
        self.rng = _random.Random(f"{seed}:random")

    def act(self, observation: Observation) -> list:
        if observation.turn == 0:  # only a process reads turn 0 (the handshake): its
            return []  # random numbers come from `setup`'s seed, as in-process
        if self.world is None:
            self.world = World(observation)
        self.world.update(observation)
        mover = Mover(self.world)
        for ant in self.world.my_ants:
            directions = list(DIRECTIONS)
            self.rng.shuffle(directions)
            for direction in directions:
                if mover.try_move(ant, direction):
                    break
        return mover.hold_rest()


def main() -> None:
    from botarena.core.botmain import run_stdio
    from botarena.games.ants.protocol import AntsProtocol

    run_stdio(RandomBot(), AntsProtocol())


if __name__ == "__main__":
    main()
