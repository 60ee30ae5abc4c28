"""`tournament standings` and the leaderboard count only the games the standings count: a game
with a strike is thrown out (docs/standings.md), and "N games counted" says so (#22)."""

from __future__ import annotations

from pathlib import Path

import pytest

from botarena.tournament.store import Store
from botarena.web.leaderboard import Board
from conftest import botarena_ok


@pytest.mark.slow  # seconds on 2 cores
def test_a_strike_game_is_played_but_not_counted(tmp_path: Path) -> None:
    botarena_ok(
        "tournament",
        "new",
        "t",
        "--game",
        "labyrinth",
        "--games-per-pair",
        "2",
        "--bot",
        "builtin:labyrinth/wallfollower",
        "--bot",
        "builtin:labyrinth/static",
        "--bot",
        "builtin:labyrinth/warden",
        cwd=tmp_path,
    )
    store = Store.open(f"sqlite:///{tmp_path / 'botarena.db'}")
    cup = store.tournament("t")
    assert cup is not None
    runner = store.register_runner()
    for index in range(4):  # the maze master of the first game answers out of its rules
        game = store.claim(cup, runner)
        assert game is not None
        statuses = ["ok", "strike"] if index == 0 else ["ok", "ok"]
        store.finish(
            game.id,
            runner,
            {
                "scores": [1000, 0],
                "ranks": [1, 1],
                "statuses": statuses,
                "faults": [0, 1 if index == 0 else 0],
                "turns": 10,
                "end_reason": "turns",
                "replay": None,
            },
        )
    store.retire_runner(runner)

    out = botarena_ok("tournament", "standings", "t", "--no-plot", cwd=tmp_path)
    assert "3 games counted, 0 with a time-out; 1 of 4 played not counted (strikes)" in out
    board = Board(store, "sqlite://").standings(cup)
    assert (board["games"], board["played"]) == (3, 4)
