"""CodeCup Amazes (2010): two players explore an unknown 25x25 maze; see docs/games/amazes.md."""

from __future__ import annotations

from typing import TYPE_CHECKING

from botarena.core.game import Demo, EnvSpec, Game, builtin_bots, lazy_game
from botarena.core.maps import MapShelf
from botarena.core.rules import CLOCK_OPTION, GameInfo, Option, RankBy, TurnModel

if TYPE_CHECKING:
    from botarena.games.amazes.maze import Maze

INFO = GameInfo(
    name="amazes",
    title="CodeCup Amazes",
    min_seats=2,
    max_seats=2,
    seat_names=("Red", "Blue"),
    turn_model=TurnModel.SEQUENTIAL,
    rules_version="amazes-2010.1",
    end_reasons=(
        ("turns", "both players took all their turns"),
        (
            "sudden_death",
            "sudden death: a player caught the other once the whole maze was discovered",
        ),
    ),
    rank_by=RankBy.POINTS,
    options=(
        Option("turns", 150, "turns per player", int, 1, 10_000),
        Option(
            "budget_ms",
            5000,
            "wall time a bot may spend answering, whole game (ms)",
            int,
            1,
            3_600_000,
        ),
        CLOCK_OPTION,
    ),
    map_kind="maze file (25x25 ASCII art, optional start lines)",
)


def _maze_from_header(header: dict) -> Maze:
    from botarena.games.amazes.maze import Start, parse_maze

    maze = parse_maze(header["maze"], "replay maze")
    red, blue = header["starts"]
    maze.starts = (Start(*red), Start(*blue))
    return maze


ENV_SPEC = EnvSpec(
    observation_charset="StarWBLRN0123456789\n",
    observation_max_length=240,
    action_charset="FTLR",
    action_max_length=256,
)
"""For the PettingZoo adapter: the look's text in, a move string out."""

BOTS = builtin_bots(__name__, {"random": "RandomBot", "explorer": "ExplorerBot"})


def _game() -> Game:
    from botarena.games.amazes.maze import load_maze
    from botarena.games.amazes.protocol import PROTOCOL
    from botarena.games.amazes.rules import new_state

    return Game(
        info=INFO,
        new_state=new_state,
        protocol=PROTOCOL,
        bots=BOTS,
        demo=Demo(("builtin:amazes/explorer", "builtin:amazes/random"), games_per_pair=2),
        load_map=load_maze,
        maps=MapShelf(__name__, "mazes", ".txt"),
        map_from_header=_maze_from_header,
        env_spec=ENV_SPEC,
    )


__getattr__ = lazy_game(__name__, _game)
