"""Amazes explorer: strength on the 10 official mazes (both seats) and its time per game."""

from __future__ import annotations

import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "tests"))
from testdata import AMAZES_MAZES as MAZES  # noqa: E402


def _duel(opponent: object, quick: bool) -> tuple[float, float, float, float]:
    """Win rate, explorer mean score, opponent mean score and the share of games ended by
    sudden death over the official mazes, each played with the explorer as Red and as
    Blue."""
    import botarena
    from botarena.games.amazes.bots.explorer import ExplorerBot

    mazes = range(1, 4) if quick else range(1, 11)
    wins, mine, theirs, games, sudden = 0, 0.0, 0.0, 0, 0
    for maze in mazes:
        for seat in (0, 1):
            bots = [ExplorerBot(), opponent()]  # type: ignore[operator]
            if seat:
                bots.reverse()
            result = botarena.play("amazes", bots, map=MAZES / f"maze{maze:02d}.txt", seed=maze)
            scores = result.scores
            sudden += result.end_reason == "sudden_death"
            wins += scores[seat] > scores[1 - seat]
            mine += scores[seat]
            theirs += scores[1 - seat]
            games += 1
    return wins / games, mine / games, theirs / games, sudden / games


def run(quick: bool) -> list[dict]:
    import botarena
    from amazes_rival import RivalBot
    from botarena.games.amazes.bots.random import RandomBot
    from test_amazes_explorer_frontier import CompleterBot, ContestantBot, FrontierBot

    rows = []
    for name, opponent in (
        ("random", RandomBot),
        ("frontier", FrontierBot),
        ("completer", CompleterBot),
        ("contestant", ContestantBot),
        ("rival", RivalBot),
    ):
        rate, mine, theirs, sudden = _duel(opponent, quick)
        goal = {"random": "1.0", "frontier": ">= 0.9"}.get(name, ">= 0.5")
        rows += [
            {
                "name": f"amazes explorer vs {name}: win rate",
                "value": rate,
                "unit": "games",
                "goal": goal,
            },
            {
                "name": f"amazes explorer vs {name}: mean score",
                "value": mine,
                "unit": "points",
                "goal": f"> {name}'s",
            },
            {
                "name": f"amazes {name} vs explorer: mean score",
                "value": theirs,
                "unit": "points",
                "goal": "",
            },
            {
                "name": f"amazes explorer vs {name}: decided by sudden death",
                "value": sudden,
                "unit": "games",
                "goal": "",
            },
        ]
    games = 3 if quick else 10
    started = time.process_time()
    for seed in range(games):
        botarena.play("amazes", ["builtin:amazes/explorer", "builtin:amazes/random"], seed=seed)
    rows.append(
        {
            "name": "amazes explorer vs random in-process: CPU per game",
            "value": (time.process_time() - started) / games * 1000,
            "unit": "ms",
            "goal": "< 100",
        }
    )
    command = f"{sys.executable} -m botarena.games.amazes.bots.explorer"
    waited = []
    for seed in range(1 if quick else 4):
        result = botarena.play("amazes", [command, "builtin:amazes/random"], seed=seed)
        waited.append(result.to_dict()["players"][0]["time_ms"])
    rows.append(
        {
            "name": "amazes explorer as a process: time charged per game",
            "value": sum(waited) / len(waited),
            "unit": "ms",
            "goal": "<= 1000 (of 5000)",
        }
    )
    return rows
