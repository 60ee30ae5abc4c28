"""Invariants over random games (hypothesis), replay round trips, the bots and the starter."""

from __future__ import annotations

import random
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import botarena
from botarena.core.replay import load, verify
from botarena.games.ants import INFO, new_state
from botarena.games.ants.mapfile import bundled_map
from botarena.games.ants.replay2011 import compare, export_replay, resimulate
from botarena.games.ants.rules import AIM, LAND, AntsState
from testdata import ants_maps


def random_orders(state: AntsState, rng: random.Random, seat: int) -> list[str]:
    """Random moves for the seat's ants, some of them invalid on purpose."""
    orders = []
    for (row, col), ant in state.current_ants.items():
        if ant.owner == seat and rng.random() < 0.8:
            orders.append(f"o {row} {col} {rng.choice('nesw')}")
    if rng.random() < 0.1:
        orders.append("o 0 0 x")
    return orders


def check_invariants(state: AntsState, base: int) -> None:
    # one live ant per square (the dict) and the grid agrees, except for the 2011 quirk of
    # food born on an empty hill: an ant spawned there hides it, gathering it blanks the ant
    hidden = set(state.current_food) & set(state.current_ants)
    owners_on_grid = sum(value >= 0 for row in state.grid for value in row)
    assert len(state.current_ants) - len(hidden) <= owners_on_grid <= len(state.current_ants)
    for loc, ant in state.current_ants.items():
        assert ant.loc == loc and not ant.killed
        assert state.grid[loc[0]][loc[1]] in (ant.owner, LAND)
    living = [ant.loc for ant in state.all_ants if not ant.killed]  # every ant ever made
    assert len(living) == len(set(living)) == len(state.current_ants)
    for loc in set(state.current_food) - hidden:
        assert state.grid[loc[0]][loc[1]] in (-3, LAND) or loc in state.hills
    for player in range(state.num_players):
        razed = sum(hill.killed_by == player for hill in state.hills.values())
        charged = sum(hill.raze_points for hill in state.hills.values() if hill.owner == player)
        assert state.score[player] == base + 2 * razed - charged
        assert (
            state.score_history[player][-1] == state.score[player]
            or not state.is_alive(player)
            or state.is_over()
        )


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10**6), players=st.sampled_from([2, 4]))
def test_random_games_keep_the_invariants(seed: int, players: int) -> None:
    ants_map = bundled_map(players)
    options = INFO.resolve_options({"turns": "60", "attackradius2": "5"})
    state = new_state(seed, options, ants_map, players)
    base = ants_map.hill_counts()[0]
    rng = random.Random(seed)
    while not state.is_over():
        seats = state.to_act()
        for seat in seats:
            state.observation(seat)
        state.apply({seat: random_orders(state, rng, seat) for seat in seats})
        check_invariants(state, base)
        for ant in state.all_ants:
            steps = (ant.die_turn if ant.killed else state.turn) - ant.spawn_turn
            assert len(ant.orders) == steps
            assert set(ant.orders) <= set(AIM) | {"-"}
    assert state.cutoff is not None


@settings(max_examples=5, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10**6))
def test_replay_round_trip_verify_and_2011_export(seed: int, tmp_path_factory) -> None:
    path = tmp_path_factory.mktemp("r") / "game.replay.gz"
    result = botarena.play(
        "ants", ["builtin:ants/random", "builtin:ants/greedy"], seed=seed, replay=path, turns=50
    )
    document = load(path)
    assert verify(document).ok
    exported = export_replay(document)
    assert exported["game_length"] == result.turns
    assert exported["score"] == result.scores
    again = resimulate(exported)
    assert compare(exported, again) is None


@pytest.mark.slow
def test_swarm_beats_greedy_on_a_sample_of_official_maps() -> None:
    maps = ants_maps()
    names = ["maze/maze_02p_02", "cell_maze/cell_maze_p02_04", "random_walk/random_walk_02p_02"]
    wins = 0
    for index, name in enumerate(names):
        for seat in (0, 1):
            bots = ["builtin:ants/greedy"] * 2
            bots[seat] = "builtin:ants/swarm"
            result = botarena.play("ants", bots, seed=index, map=maps / f"{name}.map", turns=300)
            wins += result.scores[seat] > result.scores[1 - seat]
    assert wins >= 5


def test_builtin_bots_move_and_hold() -> None:
    state = new_state(1, INFO.resolve_options({}), bundled_map(2), 2)
    from botarena.games.ants.bots.greedy import GreedyBot
    from botarena.games.ants.bots.hold import HoldBot

    state.to_act()
    observation = state.observation(0)
    assert HoldBot().act(observation) == []
    orders = GreedyBot().act(observation)
    assert all(direction in AIM for _, _, direction in orders)
    for row, col, direction in orders:
        drow, dcol = AIM[direction]
        target = ((row + drow) % state.height, (col + dcol) % state.width)
        assert state.grid[target[0]][target[1]] == LAND


def test_starter_writes_a_bot_that_plays(tmp_path: Path) -> None:
    bot = tmp_path / "mybot.py"
    made = subprocess.run(
        [sys.executable, "-m", "botarena", "ants", "starter", str(bot)],
        capture_output=True,
        text=True,
    )
    assert made.returncode == 0, made.stderr
    result = botarena.play(
        "ants", [f"{sys.executable} {bot}", "builtin:ants/hold"], seed=3, turns=40
    )
    starter = result.players[0]
    assert starter.status in ("ok", "eliminated") and starter.faults == 0
    again = subprocess.run(
        [sys.executable, "-m", "botarena", "ants", "starter", str(bot)],
        capture_output=True,
        text=True,
    )
    assert again.returncode == 2 and "already exists" in again.stderr


def test_the_starter_never_walks_two_of_its_ants_onto_one_square(tmp_path: Path) -> None:
    """Two starters for 200 turns (seed 2 made the first starter kill 14 of its own ants):
    no square ever sees two ants of one player die together (a collision)."""
    bot = tmp_path / "mybot.py"
    subprocess.run(
        [sys.executable, "-m", "botarena", "ants", "starter", str(bot)],
        check=True,
        capture_output=True,
    )
    path = tmp_path / "starters.replay.gz"
    botarena.play("ants", [f"{sys.executable} {bot}"] * 2, seed=2, turns=200, replay=path)
    data = export_replay(load(path))["replaydata"]
    rows, cols = data["map"]["rows"], data["map"]["cols"]
    deaths = []
    for row, col, _spawn, end, owner, moves in data["ants"]:
        for move in moves:
            drow, dcol = AIM.get(move, (0, 0))
            row, col = (row + drow) % rows, (col + dcol) % cols
        deaths.append((end, row, col, owner))
    assert len(deaths) == len(set(deaths))


@pytest.mark.slow
def test_pettingzoo_adapter_passes_the_api_test() -> None:
    from pettingzoo.test import api_test

    api_test(botarena.make("ants", seed=1, turns=20), num_cycles=60)


class CrashAtTurnFive:
    """An in-process bot with a bug: it raises at turn 5 (status `crashed`)."""

    def act(self, observation):
        if observation.turn == 5:
            raise RuntimeError("a bug at turn 5")
        return []


@pytest.mark.slow
def test_a_ten_player_game_with_a_crash_round_trips_through_the_2011_format(tmp_path: Path) -> None:
    path = tmp_path / "ten.replay.gz"
    ten = ants_maps() / "random_walk/random_walk_p10_02.map"
    bots = ["builtin:ants/random"] * 4 + [CrashAtTurnFive()] + ["builtin:ants/greedy"] * 5
    botarena.play("ants", bots, seed=3, map=ten, turns=60, replay=path)
    exported = export_replay(load(path))
    assert exported["status"] == ["survived"] * 4 + ["crashed"] + ["survived"] * 5
    assert exported["playerturns"][4] == 5
    assert compare(exported, resimulate(exported)) is None
