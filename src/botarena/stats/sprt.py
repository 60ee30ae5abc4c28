"""A sequential probability ratio test on paired games: has NEW gained ELO1 or at most ELO0?

Games are played in blocks: NEW and OLD on the same seed with the seats swapped (2 players),
or NEW in every seat in turn against copies of OLD (3-10 players). A block's score is NEW's
mean score over its games, so the luck of the draw that both seats share cancels within it;
for 2 players the block scores are 0, 1/4, 1/2, 3/4, 1: the pentanomial model fishtest and
fastchess use for game pairs.

The test is the generalized SPRT: the log-likelihood ratio of the multinomial of block scores
under the two hypotheses "expected score = s0" and "expected score = s1", each the maximum-
likelihood distribution of the observed frequencies with that mean (Lagrange: p_i = q_i / (1 +
λ (a_i - s))), with Wald's bounds log(β / (1 - α)) and log((1 - β) / α). Unobserved block
scores get a small frequency so both hypotheses stay feasible from the first block on.
"""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass, field
from fractions import Fraction

from botarena.stats.elo import elo_of_score, score_of_elo

EPSILON = 1e-3
"""The count given to a possible block score not seen yet (as fishtest regularizes)."""

Z95 = 1.959963984540054
"""The two-sided 95 % quantile of the standard normal distribution."""


def block_values(players: int) -> list[Fraction]:
    """Every score a block can have: NEW's per-game score is (OLD copies below + half of those
    tied) / (players - 1), averaged over `players` games (one per seat)."""
    steps = 2 * players * (players - 1)
    return [Fraction(k, steps) for k in range(steps + 1)]


def _constrained_mle(values: list[float], freqs: list[float], target: float) -> list[float]:
    """The distribution nearest to `freqs` (maximum likelihood) whose mean is `target`.

    The weights are q_i / (1 + λ d_i) with d_i = a_i - target, where λ is the root of
    Σ q_i d_i / (1 + λ d_i) = 0 between the poles -1/max(d) and -1/min(d): the sum falls
    strictly there, so Newton's steps kept inside a shrinking bracket find it. The values
    always include 0 and 1 and 0 < target < 1, so both poles exist.
    """
    shifted = [value - target for value in values]
    low, high = -1.0 / max(shifted), -1.0 / min(shifted)
    lam = 0.0
    for _ in range(100):
        ratios = [d / (1.0 + lam * d) for d in shifted]
        slope = sum(q * r for q, r in zip(freqs, ratios, strict=True))
        step = slope / sum(q * r * r for q, r in zip(freqs, ratios, strict=True))
        if abs(step) < 1e-13 * max(1.0, abs(lam)):
            break
        if slope > 0:
            low = lam
        else:
            high = lam
        guess = lam + step
        lam = guess if low < guess < high else (low + high) / 2
    weights = [q / (1.0 + lam * d) for q, d in zip(freqs, shifted, strict=True)]
    total = sum(weights)
    return [weight / total for weight in weights]


@dataclass(frozen=True)
class Bounds:
    """Wald's stopping bounds for error rates alpha (false H1) and beta (false H0)."""

    alpha: float = 0.05
    beta: float = 0.05

    @property
    def lower(self) -> float:
        return math.log(self.beta / (1.0 - self.alpha))

    @property
    def upper(self) -> float:
        return math.log((1.0 - self.beta) / self.alpha)


@dataclass
class Sprt:
    """Block scores so far, and what they say about H0: elo <= elo0 against H1: elo >= elo1."""

    players: int = 2
    elo0: float = 0.0
    elo1: float = 10.0
    bounds: Bounds = field(default_factory=Bounds)
    counts: Counter[Fraction] = field(default_factory=Counter)

    def __post_init__(self) -> None:
        self.values = block_values(self.players)

    def add(self, block_score: Fraction) -> None:
        """Record one block's score (a value of `block_values`)."""
        if block_score not in self.values:
            raise ValueError(f"{block_score} is not a possible block score")
        self.counts[block_score] += 1

    @property
    def blocks(self) -> int:
        return sum(self.counts.values())

    def frequencies(self) -> list[float]:
        counts = [self.counts[value] or EPSILON for value in self.values]
        total = sum(counts)
        return [count / total for count in counts]

    def llr(self) -> float:
        """The generalized log-likelihood ratio of H1 against H0 over the blocks so far."""
        if not self.blocks:
            return 0.0
        values = [float(value) for value in self.values]
        freqs = self.frequencies()
        p0 = _constrained_mle(values, freqs, score_of_elo(self.elo0))
        p1 = _constrained_mle(values, freqs, score_of_elo(self.elo1))
        total = sum(self.counts[value] or EPSILON for value in self.values)
        return total * sum(
            q * math.log(b / a) for q, a, b in zip(freqs, p0, p1, strict=True) if q > 0
        )

    def verdict(self) -> str | None:
        """ "H1" (NEW is ELO1 better), "H0" (not better than ELO0), or None: play on."""
        llr = self.llr()
        if llr >= self.bounds.upper:
            return "H1"
        if llr <= self.bounds.lower:
            return "H0"
        return None

    def mean(self) -> float:
        """NEW's mean score per game over the blocks (0.5 when none)."""
        if not self.blocks:
            return 0.5
        return float(sum(value * count for value, count in self.counts.items())) / self.blocks

    def elo(self) -> tuple[float, float, float]:
        """The Elo difference with its 95 % interval, from the mean block score and the
        variance between blocks (the paired games' own variance, not the games')."""
        mean = self.mean()
        if self.blocks < 2:
            return elo_of_score(mean), -math.inf, math.inf
        variance = sum(
            count * (float(value) - mean) ** 2 for value, count in self.counts.items()
        ) / (self.blocks - 1)
        half = Z95 * math.sqrt(variance / self.blocks)
        return elo_of_score(mean), elo_of_score(mean - half), elo_of_score(mean + half)
