"""Whole `botarena play` commands against the original engines playing the same games.

The figures a user sees: start-up, bot processes, every exchange and the replay included.
Where an engine is installed and named in its variable (ANTS_PLAYGAME, FALLDOWN_BOOKMAKER:
see bench_ants.py and bench_falldown.py), it plays the same game in the same run, best of
the same number of runs, and the ratio is taken between the two. Without it, the engine's
time measured for issue 11 on the reference machine type is shown instead, marked as
recorded: a ratio against a figure taken elsewhere, only a hint.
`python bench/run.py endtoend` (`--quick`: best of 1).
"""

from __future__ import annotations

import json
import shlex
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import exchanges
from bench_ants import HOLD_BOT, MAPS, engine_game_s
from bench_falldown import java_game, probe_bots
from bench_startup import botarena_command
from tempdirs import readable_tempdir

ANTS_2011_S = 6.4
"""The 2011 Ants engine (aichallenge playgame.py), the same game: issue 11's measurement."""
FALLDOWN_JAVA_S = 3.1
"""The JavaChallenge 2015 Falldown engine (Bookmaker, OpenJDK 17), the same game: issue 11's
measurement."""
ANTS_TURNS = 500


def best_wall_s(command: list[str], runs: int, cwd: str | None = None) -> float:
    """The shortest wall time of `runs` whole runs of `command` (a `play` command is first
    run once with --json to check that no bot failed: a game of crashed bots is quick)."""
    if "play" in command:
        played = subprocess.run(
            [*command, "--json"], check=True, capture_output=True, text=True, cwd=cwd
        )
        faults = [p["faults"] for p in json.loads(played.stdout)["players"]]
        assert not any(faults), played.stdout
    best = float("inf")
    for _ in range(runs):
        started = time.perf_counter()
        subprocess.run(command, check=True, stdout=subprocess.DEVNULL, cwd=cwd)
        best = min(best, time.perf_counter() - started)
    return best


def python_start_s(runs: int) -> float:
    """The least wall time of a bare `python -c pass`: the jury's interpreter, started."""
    best = float("inf")
    for _ in range(runs):
        started = time.perf_counter()
        subprocess.run([sys.executable, "-c", "pass"], check=True)
        best = min(best, time.perf_counter() - started)
    return best


def floor_s(game: str, specs: list[str], options: dict, runs: int) -> float:
    """The floor of any jury that runs these bots as processes of their own: an interpreter
    started, then the game's bytes fed to fresh copies of the bots on bare pipes doing no
    other work (bench/exchanges.py), on one core or placed by the system, the quicker."""
    pipes = min(
        exchanges.bare_pipes_game_s(game, specs, options, runs, one_core=one_core)
        for one_core in (True, False)
    )
    return python_start_s(5 * runs) + pipes


def ants_command(folder: Path) -> list[str]:
    """500 turns on maze_04p_01 with 4 process bots that send no orders, replay written."""
    bot = folder / "holdbot.py"
    bot.write_text(HOLD_BOT)
    spec = f"{sys.executable} {bot}"
    return [
        *botarena_command(),
        "play",
        "ants",
        spec,
        spec,
        spec,
        spec,
        "--seed",
        "1",
        "--map",
        str(MAPS / "maze/maze_04p_01.map"),
        "-o",
        f"turns={ANTS_TURNS}",
        "-o",
        "cutoff_turn=100000",
        "--replay",
        str(folder / "ants.replay.gz"),
    ]


def falldown_command() -> list[str]:
    """The 1000-slot game of 4 probe bots of the Falldown recordings (`move_only`)."""
    argvs, start = probe_bots(None)
    return [
        *botarena_command(),
        "play",
        "falldown",
        *(shlex.join(argv) for argv in argvs),
        "--seed",
        "0",
        "-o",
        f"start={start}",
    ]


def engine_s(play_once: Callable[[], float | None], runs: int) -> float | None:
    """The original engine's best time over `runs` games, or None where it is not set up."""
    times = [play_once() for _ in range(runs)]
    return None if None in times else min(times)  # type: ignore[type-var]


def rows(
    name: str, ours: float, theirs: float | None, recorded: float, goal: float, floor: float
) -> list[dict]:
    engine = "the original engine, the same game in this run"
    if theirs is None:
        theirs, engine = recorded, "the original engine (recorded for issue 11, not this run)"
    return [
        {
            "name": f"{name}: botarena play (whole process, best of runs)",
            "value": ours,
            "unit": "s",
            "goal": f"<= {theirs / goal:.2f}",
        },
        {"name": f"{name}: {engine}", "value": theirs, "unit": "s", "goal": ""},
        {
            "name": f"{name}: original engine / botarena",
            "value": theirs / ours,
            "unit": "x",
            "goal": f">= {goal:g}",
        },
        {
            "name": f"{name}: the floor of a jury of processes (a Python start, then the"
            " game's bytes on bare pipes to the same bots)",
            "value": floor,
            "unit": "s",
            "goal": "",
        },
        {
            "name": f"{name}: original engine / that floor (no jury of processes does better)",
            "value": theirs / floor,
            "unit": "x",
            "goal": "",
        },
    ]


def run(quick: bool) -> list[dict]:
    runs = 1 if quick else 3
    with readable_tempdir() as folder:
        ants = best_wall_s(ants_command(Path(folder)), runs)
        falldown = best_wall_s(falldown_command(), runs)
        bot = Path(folder) / "holdbot.py"
        ants_floor = floor_s(
            "ants",
            [f"{sys.executable} {bot}"] * 4,
            {
                "seed": 1,
                "map": MAPS / "maze/maze_04p_01.map",
                "turns": ANTS_TURNS,
                "cutoff_turn": 100_000,
            },
            runs,
        )
    argvs, start = probe_bots(None)
    falldown_floor = floor_s(
        "falldown", [shlex.join(argv) for argv in argvs], {"seed": 0, "start": start}, runs
    )
    ants_engine = engine_s(lambda: engine_game_s(ANTS_TURNS), runs)
    falldown_engine = engine_s(java_game, runs)
    return [
        *rows(
            f"ants {ANTS_TURNS} turns, maze_04p_01, 4 process hold bots",
            ants,
            ants_engine,
            ANTS_2011_S,
            20,
            ants_floor,
        ),
        *rows(
            "falldown 1000 slots, 4 probe-bot processes",
            falldown,
            falldown_engine,
            FALLDOWN_JAVA_S,
            20,
            falldown_floor,
        ),
    ]
