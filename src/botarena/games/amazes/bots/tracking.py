"""Where the opponent may be: a filter over frame squares from the squared-distance history.

Each look gives the squared distance to the opponent after its move. The squares at that
distance from the bot (inside what can still be the maze) are the candidates. Each is
weighted by how likely the opponent walked there from where it was believed to be. A move is
modelled as a walk of w >= 1 steps, w drawn from a geometric law, ending on any of the
squares w steps away alike; w counts steps through the openings the bot knows (once the maze
is discovered, the true walking distance; before, the Manhattan distance times a detour
factor where no known way joins the two squares). How far the opponent walks per turn is
learned: a few move lengths are kept as rival hypotheses, each weighted by how well it
predicted the distances read so far, and so is a hunter's move (it lands on a square at
this bot's distance from where it stood: the ring it guessed this bot on, which the next
distance often narrows to one square). A move never ends where it began (the jury adds a
`T`), and a square the bot ended its hunt on without capturing is not where the opponent
stood.
"""

from __future__ import annotations

import math

from botarena.games.amazes.bots.mapping import FRAME, SIZE, BotMap


def _shells() -> dict[int, tuple[tuple[int, int], ...]]:
    shells: dict[int, list[tuple[int, int]]] = {}
    for dr in range(-(SIZE - 1), SIZE):
        for dc in range(-(SIZE - 1), SIZE):
            shells.setdefault(dr * dr + dc * dc, []).append((dr, dc))
    return {d2: tuple(offsets) for d2, offsets in shells.items()}


SHELLS = _shells()
"""Squared distance -> every (drow, dcol) at that distance within a 25x25 maze."""

SPREAD = 6.0
"""Typical steps a player walks per turn (how a hunter is assumed to see this bot)."""
SPREADS = (2.0, 6.0, 15.0, 40.0)
"""Mean move lengths the filter weighs as hypotheses about the opponent."""
FORGET = 0.6
"""Each turn the hypotheses' log-weights shrink by this factor: opponents change pace, and
start hunting all at once."""
MISS = 1e-3
"""A hypothesis is charged at most this much less likely than the best one per reading."""
DETOUR = 1.5
"""Walking steps per Manhattan step between squares no known way joins."""
FLOOR = 0.02
"""Share of the belief left to candidates far from every earlier square (a long move)."""
PRIOR_SQUARES = 6
"""Earlier squares a transition is computed from (the likeliest; the rest is the floor)."""


class Walks:
    """Walking distances through the bot's known openings, cached for one turn."""

    def __init__(self, bot_map: BotMap) -> None:
        self.map = bot_map
        self._cache: dict[int, dict[int, int]] = {}
        self._shells: dict[int, dict[int, int]] = {}

    def clear(self) -> None:
        """Forget the cache (the map has learned openings since)."""
        self._cache.clear()
        self._shells.clear()

    def shells(self, origin: int) -> dict[int, int]:
        """How many squares lie at each walking distance from `origin` (known openings)."""
        counts = self._shells.get(origin)
        if counts is None:
            self(origin)
            counts = self._shells[origin]
        return counts

    def __call__(self, origin: int) -> dict[int, int]:
        """Steps from `origin` to every square reachable through known openings (and, by
        the way, how many lie at each distance: `shells`)."""
        walk = self._cache.get(origin)
        if walk is None:
            walk = {origin: 0}
            counts = {0: 1}
            frontier = [origin]
            links = self.map.links
            steps = 0
            while frontier:
                steps += 1
                nxt = []
                for square in frontier:
                    for other in links[square]:
                        if other not in walk:
                            walk[other] = steps
                            nxt.append(other)
                if nxt:
                    counts[steps] = len(nxt)
                frontier = nxt
            self._cache[origin] = walk
            self._shells[origin] = counts
        return walk

    def steps(self, origin: int, square: int) -> float:
        """Walking steps from `origin` to `square`, or the Manhattan estimate."""
        walk = self._cache.get(origin)
        known = (walk if walk is not None else self(origin)).get(square)
        if known is not None:
            return known
        orow, ocol = divmod(origin, FRAME)
        row, col = divmod(square, FRAME)
        return DETOUR * (abs(row - orow) + abs(col - ocol))


def ring(bot_map: BotMap, origin: int, distance2: int) -> list[int]:
    """The squares at squared distance `distance2` from `origin` that can be in the maze."""
    row, col = divmod(origin, FRAME)
    squares = ((row + dr) * FRAME + col + dc for dr, dc in SHELLS.get(distance2, ()))
    return [square for square in squares if bot_map.in_maze(square)]


def distance2(a: int, b: int) -> int:
    """Squared Euclidean distance between two frame squares."""
    arow, acol = divmod(a, FRAME)
    brow, bcol = divmod(b, FRAME)
    return (arow - brow) ** 2 + (acol - bcol) ** 2


def move_weight(walks: Walks, origin: int, square: int) -> float:
    """How likely a player at `origin` ends its next turn on `square` (unnormalised)."""
    if square == origin:
        return 0.0
    return math.exp(-walks.steps(origin, square) / SPREAD)


class Tracker:
    """A probability for each square the opponent may stand on now."""

    def __init__(self) -> None:
        self.belief: dict[int, float] = {}
        self.pace = [0.0] * (len(SPREADS) + 1)
        """Per hypothesis, its (fading) log-likelihood so far: each move length in SPREADS,
        then a hunter's move (it lands on a square at this bot's distance from where it
        stood, the square it guessed this bot on)."""
        self.hunting = 0.0
        """How much the last update trusted that the opponent is hunting this bot."""

    def likeliest(self, count: int, least: float = 0.0) -> list[tuple[float, int]]:
        """Up to `count` (chance, square) pairs, likeliest first, each at least `least`."""
        ranked = sorted(((p, s) for s, p in self.belief.items() if p >= least), reverse=True)
        return ranked[:count]

    def observe(self, walks: Walks, me: int, reading: int, hunted_prior: float = 0.0) -> None:
        """Update the belief with the squared distance read at this look, `me` being the
        bot's frame square; `hunted_prior` is how likely the opponent can hunt at all (it
        has discovered every square)."""
        candidates = ring(walks.map, me, reading)
        if not candidates:
            self.belief = {}
            return
        prior = self.likeliest(PRIOR_SQUARES)
        if not prior:
            self.belief = dict.fromkeys(candidates, 1.0 / len(candidates))
            return
        mass = sum(p for p, _ in prior)
        predicted = [dict.fromkeys(candidates, 0.0) for _ in range(len(SPREADS) + 1)]
        hunted = predicted[-1]
        for p, other in prior:
            aim = ring(walks.map, other, distance2(other, me)) if hunted_prior > 0 else []
            for square in aim:  # a hunter lands at this bot's distance from where it was
                if square in hunted:
                    hunted[square] += p / mass / len(aim)
            walk, shells = walks(other), walks.shells(other)
            orow, ocol = divmod(other, FRAME)
            for square in candidates:
                walked = walk.get(square)
                steps: float
                if walked is None:
                    row, col = divmod(square, FRAME)
                    manhattan = abs(row - orow) + abs(col - ocol)
                    steps, alike = DETOUR * manhattan, 4 * manhattan
                else:
                    steps, alike = walked, shells[walked]
                if steps == 0:
                    continue
                for i, spread in enumerate(SPREADS):
                    law = math.exp(-steps / spread) * (1 - math.exp(-1 / spread))
                    predicted[i][square] += p / mass * law / alike
        fits = [sum(weights.values()) for weights in predicted]
        best = max(fits)
        if best <= 0:
            self.belief = dict.fromkeys(candidates, 1.0 / len(candidates))
            return
        fits = [max(fit, MISS * best) for fit in fits]
        self.pace = [
            FORGET * pace + math.log(fit) for pace, fit in zip(self.pace, fits, strict=True)
        ]
        top = max(self.pace)
        trust = [math.exp(pace - top) for pace in self.pace]
        trust[-1] *= hunted_prior
        self.hunting = trust[-1] / sum(trust)
        weights = {}
        for square in candidates:
            weight = sum(
                t * w[square] / fit for t, w, fit in zip(trust, predicted, fits, strict=True)
            )
            weights[square] = (1 - FLOOR) * weight / sum(trust) + FLOOR / len(candidates)
        self._set(weights)

    def miss(self, square: int) -> None:
        """The opponent is not on `square` (a capture there did not happen)."""
        if self.belief.pop(square, None) is not None:
            self._set(self.belief)

    def _set(self, weights: dict[int, float]) -> None:
        total = sum(weights.values())
        self.belief = {s: w / total for s, w in weights.items()} if total > 0 else {}
