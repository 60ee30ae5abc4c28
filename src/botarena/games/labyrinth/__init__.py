"""The Ever-Changing Labyrinth (Code Golf KotH, 2021): adventurers against a maze master who
rebuilds the maze as they walk; see docs/games/labyrinth.md."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from botarena.core.game import Demo, EnvSpec, Game, builtin_bots, lazy_game
from botarena.core.rules import Better, GameInfo, Option, RankBy, StatusKind, TurnModel

if TYPE_CHECKING:
    from botarena.core.player import Player
    from botarena.games.labyrinth.rules import LabyrinthState

INFO = GameInfo(
    name="labyrinth",
    title="The Ever-Changing Labyrinth",
    min_seats=2,
    max_seats=2,
    seat_names=("Adventurers", "Maze Master"),
    turn_model=TurnModel.ROLES,
    rules_version="labyrinth-012a96a.1",
    end_reasons=(
        ("turns", "a round reached its 1000th turn without the goal"),
        ("round_cap", "the round cap (max_rounds) was reached"),
    ),
    rank_by=RankBy.MEAN_SCORE,
    better=(Better.HIGHER, Better.LOWER),  # the maze master wants the shared score low
    statuses=(("strike", StatusKind.STRIKE),),
    options=(
        Option(
            "max_rounds",
            500,
            "safety cap on rounds (n = 3, 4, ...); the rules have none,"
            " and 500 is never reached: n = 501 cannot be walked in 1000 turns",
            int,
            1,
            100_000,
        ),
        Option(
            "cpu_limits",
            1,
            "1: CPU limits are strikes (50 ms + 1 ms/turn bank per round,"
            " n² ms to generate, 10 ms startRound); 0: only the wall-clock safety limit",
            int,
            0,
            1,
        ),
        Option(
            "wall_slack_ms",
            2000,
            "wall-clock safety limit per call on top of 10x its"
            " CPU limit (ms); over it is a timeout strike",
            int,
            100,
            3_600_000,
        ),
    ),
    string_seeds=True,
)


def new_state(
    seed: int | str, options: dict[str, Any], map_data: Any, seats: int
) -> LabyrinthState:
    from botarena.games.labyrinth.rules import LabyrinthState

    return LabyrinthState(
        seed,
        max_rounds=options["max_rounds"],
        cpu_limits=bool(options["cpu_limits"]),
        wall_slack_s=options["wall_slack_ms"] / 1000,
    )


BOTS = builtin_bots(
    __name__,
    {
        "wallfollower": "WallFollower",
        "cartographer": "Cartographer",
        "static": "Static",
        "warden": "Warden",
    },
)


def _post_player(rest: str, spec: str) -> Player:
    from botarena.games.labyrinth.post import post_player

    return post_player(rest, spec)


_WORDS = (
    "call args generateMaze startRound takeTurn ahead left right leftAhead rightAhead"
    " friend east eastCost south southCost row col dir north west true false null"
)
ENV_SPEC = EnvSpec(
    observation_charset="".join(sorted(set(_WORDS.replace(" ", "")) | set('{}[]":,-0123456789\n'))),
    observation_max_length=1_000_000,
    action_charset="".join(
        sorted(set("null true false east south NaN Infinity") | set('{}[]":,-+.eE0123456789 \n'))
    ),
    action_max_length=1_000_000,
)
"""For the PettingZoo adapter: each call as its JSON line in, the JSON reply out. The spaces
fit mazes up to n = 120 (the maze master's view is about 60 characters a cell)."""


def _game() -> Game:
    from botarena.games.labyrinth.protocol import PROTOCOL

    return Game(
        info=INFO,
        new_state=new_state,
        protocol=PROTOCOL,
        bots=BOTS,
        player_factories={"post": _post_player},
        demo=Demo(
            (
                "builtin:labyrinth/cartographer",
                "builtin:labyrinth/wallfollower",
                "builtin:labyrinth/warden",
                "builtin:labyrinth/static",
            )
        ),
        env_spec=ENV_SPEC,
        record_sent=False,
    )


__getattr__ = lazy_game(__name__, _game)
