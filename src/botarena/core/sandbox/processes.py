"""Ties between the jury and the processes it starts: the subreaper, the death signal and
the reaping of what a bot leaves behind."""

from __future__ import annotations

import os
import signal
import time
from collections.abc import Callable

PR_SET_CHILD_SUBREAPER = 36


def become_subreaper() -> None:
    """Make bots' orphaned grandchildren our children, so that `kill` can reap them."""
    try:
        import ctypes

        ctypes.CDLL(None, use_errno=True).prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0)
    except (OSError, AttributeError):  # not Linux: orphans go to init, which reaps them
        pass


PR_SET_PDEATHSIG = 1


def death_signal_setter(
    parent: int | None = None, signum: int = signal.SIGKILL
) -> Callable[[], None] | None:
    """A function for a child (between fork and exec, or a pool worker's start) that has
    the kernel send it `signum` (SIGKILL) when its parent (`parent`, default this process)
    dies, even by SIGKILL (PR_SET_PDEATHSIG). The kernel fires it when the *thread* that
    started the child ends, so a bot must be started by a thread that outlives its game
    (the referee's). None off Linux."""
    try:
        import ctypes

        prctl = ctypes.CDLL(None, use_errno=True).prctl
    except (OSError, AttributeError):
        return None
    jury = os.getpid() if parent is None else parent

    def set_death_signal() -> None:
        prctl(PR_SET_PDEATHSIG, int(signum), 0, 0, 0)
        if os.getppid() != jury:  # the jury died before the line above: follow it
            os._exit(1)

    return set_death_signal


def die_with_parent() -> None:
    """In a pool worker at its start: be killed when the process that started it dies, even
    by SIGKILL (a runner killed -9 leaves no worker behind)."""
    setter = death_signal_setter(os.getppid())
    if setter is not None:
        setter()


def reap_group(pgid: int, timeout: float = 2.0) -> None:
    """Reap this process's children left in process group `pgid`."""
    reap(-pgid, timeout)


def reap(which: int, timeout: float = 2.0) -> None:
    """Reap this process's children that `os.waitpid(which, ...)` names, until none is left
    (`timeout` seconds at most)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            pid, _ = os.waitpid(which, os.WNOHANG)
        except ChildProcessError:
            return
        if pid == 0:
            time.sleep(0.002)
