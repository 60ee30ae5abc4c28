"""Stopping the jury by a signal stops its bots: SIGTERM, SIGHUP and SIGINT unwind alike.

A service manager stops a tournament runner with SIGTERM, a closed terminal sends SIGHUP,
Ctrl-C sends SIGINT. Each raises `Stopped` in the main thread, so the referee's `finally`
kills and reaps every bot exactly as when a game ends; the command then exits with the
conventional status 128 + the signal's number. Further signals are ignored while that
cleanup runs (it is bounded: a grace second, then SIGKILL), so it is never cut short.
"""

from __future__ import annotations

import signal
from types import FrameType

SIGNALS = (signal.SIGTERM, signal.SIGHUP, signal.SIGINT)


class Stopped(BaseException):
    """The jury was told to stop by `signum`; not an Exception, so no handler eats it."""

    def __init__(self, signum: int) -> None:
        super().__init__(signum)
        self.signum = signum

    @property
    def exit_status(self) -> int:
        return 128 + self.signum


def _stop(signum: int, _frame: FrameType | None) -> None:
    for sig in SIGNALS:
        signal.signal(sig, signal.SIG_IGN)
    raise Stopped(signum)


def install() -> None:
    """Route the stopping signals to `Stopped` (the main thread only, as Python requires)."""
    for sig in SIGNALS:
        signal.signal(sig, _stop)
