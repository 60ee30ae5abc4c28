"""The adaptive schedule on simulated fields of known strength: accuracy and games used.

`python bench/run.py adaptive`: for each field, the share of tournaments whose settled top 5
is the true order (goal >= 0.95), the games the adaptive rule played, and the games of the
fixed round robin that is as accurate on the same simulated rounds — per field (a length
chosen knowing the field) and over all fields together (one length for every field, as an
organiser who does not know the field's difficulty must choose).
"""

from __future__ import annotations


def fields():
    from botarena.stats.fields import elo_field, role_field

    return [
        (elo_field("8 bots 100 Elo apart", [100 * i for i in range(8)]), 150),
        (
            elo_field("10 bots, top 5 near ties", [300, 265, 200, 150, 100, 0, -20, -40, -60, -80]),
            400,
        ),
        (elo_field("30 bots 40 Elo apart", [40 * i for i in range(30)]), 250),
        (
            role_field(
                "roles 6x6, noisy", [3, 2.5, 2, 1.5, 1, 0.5], [0.5, 1, 1.5, 2, 2.5, 3], noise=2
            ),
            300,
        ),
    ]


def run(quick: bool) -> list[dict]:
    from botarena.stats.fields import compare_with_fixed, run_trials

    trials = 30 if quick else 200
    rows, everything = [], []
    for index, (field, horizon) in enumerate(fields()):
        done = run_trials(field, trials, horizon=horizon, seed=index)
        everything.append((field, done))
        rows += _rows(compare_with_fixed([(field, done)]))
    rows += _rows(compare_with_fixed(everything))
    return rows


def _rows(result) -> list[dict]:
    name = f"adaptive top 5, {result.field}"
    fixed = (
        "none as accurate"
        if result.fixed_games is None
        else f"< {result.fixed_games:.0f} (fixed, {result.fixed_rounds} rounds)"
    )
    return [
        {
            "name": f"{name}: right order ({result.trials} tournaments)",
            "value": result.adaptive_accuracy,
            "unit": "share",
            "goal": ">= 0.95",
        },
        {
            "name": f"{name}: games per tournament",
            "value": round(result.adaptive_games),
            "unit": "games",
            "goal": fixed,
        },
    ]
