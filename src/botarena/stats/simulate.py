"""Simulated game pairs of known Elo difference, to measure what a test's verdicts are worth."""

from __future__ import annotations

import random
from fractions import Fraction

from botarena.stats.elo import score_of_elo
from botarena.stats.sprt import Bounds, Sprt


def simulated_pair(
    rng: random.Random, elo: float, draw_rate: float = 0.2, seat_luck: float = 0.2
) -> Fraction:
    """One seat-swapped pair's score for NEW, `elo` stronger than OLD: each game a win, a
    draw or a loss with NEW's expected score from the Elo difference, shifted by a luck of
    the draw shared by the pair's seed (+u for NEW in one seat, -u in the other)."""
    expected = score_of_elo(elo)
    luck = rng.uniform(-seat_luck, seat_luck)
    total = Fraction(0)
    for shift in (luck, -luck):
        score = min(max(expected + shift, draw_rate / 2), 1 - draw_rate / 2)
        roll = rng.random()
        if roll < score - draw_rate / 2:
            total += 1
        elif roll < score + draw_rate / 2:
            total += Fraction(1, 2)
    return total / 2


def sprt_run(
    rng: random.Random,
    true_elo: float,
    elo0: float,
    elo1: float,
    bounds: Bounds,
    max_pairs: int = 200_000,
) -> tuple[str | None, int]:
    """One SPRT on simulated pairs: its verdict and the pairs it needed."""
    test = Sprt(players=2, elo0=elo0, elo1=elo1, bounds=bounds)
    for pairs in range(1, max_pairs + 1):
        test.add(simulated_pair(rng, true_elo))
        verdict = test.verdict()
        if verdict is not None:
            return verdict, pairs
    return None, max_pairs


def error_rates(
    runs: int, elo0: float, elo1: float, bounds: Bounds, seed: int = 0
) -> tuple[float, float, float]:
    """The share of runs accepting H1 when the truth is ELO0 (false positives), the share
    accepting H0 when it is ELO1 (false negatives), and the mean pairs per run."""
    rng = random.Random(seed)
    false_h1 = false_h0 = pairs = 0
    for _ in range(runs):
        verdict, used = sprt_run(rng, elo0, elo0, elo1, bounds)
        false_h1 += verdict == "H1"
        pairs += used
        verdict, used = sprt_run(rng, elo1, elo0, elo1, bounds)
        false_h0 += verdict == "H0"
        pairs += used
    return false_h1 / runs, false_h0 / runs, pairs / (2 * runs)
