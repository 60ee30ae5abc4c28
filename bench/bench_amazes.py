"""Amazes speed: in-process games per second, and the referee's cost over raw pipes.

The referee figure plays a whole game between two trivial C bots (read the look, answer
`T`) and compares it with the same two programs driven through raw pipes for the same 300
exchanges. Start-up is subtracted from both by also timing a 1-turn game (2 exchanges).
"""

from __future__ import annotations

import statistics
import subprocess
import tempfile
import time
from pathlib import Path

import botarena

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


def raw_pipes(binary: Path, turns: int) -> float:
    """Seconds for `turns` turns each of two bots driven by plain pipes, start-up included."""
    started = time.perf_counter()
    bots = [
        subprocess.Popen([str(binary)], stdin=subprocess.PIPE, stdout=subprocess.PIPE)
        for _ in range(2)
    ]
    for turn in range(turns):
        for seat, bot in enumerate(bots):
            bot.stdin.write((b"Start\n" if turn == seat == 0 else b"") + LOOK)
            bot.stdin.flush()
            bot.stdout.readline()
    for bot in bots:
        bot.stdin.close()
        bot.wait()
        bot.stdout.close()
    return time.perf_counter() - started


def referee(binary: Path, turns: int) -> float:
    started = time.perf_counter()
    result = botarena.play("amazes", [str(binary), str(binary)], seed=1, turns=turns)
    assert all(p.status == "ok" for p in result.players), result.to_dict()
    return time.perf_counter() - started


def least_cost(measure, binary: Path, repeats: int) -> float:
    """Seconds for 150 turns beyond a 1-turn game (start-up subtracted), the least of
    `repeats` tries: the machine's noise only ever adds time."""
    return min(measure(binary, 150) for _ in range(repeats)) - min(
        measure(binary, 1) for _ in range(repeats)
    )


def run(quick: bool) -> list[dict]:
    games = 100 if quick else 400
    rate = statistics.median(in_process_rate(games // 4) for _ in range(4))
    rounds = 3 if quick else 7
    with tempfile.TemporaryDirectory() as folder:
        binary = compile_bot(Path(folder))
        raw = ours = float("inf")
        for _ in range(rounds):  # interleaved, so that both see the same machine
            raw = min(raw, least_cost(raw_pipes, binary, 3))
            ours = min(ours, least_cost(referee, binary, 3))
    return [
        {
            "name": "amazes in-process random vs random (per CPU second)",
            "value": rate,
            "unit": "games/s",
            "goal": ">= 100",
        },
        {"name": "amazes 298 exchanges, raw pipes", "value": raw * 1000, "unit": "ms", "goal": ""},
        {
            "name": "amazes 298 exchanges, botarena referee",
            "value": ours * 1000,
            "unit": "ms",
            "goal": "",
        },
        {
            "name": "amazes referee cost / raw pipes",
            "value": ours / raw,
            "unit": "x",
            "goal": "<= 2",
        },
    ]
