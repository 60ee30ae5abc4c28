"""Labyrinth rules, call by call: expected values from the rule text
(the rules text, labyrinth.txt) and the original controller's behaviour
(the research notes on it, §2-§6), with the decisions of docs/games/labyrinth.md."""

from __future__ import annotations

import math
from itertools import pairwise
from typing import Any

import pytest
from hypothesis import event, given, settings
from hypothesis import strategies as st

from botarena.core.rules import Status
from botarena.games.labyrinth.maze import SIDES, Maze, fib, mana_income
from botarena.games.labyrinth.rules import (
    ADVENTURERS,
    MAZE_MASTER,
    Answer,
    Call,
    LabyrinthState,
    Phase,
    parse_maze,
)
from botarena.games.labyrinth.vision import look

WAIT, FORWARD, RIGHT, AROUND, LEFT = range(5)


def cells(
    n: int, east: set[tuple[int, int]] = frozenset(), south: set[tuple[int, int]] = frozenset()
) -> list[list[dict[str, Any]]]:
    """A generateMaze reply: walls exactly at the given cells' east / south sides."""
    return [
        [{"east": (r, c) in east, "south": (r, c) in south} for c in range(n)] for r in range(n)
    ]


def closed_except(n: int, path: list[tuple[int, int]]) -> list[list[dict[str, Any]]]:
    """Every interior wall present except between consecutive cells of `path` (a tree)."""
    maze = cells(
        n,
        {(r, c) for r in range(n) for c in range(n - 1)},
        {(r, c) for r in range(n - 1) for c in range(n)},
    )
    for (r1, c1), (r2, c2) in pairwise(path):
        top, left = min(r1, r2), min(c1, c2)
        maze[top][left]["east" if r1 == r2 else "south"] = False
    return maze


SNAKE_3 = [(0, 0), (0, 1), (0, 2), (1, 2), (1, 1), (1, 0), (2, 0), (2, 1), (2, 2)]
"""A perfect 3×3 maze with one corridor: east along row 0, west along row 1, east along 2."""


def answer(state: LabyrinthState, value: Any) -> None:
    state.apply({state.to_act()[0]: Answer(value)})


def started(maze: Any = None, n: int = 3, **options: Any) -> LabyrinthState:
    """A state whose n×n maze is generated and startRound answered (for n > 3 the state is
    told that n - 3 mazes are done)."""
    state = LabyrinthState("test", **options)
    state.round = n - 3
    answer(state, cells(n) if maze is None else maze)
    answer(state, None)
    return state


def turn(state: LabyrinthState, moves: Any, maze_master: Any = None) -> None:
    """One turn: the adventurers' moves, then (if it is asked for) the maze master's reply."""
    assert state.phase is Phase.ADVENTURERS_TURN
    answer(state, moves)
    if state.phase is Phase.MAZE_MASTER_TURN:
        answer(state, maze_master)


def wall(state: LabyrinthState, row: int, col: int, side: str) -> bool:
    return state.maze.check(row, col, side)


# -- the calls, in order ---------------------------------------------------------------------
def test_a_round_asks_generate_then_start_round_then_alternates_turns() -> None:
    state = LabyrinthState("test")
    assert (state.to_act(), state.observation(MAZE_MASTER)) == (
        [MAZE_MASTER],
        Call("generateMaze", (3,)),
    )
    answer(state, cells(3))
    assert (state.to_act(), state.observation(ADVENTURERS)) == (
        [ADVENTURERS],
        Call("startRound", (3,)),
    )
    answer(state, "anything")  # startRound's return value means nothing
    assert state.to_act() == [ADVENTURERS]
    call = state.observation(ADVENTURERS)
    assert call.name == "takeTurn" and len(call.args) == 1 and len(call.args[0]) == 2
    answer(state, [FORWARD, RIGHT])
    call = state.observation(MAZE_MASTER)
    assert state.to_act() == [MAZE_MASTER] and call.name == "takeTurn"
    mana, view, adventurers = call.args
    assert mana == 1
    assert adventurers == [{"row": 0, "col": 1, "dir": "east"}, {"row": 0, "col": 0, "dir": "west"}]
    assert view[0][0] == {"east": False, "eastCost": 1, "south": False, "southCost": 1}
    assert view[2][2] == {"east": None, "eastCost": 1, "south": None, "southCost": 1}
    answer(state, None)
    assert state.to_act() == [ADVENTURERS] and state.turn == 1


def test_the_shortest_walk_scores_1000_minus_5_and_the_maze_master_skips_the_goal_turn() -> None:
    state = started()
    mana_seen = []
    for moves in ([FORWARD, FORWARD], [FORWARD, FORWARD], [RIGHT, LEFT], [FORWARD, FORWARD]):
        answer(state, moves)
        mana_seen.append(state.observation(MAZE_MASTER).args[0])
        answer(state, None)
    assert state.positions == [(1, 2, 2), (2, 1, 1)]
    answer(state, [FORWARD, WAIT])
    assert state.score == 1000 - 5 and state.completed == 1 and state.total_turns == 5
    assert mana_seen == [1, 2, 4, 6]  # 1 + ⌊log3 t⌋ for t = 1..4, stockpiled
    assert state.observation(MAZE_MASTER) == Call("generateMaze", (4,))  # no half-turn
    frame = state.frame()
    assert frame["goal"] is True and frame["n"] == 3 and frame["turn"] == 5
    assert frame["adventurers"][0]["row"] == 2 and frame["adventurers"][0]["col"] == 2


def test_mana_resets_each_round_and_is_added_before_the_call() -> None:
    state = started()
    for moves in ([FORWARD, FORWARD], [FORWARD, FORWARD], [RIGHT, LEFT], [FORWARD, FORWARD]):
        turn(state, moves)
    turn(state, [FORWARD, FORWARD])
    answer(state, cells(4))
    answer(state, None)
    answer(state, [WAIT, WAIT])
    assert state.observation(MAZE_MASTER).args[0] == 1
    assert state.turn == 1 and state.round == 2


def test_rounds_grow_by_one_and_the_safety_cap_ends_the_game() -> None:
    state = LabyrinthState("test", max_rounds=3)
    for n in (3, 4, 5):
        assert state.observation(MAZE_MASTER) == Call("generateMaze", (n,))
        answer(state, cells(n))
        answer(state, None)
        for _ in range(n - 1):
            turn(state, [FORWARD, WAIT])
        turn(state, [RIGHT, WAIT])
        for _ in range(n - 2):
            turn(state, [FORWARD, WAIT])
        answer(state, [FORWARD, WAIT])  # 2n - 1 turns: the fewest possible
    assert state.is_over() and state.end_reason == "round_cap"
    assert state.score == 3000 - (5 + 7 + 9)
    assert state.outcome().scores == [2979, 2979]
    assert state.outcome().ranks == [1, 1] and state.outcome().statuses == [None, None]


def test_turn_1000_ends_the_game_without_a_maze_master_half_turn() -> None:
    state = started()
    for _ in range(999):
        turn(state, [WAIT, WAIT])
    assert state.to_act() == [ADVENTURERS] and state.turn == 999
    answer(state, [WAIT, WAIT])
    assert state.is_over() and state.end_reason == "turns" and state.score == -1000
    assert state.to_act() == []


def test_reaching_the_goal_on_turn_1000_completes_the_maze() -> None:
    state = started()
    for _ in range(995):
        turn(state, [WAIT, WAIT])
    for moves in ([FORWARD, WAIT], [FORWARD, WAIT], [RIGHT, WAIT], [FORWARD, WAIT]):
        turn(state, moves)
    answer(state, [FORWARD, WAIT])
    assert state.turn == 1000 and state.score == 0 and not state.is_over()
    assert state.observation(MAZE_MASTER) == Call("generateMaze", (4,))


# -- moves ----------------------------------------------------------------------------------
@pytest.mark.parametrize("move", ["1", None, 5, -1, 1.5, True, [1], {"a": 1}, math.nan])
def test_anything_but_0_to_4_is_a_wait(move: Any) -> None:
    state = started()
    turn(state, [move, move])
    assert state.positions == [(0, 0, 1), (0, 0, 2)]


def test_turns_are_clockwise_quarter_turns_and_1_0_is_forward() -> None:
    state = started()
    turn(state, [RIGHT, LEFT])
    assert state.positions == [(0, 0, 2), (0, 0, 1)]
    turn(state, [AROUND, AROUND])
    assert state.positions == [(0, 0, 0), (0, 0, 3)]
    turn(state, [AROUND, AROUND])
    assert state.positions == [(0, 0, 2), (0, 0, 1)]
    turn(state, [1.0, 1.0])  # JSON 1.0 is the number 1
    assert state.positions == [(1, 0, 2), (0, 1, 1)]


def test_forward_into_a_wall_or_the_border_is_a_wait() -> None:
    state = started(cells(3, east={(0, 0)}))
    turn(state, [FORWARD, AROUND])
    assert state.positions == [(0, 0, 1), (0, 0, 0)]
    turn(state, [WAIT, FORWARD])  # north of row 0 is the border
    assert state.positions == [(0, 0, 1), (0, 0, 0)]


def test_moves_are_simultaneous_and_sight_is_taken_before_them() -> None:
    state = started()
    friend_a = state.observation(ADVENTURERS).args[0][0]["friend"]
    assert friend_a == [0, 0]
    turn(state, [FORWARD, FORWARD])  # both leave the shared cell in the same turn
    assert state.positions == [(0, 1, 1), (1, 0, 2)]
    vision = state.observation(ADVENTURERS).args[0]
    assert vision[0]["friend"] is None and vision[1]["friend"] is None


def test_fewer_than_two_moves_leave_the_missing_adventurer_waiting() -> None:
    state = started()
    turn(state, [FORWARD])
    assert state.positions == [(0, 1, 1), (0, 0, 2)]
    turn(state, [])
    assert state.positions == [(0, 1, 1), (0, 0, 2)] and state.score == -2


def test_a_third_element_that_waits_is_accepted() -> None:
    state = started()
    turn(state, [FORWARD, FORWARD, 0, "x", None])
    assert state.positions == [(0, 1, 1), (1, 0, 2)] and not state.is_over()


# -- the maze master's changes, costs and ignore rules ----------------------------------------
def test_fibonacci_costs_per_edge() -> None:
    assert [fib(k) for k in range(10)] == [1, 1, 2, 3, 5, 8, 13, 21, 34, 55]
    maze = Maze.open(3)
    costs = []
    for k in range(6):
        costs.append(maze.bot_view()[1][1]["eastCost"])
        maze.set(maze.edge(1, 1, "east"), k % 2 == 0)
    assert costs == [1, 1, 2, 3, 5, 8]
    assert maze.bot_view()[1][1]["southCost"] == 1  # each edge counts on its own


@pytest.mark.parametrize(
    ("turn_number", "n", "mana"),
    [
        (1, 3, 1),
        (2, 3, 1),
        (3, 3, 2),
        (8, 3, 2),
        (9, 3, 3),
        (26, 3, 3),
        (27, 3, 4),
        (242, 3, 5),
        (243, 3, 6),  # float log(243)/log(3) is 4.999...: 5 mana would be wrong
        (999, 10, 3),
        (1000, 10, 4),  # log(1000)/log(10) is 2.999... in floats
        (4913, 17, 4),
        (10**15, 10, 16),
        (1, 500, 1),
        (999, 500, 2),
    ],
)
def test_mana_income_is_1_plus_floor_log_n_t_exactly(turn_number: int, n: int, mana: int) -> None:
    assert mana_income(turn_number, n) == mana


def waited(turns: int, maze: Any = None, n: int = 3) -> LabyrinthState:
    """A started game whose maze master has saved the mana of `turns` turns, now acting."""
    state = started(maze, n)
    for _ in range(turns - 1):
        turn(state, [WAIT, WAIT])
    answer(state, [WAIT, WAIT])
    return state


FAR_CORNER_N5 = cells(5, east={(3, 3)}, south={(3, 3)})
"""A 5×5 maze with walls at (3,3) east and south: neither is seen from (0,0) facing east
or south."""


def test_a_change_costs_its_fibonacci_price_and_the_rest_is_kept() -> None:
    state = waited(3, FAR_CORNER_N5, 5)  # 1 + 1 + 1 mana (log5 3 < 1)
    assert state.mana == 3
    answer(state, [[3, 3, "east"], [2, 2, "south"]])
    assert state.mana == 1
    assert (wall(state, 3, 3, "east"), wall(state, 2, 2, "south")) == (False, True)
    assert state.last["changes"] == [
        {"op": "remove", "wall": [3, 3, "east"], "cost": 1, "result": "changed"},
        {"op": "add", "wall": [2, 2, "south"], "cost": 1, "result": "changed"},
    ]
    answer(state, [WAIT, WAIT])
    assert state.observation(MAZE_MASTER).args[0] == 2
    answer(state, [None, [3, 3, "east"]])  # its second change: fib(1) = 1
    answer(state, [WAIT, WAIT])
    maze = state.observation(MAZE_MASTER).args[1]
    assert maze[3][3]["eastCost"] == 2 and maze[2][2]["southCost"] == 1  # fib(2), fib(1)
    assert maze[3][3]["southCost"] == 1 and maze[0][0]["eastCost"] == 1
    assert state.mana == 1 + 2  # turn 5: 1 + ⌊log5 5⌋
    answer(state, [[3, 3, "east"], None])
    assert state.mana == 1 and not wall(state, 3, 3, "east")


def test_each_maze_master_call_gets_a_fresh_maze_that_later_changes_leave_alone() -> None:
    """The controller hands takeTurn a fresh copy each turn: what a bot does to its copy
    changes nothing, and a view handed out earlier still shows the maze of its turn."""
    state = waited(3, FAR_CORNER_N5, 5)
    call = state.observation(MAZE_MASTER)
    first = call.args[1]
    first[3][3]["east"] = "scribbled"
    first[0].clear()
    assert call.args[1][3][3] == {"east": True, "eastCost": 1, "south": True, "southCost": 1}
    assert len(call.args[1][0]) == 5
    answer(state, [[3, 3, "east"], None])  # paid and changed: its cost is now fib(1)
    assert call.args[1][3][3] == {"east": True, "eastCost": 1, "south": True, "southCost": 1}
    answer(state, [WAIT, WAIT])
    assert state.observation(MAZE_MASTER).args[1][3][3] == {
        "east": False,
        "eastCost": 1,
        "south": True,
        "southCost": 1,
    }
    answer(state, [None, [3, 3, "east"]])  # changed twice: fib(2) = 2
    answer(state, [WAIT, WAIT])
    assert state.observation(MAZE_MASTER).args[1][3][3] == {
        "east": True,
        "eastCost": 2,
        "south": True,
        "southCost": 1,
    }


def test_the_same_wall_in_both_slots_is_ignored_and_free() -> None:
    state = waited(2, FAR_CORNER_N5, 5)
    answer(state, [[3, 3, "east"], [3, 3.0, "east"]])
    assert state.mana == 2 and wall(state, 3, 3, "east")
    assert state.last["ignored"] == "the same wall to remove and to add"


def test_not_enough_mana_for_both_ignores_both_and_spends_nothing() -> None:
    state = waited(1, FAR_CORNER_N5, 5)
    answer(state, [[3, 3, "east"], [2, 2, "south"]])
    assert state.mana == 1
    assert (wall(state, 3, 3, "east"), wall(state, 2, 2, "south")) == (True, False)
    assert state.last["ignored"] == "costs 2 mana, has 1"


def test_removing_a_missing_wall_is_free_and_the_add_still_happens() -> None:
    state = waited(1, FAR_CORNER_N5, 5)
    answer(state, [[2, 1, "east"], [2, 2, "south"]])
    assert state.mana == 0 and wall(state, 2, 2, "south") and not wall(state, 2, 1, "east")
    assert state.last["changes"][0] == {
        "op": "remove",
        "wall": [2, 1, "east"],
        "cost": 0,
        "result": "unchanged",
    }


def test_adding_a_present_wall_is_free_and_the_remove_still_happens() -> None:
    state = waited(1, FAR_CORNER_N5, 5)
    answer(state, [[3, 3, "south"], [3, 3, "east"]])
    assert state.mana == 0 and not wall(state, 3, 3, "south") and wall(state, 3, 3, "east")


@pytest.mark.parametrize(
    "coordinate",
    [[0, 4, "east"], [4, 0, "south"], [-1, 0, "south"], [7, 9, "east"], [0, -1, "east"]],
)
def test_border_and_out_of_range_walls_are_free_no_ops(coordinate: list[Any]) -> None:
    state = waited(1, FAR_CORNER_N5, 5)
    answer(state, [coordinate, [2, 2, "south"]])
    assert state.mana == 0 and wall(state, 2, 2, "south") and not state.is_over()
    assert state.last["changes"][0]["result"] == "border"


@pytest.mark.parametrize("reply", [None, [None, None]])
def test_no_change_asked_spends_nothing(reply: Any) -> None:
    state = waited(1)
    answer(state, reply)
    assert state.mana == 1 and not state.is_over()


def test_a_visible_wall_costs_its_mana_but_does_not_change_nor_count() -> None:
    # A at (0,0) facing east sees (0,0)'s east wall; B facing south sees (0,0)'s south wall
    state = waited(3, cells(4, east={(0, 0), (2, 2)}), 4)
    answer(state, [[0, 0, "east"], [0, 0, "south"]])
    assert state.mana == 1 and wall(state, 0, 0, "east") and not wall(state, 0, 0, "south")
    assert [change["result"] for change in state.last["changes"]] == ["visible", "visible"]
    assert state.maze.changes[state.maze.edge(0, 0, "east")] == 0
    answer(state, [WAIT, WAIT])
    assert state.observation(MAZE_MASTER).args[1][0][0]["eastCost"] == 1


@pytest.mark.parametrize(
    ("facing", "side_wall"),
    [
        (3, [5, 1, "south"]),
        (3, [4, 1, "south"]),  # facing west: left and right
        (0, [5, 0, "east"]),
        (0, [5, 1, "east"]),
    ],
)  # facing north: left and right
def test_an_own_side_wall_facing_north_or_west_is_protected(
    facing: int, side_wall: list[Any]
) -> None:
    """The original's bug (research §4, its example: n = 7, (5,1) facing west)."""
    state = waited(2, cells(7), 7)
    state.positions = [(5, 1, facing), (0, 6, 0)]  # B in the far corner looks at the border
    answer(state, [None, side_wall])
    assert state.last["changes"][0]["result"] == "visible" and not wall(state, *side_wall)
    assert state.mana == 1
    answer(state, [WAIT, WAIT])
    answer(state, [None, [2, 4, "east"]])  # a wall nobody sees does change
    assert state.last["changes"][0]["result"] == "changed" and wall(state, 2, 4, "east")


def test_a_removal_in_the_same_turn_can_make_an_add_legal() -> None:
    state = waited(2, closed_except(3, SNAKE_3), 3)
    state.positions = [(0, 0, 0), (0, 0, 3)]  # looking at the border: they see (0,0)'s walls
    # (1,1)|(1,2) is the corridor's only link; opening (0,1)|(1,1) first makes a second one
    answer(state, [[0, 1, "south"], [1, 1, "east"]])
    assert not state.is_over()
    assert state.last["changes"][1]["result"] == "changed"
    assert state.maze.is_connected()


# -- strikes --------------------------------------------------------------------------------
def struck(state: LabyrinthState, seat: int, *words: str) -> None:
    assert state.is_over() and state.strike is not None
    assert state.strike["seat"] == seat
    for word in words:
        assert word in state.strike["reason"], state.strike["reason"]
    outcome = state.outcome()
    assert outcome.statuses[seat] == "strike" and outcome.statuses[1 - seat] is None
    assert outcome.ranks[seat] == 2 and outcome.ranks[1 - seat] == 1
    assert "outlier" in outcome.end_reason
    frame = state.frame()
    assert frame["outlier"] is True and frame["strike"]["seat"] == seat


@pytest.mark.parametrize(
    ("maze", "words"),
    [
        ("maze", ("not an array",)),
        (None, ("null", "not an array")),
        ([[{"east": 0, "south": 0}] * 3] * 2, ("2 rows, expected 3",)),
        (
            [
                [{"east": 0, "south": 0}] * 3,
                [{"east": 0, "south": 0}] * 2,
                [{"east": 0, "south": 0}] * 3,
            ],
            ("row 1 has 2 cells",),
        ),
        ([[{"east": 0, "south": 0}] * 3, "row", [{"east": 0, "south": 0}] * 3], ("row 1",)),
        (
            [[{"south": 0}] + [{"east": 0, "south": 0}] * 2] + [[{"east": 0, "south": 0}] * 3] * 2,
            ("cell [0][0]", "'east'"),
        ),
        (
            [
                [{"east": 0, "south": 0}] * 3,
                [{"east": 0}] + [{"east": 0, "south": 0}] * 2,
                [{"east": 0, "south": 0}] * 3,
            ],
            ("cell [1][0]", "'south'"),
        ),
        (
            [[{"east": 0, "south": 0}] * 3] * 2 + [[{"east": 0, "south": 0}] * 2 + [None]],
            ("cell [2][2] is null",),
        ),
        (
            [
                [{"east": 0, "south": 0}] * 3,
                [{"east": 0, "south": 0}, 7, {"east": 0, "south": 0}],
                [{"east": 0, "south": 0}] * 3,
            ],
            ("cell [1][1]",),
        ),
        (cells(3, east={(0, 1), (1, 1), (2, 1)}), ("not fully connected",)),
    ],
)
def test_an_illegal_maze_is_a_strike(maze: Any, words: tuple[str, ...]) -> None:
    state = LabyrinthState("test")
    answer(state, maze)
    struck(state, MAZE_MASTER, "generateMaze(3)", *words)
    assert state.round == 0


def test_border_cells_may_omit_or_hold_anything_and_truthiness_is_javascript() -> None:
    maze = [
        [{"east": 1, "south": ""}, {"east": "x", "south": None}, {"south": 0}],
        [{"east": 0, "south": []}, {"east": False, "south": {}}, {"east": [], "south": 0}],
        [{"east": 0.0, "x": 1}, {"east": math.nan}, 42],
    ]
    parsed = parse_maze(maze, 3)
    assert parsed.rows_text() == ["110", "220", "000"]
    state = LabyrinthState("test")
    answer(state, maze)
    answer(state, None)
    answer(state, [WAIT, WAIT])
    view = state.observation(MAZE_MASTER).args[1]
    assert view[0][2]["east"] is None and view[2][2] == {
        "east": None,
        "eastCost": 1,
        "south": None,
        "southCost": 1,
    }
    assert view[0][0]["east"] is True and view[0][0]["south"] is False


@pytest.mark.parametrize(
    ("reply", "words"),
    [
        ("x", ("returned str 'x'",)),
        (5, ("int 5",)),
        ({"a": 1}, ("an object",)),
        ([None], ("an array of 1",)),
        ([None, None, None], ("an array of 3",)),
        ([[1, 1], None], ("the wall [1, 1]",)),
        ([None, [1.5, 1, "east"]], ("integer",)),
        ([[math.nan, 1, "east"], None], ("nan",)),
        ([[math.inf, 1, "east"], None], ("inf",)),
        ([[1, 1, "north"], None], ("'north'",)),
        ([[True, 1, "east"], None], ("True",)),
        ([["1", 1, "east"], None], ("'1'",)),
        ([[0.5, 0, "east"], [0.5, 0, "east"]], ("integer",)),  # malformed before "the same wall"
    ],
)
def test_a_malformed_maze_master_reply_is_a_strike(reply: Any, words: tuple[str, ...]) -> None:
    state = waited(1)
    answer(state, reply)
    struck(state, MAZE_MASTER, "takeTurn", *words)


def test_a_disconnecting_wall_is_a_strike() -> None:
    state = waited(1, closed_except(3, SNAKE_3), 3)
    state.positions = [(0, 0, 0), (0, 0, 3)]  # looking at the border: sees only (0,0)'s walls
    answer(state, [None, [1, 0, "south"]])  # the corridor from (1,0) to (2,0)
    struck(state, MAZE_MASTER, "[1, 0, 'south']", "disconnects")


@pytest.mark.parametrize(
    ("reply", "words"),
    [
        (None, ("null, not an array",)),
        ("12", ("str '12'",)),
        ({"0": 1}, ("an object",)),
        ([1, 1, 1], ("third adventurer",)),
        ([0, 0, 2], ("third adventurer",)),
    ],
)
def test_malformed_adventurer_moves_are_a_strike(reply: Any, words: tuple[str, ...]) -> None:
    state = started()
    answer(state, reply)
    struck(state, ADVENTURERS, "takeTurn", *words)


@pytest.mark.parametrize(
    ("status", "words"),
    [
        (Status.TIMEOUT, "over its time limit"),
        (Status.CRASHED, "crashed"),
        (Status.INVALID, "invalid reply"),
    ],
)
def test_every_transport_fault_is_a_strike_with_its_reason(status: Status, words: str) -> None:
    state = waited(1)
    state.fault(MAZE_MASTER, status, "the detail")
    struck(state, MAZE_MASTER, "mazeMaster.takeTurn", words, "the detail")
    state = started()
    state.fault(ADVENTURERS, status, "the detail")
    struck(state, ADVENTURERS, "adventurers.takeTurn", words)
    state = LabyrinthState("t")
    state.fault(MAZE_MASTER, status, "slow")
    struck(state, MAZE_MASTER, "generateMaze", words)
    state = LabyrinthState("t")
    state.fault(ADVENTURERS, status, "no reply to setup")  # before any call: the handshake
    struck(state, ADVENTURERS, "setup", words)


# -- clocks ---------------------------------------------------------------------------------
def test_time_limits_are_n_squared_ms_10_ms_and_a_per_round_bank() -> None:
    state = LabyrinthState("test")
    assert state.clock(MAZE_MASTER).cpu_s == pytest.approx(0.009)
    answer(state, cells(3))
    assert state.clock(ADVENTURERS).cpu_s == pytest.approx(0.010)
    answer(state, None)
    assert state.clock(ADVENTURERS).cpu_s == pytest.approx(0.051)  # 50 ms bank + 1 ms
    state.charge(ADVENTURERS, 0.020)
    answer(state, [FORWARD, FORWARD])
    assert state.clock(MAZE_MASTER).cpu_s == pytest.approx(0.051)  # each role its own bank
    state.charge(MAZE_MASTER, 0.0)
    answer(state, None)
    assert state.clock(ADVENTURERS).cpu_s == pytest.approx(0.032)  # 51 - 20 + 1
    answer(state, [FORWARD, FORWARD])
    assert state.clock(MAZE_MASTER).cpu_s == pytest.approx(0.052)  # unused time carries
    for moves in ([RIGHT, LEFT], [FORWARD, FORWARD], [FORWARD, FORWARD]):
        answer(state, None)
        answer(state, moves)
    assert state.clock(MAZE_MASTER).cpu_s == pytest.approx(0.016)  # 4×4: 16 ms
    answer(state, cells(4))
    answer(state, None)
    assert state.clock(ADVENTURERS).cpu_s == pytest.approx(0.051)  # a new round's bank


def test_cpu_limits_off_leaves_only_the_wall_clock_safety_limit() -> None:
    state = LabyrinthState("test", cpu_limits=False, wall_slack_s=1.0)
    assert state.clock(MAZE_MASTER).cpu_s is None
    assert state.clock(MAZE_MASTER).reply_s == pytest.approx(1.0 + 0.09)


# -- large mazes ----------------------------------------------------------------------------
def test_a_large_open_maze_and_a_wall_in_it_do_not_strike() -> None:
    """n = 89 overflowed the original's recursive check into a wrongful strike."""
    state = LabyrinthState("test")
    state.round = 86  # as if 86 mazes were done: the next one is 89×89
    answer(state, cells(89))
    assert state.n == 89 and not state.is_over()
    answer(state, None)
    answer(state, [WAIT, WAIT])
    answer(state, [None, [40, 40, "east"]])
    assert not state.is_over() and wall(state, 40, 40, "east") and state.mana == 0


# -- frames ---------------------------------------------------------------------------------
def test_frames_carry_the_board_sight_mana_moves_and_changes_with_costs() -> None:
    state = LabyrinthState("test")
    assert state.frame() == {
        "round": 0,
        "n": 0,
        "turn": 0,
        "score": 0,
        "mana": 0,
        "next": "generateMaze",
    }
    answer(state, cells(3, east={(2, 0)}))
    assert state.frame()["maze"] == ["000", "000", "100"]  # a new maze is drawn
    answer(state, None)
    answer(state, [FORWARD, WAIT])
    frame = state.frame()
    assert frame["call"] == "adventurers.takeTurn" and frame["moves"] == [FORWARD, WAIT]
    assert "maze" not in frame and frame["mana"] == 1  # unchanged: the viewer keeps it
    assert (frame["round"], frame["n"], frame["turn"], frame["score"]) == (1, 3, 1, -1)
    assert frame["next"] == "mazeMaster.takeTurn"
    assert frame["adventurers"][0] == {
        "row": 0,
        "col": 1,
        "dir": "east",
        "cells": [[0, 1], [0, 2], [1, 1]],
        "walls": [[0, 1, "east"], [0, 1, "south"], [0, 2, "south"], [1, 1, "east"]],
    }
    assert frame["adventurers"][1] == {
        "row": 0,
        "col": 0,
        "dir": "south",
        "cells": [[0, 0], [0, 1], [1, 0], [2, 0]],
        "walls": [
            [0, 0, "east"],
            [0, 0, "south"],
            [0, 1, "south"],
            [1, 0, "east"],
            [1, 0, "south"],
            [2, 0, "east"],
        ],
    }
    answer(state, None)
    answer(state, [WAIT, WAIT])
    answer(state, [[2, 0, "east"], [1, 2, "south"]])
    frame = state.frame()
    assert frame["call"] == "mazeMaster.takeTurn" and frame["mana"] == 2 - 2
    assert frame["changes"] == [
        {"op": "remove", "wall": [2, 0, "east"], "cost": 1, "result": "visible"},
        {"op": "add", "wall": [1, 2, "south"], "cost": 1, "result": "changed"},
    ]
    assert frame["maze"] == ["000", "002", "100"]  # a wall changed


def test_frames_json_round_trip_and_cells_are_lists() -> None:
    import json

    state = started()
    answer(state, [FORWARD, FORWARD])
    frame = state.frame()
    assert json.loads(json.dumps(frame)) == frame


@settings(max_examples=25, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 4), st.integers(0, 4)), min_size=1, max_size=40))
def test_the_score_is_1000_a_maze_minus_every_turn(moves: list[tuple[int, int]]) -> None:
    state = started()
    for pair in moves:
        if state.phase is Phase.GENERATE:
            answer(state, cells(state.next_size))
            answer(state, None)
        turn(state, list(pair))
    assert state.score == 1000 * state.completed - state.total_turns
    assert state.total_turns == len(moves)


@settings(max_examples=60, deadline=None)
@given(
    st.lists(
        st.tuples(
            st.tuples(st.integers(0, 4), st.integers(0, 4)),
            st.lists(
                st.one_of(
                    st.none(),
                    st.tuples(st.integers(0, 4), st.integers(0, 4), st.sampled_from(SIDES)),
                ),
                min_size=2,
                max_size=2,
            ),
        ),
        max_size=40,
    )
)
def test_recorded_frames_change_neither_visions_nor_frames(steps: list[Any]) -> None:
    """A state whose frames are recorded after every step (the frames keep what the
    adventurers see while neither they nor the walls move) hands the adventurers the same
    visions and makes the same frames as one that looks everything up afresh; and what a
    bot scribbles on the visions it was handed is never handed out again."""
    snake = [(row, col if row % 2 == 0 else 4 - col) for row in range(5) for col in range(5)]
    recorded, fresh = (started(closed_except(5, snake), n=5) for _ in range(2))
    changed = 0
    for moves, wall_changes in steps:
        if recorded.phase is not Phase.ADVENTURERS_TURN:
            break
        recorded_frame = recorded.frame()
        fresh._looked_at = ()  # what a state that never recorded a frame would look up
        assert recorded_frame == fresh.frame()
        fresh._visions = None
        handed = recorded.observation(ADVENTURERS).args[0]
        first, second = fresh.positions
        assert handed == [look(fresh.maze, first, second), look(fresh.maze, second, first)]
        handed[0]["ahead"].clear()
        handed[1]["friend"] = "scribbled"
        for state in (recorded, fresh):
            answer(state, list(moves))
            if state.phase is Phase.MAZE_MASTER_TURN:
                version = state.maze.version
                answer(state, [None if wall is None else list(wall) for wall in wall_changes])
                changed += state.maze.version != version
    event(f"walls changed: {min(changed, 3)}")
