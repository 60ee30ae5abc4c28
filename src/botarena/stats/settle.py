"""When is the top of a ranking settled? The probability that the top K order is the true one.

A tournament is played in whole rounds of its schedule (every pairing once, seats balanced),
so each bot's mean result in a round is one draw from its own distribution, and rounds are
independent draws. After r rounds the bots' true means are estimated by their round means x̄
with the covariance S / r of the rounds (S the rounds' sample covariance: it keeps what two
bots share, such as the game they play against each other). The top K order is established
when the probability that it is the true one is at least C:

    P(μ_1 > μ_2 > ... > μ_K > max(μ_rest))   with μ ~ x̄ + multivariate-t(S / r, r - 1)

estimated from a fixed number of draws (a parametric bootstrap over rounds; with a flat prior
it is the posterior probability, the Student-t accounting for the variance being estimated).
It is the joint probability of the whole order, so nothing is lost to a Bonferroni split and
the correlation between bots is used. A posterior probability does not depend on when one
stops looking (the likelihood principle), so the rule looks after every round from the third
on. That the reported order is right at least C of the time is checked on simulated
tournaments of known strength (`python bench/run.py adaptive`).

A bot tied exactly with its neighbour is never separated: the maximum number of rounds ends
such a tournament, reported as not settled.
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np

MIN_ROUNDS = 3
"""A covariance needs two rounds; a third keeps the Student-t's tails finite."""

DRAWS = 4000
"""Draws per look: the estimated probability is within about ±0.007 of the exact one."""


@dataclass(frozen=True)
class Neighbours:
    """The evidence that `better` is above `worse`: the mean difference per round and the
    probability that it is above 0."""

    better: str
    worse: str
    difference: float
    probability: float

    def to_dict(self) -> dict[str, object]:
        return {
            "better": self.better,
            "worse": self.worse,
            "difference": round(self.difference, 6),
            "probability": round(self.probability, 4),
        }


@dataclass(frozen=True)
class Settlement:
    """The decision after `rounds` rounds: the order so far and the evidence for it."""

    settled: bool
    order: tuple[str, ...]
    rounds: int
    top: int
    confidence: float
    probability: float
    """The probability that the top `top` order is the true one (0 before the first look)."""
    neighbours: tuple[Neighbours, ...]

    def to_dict(self) -> dict[str, object]:
        return {
            "settled": self.settled,
            "order": list(self.order),
            "rounds": self.rounds,
            "top": self.top,
            "confidence": self.confidence,
            "probability": round(self.probability, 4),
            "neighbours": [pair.to_dict() for pair in self.neighbours],
        }


class RoundEvidence:
    """The sufficient statistics of the rounds so far: count, sums and the Gram matrix of each
    bot's round means, so a look costs the same after 3 rounds or 3000."""

    def __init__(self, bots: Sequence[str], higher_is_better: bool = True) -> None:
        self.bots = list(bots)
        self.sign = 1.0 if higher_is_better else -1.0
        self.count = 0
        self.sums = np.zeros(len(bots))
        self.gram = np.zeros((len(bots), len(bots)))

    def add(self, means: Sequence[float] | np.ndarray) -> None:
        """One round: each bot's mean result, in the order of `bots`."""
        row = self.sign * np.asarray(means, dtype=float)
        self.count += 1
        self.sums += row
        self.gram += np.outer(row, row)

    def order(self) -> list[int]:
        """Bots' indices from best to worst by mean so far (ties by name)."""
        return sorted(range(len(self.bots)), key=lambda i: (-self.sums[i], self.bots[i]))

    def _draws(self) -> np.ndarray:
        """Draws of the bots' true means (rows), from the Student-t around the round means;
        seeded by the round count, so a look is reproduced exactly."""
        count, n = self.count, len(self.bots)
        mean = self.sums / count
        covariance = (self.gram - count * np.outer(mean, mean)) / (count - 1) / count
        # A round robin's results add up to a constant, so the covariance is singular: a
        # jitter far below any real variance makes it factorable.
        jitter = 1e-12 * max(float(np.trace(covariance)), 1e-300) * np.eye(n)
        root = np.linalg.cholesky(covariance + jitter)
        rng = np.random.default_rng(count)
        # einsum, not @: a BLAS product this small pays more in thread start-up than it saves
        normal = np.einsum("dj,ij->di", rng.standard_normal((DRAWS, n)), root)
        scale = np.sqrt((count - 1) / rng.chisquare(count - 1, DRAWS))[:, None]
        return mean + normal * scale

    def settle(self, top: int = 5, confidence: float = 0.95) -> Settlement:
        """The decision now: settled when the top order's probability is at least C."""
        count, n = self.count, len(self.bots)
        order = self.order()
        top = min(top, n)
        pairs = list(itertools.pairwise(order[: top + 1]))
        if count < MIN_ROUNDS or n < 2:
            unknown = tuple(Neighbours(self.bots[a], self.bots[b], 0.0, 0.0) for a, b in pairs)
            return Settlement(
                False, tuple(self.bots[i] for i in order), count, top, confidence, 0.0, unknown
            )
        draws = self._draws()
        right = np.ones(DRAWS, dtype=bool)
        neighbours: list[Neighbours] = []
        for index, (a, b) in enumerate(pairs):
            if index == top - 1:  # the K-th against every bot below the top, not only b
                above = draws[:, a] > draws[:, order[top:]].max(axis=1)
            else:
                above = draws[:, a] > draws[:, b]
            right &= above
            neighbours.append(
                Neighbours(
                    self.bots[a],
                    self.bots[b],
                    float(self.sums[a] - self.sums[b]) / count,
                    float(above.mean()),
                )
            )
        probability = float(right.mean())
        settled = probability >= confidence
        return Settlement(
            settled,
            tuple(self.bots[i] for i in order),
            count,
            top,
            confidence,
            probability,
            tuple(neighbours),
        )


def settle(
    rounds: Sequence[Mapping[str, float]],
    *,
    top: int = 5,
    confidence: float = 0.95,
    higher_is_better: bool = True,
) -> Settlement:
    """Whether the top `top` of the bots in `rounds` (each a bot -> its mean result in that
    round, every round naming the same bots) is established with `confidence`."""
    bots = sorted(rounds[0]) if rounds else []
    evidence = RoundEvidence(bots, higher_is_better)
    for round_means in rounds:
        evidence.add([round_means[bot] for bot in bots])
    return evidence.settle(top, confidence)
