"""Amazes speed: in-process games per second, and the referee's cost over raw pipes.

The referee figure plays a whole game between two trivial C bots (read the look, answer
`T`) and compares its cost per exchange with the same two programs fed the same bytes
through raw pipes (bench/exchanges.py), start-up left out of both.
"""

from __future__ import annotations

import statistics
import subprocess
import time
from pathlib import Path

import botarena
import exchanges
from tempdirs import readable_tempdir

C_BOT = r"""
#include <stdio.h>
#include <string.h>
int main(void) {
    char line[512];
    for (int turn = 0; turn < 150; turn++) {
        int wanted = 5;
        for (int i = 0; i < wanted; i++) {
            if (!fgets(line, sizeof line, stdin)) return 0;
            if (i == 0 && strncmp(line, "Quit", 4) == 0) return 0;
            if (i == 0 && strncmp(line, "Start", 5) == 0) wanted = 6;
        }
        fputs("T\n", stdout);
        fflush(stdout);
    }
    return 0;
}
"""

LOOK = b"W\nW\nRW\nW\n505\n"


def in_process_rate(games: int) -> float:
    """Games per second of this process's CPU time: one core's rate, even on a busy machine."""
    started = time.process_time()
    for seed in range(games):
        botarena.play("amazes", ["builtin:amazes/random"] * 2, seed=seed)
    return games / (time.process_time() - started)


def compile_bot(folder: Path) -> Path:
    source, binary = folder / "t_bot.c", folder / "t_bot"
    source.write_text(C_BOT)
    subprocess.run(["gcc", "-O2", "-o", str(binary), str(source)], check=True)
    return binary


def run(quick: bool) -> list[dict]:
    games = 100 if quick else 400
    rate = statistics.median(in_process_rate(games // 4) for _ in range(4))
    with readable_tempdir() as folder:
        binary = compile_bot(Path(folder))
        exchange = exchanges.rows("amazes", [[str(binary)]] * 2, {"seed": 1}, 10 if quick else 30)
    return [
        {
            "name": "amazes in-process random vs random (per CPU second)",
            "value": rate,
            "unit": "games/s",
            "goal": ">= 100",
        },
        *exchange,
    ]
