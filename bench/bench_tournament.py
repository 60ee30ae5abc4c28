"""Tournaments: what the schedule, store and runner add to each game, and what 2 workers gain.

Overhead: a round robin of in-process built-in Amazes bots played by the runner in its own
process (`--workers 0`), against the same games (same seeds, replays written) played by
`botarena.play` in a loop; the difference per game, least of a few tries. Workers: games/s
of a tournament of process bots with 1 and with 2 workers (pinned to a core each).
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

from tempdirs import readable_tempdir


def _tournament(folder: Path, name: str, bots: list[str], per_pair: int):
    from botarena.games import get_game
    from botarena.tournament.manage import Settings, create, parse_bot_option
    from botarena.tournament.store import Store

    store = Store.open(f"sqlite:///{folder / (name + '.db')}")
    rules = get_game("amazes")
    tournament, _ = create(
        store,
        name,
        rules,
        [parse_bot_option(rules, b) for b in bots],
        Settings(games_per_pair=per_pair, seed=1, replay_dir=folder / "replays"),
        folder,
        print,
    )
    return store, tournament


class _TimedInline:
    """The runner's own process as executor, adding up the time spent inside the games."""

    def __init__(self) -> None:
        from botarena.tournament.executors import LocalExecutor

        self.inner = LocalExecutor(0)
        self.slots = 1
        self.in_games = 0.0

    def submit(self, job: dict):
        started = time.perf_counter()
        future = self.inner.submit(job)
        self.in_games += time.perf_counter() - started
        return future

    def shutdown(self) -> None:
        self.inner.shutdown()


def _timed_run(
    folder: Path, name: str, bots: list[str], per_pair: int, executor
) -> tuple[float, list]:
    from botarena.tournament import runner

    store, tournament = _tournament(folder, name, bots, per_pair)
    started = time.perf_counter()
    runner.run(store, tournament, executor)
    elapsed = time.perf_counter() - started
    executor.shutdown()
    games = store.games(tournament)
    store.close()
    return elapsed, games


def overhead_ms(quick: bool) -> tuple[float, float, int]:
    """(least tournament time - least loop time, least time outside the games), per game."""
    import botarena

    bots = ["builtin:amazes/random", "r2=builtin:amazes/random", "r3=builtin:amazes/random"]
    specs = {"random": bots[0], "r2": bots[1], "r3": bots[2]}
    per_pair = 3 if quick else 10
    tournament, loop, outside = float("inf"), float("inf"), float("inf")
    count = 0
    for attempt in range(3 if quick else 6):
        with readable_tempdir() as tmp:
            folder = Path(tmp)
            executor = _TimedInline()
            elapsed, games = _timed_run(folder, f"o{attempt}", bots, per_pair, executor)
            tournament = min(tournament, elapsed)
            outside = min(outside, elapsed - executor.in_games)
            started = time.perf_counter()
            for index, game in enumerate(games):
                botarena.play(
                    "amazes",
                    [specs[s] for s in game.seats],
                    seed=game.seed,
                    replay=folder / "loop" / f"{index}.json.gz",
                )
            loop = min(loop, time.perf_counter() - started)
        count = len(games)
    return (tournament - loop) / count * 1000, outside / count * 1000, count


def workers_speedup(quick: bool) -> tuple[float, float]:
    """Games/s with 1 and with 2 workers, the best of 3 runs each, taken in turns (a run
    is 2-4 s: one slow moment of a shared machine would decide a single one)."""
    from botarena.tournament.executors import LocalExecutor

    bot = f"{sys.executable} -m botarena.games.amazes.bots.random"
    bots = [f"a={bot}", f"b={bot}"]
    per_pair = 4 if quick else 10
    best = {1: 0.0, 2: 0.0}
    for attempt in range(1 if quick else 3):
        for workers in (1, 2):
            with readable_tempdir() as tmp:
                executor = LocalExecutor(workers)
                for warm in [executor.pool.submit(time.sleep, 0.3) for _ in range(workers)]:
                    warm.result()  # the workers are started before the clock: paid once
                elapsed, games = _timed_run(
                    Path(tmp), f"w{workers}-{attempt}", bots, per_pair, executor
                )
                best[workers] = max(best[workers], len(games) / elapsed)
    return best[1], best[2]


def run(quick: bool) -> list[dict]:
    overhead, outside, count = overhead_ms(quick)
    one, two = workers_speedup(quick)
    return [
        {
            "name": f"tournament overhead per game ({count} in-process Amazes games)",
            "value": round(overhead, 2),
            "unit": "ms",
            "goal": "<= 5",
        },
        {
            "name": "runner time outside the games, per game",
            "value": round(outside, 2),
            "unit": "ms",
            "goal": "<= 5",
        },
        {
            "name": "process-bot games/s, 1 worker (best of 3)",
            "value": round(one, 2),
            "unit": "games/s",
            "goal": "",
        },
        {
            "name": "process-bot games/s, 2 workers (best of 3)",
            "value": round(two, 2),
            "unit": "games/s",
            "goal": "",
        },
        {
            "name": "speed-up 1 -> 2 workers",
            "value": round(two / one, 2),
            "unit": "x",
            "goal": ">= 1.8",
        },
    ]
