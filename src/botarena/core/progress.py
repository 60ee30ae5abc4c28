"""Plain progress lines for long commands whose output is not a terminal (a log, a pipe, CI).

On a terminal the commands draw rich's live bar; elsewhere a bar draws nothing until the end,
so they print instead a line every few seconds: `LABEL: DONE/TOTAL UNIT, RATE UNIT/s, ETA
H:MM:SS`. `BOTARENA_PROGRESS_SECONDS` sets the interval (default 5; 0: a line per step).
"""

from __future__ import annotations

import os
import sys
import threading
import time
from typing import TextIO

DEFAULT_SECONDS = 5.0


def interval() -> float:
    """The seconds between two lines: `BOTARENA_PROGRESS_SECONDS`, else 5 (a bad value too)."""
    try:
        seconds = float(os.environ.get("BOTARENA_PROGRESS_SECONDS", DEFAULT_SECONDS))
    except ValueError:
        return DEFAULT_SECONDS
    return seconds if seconds >= 0 else DEFAULT_SECONDS


def clock(seconds: float) -> str:
    """`seconds` as H:MM:SS."""
    whole = round(seconds)
    return f"{whole // 3600}:{whole // 60 % 60:02d}:{whole % 60:02d}"


class Lines:
    """Progress lines for one task, used as a context manager: `update(done, total)` prints
    when the interval has passed since the last line (and the first time); while a long step
    runs, a timer thread repeats the line every interval (its rate and ETA move on); leaving
    prints the last state if it was not shown."""

    def __init__(
        self,
        label: str,
        unit: str = "games",
        stream: TextIO | None = None,
        seconds: float | None = None,
    ) -> None:
        self.label, self.unit = label, unit
        self.stream = stream if stream is not None else sys.stdout
        self.seconds = interval() if seconds is None else seconds
        self.started = time.monotonic()
        self.printed: float | None = None
        self.first: int | None = None
        self.state: tuple[int, int | None, str] | None = None
        self.shown: tuple[int, int | None, str] | None = None
        self.lock = threading.Lock()
        self.stopped = threading.Event()
        self.timer: threading.Thread | None = None

    def __enter__(self) -> Lines:
        if self.seconds > 0:
            self.timer = threading.Thread(target=self._beat, daemon=True)
            self.timer.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stopped.set()
        if self.timer is not None:
            self.timer.join()
        if exc[0] is None:
            self.finish()

    def _beat(self) -> None:
        while not self.stopped.wait(self.seconds / 2):
            with self.lock:
                now = time.monotonic()
                if (
                    self.state is not None
                    and self.printed is not None
                    and now - self.printed >= self.seconds
                ):
                    self._print(now)

    def line(self, done: int, total: int | None, extra: str = "") -> str:
        """The text of a line for `done` of `total` (rate and ETA over this run's steps)."""
        elapsed = time.monotonic() - self.started
        steps = done - (self.first or 0)
        rate = steps / elapsed if elapsed > 0 else 0.0
        parts = [
            f"{self.label}: {done}/{total if total is not None else '?'} {self.unit}",
            f"{rate:.2f} {self.unit}/s",
        ]
        if total is not None:
            left = max(total - done, 0)
            parts.append("ETA " + (clock(left / rate) if rate > 0 else "?") if left else "done")
        if extra:
            parts.append(extra)
        return ", ".join(parts)

    def update(self, done: int, total: int | None = None, extra: str = "") -> None:
        if self.first is None:
            self.first = done
        with self.lock:
            self.state = (done, total, extra)
            now = time.monotonic()
            if self.printed is None or now - self.printed >= self.seconds:
                self._print(now)

    def finish(self) -> None:
        """Print the last state unless it is the line shown last."""
        with self.lock:
            if self.state is not None and self.state != self.shown:
                self._print(time.monotonic())

    def _print(self, now: float) -> None:
        assert self.state is not None
        print(self.line(*self.state), file=self.stream, flush=True)
        self.printed, self.shown = now, self.state
