"""The ladder: matchmaking's cost by field size, how fast ratings find the true order under
three pairings, how close a newcomer is after 30 games, and games/s against a round robin.

Matchmaking: `ladder.make_and_claim` (choose, insert the claimed game, update waiting) on a
SQLite store of N active bots, mean over games. Simulation (tournament/simulate.py): Spearman
ρ of the ordinals with the true strengths after k games per bot, for the ladder's
matchmaking, uniform random pairing and a round robin (circle method); a newcomer's true
place inside its μ ± σ band after 30 games (a calibrated 1-σ band holds it ~68 % of the
time). Games/s: 8 process bots (Amazes random), a ladder (`runner.work`) with 1 and 2
workers against a round robin (`runner.run`) of as many games.
"""

from __future__ import annotations

import random
import sys
import tempfile
import time
from pathlib import Path

from tempdirs import readable_tempdir

PROCESS_BOT = f"{sys.executable} -m botarena.games.amazes.bots.random"


def _ladder(folder: Path, bots: list[str], name: str = "L"):
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
        Settings(schedule="ladder", seed=1, replay_dir=folder / "r"),
        folder,
        print,
    )
    return store, tournament


def matchmaking_ms(bots: int, games: int = 200) -> tuple[float, float]:
    """(choose only, choose + insert the claimed game + commit), ms per game."""
    import sqlalchemy as sa

    from botarena.tournament import ladder
    from botarena.tournament.store import ladder_bots

    with readable_tempdir() as tmp:
        store, tournament = _ladder(
            Path(tmp), ["a=builtin:amazes/random", "b=builtin:amazes/random"]
        )
        rng = random.Random(1)
        with store.transaction() as conn:  # a settled field of `bots` versions
            conn.execute(
                ladder_bots.insert(),
                [
                    dict(
                        tournament_id=tournament.id,
                        label=f"x{i}",
                        name=f"x{i}",
                        state="active",
                        mu=rng.gauss(25, 5),
                        sigma=4.0,
                        games=30,
                        firsts=0,
                        queue=1,
                        last_seq=rng.randrange(10**6),
                        rnd=rng.random(),
                        added_at=0.0,
                    )
                    for i in range(bots - 2)
                ],
            )
            conn.execute(sa.text("ANALYZE"))
        with store.engine.connect() as conn:
            started = time.perf_counter()
            for _ in range(games):
                ladder.choose(conn, tournament, rng)
            choosing = time.perf_counter() - started
        started = time.perf_counter()
        for _ in range(games):
            ladder.make_and_claim(store, tournament, "bench", rng)
        elapsed = time.perf_counter() - started
        store.close()
    return choosing / games * 1000, elapsed / games * 1000


def games_per_second(workers: int, games: int, ladder_mode: bool) -> float:
    from botarena.tournament import executors, runner
    from botarena.tournament.manage import Settings, create, parse_bot_option
    from botarena.tournament.store import Store

    bots = [f"p{i}={PROCESS_BOT}" for i in range(8)]
    with readable_tempdir() as tmp:
        folder = Path(tmp)
        if ladder_mode:
            store, tournament = _ladder(folder, bots)
        else:
            from botarena.games import get_game

            store = Store.open(f"sqlite:///{folder / 'rr.db'}")
            rules = get_game("amazes")
            tournament, _ = create(
                store,
                "R",
                rules,
                [parse_bot_option(rules, b) for b in bots],
                Settings(seed=1, replay_dir=folder / "r"),
                folder,
                print,
            )
        executor = executors.LocalExecutor(workers)
        started = time.perf_counter()
        if ladder_mode:
            played = runner.work(store, executor, ["L"], games=games)
        else:
            played = runner.run(store, tournament, executor)
        elapsed = time.perf_counter() - started
        executor.shutdown()
        store.close()
    return played / elapsed


def run(quick: bool) -> list[dict]:
    from botarena.tournament import simulate

    rows = []
    for bots in (100, 1000, 10000):
        choose, claim = matchmaking_ms(bots, 50 if quick else 200)
        rows.append(
            {
                "name": f"ladder: choosing the next game, {bots} bots (SQLite)",
                "value": choose,
                "unit": "ms",
                "goal": "<= 5",
            }
        )
        rows.append(
            {
                "name": f"ladder: choose + insert claimed + commit, {bots} bots",
                "value": claim,
                "unit": "ms",
                "goal": "",
            }
        )
    sizes = (100, 1000) if quick else (100, 1000, 10000)
    for bots in sizes:
        checkpoints = [20, 30, 50, 75, 100] if bots < 10000 else [10, 20, 30]
        seeds = range(4) if bots <= 100 else range(1, 2)  # small fields are noisy
        for pairing in simulate.PAIRINGS:
            curves = [simulate.curve(bots, pairing, checkpoints, seed=s) for s in seeds]
            for games in checkpoints:
                rho = sum(c[games] for c in curves) / len(curves)
                rows.append(
                    {
                        "name": f"spearman {pairing}, {bots} bots, {games} games/bot",
                        "value": rho,
                        "unit": "rho",
                        "goal": ">= 0.95 soonest",
                    }
                )
    tries = 10 if quick else 40
    inside = sum(simulate.newcomer(100, seed=s)[2] >= 0 for s in range(tries))
    rows.append(
        {
            "name": "newcomer's true place within its mu +- sigma band after 30 games",
            "value": inside / tries,
            "unit": "share",
            "goal": "~0.68 (1 sigma)",
        }
    )
    import os

    if os.environ.get("BOTARENA_BENCH_PG"):  # postgresql://USER@HOST:PORT/DB
        rows.append(
            {
                "name": "PostgreSQL: choose + claim + result + ratings + replay",
                "value": claim_and_result_ms(os.environ["BOTARENA_BENCH_PG"]),
                "unit": "ms/game",
                "goal": "",
            }
        )
    rows.append(
        {
            "name": "SQLite: choose + claim + result + ratings + replay",
            "value": claim_and_result_ms(f"sqlite:///{tempfile.mkdtemp()}/b.db"),
            "unit": "ms/game",
            "goal": "",
        }
    )
    games = 56  # as many as the round robin of 8 bots plays (start-up costs alike)
    for workers in (1, 2):
        ladder_rate = games_per_second(workers, games, True)
        rr_rate = games_per_second(workers, games, False)
        rows.append(
            {
                "name": f"ladder games/s, 8 process bots, {workers} worker(s)",
                "value": ladder_rate,
                "unit": "games/s",
                "goal": ">= 0.9 x round robin",
            }
        )
        rows.append(
            {
                "name": f"round robin games/s, same bots, {workers} worker(s)",
                "value": rr_rate,
                "unit": "games/s",
                "goal": "",
            }
        )
    return rows


def claim_and_result_ms(url: str, games: int = 200) -> float:
    """One ladder game chosen and claimed, then its result, ratings and a 20 KB replay
    committed, on the store at `url` (ms per game; no game is played)."""
    import os

    from botarena.tournament import ladder

    with readable_tempdir() as tmp:
        from botarena.games import get_game
        from botarena.tournament.manage import Settings, create, parse_bot_option
        from botarena.tournament.store import Store

        store = Store.open(url)
        rules = get_game("amazes")
        name = f"bench{os.getpid()}{int(time.time())}"
        bots = [parse_bot_option(rules, f"b{i}=builtin:amazes/random") for i in range(100)]
        tournament, _ = create(
            store,
            name,
            rules,
            bots,
            Settings(schedule="ladder", seed=1, replay_dir=Path(tmp)),
            Path(tmp),
            print,
        )
        replay = Path(tmp) / "r.json.gz"
        replay.write_bytes(os.urandom(20_000))
        rng = random.Random(1)
        result = {
            "scores": [1, 0],
            "ranks": [1, 2],
            "statuses": ["ok", "ok"],
            "faults": [0, 0],
            "turns": 1,
            "end_reason": "x",
            "replay": str(replay),
        }
        started = time.perf_counter()
        for _ in range(games):
            game = ladder.make_and_claim(store, tournament, "bench", rng)
            ladder.finish(store, game, "bench", result, True)
        elapsed = time.perf_counter() - started
        store.close()
    return elapsed / games * 1000
