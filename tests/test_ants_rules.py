"""Ants rules, case by case, with values from the 2011 rules and engine (research/ants.md)."""

from __future__ import annotations

from botarena.games.ants import INFO, new_state
from botarena.games.ants.mapfile import parse_map
from botarena.games.ants.rules import AntsState


def scenario(rows: list[str], players: int, **options) -> AntsState:
    """A game started from the picture: ants (a-j, A-J on hills), hills (0-9), food (*)."""
    text = f"rows {len(rows)}\ncols {len(rows[0])}\nplayers {players}\n"
    text += "".join(f"m {row}\n" for row in rows)
    given = {"food": "none", "scenario": 1, **options}
    resolved = INFO.resolve_options({k: str(v) for k, v in given.items()})
    return new_state(1, resolved, parse_map(text), players)


def turn(state: AntsState, orders: dict[int, list[str]] | None = None) -> None:
    state.to_act()
    state.apply(orders or {})


def ants(state: AntsState) -> dict[tuple[int, int], int]:
    """Live ants above the hill row of `board` (row 16)."""
    return {loc: ant.owner for loc, ant in state.current_ants.items() if loc[0] < 15}


BLANK = "." * 20


def board(*rows: str, players: int = 2) -> list[str]:
    """A 20x20 map with the given rows on top and, far below, each player's hill with an ant
    on it (so every player stays alive and the game goes on)."""
    lines = [row.ljust(20, ".") for row in rows]
    lines += [BLANK] * (20 - len(lines))
    lines[16] = "".join("ABC"[p] + "......" for p in range(players))[:20].ljust(20, ".")
    return lines


# -- battle (focus) --------------------------------------------------------------------
def test_one_against_one_in_range_both_die() -> None:
    state = scenario(board("", "..a.b"), 2)  # d² = 4 <= 5
    turn(state)
    assert ants(state) == {}
    assert sorted(a.die_turn for a in state.all_ants if a.killed) == [1, 1]


def test_out_of_range_both_live() -> None:
    state = scenario(board("", "..a..b"), 2)  # d² = 9 > 5
    turn(state)
    assert ants(state) == {(1, 2): 0, (1, 5): 1}


def test_two_against_one_the_lone_ant_dies() -> None:
    state = scenario(board("", "..a", "....b", "..a"), 2)  # b sees 2 enemies, each a sees 1
    turn(state)
    assert ants(state) == {(1, 2): 0, (3, 2): 0}


def test_three_owners_in_mutual_range_all_die() -> None:
    state = scenario(board("", "..a.b", "...c", players=3), 3)
    turn(state)
    assert ants(state) == {}


def test_focus_chain_from_the_spec() -> None:
    # a1 - b - a2 line, plus c far from all: b has 2 enemies, each a has 1 -> only b dies
    state = scenario(board("", "a.b.a", "", "", "", "", "", "", "", "", "c", players=3), 3)
    turn(state)
    assert ants(state) == {(1, 0): 0, (1, 4): 0, (10, 0): 2}


# -- moves and collisions --------------------------------------------------------------
def test_two_own_ants_moving_onto_one_square_both_die() -> None:
    state = scenario(board("", "a.a"), 2)
    turn(state, {0: ["o 1 0 e", "o 1 2 w"]})
    assert ants(state) == {}
    dead = [(a.initial_loc, a.orders, a.die_turn) for a in state.all_ants if a.killed]
    assert dead == [((1, 0), ["e"], 1), ((1, 2), ["w"], 1)]


def test_moving_onto_a_standing_ant_kills_both() -> None:
    state = scenario(board("", "aa"), 2)
    turn(state, {0: ["o 1 0 e"]})
    assert ants(state) == {}


def test_swapping_places_is_no_collision() -> None:
    state = scenario(board("", "aa"), 2)
    turn(state, {0: ["o 1 0 e", "o 1 1 w"]})
    assert ants(state) == {(1, 0): 0, (1, 1): 0}


def test_moves_wrap_around_the_map() -> None:
    state = scenario(board("a"), 2)
    turn(state, {0: ["o 0 0 n"]})
    assert state.current_ants[(19, 0)].owner == 0 and (0, 0) not in state.current_ants


def test_water_and_food_block_and_are_ignored_not_invalid() -> None:
    state = scenario(board("", "a%", "*", "a"), 2, strict=1)
    turn(state, {0: ["o 1 0 e", "o 3 0 n"]})
    assert ants(state) == {(1, 0): 0, (3, 0): 0}
    assert state.all_food[0].owner == 0  # both neighbours are player 0's: it is gathered
    assert state.bot_status[0] == "survived"
    assert [e.split(" # ")[1] for e in state.order_errors[0]] == [
        "move blocked (ignored)",
        "move blocked (ignored)",
    ]


def test_order_errors_are_named_as_in_2011_and_dropped() -> None:
    state = scenario(board("", "a", "", "a"), 2)
    turn(
        state,
        {
            0: [
                "x 1 0 n",
                "o 1 0",
                "o one 0 n",
                "o 1 0 q",
                "o 1 0 e",
                "o 1 0 s",
                "o 5 5 n",
                "o 99 0 n",
                "# comment",
                "",
                "O 3 0 E",
            ]
        },
    )
    reasons = [e.split(" # ")[1] for e in state.order_errors[0]]
    assert reasons == [
        "unknown action",
        "incorrectly formatted order",
        "invalid row or col",
        "invalid direction",
        "duplicate order",
        "not player ant",
        "out of bounds",
    ]
    assert ants(state) == {(1, 1): 0, (3, 1): 0}  # the first order stands; case is ignored
    assert state.bot_status[0] == "survived"
    assert state.frame()["order_errors"]["0"][0] == "x 1 0 n # unknown action"


def test_strict_mode_kills_on_an_invalid_order_but_runs_its_valid_ones() -> None:
    state = scenario(board("", "a", "", "", "", "", "", "", "", "", "b"), 2, strict=1)
    turn(state, {0: ["o 1 0 e", "o 7 7 n"]})
    assert state.bot_status[0] == "invalid"
    assert state.killed[0]
    assert (1, 1) in ants(state)
    # -1 for its hill, charged at once; then 1 is the lone survivor: +2 for that hill
    assert state.is_over() and state.cutoff == "lone survivor"
    assert (state.score, state.bonus) == ([0, 3], [0, 2])


# -- hills, spawn, food ----------------------------------------------------------------
def test_raze_gives_two_and_costs_the_owner_one_once() -> None:
    state = scenario(board("b0"), 2)  # player 0 has two hills: (0, 1) and (16, 0)
    assert state.score == [2, 2]
    turn(state, {1: ["o 0 0 e"]})
    hill = state.hills[(0, 1)]
    assert (hill.end_turn, hill.killed_by) == (1, 1)
    assert state.score == [1, 4]
    assert state.cutoff_turns == 0
    turn(state, {1: ["o 0 1 e"]})
    turn(state, {1: ["o 0 2 w"]})  # back on the razed hill: nothing more
    assert state.score == [1, 4]


def test_own_ant_on_own_hill_only_touches_it() -> None:
    state = scenario(board("a0"), 2)
    turn(state, {0: ["o 0 0 e"]})
    assert state.hills[(0, 1)].last_touched == 1
    assert state.score == [2, 2]


def test_gather_single_owner_feeds_the_hive_then_spawns_next_turn() -> None:
    state = scenario(board("A*"), 2)
    turn(state)  # the ant next to the food gathers it; spawn ran before gather
    assert (state.hive_food, state.all_food[0].owner, state.all_food[0].end_turn) == ([1, 0], 0, 1)
    assert [a for a in state.all_ants if a.spawn_turn == 1] == []
    turn(state, {0: ["o 0 0 s"]})  # free the hill: the new ant is born there
    assert state.hive_food == [0, 0]
    assert [(a.initial_loc, a.spawn_turn) for a in state.all_ants if a.spawn_turn] == [((0, 0), 2)]


def test_contested_food_is_destroyed() -> None:
    state = scenario(board("", "a*b"), 2, attackradius2=1)
    turn(state)
    assert state.current_food == {}
    assert state.hive_food == [0, 0]
    assert state.all_food[0].end_turn == 1 and state.all_food[0].owner is None


def test_spawn_prefers_the_least_recently_touched_hill_one_ant_per_hill() -> None:
    rows = ["0.0" + "." * 17] + [BLANK] * 9 + ["1.1" + "." * 17] + [BLANK] * 9
    state = scenario(rows, 2)
    state.hive_food[0] = 3
    state.hills[(0, 0)].last_touched = 5
    state.current_ants.clear()
    for row in state.grid:
        row[:] = [-2] * len(row)
    from botarena.games.ants.rules import Ant

    for loc in ((5, 5), (15, 15)):
        state.current_ants[loc] = Ant(loc, loc[0] // 10, 0)
        state.grid[loc[0]][loc[1]] = loc[0] // 10
    turn(state)
    spawned = [(a.initial_loc, a.spawn_turn) for a in state.all_ants if a.spawn_turn == 1]
    assert spawned == [((0, 2), 1), ((0, 0), 1)]
    assert state.hive_food[0] == 1


# -- ends, scores, cutoffs -------------------------------------------------------------
def test_lone_survivor_bonus() -> None:
    rows = ["0" + "." * 19] + [BLANK] * 9 + ["B1.......c2" + "." * 9] + [BLANK] * 9
    state = scenario(rows, 3)
    # player 0 has no ant and no hill ant: it is not alive from the start
    turn(state, {1: ["o 10 0 n"], 2: ["o 10 9 e"]})
    assert not state.is_over()
    state.to_act()
    state.fault(2, __import__("botarena.core.rules", fromlist=["Status"]).Status.TIMEOUT, "")
    assert state.is_over() is False
    turn(state)
    assert state.is_over() and state.cutoff == "lone survivor" and state.turn == 2
    # 1 razes nothing but gets +2 for each standing enemy hill; owners not yet charged -1
    assert state.bonus == [-1, 4, 0]
    assert state.score == [0, 5, 0]


def test_food_cutoff_counts_turns_of_uneaten_food() -> None:
    rows = ["a" + "." * 19, "*.*.*.*.*." * 2, "*.*.*.*.*." * 2] + [BLANK] * 7
    rows += ["b" + "." * 19] + [BLANK] * 9
    rows[18] = "0" + "." * 9 + "1" + "." * 9
    state = scenario(rows, 2, cutoff_turn=5)
    for _ in range(4):
        turn(state)
        assert not state.is_over()
    assert (state.cutoff_bot, state.cutoff_turns) == (-3, 4)
    turn(state)
    assert state.is_over() and state.cutoff == "food not being gathered"
    assert state.turn == 5


def test_rank_stabilized_when_no_hill_owner_can_change_rank() -> None:
    rows = ["a2", "", "a3", "", "", "", "", "", "c.....d"] + [""] * 7 + ["A......B"]
    state = scenario([row.ljust(20, ".") for row in rows] + [BLANK] * 3, 4)
    turn(state)
    assert not state.is_over()
    turn(state, {0: ["o 0 0 e", "o 2 0 e"]})  # player 0 razes the hills of 2 and 3
    assert state.score == [5, 1, 0, 0]
    # 1 could reach 1 + 2 = 3 < 5 - 1 = 4; 2 and 3 have no hill: nobody can change rank
    assert state.is_over() and state.cutoff == "rank stabilized"
    assert state.turn == 2


def test_turn_limit() -> None:
    state = scenario(board("a", "", "", "", "", "", "", "", "", "", "b"), 2, turns=3)
    for _ in range(3):
        turn(state)
    assert state.is_over() and state.cutoff == "turn limit reached"
    assert state.score_history == [[1, 1, 1, 1], [1, 1, 1, 1]]


def test_a_fault_at_turn_zero_ends_a_two_player_game_at_turn_zero() -> None:
    from botarena.core.rules import Status

    state = scenario(board("a", "", "", "", "", "", "", "", "", "", "b"), 2)
    state.fault(1, Status.TIMEOUT, "no go within loadtime")
    assert state.is_over() and state.turn == 0 and state.cutoff == "lone survivor"
    assert (state.bot_status, state.bot_turns) == (["survived", "timeout"], [0, 0])
    assert state.score == [3, 0]  # 0 razes nothing: +2 bonus for 1's standing hill


def test_a_killed_players_hive_still_spawns_and_its_ants_stand() -> None:
    from botarena.core.rules import Status

    state = scenario(board("0*a", players=3), 3)  # hills of 0: (0, 0) empty and (16, 0)
    turn(state)  # the ant at (0, 2) gathers the food at (0, 1)
    assert state.hive_food[0] == 1
    state.to_act()
    state.fault(0, Status.CRASHED, "exited")
    assert state.score[0] == 0  # its two hills are charged at once
    turn(state, {0: ["o 0 2 e"]})  # a dead bot's orders are never read
    assert state.current_ants[(0, 2)].orders == ["-", "-"]
    assert [(a.initial_loc, a.spawn_turn) for a in state.all_ants if a.spawn_turn] == [
        ((0, 0), 2)
    ]  # the hive of a killed player still spawns
    assert state.hive_food[0] == 0


def test_ants_cutoff_stalls_on_a_hill_kill_and_restarts_after_a_raze() -> None:
    """2011 `finish_turn`: the leader's counter grows each turn it holds >= 85 %, except on a
    turn when an ant died on a standing hill of another player; `raze_hill` resets it to 0
    before that turn's count."""
    rows = [BLANK] * 20
    rows[0] = "a" * 8 + "." * 12
    for row in (8, 9, 11):
        rows[row] = "." * 10 + "a" + "." * 9
    rows[10] = "." * 10 + "1" + "." * 9
    rows[15] = "." * 16 + "B" + "." * 3
    rows[19] = "A" + "." * 19
    state = scenario(rows, 2, cutoff_turn=4)
    counters = []
    orders: list[dict[int, list[str]]] = [
        {},
        {0: ["o 9 10 s", "o 11 10 n"]},  # two ants collide on 1's hill: a hill kill
        {0: ["o 8 10 s"]},
        {0: ["o 9 10 s"]},  # razes 1's hill at (10, 10)
        {},
        {},
        {},
    ]
    for given in orders:
        assert not state.is_over()
        turn(state, given)
        counters.append((state.cutoff_bot, state.cutoff_turns))
    # 12 of 13 ants, then 10 of 11: player 0 leads throughout
    assert counters == [(0, 1), (0, 1), (0, 2), (0, 1), (0, 2), (0, 3), (0, 4)]
    assert state.score == [3, 0]
    assert state.is_over() and state.cutoff == "ants not razing hills" and state.turn == 7


def test_cutoff_counts_the_hive_once_per_standing_hill() -> None:
    """The engine adds `hive_food[owner]` for each owner in `remaining_hills()`, one entry
    per standing hill: 20 ants against 2 ants + 1 hive food on 2 hills is 20 of 24
    (83 %, nobody leads), not 20 of 23 (87 %)."""
    rows = [BLANK] * 20
    rows[0] = "a" * 19 + "."
    rows[10] = "." * 10 + "B" + "." * 9
    rows[15] = "." * 15 + "B" + "." * 4
    rows[19] = "A" + "." * 19
    state = scenario(rows, 2)
    state.hive_food[1] = 1  # both its hills are occupied: it cannot spawn
    turn(state)
    assert state.hive_food == [0, 1]
    assert (state.cutoff_bot, state.cutoff_turns) == (-2, 0)  # LAND: nobody leads
