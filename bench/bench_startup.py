"""Start-up: whole-process wall times of short `botarena` commands, beside `python -c pass`.

Every `botarena play` a script or a tournament starts pays the start-up, so it is a budget:
`python bench/run.py startup` (the median of N runs of each command, the machine's own
interpreter start-up measured in the same run).
"""

from __future__ import annotations

import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path


def botarena_command() -> list[str]:
    """The installed `botarena` script beside this interpreter (as a user runs it)."""
    script = Path(sys.executable).parent / "botarena"
    found = str(script) if script.exists() else shutil.which("botarena")
    return [found] if found else [sys.executable, "-m", "botarena"]


def median_wall_ms(command: list[str], runs: int) -> float:
    """The median wall time of `runs` whole runs of `command` (after one warm-up run)."""
    times = []
    for index in range(runs + 1):
        started = time.perf_counter()
        subprocess.run(command, check=True, stdout=subprocess.DEVNULL)
        if index:
            times.append((time.perf_counter() - started) * 1000)
    return statistics.median(times)


def run(quick: bool) -> list[dict]:
    runs = 5 if quick else 21
    botarena = botarena_command()
    rows = [("python3 -c pass", [sys.executable, "-c", "pass"], ""),
            ("botarena --version", [*botarena, "--version"], "<= 150"),
            ("botarena games", [*botarena, "games"], ""),
            ("botarena play amazes builtin:amazes/random builtin:amazes/random",
             [*botarena, "play", "amazes", "builtin:amazes/random", "builtin:amazes/random"],
             "<= 300")]
    return [{"name": f"start-up: {name} (whole process, median of {runs})",
             "value": median_wall_ms(command, runs), "unit": "ms", "goal": goal}
            for name, command, goal in rows]
