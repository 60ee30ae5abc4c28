"""The logistic Elo scale: expected score from an Elo difference and back."""

from __future__ import annotations

import math


def score_of_elo(elo: float) -> float:
    """The expected score (0..1) of a player `elo` points stronger than its opponent."""
    return 1.0 / (1.0 + float(10.0 ** (-elo / 400.0)))


def elo_of_score(score: float) -> float:
    """The Elo difference whose expected score is `score`; ±inf at 1 and 0."""
    if score <= 0.0:
        return -math.inf
    if score >= 1.0:
        return math.inf
    return -400.0 * math.log10(1.0 / score - 1.0)
