"""Labyrinth vision and the walls it protects: worked cases from the rule text and research §3,
and properties over random mazes and random games (research §4, "The known visibility bug":
every edge the vision reveals is protected and nothing else is)."""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import event, given, settings
from hypothesis import strategies as st

from botarena.games.labyrinth.maze import Maze
from botarena.games.labyrinth.rules import Answer, LabyrinthState, Phase
from botarena.games.labyrinth.vision import cell_sides, look, protected_edges

NORTH, EAST, SOUTH, WEST = range(4)
STEP = {NORTH: (-1, 0), EAST: (0, 1), SOUTH: (1, 0), WEST: (0, -1)}
Wall = tuple[int, int, str]


def maze_with(n: int, walls: list[Wall]) -> Maze:
    maze = Maze.open(n)
    for row, col, side in walls:
        maze.walls[maze.edge(row, col, side)] = True
    return maze


def cell(ahead: bool, left: bool, right: bool) -> dict[str, bool]:
    return {"ahead": ahead, "left": left, "right": right}


# -- worked cases --------------------------------------------------------------------------
def test_the_start_of_an_open_3x3_maze() -> None:
    maze = Maze.open(3)
    a, b = (0, 0, EAST), (0, 0, SOUTH)
    assert look(maze, a, b) == {
        "ahead": [cell(False, True, False), cell(False, True, False), cell(True, True, False)],
        "leftAhead": None,  # the north border is on its left
        "rightAhead": False,  # (1,0)'s east wall, seen through the open south side
        "friend": [0, 0],
    }
    assert look(maze, b, a) == {
        "ahead": [cell(False, False, True), cell(False, False, True), cell(True, False, True)],
        "leftAhead": False,  # facing south the left is east: (0,1)'s south wall
        "rightAhead": None,
        "friend": [0, 0],
    }


def test_the_ahead_run_stops_at_the_first_wall_with_all_three_walls_of_each_cell() -> None:
    maze = maze_with(5, [(1, 3, "east"), (0, 1, "south"), (1, 2, "south")])
    vision = look(maze, (1, 0, EAST), (4, 4, NORTH))
    assert vision["ahead"] == [
        cell(False, False, False),
        cell(False, True, False),
        cell(False, False, True),
        cell(True, False, False),
    ]
    assert (vision["leftAhead"], vision["rightAhead"], vision["friend"]) == (False, False, None)


def test_a_wall_on_the_side_hides_what_is_ahead_of_the_side_cell() -> None:
    maze = maze_with(4, [(1, 1, "east"), (0, 1, "east")])
    vision = look(maze, (1, 1, NORTH), (3, 3, NORTH))  # facing north: left west, right east
    assert vision["ahead"] == [cell(False, False, True), cell(True, False, True)]
    assert vision["leftAhead"] is False  # (1,0)'s north wall
    assert vision["rightAhead"] is None


def test_the_side_cell_of_a_west_facing_adventurer_is_south_on_the_left() -> None:
    maze = maze_with(4, [(2, 0, "east")])
    vision = look(maze, (2, 2, WEST), (0, 0, EAST))
    assert vision["ahead"] == [cell(False, False, False), cell(True, False, False)]
    assert vision["leftAhead"] is False  # (3,2)'s west wall: (3,1) east
    assert vision["rightAhead"] is False  # (1,2)'s west wall: (1,1) east


@pytest.mark.parametrize(
    ("me", "other", "walls", "friend"),
    [
        ((1, 0, EAST), (1, 2, NORTH), [], [2, 0]),  # on the ahead run
        ((1, 0, EAST), (1, 3, NORTH), [], [3, 0]),
        ((1, 0, EAST), (1, 2, NORTH), [(1, 1, "east")], None),  # behind the wall ending the run
        ((1, 1, EAST), (0, 1, NORTH), [], [0, -1]),  # facing east, north is on the left
        ((1, 1, EAST), (0, 1, NORTH), [(0, 1, "south")], None),  # the side wall hides it
        ((1, 1, EAST), (2, 1, NORTH), [], [0, 1]),
        ((1, 1, EAST), (0, 2, NORTH), [], None),  # diagonal: not reported
        ((1, 1, EAST), (1, 0, NORTH), [], None),  # behind
        ((1, 1, WEST), (2, 1, NORTH), [], [0, -1]),  # facing west, south is on the left
        ((1, 1, SOUTH), (1, 2, NORTH), [], [0, -1]),  # facing south, east is on the left
        ((2, 2, NORTH), (2, 2, WEST), [], [0, 0]),  # same cell, whatever the facings
    ],
)
def test_friend_is_ahead_left_right_or_same_cell_only(
    me: tuple[int, int, int],
    other: tuple[int, int, int],
    walls: list[Wall],
    friend: list[int] | None,
) -> None:
    assert look(maze_with(4, walls), me, other)["friend"] == friend


def test_the_research_example_of_the_bug_is_protected() -> None:
    """n = 7, (5,1) facing west: [4,1,'south'] and [5,1,'south'] are shown and protected."""
    maze = Maze.open(7)
    protected = {maze.coords(edge) for edge in protected_edges(maze, [(5, 1, WEST), (0, 6, NORTH)])}
    assert protected == {
        (5, 0, "east"),
        (5, 1, "south"),
        (4, 1, "south"),
        (5, 0, "south"),
        (4, 0, "south"),
        (6, 0, "east"),
        (4, 0, "east"),
        (0, 5, "east"),
    }


# -- what a vision object reveals, derived from the object alone ---------------------------
def edge_of(n: int, row: int, col: int, direction: int) -> Wall | None:
    """The wall on side `direction` of (row, col) as [row, col, side], None on the border."""
    if direction == NORTH:
        wall: Wall = (row - 1, col, "south")
    elif direction == EAST:
        wall = (row, col, "east")
    elif direction == SOUTH:
        wall = (row, col, "south")
    else:
        wall = (row, col - 1, "east")
    r, c, side = wall
    inside = (0 <= r < n and 0 <= c < n - 1) if side == "east" else (0 <= r < n - 1 and 0 <= c < n)
    return wall if inside else None


def revealed(maze: Maze, me: tuple[int, int, int], vision: dict[str, Any]) -> set[Wall]:
    """Every wall a vision object reports, checking each value against the maze."""
    n = maze.n
    row, col, facing = me
    d_row, d_col = STEP[facing]
    seen = set()

    def note(r: int, c: int, direction: int, value: bool) -> None:
        wall = edge_of(n, r, c, direction)
        assert value == (True if wall is None else maze.check(*wall))
        if wall is not None:
            seen.add(wall)

    for k, here in enumerate(vision["ahead"]):
        r, c = row + k * d_row, col + k * d_col
        note(r, c, facing, here["ahead"])
        note(r, c, (facing + 3) % 4, here["left"])
        note(r, c, (facing + 1) % 4, here["right"])
        assert here["ahead"] is (k == len(vision["ahead"]) - 1)  # the run ends on a wall
    for key, side_row, side_col in (
        ("leftAhead", row - d_col, col + d_row),
        ("rightAhead", row + d_col, col - d_row),
    ):
        side_open = not vision["ahead"][0]["left" if key == "leftAhead" else "right"]
        assert (vision[key] is not None) == side_open
        if side_open:
            note(side_row, side_col, facing, vision[key])
    return seen


positions = st.tuples(st.integers(0, 7), st.integers(0, 7), st.integers(0, 3))


@settings(max_examples=300, deadline=None)
@given(st.integers(2, 8), st.randoms(use_true_random=False), st.floats(0, 1), positions, positions)
@pytest.mark.slow
def test_protected_edges_are_exactly_what_the_two_visions_reveal(
    n: int, rng: random.Random, density: float, a: tuple[int, int, int], b: tuple[int, int, int]
) -> None:
    maze = Maze.open(n)
    for edge in maze.edges():
        maze.walls[edge] = rng.random() < density
    a, b = (a[0] % n, a[1] % n, a[2]), (b[0] % n, b[1] % n, b[2])
    shown = revealed(maze, a, look(maze, a, b)) | revealed(maze, b, look(maze, b, a))
    assert {maze.coords(edge) for edge in protected_edges(maze, [a, b])} == shown


# -- in whole games ------------------------------------------------------------------------
def connected_without(n: int, walls: set[Wall]) -> bool:
    """Whether every cell is reachable with exactly `walls` present (the test's own BFS)."""
    seen, stack = {(0, 0)}, [(0, 0)]
    while stack:
        row, col = stack.pop()
        for direction, (d_row, d_col) in STEP.items():
            wall = edge_of(n, row, col, direction)
            nxt = (row + d_row, col + d_col)
            if wall is not None and wall not in walls and nxt not in seen:
                seen.add(nxt)
                stack.append(nxt)
    return len(seen) == n * n


def present(maze: Maze) -> set[Wall]:
    return {maze.coords(edge) for edge in maze.edges() if maze.walls[edge]}


@settings(max_examples=60, deadline=None)
@given(st.data())
@pytest.mark.slow
def test_in_random_games_visible_walls_never_change_and_every_other_paid_change_happens(
    data: st.DataObject,
) -> None:
    n = data.draw(st.integers(3, 6), label="n")
    rng = data.draw(st.randoms(use_true_random=False), label="rng")
    state = LabyrinthState("property")
    state.round = n - 3  # as if the smaller mazes were done
    walls: set[Wall] = set()
    interior = [Maze.open(n).coords(edge) for edge in Maze.open(n).edges()]
    for wall in rng.sample(interior, len(interior)):
        if rng.random() < 0.6 and connected_without(n, walls | {wall}):
            walls.add(wall)
    state.apply(
        {
            1: Answer(
                [
                    [
                        {"east": (r, c, "east") in walls, "south": (r, c, "south") in walls}
                        for c in range(n)
                    ]
                    for r in range(n)
                ]
            )
        }
    )
    state.apply({0: Answer(None)})
    for _ in range(data.draw(st.integers(1, 80), label="turns")):
        state.apply({0: Answer([rng.randrange(5), rng.randrange(5)])})
        if state.phase is not Phase.MAZE_MASTER_TURN:
            break
        maze = state.maze
        a, b = state.positions
        vision = [look(maze, a, b), look(maze, b, a)]  # what they see next, if nothing moves
        visible = revealed(maze, a, vision[0]) | revealed(maze, b, vision[1])
        before = present(maze)
        mana, view, _ = state.observation(1).args
        asked = []
        for wanted in (False, True):
            pool = sorted(visible) if visible and rng.random() < 0.5 else interior
            wall = rng.choice(pool) if rng.random() < 0.8 else None
            asked.append((wall, wanted))
        (remove, _), (add, _) = asked
        after_remove = before - {remove} if remove not in visible else before
        if add is not None and not connected_without(n, after_remove | {add}):
            asked[1] = (None, True)
            add = None
        cost = sum(
            view[w[0]][w[1]][w[2] + "Cost"]
            for w, wanted in asked
            if w is not None and (w in before) != wanted
        )
        state.apply({1: Answer([None if w is None else list(w) for w, _ in asked])})
        assert not state.is_over(), state.end_reason
        after = present(state.maze)
        expected = set(before)
        visible_paid = False
        if (remove is not None and remove == add) or cost > mana:
            assert state.mana == mana
        else:
            assert state.mana == mana - cost
            if remove is not None and remove not in visible:
                expected.discard(remove)
            if add is not None and add not in visible:
                expected.add(add)
            visible_paid = any(w in visible and (w in before) != wanted for w, wanted in asked)
        assert after == expected
        assert {w for w in visible if (w in before) != (w in after)} == set()
        event("a change happened" if after != before else "no change")
        event("a visible wall was paid for" if visible_paid else "no visible wall paid for")
        assert state.observation(0).args[0] == vision  # their sight is exactly as it was


def test_cell_sides_are_each_cells_edges_north_east_south_west_with_the_border_as_minus_one() -> (
    None
):
    # edges are (row * n + col) * 2 + side, side 0 east, 1 south
    assert cell_sides(2) == ((-1, 0, 1, -1), (-1, -1, 3, 0), (1, 4, -1, -1), (3, -1, -1, 4))
