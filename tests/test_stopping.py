"""Stopping the jury stops its bots: SIGTERM, SIGHUP and SIGINT kill and reap every bot
(the frozen one and a bot's forked child too) and exit 128 + n; SIGKILL of the jury kills
the bots through PR_SET_PDEATHSIG. Real processes, checked in /proc."""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from conftest import alive, leftovers
from conftest import processes as all_processes

# A bot that records its pid and its child's, then never answers: the jury waits on it
# (budget 10 minutes) while the other bot sits frozen with SIGSTOP. Played without the
# sandbox, so that the bots are plain processes the test can name (the sandbox's own PID
# namespace and --die-with-parent are the sandbox tests' subject).
HANGING_BOT = """
import os, sys, time
folder = sys.argv[1]
child = os.fork()
if child == 0:
    time.sleep(600)
    os._exit(0)
with open(os.path.join(folder, f"pids-{os.getpid()}"), "w") as out:
    out.write(f"{os.getpid()} {child}")
time.sleep(600)
"""


def start_jury(tmp_path: Path) -> tuple[subprocess.Popen[bytes], list[int], list[int]]:
    """`botarena play amazes` between two hanging bots; returns the jury, once the first bot
    waits for its reply and the second sits frozen, with the pids of both bots and of every
    process naming the test's folder (the bots and the first one's child)."""
    bot = tmp_path / "hanging_bot.py"
    bot.write_text(HANGING_BOT)
    spec = f"{sys.executable} {bot} {tmp_path}"
    jury = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "botarena",
            "play",
            "amazes",
            spec,
            spec,
            "-o",
            "budget_ms=600000",
            "--seed",
            "1",
            "--no-sandbox",
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    deadline = time.monotonic() + 60
    while True:  # until both bots run: the first may write its pids before the second starts
        assert time.monotonic() < deadline and jury.poll() is None, leftovers(tmp_path)
        time.sleep(0.05)
        if not list(tmp_path.glob("pids-*")):
            continue
        processes = [int(line.split(":")[0]) for line in leftovers(tmp_path)]
        processes.remove(jury.pid)
        parents = {pid: parent for pid, _, parent, _ in all_processes()}
        bots = [pid for pid in processes if parents.get(pid) == jury.pid]
        # the first bot and its child, and the second bot: frozen at once after its start,
        # it may or may not have forked its own child by then (a busy machine lets it run)
        if len(bots) == 2 and len(processes) in (3, 4):
            break
    return jury, bots, processes


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGHUP, signal.SIGINT])
@pytest.mark.slow
def test_a_stopping_signal_kills_every_bot_and_exits_128_plus_n(
    tmp_path: Path, signum: int
) -> None:
    jury, _, pids = start_jury(tmp_path)
    assert all(alive(pid) for pid in pids)
    jury.send_signal(signum)
    _, stderr = jury.communicate(timeout=60)
    assert jury.returncode == 128 + signum, stderr
    assert b"Traceback" not in stderr
    assert [pid for pid in pids if alive(pid)] == []
    assert leftovers(tmp_path) == []


def test_bots_die_when_the_jury_is_killed(tmp_path: Path) -> None:
    jury, bots, pids = start_jury(tmp_path)
    jury.kill()
    jury.wait(timeout=60)
    try:
        deadline = time.monotonic() + 30
        while any(alive(pid) for pid in bots) and time.monotonic() < deadline:
            time.sleep(0.05)
        # the bots themselves (the running one and the frozen one) die with the jury; their
        # own children need the sandbox's PID namespace (docs/limits.md)
        assert [pid for pid in bots if alive(pid)] == []
    finally:
        for pid in pids:
            if alive(pid):
                os.kill(pid, signal.SIGKILL)
            with contextlib.suppress(ChildProcessError):  # an orphan this process adopted
                os.waitpid(pid, 0)
