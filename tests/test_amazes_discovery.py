"""Amazes discovery: the look, each inference rule, and the incremental engine against a
naive fixed point of the rules."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from botarena.games.amazes.knowledge import Knowledge
from botarena.games.amazes.maze import (
    EDGE_SQUARES,
    EDGES,
    LATTICE,
    NEIGHBOUR,
    OUTER_SIDES,
    SIZE,
    SQUARE_EDGE,
    SQUARES,
    Maze,
    generate_maze,
    h_edge,
    v_edge,
)

N, E, S, W = range(4)


def sq(row: int, col: int) -> int:
    return row * SIZE + col


def edge(row: int, col: int, d: int) -> int:
    return SQUARE_EDGE[sq(row, col) * 4 + d]


def maze_with(*openings: tuple[int, int, int]) -> Maze:
    walls = bytearray(b"\x01") * EDGES
    for row, col, d in openings:
        walls[edge(row, col, d)] = 0
    return Maze(walls)


def knowing(maze: Maze) -> tuple[Knowledge, list[int]]:
    found: list[int] = []
    return Knowledge(maze, found.append), found


def test_look_discovers_corridors_and_one_square_beyond_each_side_opening() -> None:
    # From (10,10): a corridor east of 3 squares; (10,12) has openings north and south,
    # and (9,12) continues north: it is beyond a side opening, (8,12) is not seen.
    maze = maze_with(
        (10, 10, E), (10, 11, E), (10, 12, E), (10, 12, N), (10, 12, S), (9, 12, N), (10, 10, W)
    )
    knowledge, found = knowing(maze)
    knowledge.look(sq(10, 10))
    assert sorted(found) == sorted(
        [sq(10, 10), sq(10, 11), sq(10, 12), sq(10, 13), sq(9, 12), sq(11, 12), sq(10, 9)]
    )
    for known in (
        edge(10, 11, N),
        edge(10, 11, S),
        edge(10, 12, N),
        edge(10, 13, E),
        edge(10, 10, N),
        edge(10, 10, S),
        edge(10, 9, W),
    ):
        assert knowledge.known[known]
    assert not knowledge.known[edge(9, 12, N)]  # the far square's other edges stay unknown
    assert not knowledge.discovered[sq(8, 12)]


def test_three_known_walls_make_an_undiscovered_square_a_dead_end() -> None:
    maze = maze_with((5, 5, S), (6, 5, S))
    knowledge, found = knowing(maze)
    for d in (N, E, W):
        knowledge.learn(edge(5, 5, d))
    knowledge.infer()
    assert found == [sq(5, 5)]
    assert knowledge.dead[sq(5, 5)]
    assert knowledge.known[edge(5, 5, S)]  # the opening out of the dead end
    assert knowledge.exists[sq(6, 5)] and not knowledge.discovered[sq(6, 5)]


def test_dead_ends_propagate_through_two_walls_and_an_opening() -> None:
    maze = maze_with((5, 5, S), (6, 5, S), (7, 5, S))
    knowledge, found = knowing(maze)
    for d in (N, E, W):
        knowledge.learn(edge(5, 5, d))
    knowledge.learn(edge(6, 5, E))
    knowledge.learn(edge(6, 5, W))
    knowledge.infer()
    assert found == [sq(5, 5), sq(6, 5)]
    assert knowledge.known[edge(6, 5, S)]
    assert knowledge.exists[sq(7, 5)] and not knowledge.discovered[sq(7, 5)]


def test_two_openings_to_dead_ends_and_one_wall() -> None:
    # (5,4) and (5,6) are dead ends opening into (5,5), which has a wall north.
    maze = maze_with((5, 4, E), (5, 5, E), (5, 5, S))
    knowledge, found = knowing(maze)
    for d in (N, S, W):
        knowledge.learn(edge(5, 4, d))
    for d in (N, S, E):
        knowledge.learn(edge(5, 6, d))
    knowledge.learn(edge(5, 5, N))
    knowledge.infer()
    assert sorted(found) == [sq(5, 4), sq(5, 5), sq(5, 6)]
    assert knowledge.known[edge(5, 5, S)]


def test_three_openings_to_dead_ends() -> None:
    maze = maze_with((5, 4, E), (5, 5, E), (5, 5, N), (5, 5, S))
    knowledge, found = knowing(maze)
    for d in (N, S, W):
        knowledge.learn(edge(5, 4, d))
    for d in (N, S, E):
        knowledge.learn(edge(5, 6, d))
    for d in (N, E, W):
        knowledge.learn(edge(4, 5, d))
    knowledge.infer()
    assert sorted(found) == [sq(4, 5), sq(5, 4), sq(5, 5), sq(5, 6)]
    assert knowledge.known[edge(5, 5, S)]
    assert knowledge.exists[sq(6, 5)] and not knowledge.discovered[sq(6, 5)]


def test_corner_with_three_known_openings_has_a_known_wall() -> None:
    # The grid point below-right of (5,5): up edge = east of (5,5), left = south of (5,5),
    # right = south of (5,6), down = east of (6,5).
    maze = maze_with((5, 5, E), (5, 5, S), (5, 6, S))
    knowledge, _ = knowing(maze)
    for known in (edge(5, 5, E), edge(5, 5, S), edge(5, 6, S)):
        knowledge.learn(known)
    knowledge.infer()
    assert knowledge.known[edge(6, 5, E)]


def test_squares_in_all_rows_reveal_the_top_and_bottom_edges() -> None:
    maze = maze_with(*[(row, 3, S) for row in range(SIZE - 1)])
    knowledge, _ = knowing(maze)
    for row in range(SIZE - 1):  # openings make both squares exist; none is discovered
        knowledge.learn(edge(row, 3, S))
    knowledge.infer()
    assert all(knowledge.known[e] for e in OUTER_SIDES[0] + OUTER_SIDES[2])
    assert not any(knowledge.known[e] for e in OUTER_SIDES[1] + OUTER_SIDES[3])


def test_one_outer_edge_seen_wall_by_wall_reveals_the_opposite_one() -> None:
    knowledge, _ = knowing(maze_with())
    for row in range(SIZE):
        knowledge.learn(v_edge(row, 0))
    knowledge.infer()
    assert all(knowledge.known[v_edge(row, SIZE)] for row in range(SIZE))
    assert not knowledge.known[h_edge(0, 5)]


def test_turn_five_narrative() -> None:
    """The English example's turn 5, square by square. The player knows of squares in all
    25 rows (a corridor down column 12) and in columns 1..23 (a corridor along row 1).

    Rows complete: the top and bottom edges are discovered. The fields marked 1, (0,1) and
    (0,22), now have three known walls: discovered dead ends whose fourth side is open, so
    square 2 (0,23) and the left square 3 (0,0) exist. Square 2 has two walls and one
    opening into a dead end: a dead end too, so the right square 3 (0,24) exists. Now every
    column is known: the left and right edges are discovered, and the squares 3, then the
    squares 4 (1,0) and (1,24), become dead ends. The squares below the squares 4 keep two
    unknown sides and stay undiscovered."""
    openings = [(r, 12, S) for r in range(SIZE - 1)] + [(1, c, E) for c in range(1, 23)]
    openings += [(0, 0, E), (0, 0, S), (1, 0, S), (0, 22, E), (0, 23, E), (0, 24, S), (1, 24, S)]
    maze = maze_with(*openings)
    knowledge, found = knowing(maze)
    for known in (
        [edge(r, 12, S) for r in range(SIZE - 1)]
        + [edge(1, c, E) for c in range(1, 23)]
        + [
            edge(0, 22, S),
            edge(0, 22, W),
            edge(0, 1, S),
            edge(0, 1, E),
            edge(0, 23, S),
            edge(1, 0, E),
            edge(1, 24, W),
        ]
    ):
        knowledge.learn(known)
    assert not found
    knowledge.infer()
    assert all(knowledge.known[e] for side in OUTER_SIDES for e in side)
    fields = {
        "1": [sq(0, 1), sq(0, 22)],
        "2": [sq(0, 23)],
        "3": [sq(0, 0), sq(0, 24)],
        "4": [sq(1, 0), sq(1, 24)],
    }
    for mark, squares in fields.items():
        for square in squares:
            assert knowledge.dead[square] and knowledge.discovered[square], mark
    assert sorted(found) == sorted(s for squares in fields.values() for s in squares)
    for below in (sq(2, 0), sq(2, 24)):
        assert knowledge.exists[below] and not knowledge.discovered[below]


# -- the incremental engine against a naive fixed point --------------------------------
def naive_closure(maze: Maze, looks: list[int]) -> tuple[bytearray, bytearray]:
    """The rules applied by brute force: look at every square in `looks`, then apply every
    rule to every square, point and edge until nothing changes."""
    walls = maze.walls
    discovered, exists, known, dead = (
        bytearray(SQUARES),
        bytearray(SQUARES),
        bytearray(EDGES),
        bytearray(SQUARES),
    )
    for square in looks:
        discovered[square] = 1
        for d in range(4):
            here = square
            while True:
                e = SQUARE_EDGE[here * 4 + d]
                known[e] = 1
                if walls[e]:
                    break
                here = NEIGHBOUR[here * 4 + d]
                discovered[here] = 1
                for side in ((d + 1) % 4, (d + 3) % 4):
                    side_edge = SQUARE_EDGE[here * 4 + side]
                    known[side_edge] = 1
                    if not walls[side_edge]:
                        discovered[NEIGHBOUR[here * 4 + side]] = 1
    changed = True
    while changed:
        changed = False
        for s in range(SQUARES):
            if discovered[s]:
                exists[s] = 1
        for e in range(EDGES):
            if known[e] and not walls[e]:
                for s in EDGE_SQUARES[e]:
                    exists[s] = 1
        for s in range(SQUARES):
            if dead[s]:
                continue
            closed = sum(
                1
                for d in range(4)
                if known[SQUARE_EDGE[s * 4 + d]]
                and (walls[SQUARE_EDGE[s * 4 + d]] or dead[NEIGHBOUR[s * 4 + d]])
            )
            if closed >= 3:
                dead[s] = discovered[s] = 1
                for d in range(4):
                    known[SQUARE_EDGE[s * 4 + d]] = 1
                changed = True
        for segments in LATTICE:
            unknown = [e for e in segments if not known[e]]
            if len(unknown) == 1 and not any(walls[e] for e in segments if known[e]):
                known[unknown[0]] = 1
                changed = True
        rows = {s // SIZE for s in range(SQUARES) if exists[s] or discovered[s]}
        cols = {s % SIZE for s in range(SQUARES) if exists[s] or discovered[s]}
        sides = []
        if len(rows) == SIZE:
            sides += [0, 2]
        if len(cols) == SIZE:
            sides += [1, 3]
        sides += [(side + 2) % 4 for side in range(4) if all(known[e] for e in OUTER_SIDES[side])]
        for side in sides:
            for e in OUTER_SIDES[side]:
                if not known[e]:
                    known[e] = 1
                    changed = True
    return discovered, known


@settings(max_examples=25, deadline=None)
@given(
    seed=st.integers(0, 10_000),
    looks=st.lists(st.integers(0, SQUARES - 1), min_size=1, max_size=40),
)
def test_incremental_inference_equals_the_naive_fixed_point(seed: int, looks: list[int]) -> None:
    maze = generate_maze(random.Random(seed))
    knowledge, found = knowing(maze)
    for square in looks:
        knowledge.look(square)
        knowledge.infer()
    discovered, known = naive_closure(maze, looks)
    assert knowledge.discovered == discovered
    assert knowledge.known == known
    assert len(found) == len(set(found)) == sum(discovered) == knowledge.count
