"""An external referee's process: spawn, bounded requests and answers, stderr, and its end.

The referee is the organiser's program, not a bot's: it runs outside the bots' sandbox, but
under its own limits (`RefereeLimits`), so that one that hangs, floods or dies costs one game
as a jury failure (`RefereeFailure`, one line) and never the jury itself. The clock here
bounds the referee only; what it answers decides the game (core/external.py).
"""

from __future__ import annotations

import contextlib
import os
import select
import signal
import subprocess
import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import NoReturn

from botarena.core.errors import UserError
from botarena.core.lines import LineReader
from botarena.core.sandbox import death_signal_setter

STDERR_TAIL = 2000
"""Characters of the referee's stderr kept (its end: where a crash says why)."""


class RefereeFailure(UserError):
    """The external referee crashed, hung or answered out of protocol: a jury failure,
    which ends the game without counting it against any bot (the message is one line)."""


@dataclass(frozen=True)
class RefereeLimits:
    """What an external referee may take: wall time to answer a request (`start_s` for
    the first, which includes its start-up), bytes in one line and in one answer."""

    request_s: float = 10.0
    start_s: float = 30.0
    line_bytes: int = 1 << 20
    answer_bytes: int = 64 << 20


class RefereeProcess:
    """One running referee program: `ask(lines)` sends a request and returns its answer's
    lines, up to the line `end`; `close()` leaves no process of it behind."""

    def __init__(self, argv: Sequence[str], limits: RefereeLimits, name: str) -> None:
        self.name = name
        self.limits = limits
        self.requests = 0
        self._stderr = ""
        try:
            self.proc = subprocess.Popen(
                list(argv),
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                start_new_session=True,  # its own group: `close` ends its children too
                bufsize=0,
                preexec_fn=death_signal_setter(),  # it dies with the jury, even killed -9
            )
        except OSError as exc:
            raise RefereeFailure(f"{name}: the referee did not start: {exc}") from None
        assert self.proc.stdin is not None and self.proc.stdout is not None
        self._in = self.proc.stdin.fileno()
        self._out = self.proc.stdout.fileno()
        os.set_blocking(self._in, False)
        os.set_blocking(self._out, False)
        self._reader = LineReader(cap=limits.line_bytes)
        self._drain = threading.Thread(target=self._drain_stderr, daemon=True)
        self._drain.start()

    def _drain_stderr(self) -> None:
        assert self.proc.stderr is not None
        fd = self.proc.stderr.fileno()
        with contextlib.suppress(OSError):
            while chunk := os.read(fd, 65536):
                text = self._stderr + chunk.decode("utf-8", errors="replace")
                self._stderr = text[-STDERR_TAIL:]

    def ask(self, lines: Sequence[str]) -> list[str]:
        """Send `lines` (a request, its `end` included) and read the answer's lines up to
        its `end` (left out), within the limits; raises RefereeFailure saying why not."""
        limit = self.limits.start_s if self.requests == 0 else self.limits.request_s
        self.requests += 1
        deadline = time.monotonic() + limit
        self._write("".join(line + "\n" for line in lines).encode(), deadline, limit)
        answer: list[str] = []
        size = 0
        while True:
            line = self._reader.take()
            if line is not None:
                if line == "end":
                    return answer
                answer.append(line)
                size += len(line) + 1
                if size > self.limits.answer_bytes:
                    self.fail(f"answered more than {self.limits.answer_bytes} bytes")
                continue
            if self._reader.too_long:
                self.fail(f"wrote a line longer than {self.limits.line_bytes} bytes")
            if self._reader.ended:
                self.fail("ended its output before `end`")
            self._read(deadline, limit)

    def _write(self, data: bytes, deadline: float, limit: float) -> None:
        view = memoryview(data)
        while view:
            try:
                view = view[os.write(self._in, view) :]
                continue
            except BlockingIOError:
                pass
            except BrokenPipeError:
                self.fail("closed its input")
            left = deadline - time.monotonic()
            if left <= 0 or not select.select([], [self._in], [], left)[1]:
                self.fail(f"did not read its request within {limit:g} s")

    def _read(self, deadline: float, limit: float) -> None:
        left = deadline - time.monotonic()
        if left <= 0 or not select.select([self._out], [], [], left)[0]:
            self.fail(f"did not answer within {limit:g} s")
        with contextlib.suppress(BlockingIOError):
            self._reader.feed(os.read(self._out, 1 << 16))

    def fail(self, why: str) -> NoReturn:
        """End the referee and raise the jury failure `why`, with how it ended and the last
        line of its stderr."""
        code = self.proc.poll()  # how it ended by itself, before it is ended here
        if code is None and why.startswith("ended its output"):
            with contextlib.suppress(subprocess.TimeoutExpired):
                code = self.proc.wait(0.2)  # it is exiting: say how
        self.close(grace_s=0.0)
        how = ""
        if code is not None:
            how = f"; it exited with status {code}" if code >= 0 else f"; killed by signal {-code}"
        self._drain.join(timeout=0.5)
        said = [line for line in self._stderr.splitlines() if line.strip()]
        told = f"; its stderr ends: {said[-1].strip()[:200]}" if said else ""
        raise RefereeFailure(
            f"jury failure: the referee of {self.name} {why} (request {self.requests}){how}{told}"
        )

    def close(self, grace_s: float = 1.0) -> None:
        """Close its input, give it `grace_s` to exit by itself, then kill its group."""
        with contextlib.suppress(OSError):
            assert self.proc.stdin is not None
            self.proc.stdin.close()
        with contextlib.suppress(subprocess.TimeoutExpired):
            self.proc.wait(grace_s)
        kill_group(self.proc)
        if self.proc.stdout is not None:
            self.proc.stdout.close()


def kill_group(proc: subprocess.Popen[bytes]) -> None:
    """Kill `proc`'s process group (left by a referee that forks) and reap `proc`."""
    with contextlib.suppress(OSError):
        os.killpg(proc.pid, signal.SIGKILL)
    with contextlib.suppress(OSError):
        proc.wait()
