"""A ladder simulated in memory: bots of known strength on a game stub, three ways of pairing.

The stub is a 2-player game whose winner is the bot with the higher performance, a bot's
performance being its true strength plus unit normal noise (Thurstone's model), so the truth
is known and the ratings (openskill's Plackett–Luce, as the ladder's) can be judged by the
Spearman rank correlation of their ordinals with it. Matchmaking here is the ladder's own
(`ladder.priority`, the NEAREST closest μ on each side and RANDOM random candidates,
`ladder.pick_opponents`), over a sorted list instead of the store's indexes.
"""

from __future__ import annotations

import bisect
import heapq
import random
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field

from botarena.tournament import ladder
from botarena.tournament.ladder import Entry


def spearman(xs: list[float], ys: list[float]) -> float:
    """Spearman's rank correlation (no ties expected among floats)."""

    def ranks(values: list[float]) -> list[int]:
        order = sorted(range(len(values)), key=values.__getitem__)
        out = [0] * len(values)
        for rank, index in enumerate(order):
            out[index] = rank
        return out

    n = len(xs)
    rx, ry = ranks(xs), ranks(ys)
    d2 = sum((a - b) ** 2 for a, b in zip(rx, ry, strict=True))
    return 1 - 6 * d2 / (n * (n * n - 1))


@dataclass
class Field:
    """The simulated ladder: true strengths, ratings, waiting order, games played."""

    strengths: list[float]
    rng: random.Random
    mu: list[float] = field(default_factory=list)
    sigma: list[float] = field(default_factory=list)
    last: list[int] = field(default_factory=list)
    games: list[int] = field(default_factory=list)
    seq: int = 0

    def __post_init__(self) -> None:
        n = len(self.strengths)
        self.mu, self.sigma = [ladder.MU] * n, [ladder.SIGMA] * n
        self.last, self.games = [-1] * n, [0] * n
        from openskill.models import PlackettLuce

        self.model = PlackettLuce()

    def add(self, strength: float) -> int:
        """A new bot joins (it waits least of all: last -1)."""
        self.strengths.append(strength)
        self.mu.append(ladder.MU)
        self.sigma.append(ladder.SIGMA)
        self.last.append(-1)
        self.games.append(0)
        return len(self.strengths) - 1

    def play(self, a: int, b: int) -> None:
        """One stub game between bots a and b, rated."""
        self.seq += 1
        win = (self.strengths[a] + self.rng.gauss(0, 1)) > (
            self.strengths[b] + self.rng.gauss(0, 1)
        )
        ra = self.model.rating(mu=self.mu[a], sigma=self.sigma[a])
        rb = self.model.rating(mu=self.mu[b], sigma=self.sigma[b])
        [[ra], [rb]] = self.model.rate([[ra], [rb]], ranks=[1.0, 2.0] if win else [2.0, 1.0])
        self.mu[a], self.sigma[a], self.mu[b], self.sigma[b] = ra.mu, ra.sigma, rb.mu, rb.sigma
        for bot in (a, b):
            self.last[bot] = self.seq
            self.games[bot] += 1

    def correlation(self) -> float:
        ordinals = [m - 3 * s for m, s in zip(self.mu, self.sigma, strict=True)]
        return spearman(ordinals, self.strengths)


def matchmaking(sim: Field) -> Iterator[tuple[int, int]]:
    """The ladder's choice, game after game. The waiting order is a heap; the μ order is
    sorted again every n/100 games (the store's index is always current: the simulation
    trades that for speed at 10 000 bots)."""
    n = len(sim.strengths)
    heap = [(ladder.priority(_entry(sim, i)), i) for i in range(n)]
    heapq.heapify(heap)
    by_mu: list[int] = []
    mus: list[float] = []
    games = 0
    while True:
        if games % max(1, n // 100) == 0:
            by_mu = sorted(range(n), key=sim.mu.__getitem__)
            mus = [sim.mu[i] for i in by_mu]
        games += 1
        while True:  # lazy heap: skip entries whose bot has played since
            key, seed = heapq.heappop(heap)
            if key == ladder.priority(_entry(sim, seed)):
                break
        at = bisect.bisect_left(mus, sim.mu[seed])
        near = by_mu[max(0, at - ladder.NEAREST) : at + ladder.NEAREST + 1]
        pool = [_entry(sim, i) for i in {*near, *sim.rng.sample(range(n), ladder.RANDOM)}]
        [other] = ladder.pick_opponents(_entry(sim, seed), pool, 1, sim.rng)
        yield seed, int(other.label)
        for bot in (seed, int(other.label)):
            heapq.heappush(heap, (ladder.priority(_entry(sim, bot)), bot))


def _entry(sim: Field, i: int) -> Entry:
    return Entry(str(i), sim.mu[i], sim.sigma[i], sim.last[i])


def uniform(sim: Field) -> Iterator[tuple[int, int]]:
    """Two bots drawn uniformly at random."""
    n = len(sim.strengths)
    while True:
        a, b = sim.rng.sample(range(n), 2)
        yield a, b


def round_robin(sim: Field) -> Iterator[tuple[int, int]]:
    """The circle method: each round every bot plays one new opponent (a bye if odd)."""
    n = len(sim.strengths)
    ring = list(range(n)) + ([None] if n % 2 else [])
    sim.rng.shuffle(ring)
    while True:
        half = len(ring) // 2
        for a, b in zip(ring[:half], reversed(ring[half:]), strict=True):
            if a is not None and b is not None:
                yield a, b
        ring = [ring[0], ring[-1], *ring[1:-1]]


PAIRINGS: dict[str, Callable[[Field], Iterator[tuple[int, int]]]] = {
    "matchmaking": matchmaking,
    "uniform": uniform,
    "round-robin": round_robin,
}


def curve(bots: int, pairing: str, checkpoints: list[int], seed: int = 1) -> dict[int, float]:
    """Spearman ρ of the ordinals with the truth when the field has played, on average,
    each checkpoint's number of games per bot."""
    rng = random.Random(seed)
    sim = Field([rng.gauss(0, 1) for _ in range(bots)], rng)
    games = PAIRINGS[pairing](sim)
    out, played = {}, 0
    for checkpoint in checkpoints:
        while played < checkpoint * bots // 2:
            sim.play(*next(games))
            played += 1
        out[checkpoint] = sim.correlation()
    return out


def newcomer(bots: int, games: int = 30, seed: int = 1, warmup: int = 40) -> tuple[int, int, int]:
    """A field played `warmup` games per bot by matchmaking, then a bot of random strength
    joins and plays `games` games. Returns (its true place, its place by μ, and the width of
    its σ-band in places, the bots whose μ is within ±σ of its own, or -1 when its true
    place is outside that band)."""
    rng = random.Random(seed)
    sim = Field([rng.gauss(0, 1) for _ in range(bots)], rng)
    pairs = matchmaking(sim)
    for _ in range(warmup * bots // 2):
        sim.play(*next(pairs))
    new = sim.add(rng.gauss(0, 1))
    pairs = matchmaking(sim)
    while sim.games[new] < games:
        sim.play(*next(pairs))
    true_place = sum(s > sim.strengths[new] for s in sim.strengths)
    own, band = sim.mu[new], sim.sigma[new]
    place = sum(m > own for m in sim.mu)
    low = sum(m > own + band for m in sim.mu)
    high = sum(m > own - band for m in sim.mu)
    return true_place, place, high - low if low <= true_place <= high else -1
