"""Whether a process of this machine still lives, read so that a zombie or a reused pid is dead.

`os.kill(pid, 0)` succeeds for a zombie (a process that ended and that its parent has not
reaped yet) and for whatever new process got the pid of one that ended: a worker killed -9
under a parent that never reaps it would pass for alive forever, its claims never given back.
So liveness is read from /proc/PID/stat: the state (Z zombie, X dead: ended) and the start
time (field 22, in clock ticks since boot), which a claim records next to the pid and
compares here: the same pid with another start time is another process.
"""

from __future__ import annotations

ENDED = frozenset("ZX")
"""/proc states of a process that has ended (zombie, dead)."""


def _stat(pid: int) -> list[str] | None:
    """The fields of /proc/PID/stat after the command name (state first), None if no such
    process. The name is in parentheses and may hold spaces and parentheses itself."""
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii", errors="replace") as stat:
            text = stat.read()
    except (OSError, ValueError):
        return None
    return text.rsplit(")", 1)[1].split()


def start_time(pid: int) -> str:
    """When process `pid` started (field 22 of /proc/PID/stat, clock ticks since boot), or
    '' when it does not run: no such process, or one that has ended (a zombie)."""
    if pid <= 0:
        return ""
    fields = _stat(pid)
    if fields is None or len(fields) < 20 or fields[0] in ENDED:
        return ""
    return fields[19]


def alive(pid: int, started: str | None = None) -> bool:
    """Whether `pid` is a running process (not a zombie) and, when `started` is given (its
    `start_time` when it was recorded), still the same one."""
    now = start_time(pid)
    return bool(now) and (started is None or now == started)
