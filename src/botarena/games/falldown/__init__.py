"""Falldown (JavaChallenge 2015): four players drop the floor under each other; see
docs/games/falldown.md."""

from __future__ import annotations

from botarena.core.game import Demo, EnvSpec, Game, builtin_bots, lazy_game
from botarena.core.rules import CLOCK_OPTION, GameInfo, Option, RankBy, TurnModel

DEFAULT_TURNS = 1000
"""Slots in a game (the engine's default -t)."""


def _start_option(text: str) -> str:
    from botarena.games.falldown.rules import start_option

    return start_option(text)


INFO = GameInfo(
    name="falldown",
    title="JavaChallenge 2015 Falldown",
    min_seats=4,
    max_seats=4,
    seat_names=("0", "1", "2", "3"),
    turn_model=TurnModel.SEQUENTIAL,
    rules_version="falldown-2015.1",
    end_reasons=(
        ("survivor", "one player is left on the board"),
        ("turns", "the slot limit was reached with several players on the board"),
    ),
    rank_by=RankBy.PLACES,
    options=(
        Option(
            "turns",
            DEFAULT_TURNS,
            "slots to play (one player's turn each; the engine's -t; 0 plays none, a draw)",
            int,
            0,
            1_000_000,
        ),
        Option(
            "start",
            "",
            "start cells and facings X,Y,D/X,Y,D/X,Y,D/X,Y,D, column first as"
            " the engine's replay.initial (empty: drawn from the seed)",
            _start_option,
        ),
        Option(
            "reply_ms",
            100,
            "wall time for one reply (ms; the engine's limit is 100)",
            int,
            1,
            600_000,
        ),
        Option(
            "ready_ms",
            1000,
            "wall time to print READY (ms; the engine's limit is 1000)",
            int,
            1,
            600_000,
        ),
        CLOCK_OPTION,
    ),
)


BOTS = builtin_bots(__name__, {"random": "RandomBot", "hunter": "HunterBot"})


ENV_SPEC = EnvSpec(
    observation_charset="0123456789-URDLEO \n",
    observation_max_length=240,
    action_charset="URDLAN",
    action_max_length=1,
)
"""For the PettingZoo adapter: the state block's text in, one command letter out."""


def _game() -> Game:
    from botarena.games.falldown.protocol import PROTOCOL
    from botarena.games.falldown.rules import new_state

    return Game(
        info=INFO,
        new_state=new_state,
        protocol=PROTOCOL,
        bots=BOTS,
        env_spec=ENV_SPEC,
        demo=Demo(
            (
                "builtin:falldown/hunter",
                "builtin:falldown/random",
                "hunter2=builtin:falldown/hunter",
                "random2=builtin:falldown/random",
            )
        ),
    )


__getattr__ = lazy_game(__name__, _game)
