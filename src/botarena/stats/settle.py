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

The rule looks after every round from the third on, so it spends its error over the looks:
at look r it accepts a verdict only at the level 1 - α_r, α_r = (1 - C) / (s r²) with s the
sum of 1/r² over the looks (so the α_r add up to 1 - C whatever round it stops at), split
evenly (Bonferroni) over the neighbouring pairs it decides. A pair is *ordered* when its upper
bot is above the lower one at that level, *tied* when their true means are within the
margin of practical indifference ε of each other at that level (ε: `tie_margin` times the
field's mean absolute result), and open otherwise; the top K is settled when every
neighbouring pair in it is ordered or tied, and ties are reported as ties, never as an
order. Looking once as if the sample size were fixed (the rule before) settled two equal
bots in 57 % of simulated tournaments; `python bench/run.py adaptive` and docs/adaptive.md
give the rates of this rule on fields with exact and near ties.
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np

MIN_ROUNDS = 3
"""A covariance needs two rounds; a third keeps the Student-t's tails finite."""

SPENDING = sum(1 / r**2 for r in range(MIN_ROUNDS, 100_000)) + 1 / 100_000
"""s: the sum of 1/r² over every look from MIN_ROUNDS on (the tail past 10⁵ bounded by
1/10⁵), so that looking after every round spends at most 1 - C in all."""

DEFAULT_TIE_MARGIN = 0.02
"""ε as a share of the field's mean absolute result: 2 % (about 14 Elo at an even score)."""


def look_level(confidence: float, rounds: int, decisions: int) -> float:
    """The probability a verdict needs at look `rounds` for one of `decisions` pairs."""
    return 1 - (1 - confidence) / (SPENDING * rounds**2) / max(1, decisions)


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
    verdict: str = "open"
    """`ordered` (better is above), `tied` (within the margin of indifference), or `open`."""

    def to_dict(self) -> dict[str, object]:
        return {
            "better": self.better,
            "worse": self.worse,
            "difference": round(self.difference, 6),
            "probability": round(self.probability, 4),
            "verdict": self.verdict,
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
        self.mean = np.zeros(len(bots))
        self.scatter = np.zeros((len(bots), len(bots)))
        """Sum of the outer products of the rounds' deviations from the mean, updated as
        Welford's: summing raw products and subtracting the mean's lost every digit of
        results near a cap with a small spread (then no factorisation existed)."""

    def add(self, means: Sequence[float] | np.ndarray) -> None:
        """One round: each bot's mean result, in the order of `bots`."""
        row = self.sign * np.asarray(means, dtype=float)
        self.count += 1
        self.sums += row
        before = row - self.mean
        self.mean = self.mean + before / self.count
        self.scatter += np.outer(before, row - self.mean)

    def order(self) -> list[int]:
        """Bots' indices from best to worst by mean so far (ties by name)."""
        return sorted(range(len(self.bots)), key=lambda i: (-self.sums[i], self.bots[i]))

    def _draws(self) -> np.ndarray:
        """Draws of the bots' true means (rows), from the Student-t around the round means;
        seeded by the round count, so a look is reproduced exactly."""
        count, n = self.count, len(self.bots)
        mean = self.sums / count
        covariance = (self.scatter + self.scatter.T) / 2 / (count - 1) / count
        # A round robin's results add up to a constant, so the covariance is singular: a
        # jitter far below any real variance makes it factorable.
        jitter = 1e-12 * max(float(np.trace(covariance)), 1e-300) * np.eye(n)
        try:
            root = np.linalg.cholesky(covariance + jitter)
        except np.linalg.LinAlgError:  # rounding left it a hair from positive: its square
            values, vectors = np.linalg.eigh(covariance)  # root through the eigenvalues
            root = vectors * np.sqrt(np.clip(values, 0.0, None))
        rng = np.random.default_rng(count)
        # einsum, not @: a BLAS product this small pays more in thread start-up than it saves
        normal = np.einsum("dj,ij->di", rng.standard_normal((DRAWS, n)), root)
        scale = np.sqrt((count - 1) / rng.chisquare(count - 1, DRAWS))[:, None]
        drawn: np.ndarray = mean + normal * scale
        return drawn

    def settle(
        self, top: int = 5, confidence: float = 0.95, tie_margin: float = DEFAULT_TIE_MARGIN
    ) -> Settlement:
        """The decision now: settled when every neighbouring pair of the top is ordered or
        tied at this look's level (see the module's text)."""
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
        level = look_level(confidence, count, len(pairs))
        margin = tie_margin * max(float(np.abs(self.sums).mean()) / count, 1e-12)
        right = np.ones(DRAWS, dtype=bool)
        neighbours: list[Neighbours] = []
        for index, (a, b) in enumerate(pairs):
            if index == top - 1:  # the K-th against every bot below the top, not only b
                above = draws[:, a] > draws[:, order[top:]].max(axis=1)
            else:
                above = draws[:, a] > draws[:, b]
            right &= above
            near = np.abs(draws[:, a] - draws[:, b]) < margin
            verdict = (
                "ordered" if above.mean() >= level else "tied" if near.mean() >= level else "open"
            )
            neighbours.append(
                Neighbours(
                    self.bots[a],
                    self.bots[b],
                    float(self.sums[a] - self.sums[b]) / count,
                    float(above.mean()),
                    verdict,
                )
            )
        probability = float(right.mean())
        settled = all(pair.verdict != "open" for pair in neighbours)
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
