"""Ants (Google AI Challenge 2011): 2–10 players, simultaneous turns; see docs/games/ants.md."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from botarena.core.game import Demo, EnvSpec, Game, builtin_bots, lazy_game
from botarena.core.maps import MapShelf
from botarena.core.rules import (
    CLOCK_OPTION,
    GameError,
    GameInfo,
    Option,
    RankBy,
    StatusKind,
    TurnModel,
)

if TYPE_CHECKING:
    from botarena.games.ants.mapfile import AntsMap
    from botarena.games.ants.rules import AntsState


class Range(tuple[int, int]):
    """LOW,HIGH, drawn per game from the engine seed, both ends included; printed as it is
    typed after `-o` (`5,11`)."""

    def __str__(self) -> str:
        return f"{self[0]},{self[1]}"


def _int_or_range(text: str) -> int | Range:
    """`7` or `5,11`."""
    parts = [int(part) for part in text.replace(" ", "").split(",")]
    if len(parts) == 1:
        return parts[0]
    if len(parts) != 2 or parts[0] > parts[1]:
        raise ValueError("expected N or LOW,HIGH")
    return Range(parts)


def _food_mode(text: str) -> str:
    if text not in ("symmetric", "none"):
        raise ValueError("food is 'symmetric' or 'none'")
    return text


def _seed_text(text: str) -> str:
    if text:
        int(text)
    return text


INFO = GameInfo(
    name="ants",
    title="Ants (Google AI Challenge 2011)",
    min_seats=2,
    max_seats=10,
    seat_names=tuple(f"p{seat}" for seat in range(10)),
    turn_model=TurnModel.SIMULTANEOUS,
    rules_version="ants-2011.1",
    end_reasons=(
        ("turn limit reached", "the turn limit was reached"),
        ("extermination", "every player's ants are gone"),
        ("lone survivor", "one player is left"),
        ("food not being gathered", "food not being gathered (cut-off)"),
        ("ants not razing hills", "ants not razing hills (cut-off)"),
        ("rank stabilized", "rank stabilized: no player can change its rank any more"),
    ),
    rank_by=RankBy.PLACES,
    statuses=(("eliminated", StatusKind.REGULAR),),
    options=(
        Option("turns", 1000, "turn limit (the 2011 playgame default)", int, 1, 100_000),
        Option("loadtime", 3000, "time for turn 0 (ms)", int, 1, 3_600_000),
        Option("turntime", 500, "time per turn (ms, the 2011 server's value)", int, 1, 3_600_000),
        Option("viewradius2", 77, "squared view radius", int, 0, 10_000),
        Option("attackradius2", 5, "squared attack radius", int, 0, 10_000),
        Option("spawnradius2", 1, "squared food-gathering radius", int, 0, 10_000),
        # bounds: food_turn divides (>= 1); food_start 0 means no starting food
        Option(
            "food_rate",
            Range((5, 11)),
            "food per player per food_turn turns (N or LOW,HIGH)",
            _int_or_range,
            0,
            1000,
        ),
        Option(
            "food_turn",
            Range((19, 37)),
            "turns per food_rate (N or LOW,HIGH)",
            _int_or_range,
            1,
            100_000,
        ),
        Option(
            "food_start",
            Range((75, 175)),
            "land squares per starting food (N or LOW,HIGH)",
            _int_or_range,
            0,
            1_000_000,
        ),
        Option(
            "food_visible",
            Range((3, 5)),
            "starting food sets in view of each hill (N or LOW,HIGH)",
            _int_or_range,
            0,
            1000,
        ),
        Option("food", "symmetric", "food placement: symmetric or none", _food_mode),
        Option(
            "cutoff_turn",
            150,
            "turns one side may hold cutoff_percent before the end",
            int,
            1,
            1_000_000,
        ),
        Option("cutoff_percent", 0.85, "population share of the cutoff rule", float, 0.0, 1.0),
        Option(
            "scenario",
            0,
            "1: start from the map's ants and food exactly (2011 --scenario)",
            int,
            0,
            1,
        ),
        Option("strict", 0, "1: an invalid order kills the bot (status invalid)", int, 0, 1),
        Option("player_seed", "", "player_seed sent to bots (default: the game seed)", _seed_text),
        CLOCK_OPTION,
    ),
    map_kind="2011 .map file",
)


def new_state(
    seed: int | str, options: dict[str, Any], ants_map: AntsMap | None, seats: int
) -> AntsState:
    """A fresh game; without --map, the bundled official map for `seats` players."""
    from botarena.games.ants.mapfile import bundled_map
    from botarena.games.ants.rules import AntsState

    if ants_map is None:
        ants_map = bundled_map(seats)
    if ants_map.players != seats:
        raise GameError(f"{ants_map.name} is a {ants_map.players}-player map, {seats} bots given")
    full = {opt.name: opt.default for opt in INFO.options}
    full.update(options)
    return AntsState(int(seed), full, ants_map)


def _map_from_header(header: dict[str, Any]) -> AntsMap:
    """The replay's map; a `builtin:` name must be the bundled map it names (any other name
    is the user's label for their file, which a replay cannot attest)."""
    from botarena.games.ants.mapfile import bundled_map, map_text, parse_map

    name, text = header.get("map_name", "replay map"), header["map"]
    if not isinstance(name, str) or not isinstance(text, str):
        raise GameError("header map and map_name must be strings")
    ants_map = parse_map(text, name)
    if name.startswith("builtin:") and map_text(bundled_map(ants_map.players)) != text:
        raise GameError(f"header map is not the bundled map {name}")
    return ants_map


ENV_SPEC = EnvSpec(
    observation_charset="turngowhafdeplyrsc0123456789 \n",
    observation_max_length=200_000,
    action_charset="o0123456789 neswgNESWGO#\n",
    action_max_length=100_000,
    action_min_length=0,
)
"""For the PettingZoo adapter: the turn's text in, the order lines (and `go`) out."""

BOTS = builtin_bots(
    __name__, {"hold": "HoldBot", "random": "RandomBot", "greedy": "GreedyBot", "swarm": "SwarmBot"}
)


def _viewer_data(replay: dict[str, Any]) -> tuple[dict[str, Any], dict[str, Any]]:
    from botarena.games.ants.viewdata import viewer_data

    return viewer_data(replay)


def _game() -> Game:
    from botarena.games.ants.mapfile import load_map
    from botarena.games.ants.protocol import PROTOCOL

    return Game(
        info=INFO,
        new_state=new_state,
        protocol=PROTOCOL,
        bots=BOTS,
        demo=Demo(("builtin:ants/greedy", "builtin:ants/swarm", "builtin:ants/random")),
        viewer_data=_viewer_data,
        load_map=load_map,
        maps=MapShelf(__name__, "maps/official.tar.xz", ".map"),
        map_from_header=_map_from_header,
        record_sent=False,
        env_spec=ENV_SPEC,
    )


__getattr__ = lazy_game(__name__, _game)
