"""`botarena compare`'s SPRT on simulated bots of known Elo difference: its error rates.

`python bench/run.py compare`: false positives (truth ELO0, verdict H1) and false negatives
(truth ELO1, verdict H0) over many simulated runs, against the requested alpha and beta.
"""

from __future__ import annotations

import math


def run(quick: bool) -> list[dict]:
    from botarena.stats.simulate import error_rates
    from botarena.stats.sprt import Bounds

    elo0, elo1, runs = (0, 40, 200) if quick else (0, 10, 500)
    bounds = Bounds(0.05, 0.05)
    false_h1, false_h0, pairs = error_rates(runs, elo0, elo1, bounds, seed=2026)
    noise = 2 * math.sqrt(0.05 * 0.95 / runs)
    goal = f"<= 0.05 (+{noise:.3f}: 2 s.e. of {runs} runs)"
    label = f"SPRT [{elo0},{elo1}]"
    return [
        {
            "name": f"{label} false positives (truth {elo0})",
            "value": false_h1,
            "unit": "share of runs",
            "goal": goal,
        },
        {
            "name": f"{label} false negatives (truth {elo1})",
            "value": false_h0,
            "unit": "share of runs",
            "goal": goal,
        },
        {"name": f"{label} mean length", "value": pairs, "unit": "game pairs", "goal": ""},
    ]
