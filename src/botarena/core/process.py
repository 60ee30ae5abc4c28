"""A bot program's process from spawn to reap: its sandbox, its pipes, its stderr (drained
by a thread, capped), its CPU time and how it ended. What it says is the player's business
(core/player.py)."""

from __future__ import annotations

import contextlib
import fcntl
import os
import select
import signal
import subprocess
import threading
import time
from collections.abc import Callable
from functools import partial

from botarena.core.cpu import GroupCpu, process_cpu_s
from botarena.core.sandbox import Confinement, Sandbox, death_signal_setter

STDERR_CAP = 10_000
"""Characters of a bot's stderr kept per game (contest juries keep about 10 000)."""

EXIT_GRACE_S = 1.0
"""How long a bot may take to exit by itself once the game is over."""

OUTPUT_PIPE_BYTES = 256 << 10
"""The capacity asked for a bot's stdout pipe (Linux gives 64 KiB): a write of up to this
much never waits for the jury to read, so a stop between turns never finds the bot inside
one (see `Confinement.pause`). Not more: a user's pipes beyond 64 MiB in all are cut to
8 KiB each."""


class BotProcess:
    """One bot program, started in its sandbox with non-blocking pipes; `kill` and `close`
    leave no process of it behind."""

    def __init__(
        self,
        argv: list[str],
        sandbox: Sandbox,
        cwd: str | None = None,
        env: dict[str, str] | None = None,
    ) -> None:
        self.argv = argv
        self.sandbox = sandbox
        self.cwd = cwd
        self.env = env
        self.proc: subprocess.Popen[bytes] | None = None
        self.box: Confinement | None = None
        self.stdin_fd = self.stdout_fd = -1
        self.watched: list[int] = []
        """What to wait on for a reply: the output, and a descriptor readable once the
        program's own process has ended (where Linux has pidfds)."""
        self.exit_detail = ""
        self._pidfd: int | None = None
        self._stderr_parts: list[str] = []
        self._stderr_len = 0
        self._stderr_thread: threading.Thread | None = None
        self._cpu_final: float | None = None
        self._group_cpu = GroupCpu(0)  # the process group's, once started (no cgroup)

    def spawn(self, env: dict[str, str], cores: set[int] | None) -> Confinement:
        """Start the program with `env` added to its environment, on `cores` if given;
        returns its confinement (whose pause and resume freeze and thaw it)."""
        box = self.box = Confinement(
            self.argv, self.sandbox, cwd=self.cwd, env={**(self.env or {}), **env}
        )
        with box.launching():
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
                # the bot (or bubblewrap) dies with the jury, even killed -9 (PDEATHSIG, set
                # before exec: bubblewrap's own --die-with-parent comes only after its set-up)
                preexec_fn=_in_child(
                    death_signal_setter(),
                    box.preexec if self.sandbox.enabled else None,
                    None if cores is None else partial(os.sched_setaffinity, 0, cores),
                ),
            )
            box.started(self.proc.pid)
        assert self.proc.stdout is not None and self.proc.stdin is not None
        self._group_cpu = GroupCpu(self.proc.pid)
        box.wait_exit = self.exited
        self.stdin_fd = self.proc.stdin.fileno()
        self.stdout_fd = self.proc.stdout.fileno()
        os.set_blocking(self.stdout_fd, False)
        with contextlib.suppress(OSError):  # a kernel or limit that refuses keeps 64 KiB
            fcntl.fcntl(self.stdout_fd, fcntl.F_SETPIPE_SZ, OUTPUT_PIPE_BYTES)
        os.set_blocking(self.stdin_fd, False)  # a frozen bot reads nothing: never wait on it
        self.watched = [self.stdout_fd]
        with contextlib.suppress(OSError):  # readable once the bot's own process has ended
            self._pidfd = os.pidfd_open(self.proc.pid)
            self.watched.append(self._pidfd)
        self._stderr_thread = threading.Thread(target=self._drain_stderr, daemon=True)
        self._stderr_thread.start()
        return box

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

    @property
    def stderr(self) -> str:
        return "".join(self._stderr_parts)

    # -- whether it runs ----------------------------------------------------------------
    def exited(self) -> bool:
        """Whether the program's main process has ended, without reaping it (its CPU stays
        readable in /proc until `kill` reaps it)."""
        if self.proc is None or self.proc.returncode is not None:
            return True
        try:
            info = os.waitid(os.P_PID, self.proc.pid, os.WEXITED | os.WNOHANG | os.WNOWAIT)
        except ChildProcessError:
            return True
        return info is not None

    def wait_exit(self, timeout: float) -> bool:
        """Whether the program ended within `timeout` seconds: woken by its pidfd as it
        ends where there is one (polling every 2 ms cost a game's end 1 ms a bot)."""
        deadline = time.monotonic() + timeout
        while not self.exited():
            left = deadline - time.monotonic()
            if left <= 0:
                return False
            if self._pidfd is not None:
                select.select([self._pidfd], [], [], left)
            else:
                time.sleep(min(0.002, left))
        return True

    @property
    def alive(self) -> bool:
        return self.proc is not None and not self.exited()

    # -- CPU ----------------------------------------------------------------------------
    def read_cpu(self) -> float:
        """CPU seconds of the bot: its cgroup's, else its process group's (user + system,
        threads and children, from /proc)."""
        if self.proc is None:
            return 0.0
        group = self.box.group if self.box is not None else None
        used = group.cpu_ns() if group is not None else None  # None without cpuacct
        return self._group_cpu.seconds() if used is None else used / 1e9

    def cpu_now(self) -> float:
        """CPU seconds used so far: the bot's cgroup's, else its main process's (all its
        threads, see `cpu.process_cpu_s`)."""
        if self.proc is None or self._cpu_final is not None:
            return self._cpu_final or 0.0
        if self.box is not None and (self.box.group is not None or self.box.wrapped):
            return self.read_cpu()  # the bot is not this process, or not alone
        return process_cpu_s(self.proc.pid)

    @property
    def cpu_s(self) -> float:
        return self._cpu_final if self._cpu_final is not None else self.read_cpu()

    # -- the end ------------------------------------------------------------------------
    def kill(self) -> None:
        """Kill every process of the bot at once and reap it; `exit_detail` says how it
        ended and which sandbox limit it hit, if any."""
        if self.proc is None or self.box is None:
            return
        if self._cpu_final is None:
            self._cpu_final = self.read_cpu()
        self.box.kill()
        try:
            code = self.proc.wait(timeout=5)
        except subprocess.TimeoutExpired:  # pragma: no cover - kernel did not deliver SIGKILL
            code = None
        if not self.exit_detail and code is not None:
            reason = self.box.limit_reason()
            self.exit_detail = describe_exit(self.box.exit_code(code))
            self.exit_detail += f", {reason}" if reason else ""
        self.box.reap()  # children it left behind, bubblewrap's PID 1

    def release(self, resume: Callable[[], None]) -> None:
        """Let the bot (`resume`d) see the end of its input."""
        if self.proc is None or self.exited():
            return
        resume()
        if self.proc.stdin is not None:
            with contextlib.suppress(OSError):
                self.proc.stdin.close()

    def close(self, deadline: float | None, resume: Callable[[], None]) -> None:
        """Let the bot exit by itself until `deadline` (default: in EXIT_GRACE_S), then kill
        it; always reaps."""
        if self.proc is None:
            return
        self.release(resume)
        if deadline is None:
            deadline = time.monotonic() + EXIT_GRACE_S
        self.wait_exit(max(0.0, deadline - time.monotonic()))
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
        if self.box is not None:
            self.box.close()


def _in_child(*steps: Callable[[], None] | None) -> Callable[[], None] | None:
    """One function running `steps` in order between fork and exec (None: nothing to run)."""
    todo = [step for step in steps if step is not None]
    if not todo:
        return None

    def run() -> None:
        for step in todo:
            step()

    return run


def describe_exit(code: int) -> str:
    """', exit code 3' or ', killed by SIGSEGV' for a finished process."""
    if code < 0:
        try:
            return f", killed by {signal.Signals(-code).name}"
        except ValueError:
            return f", killed by signal {-code}"
    return f", exit code {code}"
