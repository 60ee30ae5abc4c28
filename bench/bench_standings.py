"""Standings speed: ranking a large finished tournament, per game, for each method.

A round robin of 50 bots on random 2-player results (and a 4-player one for places), the
records made up in memory: what `tournament standings` costs once the store has answered.
The history plot of the 2-player tournament is timed too.
"""

from __future__ import annotations

import random
import time
from pathlib import Path

from botarena.tournament.ranking import plot_history, standings
from botarena.tournament.records import GameRecord
from tempdirs import readable_tempdir


def tournament(games: int, seats: int, bots: list[str], seed: int = 1) -> list[GameRecord]:
    """Random results: scores 0..100, places from the scores (ties share)."""
    rng = random.Random(seed)
    records = []
    for index in range(games):
        names = tuple(rng.sample(bots, seats))
        scores = tuple(float(rng.randint(0, 100)) for _ in names)
        ranks = tuple(1 + sum(other > mine for other in scores) for mine in scores)
        records.append(
            GameRecord(str(index), names, scores, ranks, ("ok",) * seats, (0,) * seats, order=index)
        )
    return records


def per_game_ms(game: str, records: list[GameRecord], bots: list[str], method: str) -> float:
    started = time.perf_counter()
    standings(game, records, bots, rank_by=method)
    return (time.perf_counter() - started) * 1000 / len(records)


def run(quick: bool) -> list[dict]:
    games = 2_000 if quick else 20_000
    bots = [f"bot{i}" for i in range(50)]
    duel = tournament(games, 2, bots)
    four = tournament(games, 4, bots)
    standings("amazes", duel[:10], bots)  # the game registry and openskill imported
    rows = [
        {
            "name": f"standings {method}, 2 seats, {games} games",
            "value": per_game_ms("amazes", duel, bots, method),
            "unit": "ms/game",
            "goal": "<= 0.2",
        }
        for method in ("points", "places", "mean-score")
    ]
    rows.append(
        {
            "name": f"standings places, 4 seats, {games} games",
            "value": per_game_ms("falldown", four, bots, "places"),
            "unit": "ms/game",
            "goal": "<= 0.5",
        }
    )
    with readable_tempdir() as folder:
        started = time.perf_counter()
        plot_history("amazes", duel, bots, Path(folder) / "history.png", rank_by="places")
        rows.append(
            {
                "name": f"history plot, 50 bots, {games} games",
                "value": time.perf_counter() - started,
                "unit": "s",
                "goal": "<= 10",
            }
        )
    return rows
