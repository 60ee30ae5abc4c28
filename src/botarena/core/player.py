"""Players are transports: a bot process on pipes under real clocks, or a Python object.

Both answer `send()` then `collect()` with a `Reply`; a game never knows which it talks to.
A process bot runs in its sandbox (core/sandbox.py), is frozen whenever it is not its turn
and resumed only to answer; its stderr is drained by a thread (so it never blocks) and
capped; at the end every process of it is killed and reaped.
"""

from __future__ import annotations

import contextlib
import gc
import os
import select
import shlex
import signal
import subprocess
import threading
import time
import traceback
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from typing import Any

from botarena.core.cores import cores
from botarena.core.cpu import GroupCpu, process_cpu_s
from botarena.core.lines import LINE_CAP, LineReader
from botarena.core.protocol import Protocol
from botarena.core.rules import ProtocolError, Status, seat_seed
from botarena.core.sandbox import (
    DEFAULT,
    Confinement,
    Sandbox,
    become_subreaper,
    death_signal_setter,
)

STDERR_CAP = 10_000
"""Characters of a bot's stderr kept per game (contest juries keep about 10 000)."""

EXIT_GRACE_S = 1.0
"""How long a bot may take to exit by itself once the game is over."""

RESUME_AGAIN_S = 0.1
"""While a bot is awaited, it is resumed again this often: a process it forked just as it was
frozen can get the stop after the SIGCONT that resumed the group (found with a bot that
forks right after answering and then waits for that child: both stayed stopped forever)."""

LATE_BYTES = 1 << 21
"""Output a bot may have left in its pipe by the deadline: more than a pipe can hold (64 KiB,
at most 1 MiB when a bot enlarges it) read after the deadline was written too late."""


def _in_child(*steps: Callable[[], None] | None) -> Callable[[], None] | None:
    """One function running `steps` in order between fork and exec (None: nothing to run)."""
    todo = [step for step in steps if step is not None]
    if not todo:
        return None

    def run() -> None:
        for step in todo:
            step()

    return run


@dataclass(slots=True)
class Reply:
    """One answer, or the fault that replaced it. `action` is set once parsed."""

    lines: list[str]
    wall_s: float = 0.0
    cpu_s: float | None = None
    fault: Status | None = None
    detail: str = ""
    action: Any = None
    text: str = ""  # the reply as recorded in the replay


class Player:
    """The transport interface the match drives."""

    name: str = "bot"
    spec: str = ""
    needs_text = False
    """Whether `send` needs the observation's wire text (processes) or only the object."""
    java_line_breaks = False
    """Whether a lone CR also ends a reply line (set from the game's protocol)."""
    runs_only_in_calls = False
    """A process that runs none of its own work between calls, single-threaded, while the
    jury waits for it: nothing is gained by giving it a core of its own, and every call
    would pay for waking it up on another core (see `core.cores.jury_core`)."""
    core: int | None = None
    """The one core the process is started on (set by the match), or None: any."""

    def start(self, seat: int, seed: str = "") -> None:
        """Get ready to play `seat` (spawn the process, reset the bot). In-process bots get
        `seed`, derived from the game's seed, so that a game is reproduced from its seed.
        A process runs until `pause`: the match starts every seat's, then freezes them, so
        that their sandboxes are set up side by side."""

    def greet(self, greeting: str | None) -> None:
        """Send the handshake's greeting and let the bot run."""

    def await_handshake(
        self, done: Callable[[str], bool], started: float, deadline: float | None
    ) -> Reply:
        """Read lines until `done(line)` (lines before are ignored) or the deadline."""
        return Reply(lines=[])

    def send(self, text: str, observation: Any) -> None:
        """Deliver an observation (resuming the bot if it is a process)."""
        raise NotImplementedError

    def collect(self, protocol: Protocol, observation: Any, deadline: float | None) -> Reply:
        """Read the reply to the last `send` until it is complete or the deadline passes."""
        raise NotImplementedError

    def pause(self) -> None:
        """Freeze the bot until its next turn (no-op in-process)."""

    def resume(self) -> None:
        """Let a frozen bot run (no-op in-process)."""

    def notify(self, text: str) -> None:
        """Send a last message (the game is over) without waiting for an answer."""

    def release(self) -> None:
        """The game is over: let the bot run and see the end of its input, so that it can
        exit by itself while the other bots are released too."""

    def close(self, deadline: float | None = None) -> None:
        """End the bot for good, after waiting until `deadline` (monotonic) at most for it
        to exit by itself; no process may outlive this call."""

    def kill(self) -> None:
        """Stop the bot at once (it timed out); later `collect` calls report it crashed."""

    def cpu_now(self) -> float:
        """CPU seconds the bot has used so far."""
        return self.cpu_s

    @property
    def alive(self) -> bool:
        return True

    @property
    def stderr(self) -> str:
        return ""

    @property
    def cpu_s(self) -> float:
        return 0.0


class InProcessPlayer(Player):
    """A Python bot object: `act(observation)` returns an action or the reply text.

    It receives the observation object the protocol encodes, or, if the bot sets
    `reads_text = True`, the exact text a bot program would read. Its time is measured but
    not enforced: in-process bots are trusted code (built-ins, research agents).
    """

    def __init__(self, bot: Any, name: str, spec: str = "") -> None:
        self.bot = bot
        self.name = name
        self.spec = spec or name
        self.needs_text = bool(getattr(bot, "reads_text", False))
        self._observation: Any = None
        self._errors: list[str] = []
        self._cpu = 0.0

    def start(self, seat: int, seed: str = "") -> None:
        setup = getattr(self.bot, "setup", None)
        if setup is not None:
            setup(seat, seed)

    def send(self, text: str, observation: Any) -> None:
        self._observation = text if self.needs_text else observation

    def collect(self, protocol: Protocol, observation: Any, deadline: float | None) -> Reply:
        # No garbage collection while the bot thinks: a full collection of the jury's own
        # objects (a long game's replay) took up to 180 ms and was charged to the bot as its
        # time (a game's limits struck built-in bots for it); it runs after the call.
        collecting = gc.isenabled()
        gc.disable()
        started, thinking = time.monotonic(), time.thread_time()
        try:
            answer = self.bot.act(self._observation)
        except Exception as exc:  # a bot's bug is its fault, never the jury's
            self._errors.append(traceback.format_exc())
            return Reply(
                lines=[],
                fault=Status.CRASHED,
                detail=f"raised {exc!r}",
                wall_s=time.monotonic() - started,
            )
        finally:
            # the bot runs on the referee's thread: its CPU time is that thread's during the
            # call, whatever else the machine runs meanwhile
            self._cpu += time.thread_time() - thinking
            if collecting:
                gc.enable()
        wall = time.monotonic() - started
        if isinstance(answer, str):
            return parse_reply(protocol, answer.split("\n"), observation, wall, None)
        return Reply(lines=[], action=answer, text=protocol.format(answer), wall_s=wall)

    @property
    def stderr(self) -> str:
        return "".join(self._errors)[:STDERR_CAP]

    @property
    def cpu_s(self) -> float:
        """The CPU time of the referee's thread inside `act` (the bot's own, in-process)."""
        return self._cpu


def parse_reply(
    protocol: Protocol, lines: list[str], observation: Any, wall_s: float, cpu_s: float | None
) -> Reply:
    """Turn complete reply lines into a Reply with its action, or an `invalid` fault."""
    text = "\n".join(lines)
    try:
        action = protocol.parse(lines, observation)
    except ProtocolError as exc:
        return Reply(
            lines=lines,
            text=text,
            fault=Status.INVALID,
            detail=str(exc),
            wall_s=wall_s,
            cpu_s=cpu_s,
        )
    return Reply(lines=lines, text=text, action=action, wall_s=wall_s, cpu_s=cpu_s)


def split_command(command: str) -> list[str]:
    """Split a command line as a shell would; raises ValueError naming the problem."""
    argv = shlex.split(command)
    if not argv:
        raise ValueError("empty command line")
    return argv


class ProcessPlayer(Player):
    """A bot program on pipes, one process group, frozen while it is not its turn."""

    needs_text = True
    frozen_between_turns = True
    """Whether the bot is frozen while it is not its turn (a transport whose program runs
    none of the bot's code between calls sets it False: a stop and a resume per call cost
    more than the call)."""
    reply_spin_s = 0.0
    """How long the jury polls for a reply before it sleeps in `select`. Waking a sleeping
    jury on another CPU costs about 30 µs on a virtual machine, more than a fast bot's
    whole answer: a transport of many tiny calls (posts of a role game, about 19 000 a game)
    sets this (at most this much of the jury's CPU per call). Not on a single core (a
    pinned tournament worker): there the bot cannot answer while the jury polls."""

    def __init__(
        self,
        argv: list[str],
        name: str,
        spec: str = "",
        cwd: str | None = None,
        env: dict[str, str] | None = None,
        sandbox: Sandbox = DEFAULT,
    ) -> None:
        self.argv = argv
        self.sandbox = sandbox
        self._box: Confinement | None = None
        self._watch_s: float | None = None
        self.name = name
        self.spec = spec or shlex.join(argv)
        self.cwd = cwd
        self.env = env
        self.proc: subprocess.Popen[bytes] | None = None
        self._lines = LineReader()
        self._stderr_parts: list[str] = []
        self._stderr_len = 0
        self._stderr_thread: threading.Thread | None = None
        self._cpu_final: float | None = None
        self._group_cpu = GroupCpu(0)  # the process group's, once started (no cgroup)
        self._send_error: str | None = None
        self._unsent = b""  # an observation's bytes the pipe could not take yet
        self._pidfd: int | None = None
        self._late_bytes = 0  # output read after the deadline in this exchange
        self._spin_now = False  # poll for this reply before sleeping (see _spin_read)
        self._spin_s = 0.0  # reply_spin_s where the jury has another core, else 0
        self.exit_detail = ""

    @property
    def java_line_breaks(self) -> bool:
        return self._lines.java_line_breaks

    @java_line_breaks.setter
    def java_line_breaks(self, value: bool) -> None:
        self._lines.java_line_breaks = value

    # -- life cycle ---------------------------------------------------------------------
    def start(self, seat: int, seed: str = "") -> None:
        become_subreaper()
        if self.reply_spin_s and cores() > 1 and self.core is None:
            self._spin_s = self.reply_spin_s
        # the game's seed and the seat, for a bot that draws its randomness from them
        game_seed = seed.removesuffix(seat_seed("", seat))
        identity = {"BOTARENA_SEED": game_seed, "BOTARENA_SEAT": str(seat)}
        box = self._box = Confinement(
            self.argv, self.sandbox, cwd=self.cwd, env={**(self.env or {}), **identity}
        )
        self.proc = subprocess.Popen(
            box.argv,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            start_new_session=True,
            cwd=box.cwd,
            env=box.env,
            bufsize=0,
            pass_fds=box.pass_fds,
            # bubblewrap's --die-with-parent ends a wrapped bot with the jury; PDEATHSIG
            # does for a bare one (set on bwrap, it broke a sandboxed double fork)
            preexec_fn=_in_child(
                None if box.wrapped else death_signal_setter(),
                box.preexec if self.sandbox.enabled else None,
                None if self.core is None else partial(os.sched_setaffinity, 0, {self.core}),
            ),
        )
        assert self.proc.stdout is not None and self.proc.stdin is not None
        box.started(self.proc.pid)
        self._group_cpu = GroupCpu(self.proc.pid)
        box.wait_exit = self._exited
        self._watch_s = box.watch_s
        if self.frozen_between_turns:  # bound once: per exchange, no detour
            self.pause = box.pause  # type: ignore[method-assign]
            self.resume = box.resume  # type: ignore[method-assign]
        self._stdin_fd = self.proc.stdin.fileno()
        self._stdout_fd = self.proc.stdout.fileno()
        os.set_blocking(self._stdout_fd, False)
        os.set_blocking(self._stdin_fd, False)  # a frozen bot reads nothing: never wait on it
        self._watched = [self._stdout_fd]
        with contextlib.suppress(OSError):  # readable once the bot's own process has ended
            self._pidfd = os.pidfd_open(self.proc.pid)
            self._watched.append(self._pidfd)
        self._stderr_thread = threading.Thread(target=self._drain_stderr, daemon=True)
        self._stderr_thread.start()

    def _drain_stderr(self) -> None:
        assert self.proc is not None and self.proc.stderr is not None
        fd = self.proc.stderr.fileno()
        while True:
            try:
                chunk = os.read(fd, 65536)
            except OSError:
                return
            if not chunk:
                return
            if self._stderr_len < STDERR_CAP:
                text = chunk.decode("utf-8", errors="replace")[: STDERR_CAP - self._stderr_len]
                self._stderr_parts.append(text)
                self._stderr_len += len(text)

    def pause(self) -> None:
        """Freeze every process of the bot (its confinement's own once started)."""

    def resume(self) -> None:
        """Let the bot run (its confinement's own once started)."""

    def _exited(self) -> bool:
        """Whether the bot's main process has ended, without reaping it (its CPU stays
        readable in /proc until `kill` reaps it)."""
        if self.proc is None or self.proc.returncode is not None:
            return True
        try:
            info = os.waitid(os.P_PID, self.proc.pid, os.WEXITED | os.WNOHANG | os.WNOWAIT)
        except ChildProcessError:
            return True
        return info is not None

    def _wait_exit(self, timeout: float) -> bool:
        deadline = time.monotonic() + timeout
        while not self._exited():
            if time.monotonic() >= deadline:
                return False
            time.sleep(0.002)
        return True

    @property
    def alive(self) -> bool:
        return self.proc is not None and not self._exited()

    # -- exchanges ----------------------------------------------------------------------
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

    def send(self, text: str, observation: Any) -> None:
        """Write, then resume: the bot wakes once, with its input already there (what did
        not fit in the pipe follows while its reply is awaited)."""
        self._late_bytes = 0
        if text:
            self._write(text)
        self.resume()

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
                if self._box is not None and self._box.at_process_limit():
                    return Status.CRASHED  # _fault_reply names the limit
                self.resume()  # again: see RESUME_AGAIN_S
                return None
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
            chunk = os.read(self._stdout_fd, 65536)
        except BlockingIOError:  # a spurious wake-up
            return None
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
                return os.read(self._stdout_fd, 65536)
            except BlockingIOError:
                if time.monotonic() >= end:
                    self._spin_now = False
                    return None

    def collect(self, protocol: Protocol, observation: Any, deadline: float | None) -> Reply:
        started = time.monotonic()
        lines: list[str] = []
        self._spin_now = self._spin_s > 0 and not self._unsent
        while not protocol.reply_complete(lines):
            line, fault = self._next_line(deadline)
            if fault is not None:
                return self._fault_reply(fault, lines, started)
            lines.append(line or "")
        wall = time.monotonic() - started
        if self._box is not None and self._box.multi_process:
            reason = self._box.limit_reason()  # a bot past its process limit still answers
            if reason:
                self.kill()
                return Reply(
                    lines=lines,
                    text="\n".join(lines),
                    fault=Status.CRASHED,
                    detail=reason,
                    wall_s=wall,
                )
        return parse_reply(protocol, lines, observation, wall, None)

    def greet(self, greeting: str | None) -> None:
        self.send(greeting or "", None)

    def await_handshake(
        self, done: Callable[[str], bool], started: float, deadline: float | None
    ) -> Reply:
        ignored: list[str] = []
        while True:
            line, fault = self._next_line(deadline)
            if fault is not None:
                reply = self._fault_reply(fault, ignored, started)
                return reply
            text = line or ""
            if done(text):
                return Reply(
                    lines=[*ignored, text],
                    text="\n".join([*ignored, text]),
                    wall_s=time.monotonic() - started,
                )
            ignored.append(text)

    def _fault_reply(self, fault: Status, lines: list[str], started: float) -> Reply:
        wall = time.monotonic() - started
        reason = self._box.limit_reason() if self._box is not None else ""
        if reason:  # killed by its sandbox, or stuck at a limit (a fork bomb)
            self.kill()
            detail = self.exit_detail.removeprefix(", ")
            if reason not in detail:
                detail += f", {reason}"
            fault = Status.CRASHED
        elif fault is Status.INVALID:
            detail = f"a reply line longer than {LINE_CAP >> 20} MiB"
            self.kill()
        elif fault is Status.TIMEOUT:
            detail = "no complete reply in time"
            self.kill()
        else:
            detail = self._send_error or "closed its output"
            # say how it ended: in the sandbox, the end of its output means bubblewrap is
            # ending too (it holds the pipe), and reports the bot's exit a moment later
            self._wait_exit(2.0 if self._box is not None and self._box.wrapped else 0.2)
            self.kill()
            detail = f"{detail}{self.exit_detail}"
        return Reply(lines=lines, text="\n".join(lines), fault=fault, detail=detail, wall_s=wall)

    def notify(self, text: str) -> None:
        if self.alive:
            self.resume()
            self._write(text)

    # -- accounting and the end ---------------------------------------------------------
    def _read_cpu(self) -> float:
        """CPU seconds of the bot: its cgroup's, else its process group's (user + system,
        threads and children, from /proc)."""
        if self.proc is None:
            return 0.0
        if self._box is not None:
            used = self._box.cpu_s()
            if used is not None:
                return used
        return self._group_cpu.seconds()

    def cpu_now(self) -> float:
        """CPU seconds used so far: the bot's cgroup's, else its main process's (all its
        threads, see `cpu.process_cpu_s`)."""
        if self.proc is None or self._cpu_final is not None:
            return self._cpu_final or 0.0
        if self._box is not None and (self._box.group is not None or self._box.wrapped):
            return self._read_cpu()  # the bot is not this process, or not alone
        return process_cpu_s(self.proc.pid)

    @property
    def cpu_s(self) -> float:
        return self._cpu_final if self._cpu_final is not None else self._read_cpu()

    def kill(self) -> None:
        """Kill every process of the bot at once and reap it; the exit detail says how it
        ended and which sandbox limit it hit, if any."""
        if self.proc is None or self._box is None:
            return
        if self._cpu_final is None:
            self._cpu_final = self._read_cpu()
        self._box.kill()
        try:
            code = self.proc.wait(timeout=5)
        except subprocess.TimeoutExpired:  # pragma: no cover - kernel did not deliver SIGKILL
            code = None
        if not self.exit_detail and code is not None:
            reason = self._box.limit_reason()
            self.exit_detail = describe_exit(self._box.exit_code(code))
            self.exit_detail += f", {reason}" if reason else ""
        self._box.reap()  # children it left behind, bubblewrap's PID 1

    def release(self) -> None:
        if self.proc is None or self._exited():
            return
        self.resume()
        if self.proc.stdin is not None:
            with contextlib.suppress(OSError):
                self.proc.stdin.close()

    def close(self, deadline: float | None = None) -> None:
        """Let the bot exit by itself until `deadline` (default: in EXIT_GRACE_S), then kill
        its group; always reaps."""
        if self.proc is None:
            return
        self.release()
        if deadline is None:
            deadline = time.monotonic() + EXIT_GRACE_S
        self._wait_exit(max(0.0, deadline - time.monotonic()))
        self.kill()
        for stream in (self.proc.stdin, self.proc.stdout):
            if stream is not None:
                with contextlib.suppress(OSError):
                    stream.close()
        if self._stderr_thread is not None:
            self._stderr_thread.join(timeout=1)
        if self.proc.stderr is not None:
            self.proc.stderr.close()
        if self._pidfd is not None:
            os.close(self._pidfd)
            self._pidfd = None
        if self._box is not None:
            self._box.close()

    @property
    def stderr(self) -> str:
        return "".join(self._stderr_parts)


def describe_exit(code: int) -> str:
    """', exit code 3' or ', killed by SIGSEGV' for a finished process."""
    if code < 0:
        try:
            return f", killed by {signal.Signals(-code).name}"
        except ValueError:
            return f", killed by signal {-code}"
    return f", exit code {code}"
