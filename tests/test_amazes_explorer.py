"""The built-in Amazes explorer: its map equals the jury's, it beats random and a greedy
frontier player, and it runs as a process well within the 5-second budget."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import botarena
from botarena.games.amazes.bots.explorer import ExplorerBot
from botarena.games.amazes.bots.lookgain import (
    UNKNOWN_AHEAD,
    UNKNOWN_AHEAD_SEEN,
    UNKNOWN_SIDE,
    look_gain,
)
from botarena.games.amazes.bots.mapping import CENTRE, FRAME, OPEN, SIDE_EDGE, BotMap
from botarena.games.amazes.bots.random import RandomBot
from botarena.games.amazes.maze import SIZE
from botarena.games.amazes.rules import Observation, new_state

sys.path.insert(0, str(Path(__file__).parent))
from test_amazes_explorer_frontier import ContestantBot, FrontierBot
from testdata import AMAZES_MAZES

MAZES = AMAZES_MAZES
EXPLORER_COMMAND = f"{sys.executable} -m botarena.games.amazes.bots.explorer"


def to_absolute(start_square: int, start_facing: int, square: int) -> int:
    """The maze square of an explorer frame square (frame-north is its first facing)."""
    row, col = divmod(square, FRAME)
    drow, dcol = row - CENTRE // FRAME, col - CENTRE % FRAME
    for _ in range(start_facing):  # turn the frame clockwise onto the maze
        drow, dcol = dcol, -drow
    srow, scol = divmod(start_square, SIZE)
    assert 0 <= srow + drow < SIZE and 0 <= scol + dcol < SIZE
    return (srow + drow) * SIZE + scol + dcol


def play_by_hand(seed: int, seat: int, check_each_turn: bool = True) -> None:
    """Drive the rules with explorer (at `seat`) and random; after every explorer move its
    position and its discovered squares must be exactly the jury's."""
    state = new_state(seed, {}, None, 2)
    bots = [RandomBot(), RandomBot()]
    bots[seat] = ExplorerBot()
    for index, bot in enumerate(bots):
        bot.setup(index, f"{seed}:{index}")
    start = state.starts[seat]
    explorer = bots[seat]
    while not state.is_over():
        mover = state.to_act()[0]
        reply = bots[mover].act(state.observation(mover))
        state.apply({mover: reply})
        if mover == seat and check_each_turn:
            assert to_absolute(start.square, start.facing, explorer.square) == state.square[seat]
            mine = {
                to_absolute(start.square, start.facing, square)
                for square in range(FRAME * FRAME)
                if explorer.map.discovered[square]
            }
            jury = {
                square for square in range(SIZE * SIZE) if state.knowledge[seat].discovered[square]
            }
            assert mine == jury, f"turn {state.turns_taken[seat]}"
    assert explorer.done or state.end_reason == "sudden_death"


def test_first_look_of_the_sample_dialogue() -> None:
    """Red's first look in the rules' sample game (`W`, `W`, `RW`, `W`): its own square, the
    square behind and the one right of that: 3 squares, and both are dead ends."""
    bot = ExplorerBot()
    reply = bot.act(Observation(start=True, corridors=("W", "W", "RW", "W"), distance2=505))
    assert bot.map.count == 3
    assert reply == "TR"  # the only way on: back, then right (as the sample player did)
    assert bot.map.dead[CENTRE] and bot.map.dead[CENTRE + FRAME]


def test_a_look_contradicting_its_map_starts_a_fresh_map() -> None:
    """After `TR` the bot faces frame-west with a known opening behind it; a look with a
    wall behind cannot be right, so the bot drops its map instead of crashing."""
    bot = ExplorerBot()
    assert bot.act(Observation(True, ("W", "W", "RW", "W"), 505)) == "TR"
    reply = bot.act(Observation(False, ("NW", "W", "W", "W"), 500))
    assert reply == "F"
    assert bot.map.count == 2  # the fresh map: its square and the one ahead (walked on)
    assert bot.turn == 2


def test_an_impossible_look_with_no_way_out_still_gets_a_move() -> None:
    assert ExplorerBot().act(Observation(True, ("W", "W", "W", "W"), 500)) == "F"


@pytest.mark.parametrize("seed", [1, 2, 3, 4, 5])
@pytest.mark.parametrize("seat", [0, 1])
def test_map_matches_the_jury_every_turn(seed: int, seat: int) -> None:
    play_by_hand(seed, seat)


@pytest.mark.slow  # seconds on 2 cores
@settings(max_examples=10, deadline=None)
@given(seed=st.integers(min_value=0, max_value=10**6), seat=st.sampled_from([0, 1]))
def test_map_matches_the_jury_on_any_maze(seed: int, seat: int) -> None:
    """Any generated maze and start: the bot's position is always certain and its
    discovered set is always the jury's."""
    play_by_hand(seed, seat)


@settings(max_examples=10, deadline=None)
@given(seed=st.integers(min_value=0, max_value=10**6))
@pytest.mark.slow
def test_moves_are_well_formed_and_never_pay_for_a_wall(seed: int) -> None:
    """1 to 256 letters, and every letter is a real step: the explorer never walks into a
    wall, so its position equals the jury's path end."""
    state = new_state(seed, {}, None, 2)
    bot = ExplorerBot()
    bot.setup(0, str(seed))
    other = RandomBot(seed)
    while not state.is_over():
        mover = state.to_act()[0]
        if mover == 0:
            reply = bot.act(state.observation(0))
            assert 1 <= len(reply) <= 256 and set(reply) <= set("FTLR")
            state.apply({0: reply})
            assert len(state.frame()["path"]) == len(reply)
        else:
            state.apply({1: other.act(state.observation(1))})


@pytest.mark.slow
@pytest.mark.parametrize("seat", [0, 1])
def test_beats_random_every_game(seat: int) -> None:
    for seed in range(20):
        bots = ["builtin:amazes/explorer", "builtin:amazes/random"]
        if seat:
            bots.reverse()
        result = botarena.play("amazes", bots, seed=seed)
        scores = result.scores
        assert scores[seat] > scores[1 - seat], f"seed {seed}: {scores}"


@pytest.mark.parametrize("maze", range(1, 11))
def test_beats_the_frontier_player_on_the_official_mazes(maze: int) -> None:
    path = MAZES / f"maze{maze:02d}.txt"
    for seat in (0, 1):
        bots = [ExplorerBot(), FrontierBot()]
        if seat:
            bots.reverse()
        result = botarena.play("amazes", bots, map=path, seed=maze)
        scores = result.scores
        assert scores[seat] > scores[1 - seat], f"seat {seat}: {scores}"


@pytest.mark.slow
def test_beats_the_contestant_on_most_official_mazes() -> None:
    """Both reach the 1000 cap, so the explorer must win by sudden death: all 625 squares
    discovered first, then a capture. Mazes 1-5, seats both ways."""
    wins = 0
    for maze in range(1, 6):
        for seat in (0, 1):
            bots = [ExplorerBot(), ContestantBot()]
            if seat:
                bots.reverse()
            result = botarena.play("amazes", bots, map=MAZES / f"maze{maze:02d}.txt", seed=maze)
            wins += result.scores[seat] > result.scores[1 - seat]
    assert wins >= 7


@pytest.mark.parametrize("seat", [0, 1])
def test_runs_as_a_process_within_the_budget(seat: int) -> None:
    bots = [EXPLORER_COMMAND, "builtin:amazes/random"]
    if seat:
        bots.reverse()
    result = botarena.play("amazes", bots, seed=11)
    explorer = result.to_dict()["players"][seat]
    assert explorer["status"] == "ok"
    assert explorer["faults"] == 0
    assert explorer["time_ms"] < 4000  # of the 5000 ms budget; typically ~0.4 s
    assert result.scores[seat] > result.scores[1 - seat]


def test_an_unknown_edge_is_worth_less_when_the_square_past_it_is_discovered() -> None:
    """From C, a corridor north: C - N, the edge past N unknown, N's sides unknown. Looking
    from C finds nothing new at N (walked on) and at most a wall past it; the square past an
    unknown edge is worth something only while it is not discovered."""
    bot_map = BotMap()
    north = CENTRE - FRAME
    bot_map.discover(CENTRE)
    bot_map.learn(SIDE_EDGE[CENTRE * 4 + 0], OPEN)
    bot_map.discover(north)
    # C's own sides: east, south and west unknown, squares past them undiscovered.
    # N: the edge past it unknown (square undiscovered), its two sides unknown.
    assert look_gain(bot_map, CENTRE) == pytest.approx(4 * UNKNOWN_AHEAD + 2 * UNKNOWN_SIDE)
    bot_map.discover(north - FRAME)
    assert look_gain(bot_map, CENTRE) == pytest.approx(
        3 * UNKNOWN_AHEAD + UNKNOWN_AHEAD_SEEN + 2 * UNKNOWN_SIDE
    )
    bot_map.discover(north + 1)
    assert look_gain(bot_map, CENTRE) == pytest.approx(
        3 * UNKNOWN_AHEAD + UNKNOWN_AHEAD_SEEN + UNKNOWN_SIDE
    )


@settings(max_examples=5, deadline=None)
@given(seed=st.integers(min_value=0, max_value=10**6))
@pytest.mark.slow
def test_look_gains_kept_up_to_date_equal_a_fresh_count(seed: int) -> None:
    """The incremental figures (only squares near a changed square recomputed) are the same
    as computing every square afresh, after every turn of a game."""
    state = new_state(seed, {}, None, 2)
    bot, other = ExplorerBot(), RandomBot(seed)
    bot.setup(0, str(seed))
    while not state.is_over():
        mover = state.to_act()[0]
        player = bot if mover == 0 else other
        state.apply({mover: player.act(state.observation(mover))})
        if mover == 0:
            bot.gains.refresh(bot.map)
            for square in range(FRAME * FRAME):
                if bot.map.exists[square]:
                    assert bot.gains.gain[square] == look_gain(bot.map, square)
