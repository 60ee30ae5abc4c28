"""`greedy`: each food goes to its nearest free ant by breadth-first search; the rest wait."""

from __future__ import annotations

from botarena.games.ants.bots.world import Mover, World
from botarena.games.ants.rules import Observation

SEARCH_DEPTH = 40


def gather(world: World, mover: Mover, limit: int = SEARCH_DEPTH) -> None:
    """Send the nearest free ant to each visible food (breadth-first from the food)."""
    free = set(world.my_ants) - mover.moved
    for food in world.food:
        found = nearest_ant(world, food, free, limit)
        if found is not None:
            ant, direction = found
            if mover.try_move(ant, direction):
                free.discard(ant)


def nearest_ant(world: World, target: tuple[int, int], ants: set, limit: int
                ) -> tuple[tuple[int, int], str] | None:
    """The ant of `ants` nearest to `target` by walking, and its first step towards it."""
    rows, cols, water = world.rows, world.cols, world.water
    seen = {target}
    frontier = [target]
    for _ in range(limit):
        following = []
        for row, col in frontier:
            for direction, (nrow, ncol) in (("s", ((row - 1) % rows, col)),
                                            ("w", (row, (col + 1) % cols)),
                                            ("n", ((row + 1) % rows, col)),
                                            ("e", (row, (col - 1) % cols))):
                loc = (nrow, ncol)
                if loc in seen or water[loc]:
                    continue
                if loc in ants:
                    return loc, direction
                seen.add(loc)
                following.append(loc)
        if not following:
            return None
        frontier = following
    return None


class GreedyBot:
    def __init__(self) -> None:
        self.world: World | None = None

    def act(self, observation: Observation) -> list:
        if observation.turn == 0:
            return []
        if self.world is None:
            self.world = World(observation)
        self.world.update(observation)
        mover = Mover(self.world)
        gather(self.world, mover)
        return mover.hold_rest()


def main() -> None:
    from botarena.core.botmain import run_stdio
    from botarena.games.ants.protocol import AntsProtocol

    run_stdio(GreedyBot(), AntsProtocol())


if __name__ == "__main__":
    main()
