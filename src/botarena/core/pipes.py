"""The jury's ends of a bot's pipes: its input written without blocking, its reply read
line by line under a deadline.

`ProcessPlayer` (core/player.py) is built on `PipeEnds`: the methods stay the player's own,
so an exchange pays no call more than before the split.
"""

from __future__ import annotations

import array
import fcntl
import os
import select
import termios
import time

from botarena.core.lines import LineReader
from botarena.core.rules import Status

RESUME_AGAIN_S = 0.1
"""While a bot is awaited, it is resumed again this often: a process it forked just as it was
frozen can get the stop after the SIGCONT that resumed the group (found with a bot that
forks right after answering and then waits for that child: both stayed stopped forever)."""
READ_BYTES = 65536
"""The most read from a bot's output at once."""

LATE_BYTES = 1 << 21
"""Output a bot may have left in its pipe by the deadline: more than a pipe can hold (64 KiB,
at most 1 MiB when a bot enlarges it) read after the deadline was written too late."""


class PipeEnds:
    """A bot's input and output pipes as the jury sees them (its player starts the process
    and sets the descriptors); `_quiet_watch` says what a wait without output checks."""

    _stdin_fd: int
    _stdout_fd: int
    _watched: list[int]  # its output, and what tells that the bot has ended
    _watch_s: float | None  # how often its sandbox looks at a quiet bot (None: RESUME_AGAIN_S)

    def __init__(self) -> None:
        self._lines = LineReader()
        self._send_error: str | None = None
        self._unsent = b""  # an observation's bytes the pipe could not take yet
        self._late_bytes = 0  # output read after the deadline in this exchange
        self._spin_now = False  # poll for this reply before sleeping (see _spin_read)
        self._spin_s = 0.0  # reply_spin_s where the jury has another core, else 0
        self._read_full = False  # the last read filled its buffer: more may be on its way
        self._unread = array.array("i", [0])  # FIONREAD's answer

    def _quiet_watch(self) -> Status | None:
        """A watch went by without output: a fault found meanwhile, or None (wait on)."""
        raise NotImplementedError

    def _output_in_flight(self) -> bool:
        """Whether the bot may still be inside a write to its output: the last read filled
        its buffer, or its pipe holds bytes not read yet (`Confinement.pause`)."""
        if self._read_full:
            return True
        try:
            fcntl.ioctl(self._stdout_fd, termios.FIONREAD, self._unread, True)
        except OSError:
            return False
        return self._unread[0] > 0

    def _write(self, text: str) -> None:
        self._send_error = None
        self._unsent = text.encode()
        self._write_more()

    def _write_more(self) -> None:
        """Write what the pipe takes now; the rest waits in `_unsent` and is written while
        the reply is awaited (an observation larger than the pipe, 64 KiB, would otherwise
        block the jury on a frozen bot, or on one that never reads)."""
        try:
            while self._unsent:
                self._unsent = self._unsent[os.write(self._stdin_fd, self._unsent) :]
        except BlockingIOError:
            pass
        except OSError as exc:
            self._unsent = b""
            self._send_error = f"could not write to the bot ({exc.__class__.__name__})"

    def _next_line(self, deadline: float | None) -> tuple[str | None, Status | None]:
        """The next whole line (see `LineReader`), or (None, fault) once the output has
        ended, a line is over its cap or the deadline has passed."""
        lines = self._lines
        while True:
            line = lines.take()
            if line is not None:
                return line, None
            if lines.too_long:
                return None, Status.INVALID
            if lines.ended:
                return None, Status.CRASHED
            chunk = self._spin_read(deadline) if self._spin_now else None
            got = self._await_output(deadline) if chunk is None else chunk
            if isinstance(got, Status):
                return None, got
            if got is not None:
                lines.feed(got)

    def _await_output(self, deadline: float | None) -> bytes | Status | None:
        """Sleep until the bot writes (its output, b"" at its end), the deadline passes (a
        time-out) or its sandbox finds it stuck at its process limit (a crash); None: look
        again (a wake-up for writing its input or resuming it, a spurious one)."""
        timeout = None if deadline is None else max(0.0, deadline - time.monotonic())
        watch = self._watch_s or RESUME_AGAIN_S
        writing = [self._stdin_fd] if self._unsent else []
        if timeout is None or timeout > watch:
            ready, writable, _ = select.select(self._watched, writing, [], watch)
            if not ready and not writable:
                return self._quiet_watch()
        else:
            ready, writable, _ = select.select(self._watched, writing, [], timeout)
        if writable:
            self._write_more()
        if not ready:
            return None if writable else Status.TIMEOUT
        if self._stdout_fd not in ready:
            # The bot itself has ended and its output is empty: a child it left holding
            # the pipe open does not keep it in the game.
            return b""
        try:
            chunk = os.read(self._stdout_fd, READ_BYTES)
        except BlockingIOError:  # a spurious wake-up
            return None
        self._read_full = len(chunk) == READ_BYTES
        if chunk and deadline is not None and time.monotonic() > deadline:
            # What the pipe held at the deadline was written in time (other bots of a
            # simultaneous turn are read after it); more than a pipe can hold was not.
            self._late_bytes += len(chunk)
            if self._late_bytes > LATE_BYTES:
                return Status.TIMEOUT
        return chunk

    def _spin_read(self, deadline: float | None) -> bytes | None:
        """Poll the bot's output for `_spin_s` at most (never past the deadline):
        its output, b"" at its end, or None when nothing came (then the rest of this reply
        is awaited asleep)."""
        end = time.monotonic() + self._spin_s
        if deadline is not None:
            end = min(end, deadline)
        while True:
            try:
                chunk = os.read(self._stdout_fd, READ_BYTES)
                self._read_full = len(chunk) == READ_BYTES
                return chunk
            except BlockingIOError:
                if time.monotonic() >= end:
                    self._spin_now = False
                    return None
