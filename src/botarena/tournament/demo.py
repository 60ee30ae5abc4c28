"""`botarena demo`: a short tournament of each game with its built-in bots, then the standings.

Everything goes to ./botarena-demo.db and ./replays/ in the current folder; run again, it
finds its tournaments there and only prints them (a run cut short is finished).
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

DEMO_DB = "sqlite:///botarena-demo.db"
SEED = 2026

TOURNAMENTS: tuple[tuple[str, str, tuple[str, ...], int], ...] = (
    ("demo-amazes", "amazes", ("builtin:amazes/explorer", "builtin:amazes/random"), 2),
    ("demo-ants", "ants", ("builtin:ants/greedy", "builtin:ants/swarm", "builtin:ants/random"), 1),
    (
        "demo-falldown",
        "falldown",
        (
            "builtin:falldown/hunter",
            "builtin:falldown/random",
            "hunter2=builtin:falldown/hunter",
            "random2=builtin:falldown/random",
        ),
        1,
    ),
    (
        "demo-labyrinth",
        "labyrinth",
        (
            "builtin:labyrinth/cartographer",
            "builtin:labyrinth/wallfollower",
            "builtin:labyrinth/warden",
            "builtin:labyrinth/static",
        ),
        1,
    ),
)
"""(tournament, game, bots, games per pairing): 4 + 3 + 4 + 4 games, about half a minute
on one core."""


def demo(
    workers: Annotated[
        int | None, typer.Option(help="worker processes (default: one per core)")
    ] = None,
) -> None:
    """A short tournament of each game with its built-in bots into ./botarena-demo.db and
    ./replays/, then the standings and the commands to look further."""
    from rich.console import Console

    from botarena.games import get_game
    from botarena.tournament.cli import (
        current_standings,
        open_store,
        play_with_progress,
        print_standings,
    )
    from botarena.tournament.manage import Settings, create, parse_bot_option
    from botarena.tournament.runner import LocalExecutor, default_workers

    console = Console()
    executor = LocalExecutor(default_workers() if workers is None else workers)
    try:
        with open_store(DEMO_DB, create=True) as store:
            for name, game, bots, per_pair in TOURNAMENTS:
                rules = get_game(game)
                tournament = store.tournament(name)
                if tournament is None:
                    tournament, _ = create(
                        store,
                        name,
                        rules,
                        [parse_bot_option(rules, b) for b in bots],
                        Settings(games_per_pair=per_pair, seed=SEED, replay_dir=Path("replays")),
                        Path(".botarena-build"),
                        print,
                    )
                play_with_progress(store, tournament, executor)
                table, _, _ = current_standings(store, tournament, None)
                print_standings(tournament, table)
    finally:
        executor.shutdown()
    db = "--db sqlite:///botarena-demo.db"
    console.print("\nLook further:", highlight=False)
    for line in (
        f"botarena tournament list {db}",
        f"botarena tournament standings demo-ants {db}",
        f"botarena tournament games demo-amazes {db}",
        f"botarena tournament cross-table demo-amazes {db}",
        "botarena verify replays/demo-amazes/<a replay>.json.gz",
        "botarena tournament new NAME --game amazes --bot builtin:amazes/explorer"
        " --bot ./mybot   (docs/tournaments.md)",
    ):
        console.print(f"  {line}", highlight=False, markup=False)
