"""Start-up: whole-process wall times of short `botarena` commands, beside `python -c pass`.

Every `botarena play` a script or a tournament starts pays the start-up, so it is a budget:
`python bench/run.py startup` (the median of N runs of each command, the machine's own
interpreter start-up measured in the same run).
"""

from __future__ import annotations

import resource
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


def children_cpu_s() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def median_ms(command: list[str], runs: int) -> tuple[float, float]:
    """The median wall time and CPU time (user + system) of `runs` whole runs of `command`,
    after one warm-up run. CPU time barely moves when other work shares the cores."""
    walls, cpus = [], []
    for index in range(runs + 1):
        cpu = children_cpu_s()
        started = time.perf_counter()
        subprocess.run(command, check=True, stdout=subprocess.DEVNULL)
        if index:
            walls.append((time.perf_counter() - started) * 1000)
            cpus.append((children_cpu_s() - cpu) * 1000)
    return statistics.median(walls), statistics.median(cpus)


def run(quick: bool) -> list[dict]:
    runs = 5 if quick else 21
    botarena = botarena_command()
    rows = [
        ("python3 -c pass", [sys.executable, "-c", "pass"], ""),
        ("botarena --version", [*botarena, "--version"], "<= 150"),
        ("botarena games", [*botarena, "games"], ""),
        (
            "botarena play amazes builtin:amazes/random builtin:amazes/random",
            [*botarena, "play", "amazes", "builtin:amazes/random", "builtin:amazes/random"],
            "<= 300",
        ),
    ]
    table = []
    for name, command, goal in rows:
        wall, cpu = median_ms(command, runs)
        table += [
            {
                "name": f"start-up: {name} (whole process, median of {runs})",
                "value": wall,
                "unit": "ms",
                "goal": goal,
            },
            {"name": "  its CPU time, user + system", "value": cpu, "unit": "ms", "goal": ""},
        ]
    return table
