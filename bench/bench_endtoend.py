"""Whole `botarena play` commands against the original engines' recorded times.

The figures a user sees: start-up, bot processes, every exchange and the replay included.
The original engines are not installable here; their times, measured on the reference
machine type for issue 11 (whole process, best of 3), are printed beside ours as constants.
`python bench/run.py endtoend` (`--quick`: best of 1).
"""

from __future__ import annotations

import json
import shlex
import subprocess
import sys
import time
from pathlib import Path

from bench_ants import HOLD_BOT, MAPS
from bench_falldown import probe_bots
from bench_startup import botarena_command
from tempdirs import readable_tempdir

ANTS_2011_S = 6.4
"""The 2011 Ants engine (aichallenge playgame.py), the same game: issue 11's measurement."""
FALLDOWN_JAVA_S = 3.1
"""The JavaChallenge 2015 Falldown engine (Bookmaker, OpenJDK 17), the same game: issue 11's
measurement."""


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
        "turns=500",
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


def rows(name: str, ours: float, theirs: float, ratio_goal: float) -> list[dict]:
    return [
        {
            "name": f"{name}: botarena play (whole process, best of runs)",
            "value": ours,
            "unit": "s",
            "goal": f"<= {theirs / ratio_goal:.2f}",
        },
        {
            "name": f"{name}: the original engine (recorded, issue 11)",
            "value": theirs,
            "unit": "s",
            "goal": "",
        },
        {
            "name": f"{name}: original engine / botarena",
            "value": theirs / ours,
            "unit": "x",
            "goal": f">= {ratio_goal:g}",
        },
    ]


def run(quick: bool) -> list[dict]:
    runs = 1 if quick else 3
    with readable_tempdir() as folder:
        ants = best_wall_s(ants_command(Path(folder)), runs)
        falldown = best_wall_s(falldown_command(), runs)
    return [
        *rows("ants 500 turns, maze_04p_01, 4 process hold bots", ants, ANTS_2011_S, 20),
        *rows("falldown 1000 slots, 4 probe-bot processes", falldown, FALLDOWN_JAVA_S, 20),
    ]
