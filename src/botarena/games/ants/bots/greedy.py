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


def nearest_ant(
    world: World, target: tuple[int, int], ants: set, limit: int
) -> tuple[tuple[int, int], str] | None:
    """The ant of `ants` nearest to `target` by walking, and its first step towards it."""
    cols, water, neighbors = world.cols, world.water, world.neighbors
    wanted = {row * cols + col for row, col in ants}
    start = world.index(target)
    seen = {start}
    frontier = [start]
    back = ("s", "w", "n", "e")  # reached by going n/e/s/w from the frontier: step back
    for _ in range(limit):
        following = []
        for index in frontier:
            for way, nxt in enumerate(neighbors[index]):
                if nxt in seen or water[nxt]:
                    continue
                if nxt in wanted:
                    return divmod(nxt, cols), back[way]
                seen.add(nxt)
                following.append(nxt)
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
