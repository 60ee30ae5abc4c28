"""One sandboxed process (`Confinement`): its command wrapped, its limits entered, stopped
between its turns, moved between cores, killed and reaped."""

from __future__ import annotations

import contextlib
import logging
import os
import signal
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field

from botarena.core import cgroups
from botarena.core.sandbox import probes
from botarena.core.sandbox.cores import JoinedCore, pin_threads
from botarena.core.sandbox.launch import BotProcesses, enter
from botarena.core.sandbox.limits import DEFAULT, Sandbox
from botarena.core.sandbox.wrap import wrap

log = logging.getLogger(__package__)

BOT_START_S = 5.0
"""How long the first pause waits for bubblewrap to start the bot (a few ms when idle)."""

IDLE_BETWEEN_TURNS_NS = 1_000_000
"""CPU a bot may use between its reply and its next turn and still be left running there
instead of stopped (ending its write and waiting on its input takes microseconds): more
once, and it is stopped between all its turns from then on."""


@dataclass
class Confinement:
    """One sandboxed process: the command to start, its limits, its freezer and its kill.

    Start it with `Popen(c.argv, cwd=c.cwd, env=c.env, preexec_fn=c.preexec,
    start_new_session=True)`, then call `started(pid)`; `close()` once it is reaped."""

    argv: list[str]
    sandbox: Sandbox = DEFAULT
    cwd: str | None = None
    env: dict[str, str] | None = None
    """Variables added to the environment: the jury's own without bubblewrap, the few of
    KEPT_ENV inside it."""
    group: cgroups.BotGroup | None = None
    wrapped: bool = False
    pass_fds: tuple[int, ...] = ()
    locked: bool = False
    """Whether the bot cannot leave its process group (seccomp), so SIGSTOP stops it all."""
    _processes: BotProcesses = field(default_factory=BotProcesses, repr=False)
    _joined: JoinedCore | None = field(default=None, repr=False)
    wait_exit: Callable[[], bool] | None = field(default=None, repr=False)
    """Whether the outer process has ended (set by the player), so a bubblewrap that fails
    is not waited for."""
    output_in_flight: Callable[[], bool] | None = field(default=None, repr=False)
    """Whether the bot may still be inside a write to its output (set by the player)."""
    _multi: bool = field(default=False, repr=False)
    _watch_idle: bool = field(default=False, repr=False)
    """Whether the bot is left running between turns while its cgroup shows it idle there
    (from its first turn, where its cgroup counts CPU, until it is not)."""
    _busy_between_turns: bool = field(default=False, repr=False)
    _cpu_at_reply: int | None = field(default=None, repr=False)

    def __post_init__(self) -> None:
        if not self.sandbox.enabled:
            self.env = {**os.environ, **self.env} if self.env else None
            return
        probes.warn_once()
        bwrap, _ = probes.bubblewrap()
        self.wrapped = bwrap is not None
        try:
            self.group = cgroups.new_group(
                self.sandbox.memory_mib << 20,
                self.sandbox.processes,
                overhead=2 if self.wrapped else 0,
            )
        except OSError as exc:  # the probe worked but this group cannot be made
            log.warning(f"botarena: WARNING: no cgroup for this bot ({exc})")
        if bwrap is not None:
            wrapped = wrap(self.argv, self.sandbox, self.cwd, self.env, bwrap)
            self.argv, self.cwd, self.env = wrapped.argv, None, wrapped.env
            self.pass_fds, self.locked = wrapped.pass_fds, wrapped.locked
            self._processes = BotProcesses(wrapped=True, info=wrapped.info)
        elif self.env:
            self.env = {**os.environ, **self.env}

    # -- in the child, between fork and exec --------------------------------------------
    def preexec(self) -> None:
        """Join the bot's cgroups and set its rlimits (runs in the child before exec)."""
        enter(self.group, self.sandbox)

    # -- in the jury --------------------------------------------------------------------
    @contextlib.contextmanager
    def launching(self) -> Iterator[None]:
        """Around the start of its process (Popen, then `started`): `kill_all` waits for a
        start under way, which it then kills, and none begins after it. Raises OSError
        once `kill_all` has run (this process is ending)."""
        if not _take_launch_slot():
            raise OSError("this process is ending (kill_all): no bot starts now")
        try:
            yield
        finally:
            _LAUNCHES.release()

    def started(self, pid: int) -> None:
        """The process is running as `pid`, leader of its own process group."""
        _RUNNING[id(self)] = self
        self._processes.started(pid)
        for fd in self.pass_fds:
            os.close(fd)
        self.pass_fds = ()

    def pause(self) -> None:
        """The bot's turn is over: stop it until its next one, or, once it has shown it
        waits idle for its input (see `resume`), note its CPU time and leave it be. A
        stop and a resume cost about 70 µs an exchange in the sandbox (the stop and the
        continue each wake bubblewrap's processes that wait on the bot), two CPU reads
        about 1 µs; a bot blocked on its input uses no CPU either way. A bot that joined
        the referee's core leaves it between its turns: if it thinks there before it is
        caught, it does so on other cores than the bot on turn.

        A bot still writing its output (more than its pipe takes, the jury reading a reply
        from the front of it) is not stopped: a stopped writer's write returns what it got
        out so far, and a bot that does not write the rest (Python's unbuffered stdout, a
        bare write()) would lose the rest of its lines, where the original engines, which
        never stop a bot, read them in its next turns."""
        if self._joined is not None:
            self._joined.to_away()
        if self._watch_idle and self.group is not None:
            self._cpu_at_reply = self.group.cpu_ns()
            if self._cpu_at_reply is not None:
                return
            self._watch_idle, self._busy_between_turns = False, True
        if self._may_finish_writing():
            return
        self._stop()

    def _may_finish_writing(self) -> bool:
        """Whether the bot, still writing its output, is left running until its next turn
        (see `pause`). Blocked in that write it uses no CPU, and its cgroup is read now and
        at `resume`, as for a bot left idle: one that thinks meanwhile (a reply padded to
        stay unstopped) is stopped between all its turns from then on. Where the jury cannot
        count its CPU, a sandboxed bot is always stopped; where the game charges CPU turn by
        turn, every bot is."""
        if self._busy_between_turns or self.output_in_flight is None:
            return False
        group = self.group
        counted = group is not None and group.counts_cpu
        if (self.sandbox.enabled and not counted) or not self.output_in_flight():
            return False
        if counted:
            self._cpu_at_reply = group.cpu_ns()  # type: ignore[union-attr]
            return self._cpu_at_reply is not None
        return True

    def resume(self) -> None:
        """Let the bot run for its turn. A bot left running that used more than
        IDLE_BETWEEN_TURNS_NS of CPU since its reply (it thinks on the others' time) is
        stopped between all its turns from then on."""
        group = self.group
        if self._cpu_at_reply is not None and group is not None:
            used = group.cpu_ns()
            if used is None or used - self._cpu_at_reply > IDLE_BETWEEN_TURNS_NS:
                self._watch_idle, self._busy_between_turns = False, True
            self._cpu_at_reply = None
            return  # it was never stopped
        if group is not None:
            group.thaw()
        bot_pgid = self._processes.bot_pgid
        try:
            if bot_pgid:
                os.killpg(bot_pgid, signal.SIGCONT)
        except (ProcessLookupError, PermissionError):
            pass
        if bot_pgid and group is not None and not self._busy_between_turns:
            self._watch_idle = group.counts_cpu

    def hold_between_turns(self) -> None:
        """Stop the bot between all its turns from now on, idle or not: where a game charges
        each turn's CPU, CPU used between turns must not be counted in the next one, and a
        running bot's cgroup counter can lag a scheduler tick behind."""
        self._watch_idle, self._busy_between_turns = False, True

    def _stop(self) -> None:
        """Stop every process of the bot: SIGSTOP to its process group (found first: the
        first stop waits for bubblewrap to start it; bubblewrap's own outer process is
        never stopped, as stopping it half-way through its set-up can leave it stuck); and,
        where the bot could leave that group, the cgroup freezer as soon as one process of
        it has (from then on)."""
        processes = self._processes
        if not processes.bot_pgid:
            processes.await_bot(BOT_START_S, self.wait_exit)
        if processes.bot_pgid:
            try:  # noqa: SIM105 - twice per exchange: a bare try is cheapest
                os.killpg(processes.bot_pgid, signal.SIGSTOP)
            except (ProcessLookupError, PermissionError):
                pass
        group = self.group
        if self.locked or group is None or not group.can_freeze:
            return
        if not self._multi:
            for pid in group.pids():
                try:
                    if pid not in processes.sandbox_pids and os.getpgid(pid) != processes.bot_pgid:
                        self._multi = True
                        break
                except ProcessLookupError:
                    pass
        if self._multi:
            group.freeze()

    def join_core(self, core: int) -> bool:
        """Run the bot on `core` only, if it is one process running one thread (a runtime
        with threads of its own, a JVM's compiler and collector, keeps every core); its
        threads made later stay there too. Whether it moved."""
        pids = self._processes.bot_pids(self.group)
        if pids is None:
            return False
        self._joined = JoinedCore.join(pids, core)
        return self._joined is not None

    def move_to(self, core: int) -> None:
        """Every thread of every process of the bot onto `core` only (threads it starts
        later inherit it)."""
        pin_threads(self._processes.bot_pids(self.group) or [], {core})

    def leave_core_if_threaded(self) -> None:
        """Give a bot that joined a core every core back, for good, once it runs more than
        one thread (threads it started after its first reply, to think in parallel): each
        of its threads gets the cores it had. Checked where a turn is long (a listing of
        its threads, about 10 µs), not on every exchange."""
        if self._joined is not None and self._joined.give_back_if_threaded():
            self._joined = None

    def to_turn_core(self) -> None:
        """Before a bot that joined a core gets its input: onto that core, to be woken
        there (about 1 µs; nothing when it has not joined)."""
        if self._joined is not None:
            self._joined.to_turn()

    def leave_core(self) -> None:
        """Give a bot that joined a core (`join_core`) its cores back, to end in parallel
        with the others (Python bots on one core took 22 ms to end, 13 ms spread)."""
        if self._joined is not None:
            self._joined.give_back()
            self._joined = None

    def kill(self) -> None:
        """SIGKILL the process groups and every process in the bot's cgroup."""
        self._joined = None  # its pid may soon be another process's
        self._processes.kill(self.group)

    def reap(self) -> None:
        """Reap what is left of the bot's processes that became this process's children;
        call once the outer process is reaped (`BotProcesses.reap`)."""
        self._processes.reap()

    @property
    def watch_s(self) -> float | None:
        """How often to check, while waiting for a reply, whether the bot is stuck at its
        process limit (a fork bomb never answers); None: no need."""
        return 0.1 if self.group is not None and self.group.processes is not None else None

    def at_process_limit(self) -> bool:
        return self.group is not None and self.group.at_process_limit()

    def limit_reason(self) -> str:
        """Which limit the bot hit ('memory limit 1024 MiB', ...), or ''."""
        return self.group.limit_reason() if self.group is not None else ""

    def exit_code(self, code: int) -> int:
        """The bot's own exit status: bubblewrap reports a death by signal N as 128 + N."""
        if self.wrapped and 128 < code < 128 + 65:
            return -(code - 128)
        return code

    @property
    def multi_process(self) -> bool:
        return self._multi

    def close(self) -> None:
        """Remove the bot's cgroups (killing anything left in them)."""
        _RUNNING.pop(id(self), None)
        if self.group is not None:
            self.group.remove()
            self.group = None
        self._processes.close()


_RUNNING: dict[int, Confinement] = {}
"""The confinements started here and not closed yet, for `kill_all`."""
_LAUNCHES = threading.Lock()
"""Held while a confinement's process starts (`Confinement.launching`)."""
_ENDING = threading.Event()
"""Set by `kill_all`: no process starts from then on."""
LAUNCH_WAIT_S = 5.0
"""How long `kill_all` waits for a start under way (a few ms; bubblewrap's set-up comes
after the Popen returns)."""


def _take_launch_slot() -> bool:
    """Take `_LAUNCHES`, unless `kill_all` has run (it keeps the lock for good)."""
    while not _LAUNCHES.acquire(timeout=0.1):
        if _ENDING.is_set():
            return False
    if _ENDING.is_set():
        _LAUNCHES.release()
        return False
    return True


def kill_all() -> None:
    """Kill every process of every bot and command this process started and has not closed:
    for a process about to end at once (a pool worker whose runner died), so nothing of its
    games outlives it, not even a bubblewrap still setting up. A start under way on another
    thread is waited for and killed with the rest, and none begins afterwards: one that
    began unseen (its process forked, `started` not called yet) would have outlived it."""
    acquired = _LAUNCHES.acquire(timeout=LAUNCH_WAIT_S)  # never released: nothing starts
    _ENDING.set()
    if not acquired:
        log.warning("botarena: a bot's start did not end in %s s; killing the rest", LAUNCH_WAIT_S)
    for box in list(_RUNNING.values()):
        with contextlib.suppress(Exception):  # ending anyway: kill what can be killed
            box.kill()
