"""Built-in bots budget their thinking in deterministic units, never in wall time: the same
seed gives the same game move for move with CPU hogs beside it and without (#22). The bots
play as processes, each started with the game's seed (BOTARENA_SEED) as any bot is."""

from __future__ import annotations

import multiprocessing
import sys
import time
from pathlib import Path
from typing import Any

import pytest

import botarena
from botarena.core.registry import get_game
from botarena.core.replay import load

GAMES = {
    "amazes": (["explorer", "random"], {"turns": 60}),
    "ants": (["greedy", "swarm"], {"turns": 40}),
    "falldown": (["hunter", "random", "hunter", "random"], {"turns": 40}),
    "labyrinth": (["cartographer", "warden"], {"max_rounds": 1}),
}


def spin() -> None:
    while True:
        pass


def moves(game: str, folder: Path) -> list[Any]:
    bots, options = GAMES[game]
    specs = [f"{sys.executable} -m botarena.games.{game}.bots.{bot}" for bot in bots]
    path = folder / f"{game}.json.gz"
    contest = get_game(game).info.contest_options({})  # the CPU clock where there is a choice
    botarena.play(game, specs, seed=11, replay=path, **contest, **options)
    document = load(path)
    # each seat's reply as recorded (plain, or packed by the game) and its fault, if any
    return [
        [
            (act["seat"], act.get("reply", act.get("packed")), act.get("fault"))
            for act in step["acts"]
        ]
        for step in document["steps"]
    ]


@pytest.mark.slow
@pytest.mark.parametrize("game", sorted(GAMES))
def test_the_same_seed_plays_the_same_game_under_load(game: str, tmp_path: Path) -> None:
    quiet = moves(game, tmp_path / "quiet")
    hogs = [multiprocessing.Process(target=spin, daemon=True) for _ in range(4)]
    for hog in hogs:
        hog.start()
    try:
        loaded = moves(game, tmp_path / "loaded")
    finally:
        for hog in hogs:
            hog.kill()
            hog.join()
    assert sum(reply is not None for step in quiet for _, reply, _ in step) > 5
    assert loaded == quiet


@pytest.mark.parametrize("game", sorted(GAMES))
def test_no_built_in_bot_reads_a_clock(
    game: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """In-process, with every clock jumping 50 ms at each read (a machine a hundred times
    slower, or swamped), the same seed plays the same game frame for frame: a bot budgeting
    its thinking by a clock would think less here (the Labyrinth bots' time bank did)."""
    bots, options = GAMES[game]
    if game == "labyrinth":  # the referee's own CPU limits read the jumping clocks too
        options = {**options, "cpu_limits": 0, "max_rounds": 4}

    def frames(name: str) -> list[Any]:
        path = tmp_path / f"{name}.json.gz"
        specs = [f"builtin:{game}/{bot}" for bot in bots]
        botarena.play(game, specs, seed=11, replay=path, **options)
        return [step["frame"] for step in load(path)["steps"]]

    steady = frames("steady")
    for clock in ("perf_counter", "monotonic", "process_time", "thread_time", "time"):
        real = getattr(time, clock)
        jumps = [0.0]

        def jumping(real: Any = real, jumps: list[float] = jumps) -> float:
            jumps[0] += 0.05
            return real() + jumps[0]

        monkeypatch.setattr(time, clock, jumping)
    assert frames("jumping") == steady
