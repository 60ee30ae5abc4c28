"""Connect Four whose rules are a referee program written in C (referee.c, compiled into
this package when it is installed): botarena's external-referee example
(docs/external-referee.md). It plays the same games, move for move, as examples/connect4."""

from __future__ import annotations

from importlib import resources

from botarena.core.game import Demo, Game, builtin_bots, lazy_game
from botarena.core.rules import GameInfo, Option, RankBy, TurnModel

INFO = GameInfo(
    name="connect4c",
    title="Connect Four (C referee)",
    min_seats=2,
    max_seats=2,
    seat_names=("X", "O"),
    turn_model=TurnModel.SEQUENTIAL,
    rules_version="connect4c-1",
    rank_by=RankBy.POINTS,
    options=(
        Option("columns", 7, "board width", int, 4, 20),
        Option("rows", 6, "board height", int, 4, 20),
        Option("turn_ms", 1000, "wall time a bot may spend on one move (ms)", int, 1, 60_000),
    ),
)

PROGRAM = str(resources.files(__name__) / "referee")
"""The referee's command line: the program the package's build compiled."""

BOTS = builtin_bots(__name__, {"random": "RandomBot", "first": "FirstBot"})


def _game() -> Game:
    from botarena.core.external import external_game

    return external_game(
        INFO,
        [PROGRAM],
        bots=BOTS,
        demo=Demo(("builtin:connect4c/first", "builtin:connect4c/random"), games_per_pair=2),
    )


__getattr__ = lazy_game(__name__, _game)
