"""Sandbox costs: per bot start and per exchange against no sandbox, one read of a bot's CPU
time and one freeze and thaw in each cgroup backend, the jury's peak memory while bots flood
it, and the time to kill and reap a fork bomb.

Start and exchange costs play the Amazes bench's trivial C bots (bench_amazes.py): a 1-turn
game (2 starts, 2 exchanges) and a 150-turn game, with and without the sandbox, interleaved,
least of several tries (the machine's noise only adds time).
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import textwrap
import time
from pathlib import Path

import botarena
from botarena.core import cgroups
from botarena.core.player import ProcessPlayer

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_amazes import compile_bot

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
from hostile_bots import HARNESS, PYTHON_BOTS, c_source


def game_s(binary: Path, turns: int, sandbox: bool) -> float:
    started = time.perf_counter()
    result = botarena.play("amazes", [str(binary)] * 2, seed=1, turns=turns, sandbox=sandbox)
    assert all(p.status == "ok" for p in result.players), result.to_dict()
    return time.perf_counter() - started


def costs(binary: Path, rounds: int) -> dict[str, float]:
    """Least seconds of a 1-turn and a 150-turn game, with and without the sandbox; the
    short games, ten times cheaper, are tried four times as often (their noise is the start
    cost's whole error)."""
    best = dict.fromkeys(["short", "long", "short_box", "long_box"], float("inf"))
    for _ in range(rounds):
        for sandbox in (False, True):
            suffix = "_box" if sandbox else ""
            for _ in range(4):
                best["short" + suffix] = min(best["short" + suffix], game_s(binary, 1, sandbox))
            best["long" + suffix] = min(best["long" + suffix], game_s(binary, 150, sandbox))
    return best


FLOOD_GAME = textwrap.dedent("""
    import resource, sys, botarena
    spec = sys.argv[1]
    botarena.play("amazes", [spec, "builtin:amazes/random"], seed=1, turns=6,
                  budget_ms=3000)
    print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)
""")


def peak_kib(spec: str) -> int:
    """The jury's peak resident memory (KiB) over one game against `spec`, in a fresh
    Python process."""
    done = subprocess.run(
        [sys.executable, "-c", FLOOD_GAME, spec], capture_output=True, check=True, text=True
    )
    return int(done.stdout.split()[-1])


def group_op_us(choice: str, op: str, calls: int) -> float | None:
    """Microseconds of one `op` on a bot's cgroup with BOTARENA_CGROUPS=`choice`, a sleeping
    process in it, least of 5 rounds: "cpu" reads its CPU time (`cpu_ns`, at every exchange
    where CPU is limited), "freeze" freezes and thaws it (a turn of a bot that left its
    process group without seccomp). None where that backend has no such feature here."""
    saved = os.environ.get(cgroups.CHOICE)
    os.environ[cgroups.CHOICE] = choice
    cgroups.available.cache_clear()
    try:
        group = cgroups.new_group(None, None)
        if not (group.counts_cpu if op == "cpu" else group.can_freeze):
            group.remove()
            return None
        bot = subprocess.Popen(["sleep", "60"], preexec_fn=group.enter)
        rounds = []
        for _ in range(5):
            started = time.perf_counter()
            for _ in range(calls):
                if op == "cpu":
                    group.cpu_ns()
                else:
                    group.freeze()
                    group.thaw()
            rounds.append((time.perf_counter() - started) / calls * 1e6)
        bot.kill()
        bot.wait()
        group.remove()
        return min(rounds)
    finally:
        if saved is None:
            del os.environ[cgroups.CHOICE]
        else:
            os.environ[cgroups.CHOICE] = saved
        cgroups.available.cache_clear()


def fork_bomb_kill_s(binary: Path) -> float:
    """Seconds from kill to every process of a fork bomb at its limit gone and reaped."""
    player = ProcessPlayer([str(binary), "amazes"], name="bomb")
    player.start(0)
    player.send("Start\nW\nW\nW\nW\n5\n", None)
    time.sleep(0.5)  # at its process limit by now
    started = time.perf_counter()
    player.kill()
    elapsed = time.perf_counter() - started
    player.close(0)
    return elapsed


def run(quick: bool) -> list[dict]:
    rows = []
    with tempfile.TemporaryDirectory() as name:
        folder = Path(name)
        folder.chmod(0o755)  # run as root, bots run as nobody: they must read their folder
        binary = compile_bot(folder)
        best = costs(binary, 3 if quick else 7)
        start_ms = (best["short_box"] - best["short"]) / 2 * 1000
        exchanges = 298
        plain = (best["long"] - best["short"]) / exchanges * 1e6
        boxed = (best["long_box"] - best["short_box"]) / exchanges * 1e6
        rows += [
            {
                "name": "sandbox extra cost per bot start",
                "value": start_ms,
                "unit": "ms",
                "goal": "<= 10",
            },
            {"name": "amazes exchange, no sandbox", "value": plain, "unit": "us", "goal": ""},
            {"name": "amazes exchange, sandbox", "value": boxed, "unit": "us", "goal": ""},
            {
                "name": "sandbox exchange cost / no sandbox",
                "value": boxed / plain,
                "unit": "x",
                "goal": "<= 1.1",
            },
        ]
        for choice, op, calls, what in (
            ("v1", "cpu", 20000, "bot CPU read, cgroup v1 cpuacct.usage"),
            ("v2", "cpu", 20000, "bot CPU read, cgroup v2 cpu.stat"),
            ("v1", "freeze", 200, "freeze and thaw, cgroup v1 freezer.state"),
            ("v2", "freeze", 200, "freeze and thaw, cgroup v2 cgroup.freeze"),
        ):
            took = group_op_us(choice, op, calls // 10 if quick else calls)
            if took is not None:
                rows.append({"name": what, "value": took, "unit": "us", "goal": ""})
        for bot in ("flood_stdout", "line_1gb", "flood_stderr"):
            path = folder / bot / "bot.py"
            path.parent.mkdir()
            path.write_text(HARNESS + "\n" + PYTHON_BOTS[bot] + "\n")
            rows.append(
                {
                    "name": f"jury peak memory, game against {bot}",
                    "value": peak_kib(f"{sys.executable} {path} amazes") / 1024,
                    "unit": "MiB",
                    "goal": "<= 200",
                }
            )
        rows.append(
            {
                "name": "jury peak memory, game against a quiet bot",
                "value": peak_kib(f"{binary}") / 1024,
                "unit": "MiB",
                "goal": "",
            }
        )
        bomb = folder / "bomb"
        bomb.mkdir()
        (bomb / "bot.c").write_text(c_source("fork_bomb"))
        subprocess.run(["gcc", "-O1", "-o", str(bomb / "bot"), str(bomb / "bot.c")], check=True)
        tries = [fork_bomb_kill_s(bomb / "bot") for _ in range(3 if quick else 10)]
        rows.append(
            {
                "name": "kill and reap a fork bomb (64 processes)",
                "value": min(tries) * 1000,
                "unit": "ms",
                "goal": "<= 100",
            }
        )
        rows.append(
            {
                "name": "kill and reap a fork bomb, slowest try",
                "value": max(tries) * 1000,
                "unit": "ms",
                "goal": "",
            }
        )
    return rows
