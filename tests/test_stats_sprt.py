"""The SPRT behind `botarena compare`: Elo scale, block scores, the test's verdicts and rates."""

from __future__ import annotations

import math
import random
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from botarena.compare import game_score
from botarena.stats.elo import elo_of_score, score_of_elo
from botarena.stats.simulate import error_rates
from botarena.stats.sprt import Bounds, Sprt, _constrained_mle, block_values


def test_the_logistic_elo_scale() -> None:
    assert score_of_elo(0) == 0.5
    assert score_of_elo(400) == pytest.approx(10 / 11)  # 10 : 1 odds at 400 points
    assert elo_of_score(0.75) == pytest.approx(400 * math.log10(3))
    assert elo_of_score(1.0) == math.inf and elo_of_score(0.0) == -math.inf


@given(st.floats(min_value=-1500, max_value=1500))
def test_elo_and_score_are_inverse(elo: float) -> None:
    assert elo_of_score(score_of_elo(elo)) == pytest.approx(elo, abs=1e-6)


def test_two_player_blocks_are_the_pentanomial() -> None:
    assert block_values(2) == [Fraction(k, 4) for k in range(5)]
    assert block_values(4) == [Fraction(k, 24) for k in range(25)]


def test_game_score_counts_old_copies_placed_below() -> None:
    assert game_score([1, 2], 0) == 1 and game_score([2, 1], 0) == 0
    assert game_score([1, 1], 1) == Fraction(1, 2)
    # NEW second of four, one copy above it, two below: 2 of 3
    assert game_score([2, 1, 3, 3], 0) == Fraction(2, 3)
    # NEW tied first with one copy, two below: (2 + 1/2) / 3
    assert game_score([3, 1, 1, 3], 1) == Fraction(5, 6)


def test_wald_bounds() -> None:
    assert Bounds(0.05, 0.05).upper == pytest.approx(math.log(19))
    assert Bounds(0.05, 0.05).lower == pytest.approx(-math.log(19))
    assert Bounds(0.01, 0.1).upper == pytest.approx(math.log(0.9 / 0.01))


@given(
    st.lists(st.floats(min_value=0.01, max_value=1), min_size=5, max_size=5),
    st.floats(min_value=0.05, max_value=0.95),
)
def test_the_constrained_distribution_has_the_target_mean(
    weights: list[float], target: float
) -> None:
    values = [0, 0.25, 0.5, 0.75, 1]
    freqs = [w / sum(weights) for w in weights]
    fitted = _constrained_mle(values, freqs, target)
    assert sum(fitted) == pytest.approx(1)
    assert all(p > 0 for p in fitted)
    assert sum(v * p for v, p in zip(values, fitted, strict=True)) == pytest.approx(target)


def test_llr_matches_the_normal_approximation_on_many_pairs() -> None:
    """For many blocks the GLR is N (s1 - s0)(2 mean - s0 - s1) / (2 var): the classical
    approximation fishtest used before its exact form."""
    test = Sprt(elo0=0, elo1=10)
    counts = {
        Fraction(0): 300,
        Fraction(1, 4): 1500,
        Fraction(1, 2): 2600,
        Fraction(3, 4): 1700,
        Fraction(1): 400,
    }
    for value, count in counts.items():
        test.counts[value] = count
    n = sum(counts.values())
    mean = sum(float(v) * c for v, c in counts.items()) / n
    var = sum(c * (float(v) - mean) ** 2 for v, c in counts.items()) / n
    s0, s1 = score_of_elo(0), score_of_elo(10)
    approx = n * (s1 - s0) * (2 * mean - s0 - s1) / (2 * var)
    assert test.llr() == pytest.approx(approx, rel=0.02)


def test_the_interval_of_four_blocks() -> None:
    test = Sprt()
    for value in (Fraction(1), Fraction(1), Fraction(1, 2), Fraction(1, 2)):
        test.add(value)
    elo, low, high = test.elo()
    assert elo == pytest.approx(400 * math.log10(3))  # mean 3/4
    half = 1.959963984540054 * math.sqrt((4 * 0.25**2 / 3) / 4)
    assert low == pytest.approx(elo_of_score(0.75 - half))
    assert high == math.inf  # 0.75 + half is above 1


def test_a_clearly_better_bot_is_accepted_and_an_equal_one_is_not() -> None:
    rng = random.Random(7)
    better = Sprt(elo0=0, elo1=10)
    while better.verdict() is None:
        better.add(Fraction(sum(rng.random() < score_of_elo(60) for _ in range(2)), 2))
    assert better.verdict() == "H1"
    equal = Sprt(elo0=0, elo1=10)
    while equal.verdict() is None:
        equal.add(Fraction(sum(rng.random() < 0.5 for _ in range(2)), 2))
    assert equal.verdict() == "H0"


@pytest.mark.slow
def test_error_rates_stay_within_alpha_and_beta() -> None:
    """500 simulated runs each way: the share of wrong verdicts is within the requested rate
    (plus three binomial standard errors of 500 runs)."""
    alpha = beta = 0.05
    false_h1, false_h0, _ = error_rates(500, 0, 40, Bounds(alpha, beta), seed=11)
    slack = 3 * math.sqrt(alpha * (1 - alpha) / 500)
    assert false_h1 <= alpha + slack
    assert false_h0 <= beta + slack
