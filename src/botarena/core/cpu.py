"""CPU time of a bot's processes where no cgroup counts it: its main process's CPU clock,
and its process group's counters from /proc."""

from __future__ import annotations

import os
import time

_CLK_TCK = os.sysconf("SC_CLK_TCK")


GROUP_RESCAN_S = 0.05
"""How long a process group's known members are trusted before /proc is scanned again for
new ones. A full scan reads every process's stat file (about a millisecond, 10 µs a
process), far more than a quick bot's call; between scans only the members' are read."""


class GroupCpu:
    """CPU seconds of a process group from /proc (user + system, threads, reaped children):
    the bot's count where no cgroup counts it."""

    def __init__(self, pgid: int) -> None:
        self.pgid = pgid
        self._members: list[int] = []
        self._scanned = float("-inf")

    def seconds(self) -> float:
        if time.monotonic() >= self._scanned + GROUP_RESCAN_S:
            self._rescan()
        ticks = self._ticks(self._members)
        if ticks is None:  # a member ended: its time is in its parent's now, or gone
            self._rescan()
            ticks = self._ticks(self._members) or 0
        return ticks / _CLK_TCK

    def _rescan(self) -> None:
        self._members = [
            int(entry)
            for entry in os.listdir("/proc")
            if entry.isdigit() and self._ticks([int(entry)]) is not None
        ]
        self._scanned = time.monotonic()

    def _ticks(self, pids: list[int]) -> int | None:
        """utime + stime + cutime + cstime of `pids`, or None if one of them is no longer
        in the group."""
        total = 0
        for pid in pids:
            try:
                with open(f"/proc/{pid}/stat", "rb") as handle:
                    stat = handle.read()
            except OSError:
                return None
            fields = stat[stat.rfind(b")") + 2 :].split()
            if int(fields[2]) != self.pgid:  # fields[2] is the process group id
                return None
            total += sum(int(value) for value in fields[11:15])
        return total


def process_cpu_s(pid: int) -> float:
    """CPU seconds used so far by process `pid`, all its threads summed (ended ones too),
    with nanosecond resolution: one clock_gettime on the process's CPU clock (reading
    /proc/PID/task/*/schedstat instead cost 100 µs for Node's 7 threads, and is only the
    fallback where that clock cannot be read)."""
    try:
        return time.clock_gettime(_process_cpu_clock(pid))
    except OSError:
        pass
    total = 0
    try:
        for tid in os.listdir(f"/proc/{pid}/task"):
            with open(f"/proc/{pid}/task/{tid}/schedstat", "rb") as handle:
                total += int(handle.read().split()[0])
    except (OSError, ValueError, IndexError):
        pass
    return total / 1e9


def _process_cpu_clock(pid: int) -> int:
    """The clock id of process `pid`'s CPU time, as Linux numbers it
    (MAKE_PROCESS_CPUCLOCK(pid, CPUCLOCK_SCHED), what clock_getcpuclockid(3) returns)."""
    return (~pid << 3) | 2
