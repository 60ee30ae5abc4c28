"""A process bot's CPU as the referee reads it: every thread of the bot's process, the
ended ones included, as the kernel counts it."""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Any

from botarena.core.player import ProcessPlayer
from botarena.core.protocol import Protocol
from botarena.core.sandbox import NONE

# A thread spins until it has used 0.3 s of its own CPU and ends; then the bot says so.
SPINNER = """
import sys, threading, time
def spin():
    while time.thread_time() < 0.3:
        pass
worker = threading.Thread(target=spin)
worker.start()
worker.join()
sys.stdin.readline()
print("done", flush=True)
sys.stdin.readline()
"""


class Lines(Protocol):
    def parse(self, lines: list[str], observation: object) -> str:
        return lines[0]


def kernel_total_s(pid: int) -> float:
    """utime + stime of the whole process from /proc/PID/stat (clock ticks)."""
    with open(f"/proc/{pid}/stat", "rb") as handle:
        fields = handle.read().rsplit(b")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def test_cpu_now_counts_a_thread_that_has_ended() -> None:
    player = ProcessPlayer(
        [sys.executable, "-c", SPINNER], name="spinner", sandbox=NONE
    )  # its own clock; sandboxed: tests/test_hostile.py
    player.start(0)
    try:
        player.send("go\n", None)
        reply = player.collect(Lines(), None, None)
        player.pause()
        assert reply.action == "done"
        used = player.cpu_now()
        assert used >= 0.3  # the ended thread's 0.3 s is in it
        tick = 1 / os.sysconf("SC_CLK_TCK")
        assert abs(used - kernel_total_s(player.proc.pid)) <= 3 * tick
    finally:
        player.close()


# The bot's process starts a child that spins 0.3 s of CPU and stays alive until told.
FORKER = """
import subprocess, sys
child = subprocess.Popen([sys.executable, "-c",
    "import sys, time\\nwhile time.process_time() < 0.3: pass\\nprint('spun', flush=True)\\n"
    "sys.stdin.readline()"], stdin=subprocess.PIPE, stdout=subprocess.PIPE)
child.stdout.readline()
sys.stdin.readline()
print("done", flush=True)
sys.stdin.readline()
"""


def test_group_cpu_counts_a_child_without_scanning_proc_on_every_read(monkeypatch) -> None:
    """Without a cgroup, a process group's CPU is summed from /proc: members are found by a
    scan of /proc at most every GROUP_RESCAN_S (the count of a process born since shows up
    then), and only the members' stat files are read in between."""
    from botarena.core import cpu as cpu_module

    player = ProcessPlayer([sys.executable, "-c", FORKER], name="forker", sandbox=NONE)
    player.start(0)
    try:
        player.send("go\n", None)
        assert player.collect(Lines(), None, None).action == "done"
        monkeypatch.setattr(cpu_module, "GROUP_RESCAN_S", 60.0)  # no rescan by time here
        counter = cpu_module.GroupCpu(player.proc.pid)
        scans = []
        listdir = os.listdir
        monkeypatch.setattr(
            cpu_module.os, "listdir", lambda path: scans.append(path) or listdir(path)
        )
        first = counter.seconds()
        # the live child's spin (0.3 s of its process_time) is in the group's count; /proc
        # counts whole clock ticks (10 ms), so it may read a tick less (CI read 0.29)
        assert first >= 0.28
        for _ in range(100):
            assert counter.seconds() >= first
        assert scans == ["/proc"]  # one scan, then only the members' files
    finally:
        player.close()


def test_a_match_shares_the_referees_core_with_bots_that_run_only_in_calls(
    tmp_path: Path, monkeypatch: Any
) -> None:
    """jury_core pins the referee's thread to the core it runs on for the block and gives
    its cores back afterwards; a player given that core starts its process there. (Its
    core locks are the test's own: the machine's may all be held by games that other test
    workers play at the same time, and then jury_core rightly pins nothing.)"""
    from botarena.core import cores as core_locks
    from botarena.core.cores import cores, jury_core

    monkeypatch.setattr(core_locks, "CORE_LOCKS", str(tmp_path / "core-{core}.lock"))
    if cores() < 2:
        import pytest

        pytest.skip("one core: there is nothing to pin")
    before = os.sched_getaffinity(0)
    with jury_core(True) as core:
        assert core in before
        assert os.sched_getaffinity(0) == {core}
        player = ProcessPlayer(
            [
                sys.executable,
                "-c",
                "import os; print(sorted(os.sched_getaffinity(0)), flush=True); input()",
            ],
            name="where",
            sandbox=NONE,
        )
        player.core = core
        player.start(0)
        try:
            player.send("", None)
            assert player.collect(Lines(), None, None).action == f"[{core}]"
        finally:
            player.close()
    assert os.sched_getaffinity(0) == before
    with jury_core(False) as core:
        assert core is None and os.sched_getaffinity(0) == before
