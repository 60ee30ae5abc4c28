"""Amazes mazes: the official samples, the generator, the validator, start squares."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import botarena
from botarena.core.rules import GameError
from botarena.games.amazes.maze import (
    DEAD_ENDS,
    LOOPS,
    MIN_START_DISTANCE2,
    check_maze,
    distance2,
    draw_starts,
    generate_maze,
    h_edge,
    load_maze,
    maze_stats,
    parse_maze,
    v_edge,
)
from testdata import AMAZES_MAZES

OFFICIAL = sorted(AMAZES_MAZES.glob("*.txt"))


def test_the_ten_official_mazes_are_valid_and_round_trip() -> None:
    assert len(OFFICIAL) == 10
    for path in OFFICIAL:
        text = path.read_text()
        maze = parse_maze(text, str(path))
        assert check_maze(maze) == []
        assert maze.to_ascii() == text
        stats = maze_stats(maze)
        assert LOOPS[0] <= stats.loops <= LOOPS[1]
        assert DEAD_ENDS[0] <= stats.dead_ends <= DEAD_ENDS[1]


def test_official_maze_figures() -> None:
    """The figures the generator aims at, as measured on the samples."""
    stats = [maze_stats(parse_maze(path.read_text())) for path in OFFICIAL]
    assert sorted({s.loops for s in stats}) == [51, 52, 53, 54]
    assert min(s.dead_ends for s in stats) == 127
    assert max(s.dead_ends for s in stats) == 151


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 2**32))
def test_generated_mazes_are_valid_and_look_official(seed: int) -> None:
    maze = generate_maze(random.Random(seed))
    assert check_maze(maze) == []
    stats = maze_stats(maze)
    assert LOOPS[0] <= stats.loops <= LOOPS[1]
    assert DEAD_ENDS[0] <= stats.dead_ends <= DEAD_ENDS[1]
    assert parse_maze(maze.to_ascii()).walls == maze.walls


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 2**32))
def test_drawn_starts_follow_the_rules(seed: int) -> None:
    rng = random.Random(seed)
    maze = generate_maze(rng)
    red, blue = draw_starts(maze, rng)
    assert distance2(red.square, blue.square) >= MIN_START_DISTANCE2
    for start in (red, blue):
        assert maze.open(start.square, (start.facing + 2) % 4)


def test_same_seed_same_maze() -> None:
    assert generate_maze(random.Random(9)).walls == generate_maze(random.Random(9)).walls
    assert generate_maze(random.Random(9)).walls != generate_maze(random.Random(10)).walls


def test_validator_names_each_problem() -> None:
    maze = parse_maze(OFFICIAL[0].read_text())
    maze.walls[h_edge(0, 3)] = 0  # a hole in the top outer wall
    assert check_maze(maze) == ["the top outer wall has openings at 4"]

    maze = parse_maze(OFFICIAL[0].read_text())
    # In maze01 the top-left square opens east to (1,2), a dead end, and south. Closing both
    # cuts off the corner square and that dead end: three parts.
    maze.walls[v_edge(0, 1)] = maze.walls[h_edge(1, 0)] = 1
    assert check_maze(maze) == [
        "the maze falls apart into 3 separate parts; the smallest has"
        " 1 squares, e.g. row 1 column 1"
    ]

    maze = parse_maze(OFFICIAL[1].read_text())
    for edge in (v_edge(4, 5), v_edge(5, 5), h_edge(5, 4), h_edge(5, 5)):
        maze.walls[edge] = 0  # the grid point after row 5, column 5 touches no wall
    assert any("touch no wall" in problem and "5,5" in problem for problem in check_maze(maze))


def test_start_lines_are_read_and_checked(tmp_path: Path) -> None:
    art = OFFICIAL[0].read_text()
    corner = parse_maze(art)
    # Red in the top-left square facing west (its east side is open in maze01); Blue in the
    # bottom-right square, facing away from whichever side of it is open.
    blue_facing = next(d for d in range(4) if corner.open(624, (d + 2) % 4))
    path = tmp_path / "with_starts.txt"
    path.write_text(f"1 1 W\n25 25 {'NESW'[blue_facing]}\n" + art)
    maze = load_maze(path)
    assert maze.starts is not None
    assert [(s.square, s.facing) for s in maze.starts] == [(0, 3), (624, blue_facing)]
    result = botarena.play(
        "amazes", ["builtin:amazes/random"] * 2, map=path, seed=1, replay=tmp_path / "r.json"
    )
    assert result.document["header"]["starts"] == [[0, 3], [624, blue_facing]]


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("", "the drawing has 0 lines"),
        ("1 1 N\n", "1 start line(s)"),
        ("1 1 Q\n2 2 N\n", "is not 'row col facing'"),
        ("30 1 N\n2 2 N\n", "outside the 25x25 maze"),
    ],
)
def test_bad_maze_files_raise_one_line_errors(tmp_path: Path, text: str, words: str) -> None:
    path = tmp_path / "bad.txt"
    path.write_text(text + ("" if text in ("",) else OFFICIAL[0].read_text()))
    with pytest.raises(GameError, match=words.replace("(", r"\(").replace(")", r"\)")) as caught:
        load_maze(path)
    assert str(path) in str(caught.value) and "\n" not in str(caught.value)


def test_start_squares_too_close_are_refused(tmp_path: Path) -> None:
    path = tmp_path / "close.txt"
    path.write_text("1 1 W\n1 3 W\n" + OFFICIAL[0].read_text())
    with pytest.raises(GameError, match="below 288"):
        load_maze(path)


@pytest.mark.slow  # seconds on 2 cores
@settings(max_examples=10, deadline=None)
@given(seed=st.integers(0, 2**31 - 1))
def test_scores_stay_within_bounds(seed: int) -> None:
    result = botarena.play(
        "amazes", ["builtin:amazes/random", "builtin:amazes/explorer"], seed=seed
    )
    for player in result.players:
        assert 0 <= player.score <= 1000
