"""Amazes rules: the texts' own examples, moves, scoring, capture, sudden death, faults."""

from __future__ import annotations

import pytest

from botarena.core.rules import GameError, Status
from botarena.games.amazes.maze import (
    EDGES,
    SIZE,
    SQUARE_EDGE,
    SQUARES,
    Maze,
    Start,
)
from botarena.games.amazes.protocol import PROTOCOL
from botarena.games.amazes.rules import AmazesState

N, E, S, W = range(4)


def sq(row: int, col: int) -> int:
    return row * SIZE + col


def closed_maze(*openings: tuple[int, int, int]) -> Maze:
    """Every edge a wall except the given (row, col, direction) openings."""
    walls = bytearray(b"\x01") * EDGES
    for row, col, d in openings:
        walls[SQUARE_EDGE[sq(row, col) * 4 + d]] = 0
    return Maze(walls)


# The Dutch sample game (amazes.nl.txt §10), rebuilt square by square from its dialogue:
# Red starts at (5,20) facing north in a dead end; Blue at (17,1) facing west.
RED_OPENINGS = [(5, 20, S), (6, 20, W), (6, 19, S), (7, 19, E), (7, 19, W)]
BLUE_OPENINGS = [
    (17, 1, E),
    (17, 2, E),
    (17, 3, E),
    (17, 4, E),
    (17, 2, N),
    (17, 3, N),
    (17, 4, N),
    (17, 4, S),
]


def sample_game() -> AmazesState:
    maze = closed_maze(*RED_OPENINGS, *BLUE_OPENINGS)
    return AmazesState(maze, (Start(sq(5, 20), N), Start(sq(17, 1), W)))


def test_dutch_sample_dialogue_is_reproduced() -> None:
    state = sample_game()
    assert state.to_act() == [0]
    assert PROTOCOL.encode(state.observation(0)) == "Start\nW\nW\nRW\nW\n505\n"
    state.apply({0: PROTOCOL.parse(["TR"])})
    assert PROTOCOL.encode(state.observation(1)) == "W\nW\nLLBNW\nW\n445\n"
    state.apply({1: PROTOCOL.parse(["TFFR"])})
    # The dialogue prints 483 here, which no two squares can give: 483 = 3 * 7 * 23 is not a
    # sum of two squares. The corridors are reproduced; the distance is the rules' one.
    assert PROTOCOL.encode(state.observation(0)) == "W\nW\nLW\nBW\n369\n"
    state.apply({0: PROTOCOL.parse(["LL"])})
    assert state.square == [sq(7, 20), sq(18, 4)]


def test_sample_game_points() -> None:
    state = sample_game()
    # Red's first look: its own square, the one behind and the one beyond its side opening,
    # all discovered first: 3 x 2 points.
    assert state.points == [6, 0]
    state.apply({0: "TR"})  # two letters, nothing new
    assert state.points[0] == 4
    # Blue sees its square, four corridor squares and four squares beyond side openings.
    assert state.points[1] == 18
    state.apply({1: "TFFR"})
    assert state.points[1] == 14
    # Red's second look: the square to its left and the two beyond its side openings.
    assert state.points[0] == 10


def test_english_example_walks_into_a_wall() -> None:
    """'TFRFF' from the LLBNW position: the R runs into a wall, so the R step (turn
    included) and the following steps are not performed, but all five letters are paid."""
    state = sample_game()
    state.apply({0: "TR"})
    before = state.points[1]
    state.apply({1: "TFRFF"})
    assert state.square[1] == sq(17, 3)
    assert state.facing[1] == E
    assert state.points[1] == before - 5


def test_first_line_start_only_for_red_first_turn() -> None:
    state = sample_game()
    assert state.observation(0).start
    assert not state.observation(1).start
    state.apply({0: "TR"})
    state.apply({1: "TFFR"})
    assert not state.observation(0).start


def test_ending_on_the_start_square_adds_a_free_T() -> None:
    state = sample_game()
    points = state.points[0]
    state.apply({0: "F"})  # Red faces a wall: nothing moves, then the jury's extra T
    assert state.square[0] == sq(6, 20)
    assert state.facing[0] == S
    assert state.points[0] == points - 1  # only the letter sent is paid


def test_walking_back_to_the_start_square_also_adds_a_T() -> None:
    state = sample_game()
    state.apply({0: "TT"})  # there and back: ends where it started, then the extra T
    assert state.square[0] == sq(6, 20)
    assert state.facing[0] == S


def test_a_walked_square_is_discovered_at_once_with_the_first_bonus() -> None:
    # From (10,10) facing north Red sees its square, the one behind and the one beyond that
    # square's side opening; (11,12) around the corner is discovered by walking onto it.
    maze = closed_maze((10, 10, S), (11, 10, E), (11, 11, E), (11, 12, S), (12, 12, S), (24, 24, N))
    state = AmazesState(maze, (Start(sq(10, 10), N), Start(sq(24, 24), S)))
    assert state.points[0] == 6
    state.apply({0: "TLF"})
    assert state.square[0] == sq(11, 12)
    assert state.points[0] == 6 - 3 + 2
    assert state.knowledge[0].discovered[sq(11, 12)]
    assert not state.knowledge[0].discovered[sq(12, 12)]


def test_a_square_the_opponent_discovered_first_gives_one_point() -> None:
    state = sample_game()
    state.knowledge[0].discovered[sq(17, 2)] = 1  # as if Red had discovered it earlier
    state.apply({0: "TR"})
    assert state.points[1] == 18 - 1


def column_corridor() -> AmazesState:
    """Column 0 is one open corridor; Red at its top facing north, Blue at its bottom."""
    maze = closed_maze(*[(row, 0, S) for row in range(SIZE - 1)])
    return AmazesState(maze, (Start(sq(0, 0), N), Start(sq(SIZE - 1, 0), S)))


def test_capture_gives_100() -> None:
    state = column_corridor()
    assert state.points[0] == 2 * SIZE  # Red sees the whole corridor from its first look
    state.apply({0: "T" + "F" * 23})
    assert state.square[0] == state.square[1] == sq(SIZE - 1, 0)
    assert state.points[0] == 2 * SIZE - 24 + 100


def test_capture_needs_fewer_than_625_discovered_and_sudden_death_doubles() -> None:
    state = column_corridor()
    knowledge = state.knowledge[0]
    for square in range(SQUARES):
        knowledge.discovered[square] = 1
    knowledge.count = SQUARES
    state.points = [300, 250]
    state.apply({0: "T" + "F" * 23})
    assert state.is_over()
    assert state.outcome().end_reason == "sudden_death"
    assert state.points == [2 * (300 - 24), 0]
    assert state.outcome().scores == [552, 0]
    assert PROTOCOL.farewell(state, 0) == "Quit\n"
    assert PROTOCOL.farewell(state, 1) == "Quit\n"


def test_scores_are_clamped_to_0_and_1000() -> None:
    state = sample_game()
    state.points = [-40, 1600]
    assert state.outcome().scores == [0, 1000]


def test_game_ends_after_the_turns_and_counts_them() -> None:
    state = sample_game()
    state.turns = 3
    moves = 0
    while not state.is_over():
        (seat,) = state.to_act()
        state.apply({seat: "T"})
        moves += 1
    assert moves == 6
    assert state.outcome().end_reason == "turns"
    assert state.step_count == 6


@pytest.mark.parametrize("status", [Status.CRASHED, Status.TIMEOUT, Status.INVALID])
def test_fault_means_jury_plays_T_every_turn_and_score_0(status: Status) -> None:
    state = sample_game()
    state.fault(0, status, "test")
    assert state.to_act() == []  # the jury plays for Red
    state.apply({})
    assert state.square[0] == sq(6, 20)  # one T: back through the open square behind
    state.apply({1: "TFFR"})
    assert state.to_act() == []
    state.apply({})
    assert state.square[0] == sq(5, 20)  # and back again
    state.points[0] = 500
    assert state.outcome().scores[0] == 0


def test_bad_start_squares_are_a_game_error() -> None:
    maze = closed_maze((10, 10, E))
    with pytest.raises(GameError, match="wall behind"):
        AmazesState(maze, (Start(sq(10, 10), N), Start(sq(24, 24), N)))
    with pytest.raises(GameError, match="288"):
        AmazesState(maze, (Start(sq(10, 10), W), Start(sq(10, 11), E)))
