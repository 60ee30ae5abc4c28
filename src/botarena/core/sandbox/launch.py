"""A confined bot's processes: its cgroup and rlimits entered between fork and exec, where
bubblewrap put it (its PID 1 and the bot's own process group under it), their kill and
their reaping."""

from __future__ import annotations

import contextlib
import json
import os
import resource
import select
import signal
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from botarena.core import cgroups
from botarena.core.sandbox.limits import Sandbox
from botarena.core.sandbox.processes import reap, reap_group


def enter(group: cgroups.BotGroup | None, sandbox: Sandbox) -> None:
    """Join the bot's cgroups and set its rlimits (runs in the child before exec)."""
    if group is not None:
        group.enter()
    limits = [
        (resource.RLIMIT_NOFILE, sandbox.open_files),
        (resource.RLIMIT_FSIZE, sandbox.file_size_mib << 20),
        (resource.RLIMIT_CORE, 0),
    ]
    if group is None or group.memory_bytes is None:
        limits.append((resource.RLIMIT_AS, sandbox.memory_mib << 20))
    if (group is None or group.processes is None) and os.geteuid() != 0:
        limits.append((resource.RLIMIT_NPROC, sandbox.processes))
    for which, value in limits:
        with contextlib.suppress(ValueError, OSError):  # never above the jury's own
            hard = resource.getrlimit(which)[1]
            value = value if hard == resource.RLIM_INFINITY else min(value, hard)
            resource.setrlimit(which, (value, value))


@dataclass
class BotProcesses:
    """The processes of one started bot: the outer one (`pgid`, bubblewrap's when wrapped,
    leader of its own process group), bubblewrap's PID 1 (`init`, from its --info-fd report
    on `info`, -1 without bubblewrap) and the bot's own process group (`bot_pgid`, 0 until
    bubblewrap has started it)."""

    wrapped: bool = False
    info: int = -1
    pgid: int = 0
    init: int = 0
    bot_pgid: int = 0
    sandbox_pids: tuple[int, ...] = ()
    """bubblewrap's own processes (the outer one and its PID 1), once the bot is found."""
    killed: list[int] = field(default_factory=list)
    """The cgroup's processes `kill` killed: those that left the bot's process group became
    this process's children (it is a subreaper) unless a PID namespace's init took them."""
    info_text: bytes = b""

    def started(self, pid: int) -> None:
        """The outer process is running as `pid`, leader of its own process group."""
        self.pgid = pid
        self.bot_pgid = 0 if self.wrapped else pid

    def read_info(self, timeout: float) -> None:
        """Learn bubblewrap's PID 1 from its --info-fd report (written right after it
        cloned it, maybe in pieces), waiting up to `timeout` seconds. The pipe stays open
        until `close`: bubblewrap would die of SIGPIPE writing to a closed one."""
        deadline = time.monotonic() + timeout
        while self.info >= 0 and not self.init:
            left = max(0.0, deadline - time.monotonic())
            if not select.select([self.info], [], [], left)[0]:
                return
            try:
                chunk = os.read(self.info, 4096)
            except BlockingIOError:
                continue
            if not chunk:  # bubblewrap ended without a report
                return
            self.info_text += chunk
            with contextlib.suppress(ValueError, KeyError, TypeError):
                self.init = int(json.loads(self.info_text)["child-pid"])

    def find_bot(self) -> None:
        """The bot's own process group, once bubblewrap has started it: its PID 1 is the
        outer process's child and leads a new session; the bot is that one's child."""
        if not self.init:
            self.read_info(0)
        try:
            with open(f"/proc/{self.init}/task/{self.init}/children") as handle:
                handle.read().split()[0]  # the bot has started
        except (OSError, ValueError, IndexError):
            return  # not started yet, or gone
        self.bot_pgid = self.init
        self.sandbox_pids = (self.pgid, self.init)

    def await_bot(self, timeout: float, ended: Callable[[], bool] | None) -> None:
        """Find the bot, waiting up to `timeout` seconds for bubblewrap to start it (not
        when `ended` says the outer process has ended)."""
        deadline = time.monotonic() + timeout
        self.read_info(timeout)
        while self.init and not self.bot_pgid and time.monotonic() < deadline:
            self.find_bot()
            if not self.bot_pgid:
                if ended is not None and ended():
                    return  # bubblewrap ended before starting the bot
                time.sleep(0.0005)

    def bot_pids(self, group: cgroups.BotGroup | None) -> list[int] | None:
        """The bot's processes (not bubblewrap's), or None when they cannot be read."""
        if group is not None:
            return [pid for pid in group.pids() if pid not in self.sandbox_pids]
        if self.wrapped:
            try:
                with open(f"/proc/{self.init}/task/{self.init}/children") as handle:
                    return [int(pid) for pid in handle.read().split()]
            except (OSError, ValueError):
                return None
        return [self.pgid]

    def kill(self, group: cgroups.BotGroup | None) -> None:
        """SIGKILL the process groups and every process in the bot's cgroup."""
        if self.wrapped and not self.init:
            self.read_info(1.0)  # to kill and reap bubblewrap's PID 1 too
        groups = {self.pgid, self.bot_pgid, self.init} - {0}
        for pgid in groups:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(pgid, signal.SIGKILL)
        if group is not None:
            self.killed += group.pids()
            group.kill_all()
        for pgid in groups:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(pgid, signal.SIGCONT)

    def reap(self) -> None:
        """Reap what is left of the bot's processes that became this process's children
        (bubblewrap's PID 1 is handed to us, as subreaper, when the outer process ends
        first; without bubblewrap, any process of it outside its process group); call once
        the outer process is reaped."""
        for pgid in {self.pgid, self.bot_pgid, self.init} - {0}:
            reap_group(pgid)
        for pid in self.killed:
            reap(pid)
        self.killed = []

    def close(self) -> None:
        """Close bubblewrap's report pipe."""
        if self.info >= 0:
            os.close(self.info)
            self.info = -1
