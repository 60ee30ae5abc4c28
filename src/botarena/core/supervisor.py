"""Worker processes kept running: each is reaped when it ends, its end logged with its cause,
and it is started again after a pause that doubles while it keeps failing.

`arena serve` runs its workers under a `Supervisor`; a tournament's local pool restarts a
broken pool with the same `Backoff` (tournament/runner.py). A worker that is never reaped
stays a zombie, which passes `os.kill(pid, 0)`: its claims would never go back. The
supervisor's `on_exit` hook lets its owner hand back a dead worker's claims at once.
"""

from __future__ import annotations

import contextlib
import logging
import signal
import subprocess
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Protocol

FIRST_PAUSE_S = 1.0
"""The pause before a worker that ended is started again, the first time."""
LONGEST_PAUSE_S = 60.0
"""The pause doubles at each end in a row, up to this."""
STEADY_S = 60.0
"""A worker that ran this long before it ended starts again after FIRST_PAUSE_S."""
STOP_GRACE_S = 30.0
"""How long a worker may take to stop after SIGTERM (its games in progress are given back)
before it is killed."""
POLL_S = 0.5
"""How often the supervisor looks for ended workers."""

log = logging.getLogger("botarena")


class Child(Protocol):
    """What the supervisor needs of a started process (subprocess.Popen has it)."""

    @property
    def pid(self) -> int: ...

    def poll(self) -> int | None: ...

    def send_signal(self, sig: int) -> None: ...

    def wait(self, timeout: float | None = None) -> int: ...

    def kill(self) -> None: ...


@dataclass
class Backoff:
    """The pause before the next start of a worker that ended: FIRST_PAUSE_S, doubled at
    each end in a row up to LONGEST_PAUSE_S, back to the first once a run lasted STEADY_S."""

    first: float = FIRST_PAUSE_S
    longest: float = LONGEST_PAUSE_S
    steady: float = STEADY_S
    _next: float = field(default=0.0, init=False)

    def pause(self, ran_s: float) -> float:
        """A worker ended after running `ran_s` seconds: how long to wait before the next."""
        if ran_s >= self.steady or not self._next:
            self._next = self.first
        pause, self._next = self._next, min(self.longest, self._next * 2)
        return pause


def describe(code: int) -> str:
    """How a process ended, for the log: 'exit code 3' or 'killed by SIGKILL'."""
    from botarena.core.process import describe_exit

    return describe_exit(code).removeprefix(", ")


@dataclass
class _Slot:
    child: Child | None = None
    started: float = 0.0
    due: float = 0.0
    backoff: Backoff = field(default_factory=Backoff)


class Supervisor:
    """`count` workers, each made by `start()`, kept running until `stop()`.

    `step()` does one round (reap, log, restart what is due) and is what the tests drive
    with their own clock; `run_in_thread()` repeats it every POLL_S. `on_exit(pid, code)` is
    called for each worker that ended, once reaped (to give back its claims)."""

    def __init__(
        self,
        name: str,
        start: Callable[[], Child],
        count: int = 1,
        *,
        on_exit: Callable[[int, int], None] = lambda pid, code: None,
        clock: Callable[[], float] = time.monotonic,
        backoff: Callable[[], Backoff] = Backoff,
    ) -> None:
        self.name, self.start, self.on_exit, self.clock = name, start, on_exit, clock
        self.slots = [_Slot(backoff=backoff()) for _ in range(count)]
        self.stopping = threading.Event()
        self._thread: threading.Thread | None = None

    @property
    def children(self) -> list[Child]:
        return [slot.child for slot in self.slots if slot.child is not None]

    def step(self) -> float:
        """Reap the workers that ended, start those due; seconds until the next is due."""
        now = self.clock()
        for slot in self.slots:
            child = slot.child
            if child is not None:
                code = child.poll()  # reaps it
                if code is None:
                    continue
                slot.child = None
                pause = slot.backoff.pause(now - slot.started)
                slot.due = now + pause
                log.warning(
                    f"botarena: {self.name} {child.pid} ended ({describe(code)}):"
                    f" starting another in {pause:g} s"
                )
                with contextlib.suppress(Exception):  # its owner's clean-up must not stop us
                    self.on_exit(child.pid, code)
            if slot.child is None and now >= slot.due and not self.stopping.is_set():
                slot.child, slot.started = self.start(), now
        waits = [slot.due - now for slot in self.slots if slot.child is None]
        return max(0.0, min(waits, default=POLL_S))

    def run_in_thread(self) -> None:
        """Start the workers and supervise them from a thread until `stop()`."""
        self.step()

        def loop() -> None:
            while not self.stopping.wait(min(POLL_S, max(0.01, self.step()))):
                pass

        self._thread = threading.Thread(target=loop, name=f"{self.name}-supervisor", daemon=True)
        self._thread.start()

    def stop(self, grace: float = STOP_GRACE_S) -> None:
        """Stop supervising, then the workers as Ctrl-C does (their games in progress are
        given back), killing any still running after `grace` seconds; all are reaped."""
        self.stopping.set()
        if self._thread is not None:
            self._thread.join()
        children = self.children
        for child in children:
            with contextlib.suppress(ProcessLookupError):
                child.send_signal(signal.SIGTERM)
        deadline = self.clock() + grace
        for child in children:
            try:
                child.wait(timeout=max(0.0, deadline - self.clock()))
            except subprocess.TimeoutExpired:
                child.kill()
                code = child.wait()
                log.warning(f"botarena: {self.name} {child.pid} did not stop: killed")
                with contextlib.suppress(Exception):
                    self.on_exit(child.pid, code)
