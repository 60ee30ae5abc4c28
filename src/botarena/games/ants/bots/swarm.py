"""`swarm`: gathers with one ant per food, razes hills, explores, fights only where it wins.

Each turn, in order: the nearest free ant goes for each food; the two nearest free ants go
for each enemy ant that comes near one of its hills; once it has a few ants, those
near a known enemy hill go for it (carefully, or all at once when they clearly outnumber
its defenders); ants that meet enemies attack where they outnumber them locally (the focus
rule kills the side with fewer ants around) and step back where they do not; the rest
spread towards the squares seen least recently. No move sends two own ants to one square.
"""

from __future__ import annotations

import numpy as np

from botarena.games.ants.bots.greedy import gather, nearest_ant
from botarena.games.ants.bots.world import DIRECTIONS, Mover, World
from botarena.games.ants.rules import Observation

THREAT2 = 10  # squared reach of an enemy that may step once before the attack (5 -> 10)
RAZE_REACH = 30  # steps from an enemy hill within which ants go and raze it ...
MAX_RAZE_REACH = 150  # ... growing with the number of ants (2 steps an ant) up to this
MIN_RAIDERS = 6  # fewer ants than this stay home and gather
DEFENCE_REACH = 10  # steps from a hill within which ants count as its defenders
STALE_TURNS = 12  # squares unseen for this long are worth exploring
EXPLORE_EVERY = 3  # turns between recomputations of the exploration map


class SwarmBot:
    def __init__(self) -> None:
        self.world: World | None = None
        self.explore_map: list[int] | None = None

    def act(self, observation: Observation) -> list:
        if observation.turn == 0:
            return []
        if self.world is None:
            self.world = World(observation)
        world = self.world
        world.update(observation)
        mover = Mover(world)
        self.friends = world.coverage(world.my_ants, THREAT2)
        self.threats = world.coverage(world.enemies, THREAT2)
        gather(world, mover)
        self._defend(world, mover)
        if len(world.my_ants) >= MIN_RAIDERS:
            self._raze(world, mover)
        self._fight(world, mover)
        self._explore(world, mover)
        return mover.hold_rest()

    # -- parts of a turn ---------------------------------------------------------------
    def _strength(self, world: World, square: tuple[int, int]) -> tuple[int, int]:
        """(own ants, enemy ants) that could fight over `square` next turn."""
        index = world.index(square)
        return self.friends.get(index, 0), self.threats.get(index, 0)

    def _safe(self, world: World, square: tuple[int, int]) -> bool:
        friends, enemies = self._strength(world, square)
        return enemies == 0 or friends > enemies

    def _go(
        self,
        world: World,
        mover: Mover,
        ant: tuple[int, int],
        directions: list[str],
        careful: bool = True,
    ) -> bool:
        for direction in directions:
            target = world.step(ant, direction)
            if careful and world.enemies and not self._safe(world, target):
                continue
            if mover.try_move(ant, direction):
                return True
        return False

    def _defend(self, world: World, mover: Mover) -> None:
        """Each enemy ant near one of our hills draws the two nearest free ants onto it."""
        if not world.enemies or not world.my_hills:
            return
        dist = world.distances(world.my_hills, DEFENCE_REACH)
        intruders = [enemy for enemy in world.enemies if dist[world.index(enemy)] >= 0]
        for enemy in intruders:
            for _ in range(2):
                free = set(world.my_ants) - mover.moved
                found = nearest_ant(world, enemy, free, DEFENCE_REACH)
                if found is None or not mover.try_move(*found):
                    break

    def _raze(self, world: World, mover: Mover) -> None:
        """Ants near a known enemy hill go for it: carefully while the enemy holds the
        area, all at once when they clearly outnumber the defenders."""
        if not world.enemy_hills:
            return
        reach = min(MAX_RAZE_REACH, max(RAZE_REACH, 2 * len(world.my_ants)))
        dist = world.distances(sorted(world.enemy_hills), reach)
        attackers = [
            ant
            for ant in world.my_ants
            if ant not in mover.moved and 0 < dist[world.index(ant)] <= reach
        ]
        defenders = sum(0 <= dist[world.index(enemy)] <= DEFENCE_REACH for enemy in world.enemies)
        storm = len(attackers) >= 2 * defenders + 3
        for ant in attackers:
            steps = dist[world.index(ant)]
            self._go(world, mover, ant, world.downhill(ant, dist), careful=not storm and steps > 3)

    def _fight(self, world: World, mover: Mover) -> None:
        if not world.enemies:
            return
        for ant in world.my_ants:
            if ant in mover.moved:
                continue
            near = [enemy for enemy in world.enemies if world.distance2(ant, enemy) <= 2 * THREAT2]
            if not near:
                continue
            friends, enemies = self._strength(world, ant)
            target = min(near, key=lambda enemy: world.distance2(ant, enemy))
            closer = sorted(DIRECTIONS, key=lambda d: world.distance2(world.step(ant, d), target))
            if friends > enemies + 1:
                self._go(world, mover, ant, closer)
            elif not self._safe(world, ant):
                self._go(world, mover, ant, list(reversed(closer)))

    def _explore(self, world: World, mover: Mover) -> None:
        idle = [ant for ant in world.my_ants if ant not in mover.moved]
        if not idle:
            return
        if self.explore_map is None or world.turn % EXPLORE_EVERY == 0:
            water = np.frombuffer(bytes(world.water), dtype=np.uint8).reshape(world.last_seen.shape)
            stale = (world.last_seen < world.turn - STALE_TURNS) & (water == 0)
            self.explore_map = world.distances(np.flatnonzero(stale).tolist())
        for ant in idle:
            directions = world.downhill(ant, self.explore_map)
            if not self._go(world, mover, ant, directions) and ant in world.my_hills:
                self._go(world, mover, ant, list(DIRECTIONS))


def main() -> None:
    from botarena.core.botmain import run_stdio
    from botarena.games.ants.protocol import AntsProtocol

    run_stdio(SwarmBot(), AntsProtocol())


if __name__ == "__main__":
    main()
