"""Falldown figures: in-process speed, the hunter's win rate, a 1000-slot process game.

`python bench/run.py falldown` (add `--quick` for smaller samples).
"""

from __future__ import annotations

import json
import os
import shlex
import subprocess
import sys
import time
from pathlib import Path

import botarena
import exchanges
from original_engine import compared
from tempdirs import readable_tempdir
from testdata import falldown_golden

RANDOM = "builtin:falldown/random"
HUNTER = "builtin:falldown/hunter"
GOLDEN = falldown_golden()


def in_process_speed(seconds: float) -> list[dict]:
    """4 random bots in-process for `seconds` of this process's CPU time (one core, so the
    figure holds on a loaded machine): slots per CPU second, as 1000-slot games."""
    games = slots = 0
    started = time.process_time()
    while time.process_time() - started < seconds:
        result = botarena.play("falldown", [RANDOM] * 4, seed=games, turns=1000)
        games += 1
        slots += result.turns
    elapsed = time.process_time() - started
    return [
        {
            "name": "falldown in-process, 4 random: 1000-slot games per CPU second"
            " (slots/s / 1000)",
            "value": slots / elapsed / 1000,
            "unit": "games/s",
            "goal": ">= 100",
        },
        {
            "name": f"falldown in-process, 4 random: games per CPU second as played (mean"
            f" {slots / games:.0f} slots)",
            "value": games / elapsed,
            "unit": "games/s",
            "goal": "",
        },
    ]


def hunter_win_rate(games: int) -> dict:
    """The hunter against three randoms, rotating through the seats, seeds 0..games-1."""
    wins = 0
    for seed in range(games):
        bots = [RANDOM] * 4
        bots[seed % 4] = HUNTER
        wins += botarena.play("falldown", bots, seed=seed).scores[seed % 4] == 1
    return {
        "name": f"falldown hunter wins against 3 random ({games} seeded games)",
        "value": 100 * wins / games,
        "unit": "%",
        "goal": ">= 95",
    }


def probe_bots(logs: str | None) -> tuple[list[list[str]], str]:
    """The golden `move_only` game's four probe-bot command lines (logs written to `logs`,
    or to /dev/null: a sandboxed bot writes nowhere else) and its start cells: a 1000-slot
    game whatever the engine."""
    meta = json.loads((GOLDEN / "move_only" / "meta.json").read_text())
    start = "/".join(
        ",".join(cell)
        for cell in json.loads((GOLDEN / "move_only" / "bookmaker.json").read_text())["replay"][
            "initial"
        ]
    )
    argvs = [
        [
            sys.executable,
            str(GOLDEN / "probe_bot.py"),
            *(
                (os.devnull if logs is None else str(Path(logs) / arg))
                if arg.endswith(".txt")
                else arg
                for arg in argv[2:]
            ),
        ]
        for argv in meta["bots_argv"]
    ]
    return argvs, start


def process_game() -> float:
    """Seconds botarena takes for the 1000-slot game of 4 probe-bot processes."""
    argvs, start = probe_bots(None)
    started = time.perf_counter()
    result = botarena.play("falldown", [shlex.join(argv) for argv in argvs], seed=0, start=start)
    elapsed = time.perf_counter() - started
    assert result.turns == 1000 and all(p.faults == 0 for p in result.players), result.to_dict()
    return elapsed


def java_game() -> float | None:
    """Seconds the original engine takes for the same game, when $FALLDOWN_BOOKMAKER holds
    its command line (bench/build_bookmaker.sh builds it and prints it); None when it is not
    set. Its stderr, a line for each slot's failed pause command, is dropped. The engine
    draws its own start cells (its seeds are not portable), which does not change the cost
    of a game of probe bots that only move."""
    command = os.environ.get("FALLDOWN_BOOKMAKER")
    if not command:
        return None
    with readable_tempdir() as logs:
        argvs, _ = probe_bots(logs)
        engine = [*shlex.split(command), "-s", "0", "-t", "1000"]
        for argv in argvs:
            engine += ["-a", shlex.join(argv)]
        started = time.perf_counter()
        subprocess.run(
            engine, cwd=logs, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
        )
        return time.perf_counter() - started


C_BOT = r"""
#include <stdio.h>
int main(void) {
    char line[256];
    puts("READY");
    fflush(stdout);
    for (;;) {
        for (int i = 0; i < 13; i++)
            if (!fgets(line, sizeof line, stdin)) return 0;
        puts("N");
        fflush(stdout);
    }
}
"""
"""A trivial Falldown bot: READY, then for each of its slots reads the 13 lines of the
state and answers N (do nothing)."""


def exchange_rows(quick: bool) -> list[dict]:
    """Cost per exchange of four trivial C bots under botarena against raw pipes fed the
    same bytes (bench/exchanges.py)."""
    with readable_tempdir() as folder:
        source, binary = Path(folder) / "bot.c", Path(folder) / "bot"
        source.write_text(C_BOT)
        subprocess.run(["gcc", "-O2", "-o", str(binary), str(source)], check=True)
        return exchanges.rows("falldown", [[str(binary)]] * 4, {"seed": 1}, 5 if quick else 15)


def side_by_side() -> list[dict]:
    ours = process_game()
    return [
        {
            "name": "falldown 1000-slot game, 4 probe-bot processes",
            "value": ours,
            "unit": "s",
            "goal": "<= 1/5 of the Java engine",
        },
        *compared(
            "falldown",
            "Java engine",
            "FALLDOWN_BOOKMAKER to its command line",
            ours,
            java_game(),
            "<= 0.2",
        ),
    ]


def run(quick: bool) -> list[dict]:
    rows = in_process_speed(2.0 if quick else 10.0)
    rows.append(hunter_win_rate(100 if quick else 200))
    rows += side_by_side()
    rows += exchange_rows(quick)
    return rows


if __name__ == "__main__":
    for row in run("--quick" in sys.argv):
        print(row)
