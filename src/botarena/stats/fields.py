"""Simulated tournament fields of known strength, to measure the adaptive stopping rule.

Each field plays whole rounds of a toy game whose score distributions are set here; the true
order of the bots is known, so a stopping rule's accuracy and cost can be counted exactly.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from botarena.stats.settle import RoundEvidence

Round = Callable[[np.random.Generator], list[np.ndarray]]
"""One round of a field: per group of bots ranked together, each bot's mean result."""


@dataclass(frozen=True)
class Field:
    """A field: how a round is drawn, and per group its true best-first order and direction."""

    name: str
    play_round: Round
    truths: tuple[tuple[int, ...], ...]
    higher_is_better: tuple[bool, ...]
    games_per_round: int


def elo_field(name: str, elos: list[float], draw_rate: float = 0.2) -> Field:
    """A 2-player game played as a double round robin each round (every ordered pair once):
    each game a win, draw or loss with the logistic Elo's expected score."""
    strengths = np.asarray(elos, dtype=float)
    expected = 1 / (1 + 10 ** ((strengths[None, :] - strengths[:, None]) / 400))
    n = len(elos)
    off_diagonal = ~np.eye(n, dtype=bool)

    def play_round(rng: np.random.Generator) -> list[np.ndarray]:
        roll = rng.random((n, n))
        first = np.where(
            roll < expected - draw_rate / 2,
            1.0,
            np.where(roll < expected + draw_rate / 2, 0.5, 0.0),
        )
        first = np.where(off_diagonal, first, 0.0)
        # row a, column b: a's score as first seat against b; b's is 1 minus it
        totals = first.sum(axis=1) + (off_diagonal * (1 - first)).sum(axis=0)
        return [totals / (2 * (n - 1))]

    truth = tuple(int(i) for i in np.argsort(-strengths, kind="stable"))
    return Field(name, play_round, (truth,), (True,), n * (n - 1))


def role_field(name: str, seekers: list[float], masters: list[float], noise: float) -> Field:
    """A role game: every seeker plays every master once a round; the shared score is
    max(0, 10 + seeker - master + noise). Seekers rank by highest mean score, masters by
    lowest, as role games whose second role wants a low score rank them."""
    skill = np.asarray(seekers, dtype=float)[:, None]
    guard = np.asarray(masters, dtype=float)[None, :]

    def play_round(rng: np.random.Generator) -> list[np.ndarray]:
        scores = np.maximum(
            0.0, 10 + skill - guard + rng.normal(0, noise, (skill.size, guard.size))
        )
        return [scores.mean(axis=1), scores.mean(axis=0)]

    truths = (
        tuple(int(i) for i in np.argsort(-skill[:, 0], kind="stable")),
        tuple(int(i) for i in np.argsort(-guard[0], kind="stable")),
    )
    return Field(name, play_round, truths, (True, False), skill.size * guard.size)


@dataclass
class Trial:
    """One simulated tournament: where the adaptive rule stopped and whether it was right, and
    for every fixed length r up to the horizon whether a round robin of r rounds was right."""

    stop_round: int
    adaptive_right: bool
    settled: bool
    fixed_right: list[bool]


def run_trial(
    field: Field, rng: np.random.Generator, top: int, confidence: float, horizon: int
) -> Trial:
    """Play `horizon` rounds, noting the adaptive rule's first stop (the horizon if none)."""
    groups = [
        RoundEvidence([str(i) for i in range(len(truth))], higher)
        for truth, higher in zip(field.truths, field.higher_is_better, strict=True)
    ]
    stop, adaptive_right, fixed = 0, False, []
    for played in range(1, horizon + 1):
        for evidence, means in zip(groups, field.play_round(rng), strict=True):
            evidence.add(means)
        right = all(
            evidence.order()[:top] == list(truth[:top])
            for evidence, truth in zip(groups, field.truths, strict=True)
        )
        fixed.append(right)
        if not stop and all(evidence.settle(top, confidence).settled for evidence in groups):
            stop, adaptive_right = played, right
    if not stop:
        return Trial(horizon, fixed[-1], False, fixed)
    return Trial(stop, adaptive_right, True, fixed)


@dataclass(frozen=True)
class Comparison:
    """Adaptive against a fixed round robin as accurate, over a set of trials (per trial)."""

    field: str
    trials: int
    adaptive_accuracy: float
    adaptive_games: float
    fixed_rounds: int | None
    fixed_games: float | None
    capped: int
    """Trials the adaptive rule did not settle within the horizon."""


def run_trials(
    field: Field,
    trials: int,
    top: int = 5,
    confidence: float = 0.95,
    horizon: int = 400,
    seed: int = 0,
) -> list[Trial]:
    """`trials` simulated tournaments of `field`, reproducible from `seed`."""
    rng = np.random.default_rng(seed)
    return [run_trial(field, rng, top, confidence, horizon) for _ in range(trials)]


def fixed_rounds_for(results: list[tuple[Field, Trial]], accuracy: float) -> int | None:
    """The fewest rounds from which on a fixed round robin of every length up to the shortest
    horizon is right in at least `accuracy` of the trials (the first length that happens to
    be is luck), or None."""
    horizon = min(len(trial.fixed_right) for _, trial in results)
    found = None
    for rounds in range(horizon, 0, -1):
        right = sum(trial.fixed_right[rounds - 1] for _, trial in results)
        if right / len(results) < accuracy:
            break
        found = rounds
    return found


def compare_with_fixed(fields: list[tuple[Field, list[Trial]]]) -> Comparison:
    """The adaptive rule against the one fixed round robin as accurate over all these trials:
    games are summed over every trial of every field."""
    results = [(field, trial) for field, trials in fields for trial in trials]
    accuracy = sum(trial.adaptive_right for _, trial in results) / len(results)
    adaptive = sum(trial.stop_round * field.games_per_round for field, trial in results)
    rounds = fixed_rounds_for(results, accuracy)
    fixed = None if rounds is None else sum(rounds * field.games_per_round for field, _ in results)
    name = fields[0][0].name if len(fields) == 1 else "all fields"
    return Comparison(
        name,
        len(results),
        accuracy,
        adaptive / len(results),
        rounds,
        None if fixed is None else fixed / len(results),
        sum(not trial.settled for _, trial in results),
    )


@dataclass(frozen=True)
class TieStudy:
    """The stopping rule on one field of equally spaced bots: of the neighbouring pairs of
    the top it declared ordered, the share in the wrong order (equal bots ordered at all
    count as wrong); of the pairs of exactly equal bots, the share declared tied; the
    share of tournaments settled; and the mean rounds played."""

    bots: int
    gap: float
    trials: int
    wrong_orders: float
    equal_tied: float | None
    settled: float
    rounds: float
    ordered: float
    """The share of neighbouring pairs of the top declared ordered when the rule stopped."""


def tie_study(
    bots: int,
    gap: float,
    trials: int,
    top: int = 5,
    confidence: float = 0.95,
    max_rounds: int = 100,
    seed: int = 0,
) -> TieStudy:
    """`trials` adaptive tournaments of `bots` bots `gap` Elo apart (0: all equal), each
    stopped at its first settled look or at `max_rounds`."""
    strength = [gap * (bots - i) for i in range(bots)]
    field = elo_field(f"{bots} bots {gap} Elo apart", strength)
    rng = np.random.default_rng(seed)
    ordered = wrong = equal = tied = settled = rounds = pairs = 0
    for _ in range(trials):
        evidence = RoundEvidence([str(i) for i in range(bots)])
        decision = None
        for _ in range(max_rounds):
            evidence.add(field.play_round(rng)[0])
            decision = evidence.settle(top, confidence)
            if decision.settled:
                break
        assert decision is not None
        rounds += evidence.count
        settled += decision.settled
        pairs += len(decision.neighbours)
        for pair in decision.neighbours:
            better, worse = strength[int(pair.better)], strength[int(pair.worse)]
            if pair.verdict == "ordered":
                ordered += 1
                wrong += better <= worse
            if better == worse:
                equal += 1
                tied += pair.verdict == "tied"
    return TieStudy(
        bots,
        gap,
        trials,
        wrong / ordered if ordered else 0.0,
        tied / equal if equal else None,
        settled / trials,
        rounds / trials,
        ordered / pairs if pairs else 0.0,
    )
