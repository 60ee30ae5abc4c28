"""Where the opponent may be: a belief over frame squares from the squared distances.

Each look gives the squared distance to the opponent after its move. The squares at that
distance from the bot (inside what can still be the maze) are the candidates; each is
weighted by how close it is to where the opponent was believed to be before, since a player
moves a limited number of squares per turn.
"""

from __future__ import annotations

from botarena.games.amazes.bots.mapping import FRAME, SIZE, BotMap


def _shells() -> dict[int, tuple[tuple[int, int], ...]]:
    shells: dict[int, list[tuple[int, int]]] = {}
    for dr in range(-(SIZE - 1), SIZE):
        for dc in range(-(SIZE - 1), SIZE):
            shells.setdefault(dr * dr + dc * dc, []).append((dr, dc))
    return {d2: tuple(offsets) for d2, offsets in shells.items()}


SHELLS = _shells()
"""Squared distance -> every (drow, dcol) at that distance within a 25x25 maze."""

SPEED = 3.0
"""Typical squares an opponent moves per turn (grid distance), for the prior."""
FLOOR = 0.02
"""Weight left to a candidate far from every earlier belief (the opponent may run)."""
THREAT_FLOOR = 0.05
MAX_THREATS = 4
"""Opponent squares less likely than this are not weighed as threats, and at most
MAX_THREATS of them (each costs a search over the known maze)."""


def distances(bot_map: BotMap, origin: int) -> dict[int, int]:
    """Steps from `origin` to every square reachable through known openings."""
    walk = {origin: 0}
    frontier = [origin]
    links = bot_map.links
    while frontier:
        nxt = []
        for square in frontier:
            steps = walk[square] + 1
            for other in links[square]:
                if other not in walk:
                    walk[other] = steps
                    nxt.append(other)
        frontier = nxt
    return walk


class Tracker:
    """A probability for each square the opponent may stand on now."""

    def __init__(self) -> None:
        self.belief: dict[int, float] = {}

    def threats(self, bot_map: BotMap, least: float = THREAT_FLOOR) -> list[tuple[float, int,
                                                                             dict[int, int]]]:
        """The opponent's likely squares (chance >= `least`), each with its walking distance
        to every square the bot knows a way to."""
        likely = sorted(((chance, square) for square, chance in self.belief.items()
                         if chance >= least and bot_map.exists[square]), reverse=True)
        return [(chance, square, distances(bot_map, square))
                for chance, square in likely[:MAX_THREATS]]

    def risk(self, bot_map: BotMap, square: int,
             threats: list[tuple[float, int, dict[int, int]]]) -> float:
        """The chance that an opponent hunting this bot ends its next turn on `square`: a
        hunter that knows the maze reads its squared distance to the bot and walks to the
        nearest square at that distance. Standing on the opponent is safe: it cannot end a
        turn where it began."""
        row, col = divmod(square, FRAME)
        total = 0.0
        for chance, other, walk in threats:
            if other == square or square not in walk:
                continue
            orow, ocol = divmod(other, FRAME)
            mine = walk[square]
            if all(walk.get((orow + dr) * FRAME + ocol + dc, mine) >= mine
                   for dr, dc in SHELLS[(row - orow) ** 2 + (col - ocol) ** 2]):
                total += chance
        return total

    def observe(self, bot_map: BotMap, me: int, distance2: int) -> None:
        """Update the belief with the squared distance read at this look, `me` being the
        bot's frame square."""
        row, col = divmod(me, FRAME)
        candidates = [(row + dr) * FRAME + col + dc for dr, dc in SHELLS.get(distance2, ())]
        candidates = [square for square in candidates if bot_map.in_maze(square)]
        if not candidates:
            self.belief = {}
            return
        prior = self.belief
        weights = {}
        for square in candidates:
            weight = FLOOR
            if prior:
                r, c = divmod(square, FRAME)
                for other, p in prior.items():
                    orow, ocol = divmod(other, FRAME)
                    weight += p / (1.0 + (abs(r - orow) + abs(c - ocol)) / SPEED) ** 2
            weights[square] = weight
        total = sum(weights.values())
        self.belief = {square: weight / total for square, weight in weights.items()}
