"""Connect Four as a botarena game, written only against botarena's documented plug-in
contract (docs/new-game.md): `INFO` now, `GAME` built on first use."""

from __future__ import annotations

from botarena.core.game import Demo, Game, builtin_bots, lazy_game
from botarena.core.rules import GameInfo, Option, RankBy, TurnModel

INFO = GameInfo(
    name="connect4",
    title="Connect Four",
    min_seats=2,
    max_seats=2,
    seat_names=("X", "O"),
    turn_model=TurnModel.SEQUENTIAL,
    rules_version="connect4-1",
    end_reasons=(
        ("four in a row", "a player lined up four discs"),
        ("board full", "the board filled up with no four in a row"),
        ("forfeit", "a player forfeited (an illegal move, a crash or no reply in time)"),
    ),
    rank_by=RankBy.POINTS,
    options=(
        Option("columns", 7, "board width", int, 4, 20),
        Option("rows", 6, "board height", int, 4, 20),
        Option("turn_ms", 1000, "wall time a bot may spend on one move (ms)", int, 1, 60_000),
    ),
)

BOTS = builtin_bots(__name__, {"random": "RandomBot", "first": "FirstBot"})


def _game() -> Game:
    from botarena_connect4.protocol import PROTOCOL
    from botarena_connect4.rules import new_state

    return Game(
        info=INFO,
        new_state=new_state,
        protocol=PROTOCOL,
        bots=BOTS,
        demo=Demo(("builtin:connect4/first", "builtin:connect4/random"), games_per_pair=2),
    )


__getattr__ = lazy_game(__name__, _game)
