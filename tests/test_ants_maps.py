"""Every official 2011 map loads, round-trips through the writer, and plays."""

from __future__ import annotations

from pathlib import Path

import pytest

import botarena
from botarena.core.rules import GameError
from botarena.games.ants import INFO, new_state
from botarena.games.ants.mapfile import load_map, map_text, parse_map

MAPS = sorted((Path(__file__).parent.parent / "../shared/maps/ants").glob("*/*.map"))


def test_all_302_official_maps_load_and_round_trip() -> None:
    assert len(MAPS) == 302
    players = set()
    for path in MAPS:
        ants_map = load_map(str(path))
        again = parse_map(map_text(ants_map), "again")
        assert (again.rows, again.cols, again.players) == (
            ants_map.rows, ants_map.cols, ants_map.players)
        assert again.water == ants_map.water and again.hills == ants_map.hills
        assert max(ants_map.rows, ants_map.cols) <= 200
        players.add(ants_map.players)
    assert players == set(range(2, 11))


@pytest.mark.parametrize("path", MAPS[::25], ids=lambda p: p.stem)
def test_a_sample_of_maps_start_with_symmetric_food(path: Path) -> None:
    ants_map = load_map(str(path))
    state = new_state(3, INFO.resolve_options({}), ants_map, ants_map.players)
    # starting food: whole symmetric sets, so a multiple-friendly count per player
    assert state.all_food, "the 2011 engine always places starting food"
    assert len(state.current_ants) == len(ants_map.hills)


@pytest.mark.parametrize("name", ["random_walk/random_walk_p10_02", "maze/maze_p08_02",
                                  "cell_maze/cell_maze_p03_05"])
def test_greedy_bots_play_official_maps(name: str) -> None:
    path = Path(__file__).parent.parent / f"../shared/maps/ants/{name}.map"
    ants_map = load_map(str(path))
    result = botarena.play("ants", ["builtin:ants/greedy"] * ants_map.players, seed=2,
                           map=path, turns=40)
    assert result.turns == 40 or result.end_reason != "turn limit reached"
    assert len(result.players) == ants_map.players


@pytest.mark.parametrize(("text", "message"), [
    ("rows 2\ncols 2\nm ..\n", "line 3: players count expected before map lines"),
    ("rows 2\ncols 2\nplayers 11\n", "line 3: player count must be between 2 and 10"),
    ("rows 1\ncols 3\nplayers 2\nm 0.\n", "line 4: row 0 has 2 columns, expected 3"),
    ("rows 2\ncols 2\nplayers 2\nm 01\n", "1 map rows, expected 2"),
    ("rows 1\ncols 2\nplayers 2\nm 0.\n", "player 1 has no starting hill"),
    ("rows 1\ncols 2\nplayers 2\nm 0!\n", "line 4: invalid character '!'"),
    ("rows x\n", "line 1: rows needs a whole number"),
])
def test_bad_maps_name_file_line_and_problem(text: str, message: str) -> None:
    with pytest.raises(GameError) as caught:
        parse_map(text, "bad.map")
    assert str(caught.value).startswith("bad.map: ") and message in str(caught.value)


def test_wrong_seat_count_for_a_map_is_a_user_error() -> None:
    with pytest.raises(GameError, match="4-player map, 2 bots given"):
        botarena.play("ants", ["builtin:ants/hold"] * 2, seed=1,
                      map=Path(__file__).parent.parent / "../shared/maps/ants/maze/maze_04p_01.map")
