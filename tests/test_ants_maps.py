"""Every official 2011 map loads, round-trips through the writer, and plays."""

from __future__ import annotations

from pathlib import Path

import pytest

import botarena
from botarena.core.rules import GameError
from botarena.games.ants import INFO, new_state
from botarena.games.ants.mapfile import load_map, map_text, parse_map
from testdata import ants_maps

MAPS = sorted(ants_maps().glob("*/*.map"))


@pytest.mark.slow
def test_all_302_official_maps_load_and_round_trip() -> None:
    """Read, then written back: the same map, with every `m` line as in the file."""
    assert len(MAPS) == 302
    players = set()
    for path in MAPS:
        ants_map = load_map(str(path))
        written = map_text(ants_map)
        assert [line for line in written.splitlines() if line.startswith("m ")] == [
            line for line in path.read_text().splitlines() if line.startswith("m ")
        ]
        again = parse_map(written, "again")
        assert (again.rows, again.cols, again.players) == (
            ants_map.rows,
            ants_map.cols,
            ants_map.players,
        )
        assert (again.water, again.hills, again.ants, again.food) == (
            ants_map.water,
            ants_map.hills,
            ants_map.ants,
            ants_map.food,
        )
        assert max(ants_map.rows, ants_map.cols) <= 200
        players.add(ants_map.players)
    assert players == set(range(2, 11))


def test_a_scenario_game_replay_verifies(tmp_path: Path) -> None:
    """The replay keeps the map's ants and food, which a scenario game starts from."""
    from botarena.core.replay import load, verify

    scenario_map = tmp_path / "scenario.map"
    scenario_map.write_text(
        "rows 10\ncols 10\nplayers 2\nm a.......*.\nm ....0.....\n"
        + "m ..........\n" * 3
        + "m ....B....b\n"
        + "m ..........\n" * 2
        + "m ....1.....\nm ..........\n"
    )
    path = tmp_path / "scenario.replay.gz"
    botarena.play(
        "ants",
        ["builtin:ants/greedy"] * 2,
        seed=1,
        map=scenario_map,
        replay=path,
        turns=20,
        scenario=1,
        food="none",
    )
    document = load(path)
    assert parse_map(document["header"]["map"]).ants == [(0, 0, 0), (5, 4, 1), (5, 9, 1)]
    assert verify(document).ok


@pytest.mark.parametrize("path", MAPS[::25], ids=lambda p: p.stem)
def test_a_sample_of_maps_start_with_symmetric_food(path: Path) -> None:
    ants_map = load_map(str(path))
    state = new_state(3, INFO.resolve_options({}), ants_map, ants_map.players)
    # starting food: whole symmetric sets, so a multiple-friendly count per player
    assert state.all_food, "the 2011 engine always places starting food"
    assert len(state.current_ants) == len(ants_map.hills)


@pytest.mark.parametrize(
    "name", ["random_walk/random_walk_p10_02", "maze/maze_p08_02", "cell_maze/cell_maze_p03_05"]
)
@pytest.mark.slow
def test_greedy_bots_play_official_maps(name: str) -> None:
    path = ants_maps() / f"{name}.map"
    ants_map = load_map(str(path))
    result = botarena.play(
        "ants", ["builtin:ants/greedy"] * ants_map.players, seed=2, map=path, turns=40
    )
    assert result.turns == 40 or result.end_reason != "turn limit reached"
    assert len(result.players) == ants_map.players


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("rows 2\ncols 2\nm ..\n", "line 3: players count expected before map lines"),
        ("rows 2\ncols 2\nplayers 11\n", "line 3: player count must be between 2 and 10"),
        ("rows 1\ncols 3\nplayers 2\nm 0.\n", "line 4: row 0 has 2 columns, expected 3"),
        ("rows 2\ncols 2\nplayers 2\nm 01\n", "line 4: the file ends after 1 map rows, expected 2"),
        ("rows 1\ncols 2\nplayers 2\nm 01\nm 10\n", "line 5: more map rows than rows 1"),
        ("rows 1\ncols 2\nplayers 2\nm 0.\n", "line 4: the map ends without a hill of player 1"),
        ("rows 1\nplayers 2\n\n", "line 2: the file ends without cols"),
        ("rows 1\ncols 2\nplayers 2\nmap 0.\n", "line 4: unknown line key 'map'"),
        ("rows 1\ncols 2\nplayers 2\nm 0!\n", "line 4: invalid character '!'"),
        ("rows x\n", "line 1: rows needs a whole number"),
    ],
)
def test_bad_maps_name_file_line_and_problem(text: str, message: str) -> None:
    with pytest.raises(GameError) as caught:
        parse_map(text, "bad.map")
    assert str(caught.value).startswith("bad.map: ") and message in str(caught.value)


def test_wrong_seat_count_for_a_map_is_a_user_error() -> None:
    with pytest.raises(GameError, match="4-player map, 2 bots given"):
        botarena.play(
            "ants", ["builtin:ants/hold"] * 2, seed=1, map=ants_maps() / "maze/maze_04p_01.map"
        )
