"""`botarena demo`: a short tournament of each game with its built-in bots, then the standings.

Everything goes to ./botarena-demo.db and ./replays/ in the current folder; run again, it
finds its tournaments there and only prints them (a run cut short is finished).
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from botarena.cliparts import MAX_WORKERS, within

DEMO_DB = "sqlite:///botarena-demo.db"
SEED = 2026


def tournaments() -> list[tuple[str, str, tuple[str, ...], int]]:
    """(tournament, game, bots, games per seating) for every installed game with a demo
    (`Game.demo`), in registry order: the four built-in games' are 4 + 3 + 4 + 4 games,
    about half a minute on one core."""
    from botarena.core.registry import all_games

    return [
        (f"demo-{name}", name, game.demo.bots, game.demo.games_per_pair)
        for name, game in all_games().items()
        if game.demo is not None
    ]


def demo(
    workers: Annotated[
        int | None,
        typer.Option(
            help="worker processes (default: one per core; 0: in this process)",
            callback=within(0, MAX_WORKERS),
        ),
    ] = None,
) -> None:
    """A short tournament of each game with its built-in bots into ./botarena-demo.db and
    ./replays/, then the standings and the commands to look further."""
    from botarena.core.console import literal_console
    from botarena.core.registry import get_game
    from botarena.tournament.cli import (
        current_standings,
        open_store,
        play_with_progress,
        print_standings,
    )
    from botarena.tournament.executors import LocalExecutor, default_workers
    from botarena.tournament.manage import Settings, create, parse_bot_option

    console = literal_console()
    executor = LocalExecutor(default_workers() if workers is None else workers)
    try:
        with open_store(DEMO_DB, create=True) as store:
            played = tournaments()
            for name, game, bots, per_pair in played:
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
    if not played:
        return
    db = "--db sqlite:///botarena-demo.db"
    first, game, bots, _ = played[0]
    console.print("\nLook further:")
    for line in (
        f"botarena tournament list {db}",
        f"botarena tournament standings {first} {db}",
        f"botarena tournament games {first} {db}",
        f"botarena tournament cross-table {first} {db}",
        f"botarena verify replays/{first}/<a replay>.json.gz",
        f"botarena tournament new NAME --game {game} --bot {bots[0]}"
        " --bot ./mybot   (docs/tournaments.md)",
    ):
        console.print(f"  {line}", soft_wrap=True)  # a command is never broken
