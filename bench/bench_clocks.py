"""No spurious time-outs: busy process bots at 60 % of their time limit, as many games at once
as cores, on the rules' wall clock and on `-o clock=cpu`.

Each game's bot burns 60 % of its limit in CPU every turn (Falldown: 60 ms of 100 ms a reply;
Ants: 300 ms of 500 ms a turn; Amazes: 60 % of the game's budget spread over its turns) and
answers legally. Every time-out counted here is the machine's fault, not the bot's: the goal
is none with the CPU clock in 1000 games of each game.
"""

from __future__ import annotations

import concurrent.futures
import sys
from pathlib import Path

from tempdirs import readable_tempdir

BURNS = {"falldown": 0.06, "ants": 0.3, "amazes": 0.06}
"""CPU seconds each game's bot burns a turn: 60 % of its limit (Amazes: of the budget over
its 5 turns)."""

GAMES = {  # seats and options: short games, the limits as the rules set them
    "falldown": (4, {"turns": 12}),
    "ants": (2, {"turns": 3}),
    "amazes": (2, {"turns": 5, "budget_ms": 500}),  # 5 turns x 60 ms = 60 % of 500 ms
}


def timeouts(game: str, games: int, clock: str, folder: Path) -> int:
    """Time-outs over `games` games played `cores` at a time."""
    import botarena
    from botarena.core.cores import cores
    from hostile_bots import busy_bot

    path = folder / f"{game}_busy.py"
    path.write_text(busy_bot(BURNS[game]))
    seats, options = GAMES[game]
    bots = [f"b{seat}={sys.executable} {path} {game}" for seat in range(seats)]
    with concurrent.futures.ProcessPoolExecutor(cores()) as pool:
        futures = [
            pool.submit(botarena.play, game, bots, seed=seed, clock=clock, **options)
            for seed in range(games)
        ]
        return sum(
            player.status == "timeout" for future in futures for player in future.result().players
        )


def run(quick: bool) -> list[dict]:
    rows = []
    with readable_tempdir() as tmp:
        for game in GAMES:
            for clock, games in (("wall", 30 if quick else 200), ("cpu", 30 if quick else 1000)):
                count = timeouts(game, games, clock, Path(tmp))
                rows.append(
                    {
                        "name": f"{game}: time-outs of bots at 60 % of the limit,"
                        f" clock={clock}, {games} games",
                        "value": count,
                        "unit": "time-outs",
                        "goal": "0" if clock == "cpu" else "(the rules' wall clock)",
                    }
                )
    return rows
