"""cgroup v1 for one bot (`BotGroup`), and what v1 and v2 share: memory and process caps,
CPU accounting, a freezer, a kill.

A `BotGroup` is a set of sibling cgroups (v1: one per controller hierarchy, each under the
jury's own group; v2: one group) that every process of one bot lives in from before its first
instruction (`enter()` runs in the child between fork and exec). The cgroup v1 hierarchies of
the `memory`, `pids`, `cpuacct` and `freezer` controllers are used where this process may
create groups in them (root on a server), else cgroup v2 where it may (a delegated systemd
scope); BOTARENA_CGROUPS=v1|v2|off forces a choice. The package's `available()` says what
is usable and why not; its `new_group()` makes a bot's group.
"""

from __future__ import annotations

import contextlib
import itertools
import os
import signal
import time
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path

CONTROLLERS = ("memory", "pids", "cpuacct", "freezer")
"""What a bot's group gives, named after the cgroup v1 controllers that give it."""

CHOICE = "BOTARENA_CGROUPS"
"""The environment variable forcing a backend: v1, v2 or off (unset: v1 where usable)."""

_counter = itertools.count(1)


@dataclass(frozen=True)
class Controller:
    """One controller hierarchy (v2: one feature of the jury's group): the jury's own group
    in it, where bots' groups go, or why it cannot be used."""

    name: str
    path: Path | None
    reason: str = ""
    version: int = 1


def _own_groups() -> dict[str, str]:
    """Controller name -> this process's group path, from /proc/self/cgroup (v1 lines)."""
    groups = {}
    with contextlib.suppress(OSError):
        for line in Path("/proc/self/cgroup").read_text().splitlines():
            _, names, path = line.split(":", 2)
            for name in names.split(","):
                if name:
                    groups[name] = path
    return groups


def v1_mounts() -> dict[str, str]:
    """Controller name -> mount point of its cgroup v1 hierarchy."""
    mounts: dict[str, str] = {}
    with contextlib.suppress(OSError):
        for line in Path("/proc/self/mounts").read_text().splitlines():
            fields = line.split()
            if len(fields) >= 4 and fields[2] == "cgroup":
                for option in fields[3].split(","):
                    mounts.setdefault(option, fields[1])
    return mounts


def group_name() -> str:
    """A new bot group's folder name, unique on the machine."""
    return f"botarena-{os.getpid()}-{next(_counter)}"


def available_v1() -> dict[str, Controller]:
    """Each controller of CONTROLLERS in cgroup v1: the jury's group in it, or the reason it
    is off. A controller is usable when its v1 hierarchy is mounted and this process may
    create a group under its own one (tried once, then removed)."""
    mounts, groups = v1_mounts(), _own_groups()
    found = {}
    for name in CONTROLLERS:
        if name not in mounts:
            v2 = " (this machine has cgroup v2 only)" if v2_mount() is not None else ""
            found[name] = Controller(name, None, f"no cgroup v1 {name} hierarchy{v2}")
            continue
        base = Path(mounts[name]) / groups.get(name, "/").lstrip("/")
        probe = base / f"botarena-probe-{os.getpid()}"
        try:
            probe.mkdir()
            probe.rmdir()
        except OSError as exc:
            found[name] = Controller(
                name, None, f"cannot create a {name} cgroup in {base} ({exc.strerror})"
            )
            continue
        found[name] = Controller(name, base)
    return found


def v2_mount() -> str | None:
    """The mount point of the cgroup v2 hierarchy, if mounted."""
    with contextlib.suppress(OSError):
        for line in Path("/proc/self/mounts").read_text().splitlines():
            fields = line.split()
            if len(fields) >= 3 and fields[2] == "cgroup2":
                return fields[1]
    return None


def write(path: Path, text: str) -> None:
    """Write a cgroup file in one write (the kernel takes each write as one request)."""
    fd = os.open(path, os.O_WRONLY)
    try:
        os.write(fd, text.encode())
    finally:
        os.close(fd)


def read(path: Path) -> str:
    """A cgroup file's whole text."""
    fd = os.open(path, os.O_RDONLY)  # reopened each time: a kept seq file reads stale
    try:
        return os.read(fd, 1 << 16).decode()
    finally:
        os.close(fd)


def counts(path: Path) -> defaultdict[str, int]:
    """A cgroup file of `name number` lines (0 for a name it lacks)."""
    found: defaultdict[str, int] = defaultdict(int)
    for line in read(path).splitlines():
        name, number = line.split()
        found[name] = int(number)
    return found


class BotGroup:
    """The cgroups of one bot: created by `__init__`, joined by `enter` in the child,
    removed by `remove` once its processes are gone."""

    def __init__(
        self,
        memory_bytes: int | None,
        processes: int | None,
        overhead: int = 0,
        controllers: tuple[Controller, ...] = (),
    ) -> None:
        """A group in each of `controllers` (the usable v1 ones; none: rlimits only).
        `processes` caps the bot's own tasks; `overhead` more are allowed for the sandbox's
        own (bubblewrap outside and inside the PID namespace)."""
        name = group_name()
        self.dirs: dict[str, Path] = {}
        for controller in controllers:
            if controller.path is None:
                continue
            folder = controller.path / name
            folder.mkdir()
            self.dirs[controller.name] = folder
        self.memory_bytes = memory_bytes if "memory" in self.dirs else None
        self.processes = processes if "pids" in self.dirs else None
        if self.memory_bytes is not None:
            memory = self.dirs["memory"]
            write(memory / "memory.limit_in_bytes", str(self.memory_bytes))
            with contextlib.suppress(OSError):  # swap accounting is off on some kernels
                write(memory / "memory.memsw.limit_in_bytes", str(self.memory_bytes))
        if self.processes is not None:
            write(self.dirs["pids"] / "pids.max", str(self.processes + overhead))
        self._procs_files = [str(folder / "cgroup.procs") for folder in self.dirs.values()]
        self._freezer = self.dirs.get("freezer")
        self._freeze_file, self._states = "freezer.state", ("FROZEN", "THAWED")
        self._list = next(iter(self.dirs.values()), None)
        self._cpu_fd = (
            os.open(self.dirs["cpuacct"] / "cpuacct.usage", os.O_RDONLY)
            if "cpuacct" in self.dirs
            else -1
        )  # kept: read once an exchange
        self._pids_fd = (
            os.open(self.dirs["pids"] / "pids.events", os.O_RDONLY)
            if self.processes is not None
            else -1
        )
        self.frozen = False

    @property
    def can_freeze(self) -> bool:
        return self._freezer is not None

    @property
    def counts_cpu(self) -> bool:
        return self._cpu_fd >= 0

    def enter(self) -> None:
        """Move the calling process into every group (run in the child before exec)."""
        for path in self._procs_files:
            fd = os.open(path, os.O_WRONLY)
            os.write(fd, b"0")
            os.close(fd)

    def pids(self) -> list[int]:
        """The processes in the group now."""
        if self._list is None:
            return []
        return [int(pid) for pid in read(self._list / "cgroup.procs").split()]

    def freeze(self) -> None:
        """Stop every process of the group (asynchronous, but a frozen task never runs
        again until thawed)."""
        if self._freezer is not None and not self.frozen:
            write(self._freezer / self._freeze_file, self._states[0])
            self.frozen = True

    def thaw(self) -> None:
        if self._freezer is not None and self.frozen:
            write(self._freezer / self._freeze_file, self._states[1])
            self.frozen = False

    def kill_all(self) -> None:
        """SIGKILL every process of the group until it is empty (2 s at most)."""
        deadline = time.monotonic() + 2.0
        while time.monotonic() < deadline:
            pids = self.pids()
            if not pids:
                return
            for pid in pids:
                with contextlib.suppress(ProcessLookupError, PermissionError):
                    os.kill(pid, signal.SIGKILL)
            self.thaw()  # a frozen v1 task dies only once thawed
            self.frozen = True  # thaw again next round: a child forked meanwhile froze too
            time.sleep(0.001)
        self.frozen = False

    def cpu_ns(self) -> int | None:
        """CPU nanoseconds used by every process and thread that was ever in the group."""
        if self._cpu_fd < 0:
            return None
        return int(os.pread(self._cpu_fd, 64, 0))

    def at_process_limit(self) -> bool:
        """Whether the bot has tried to exceed its process limit (a cheap read)."""
        return self._pids_fd >= 0 and os.pread(self._pids_fd, 64, 0).split()[1:2] != [b"0"]

    def limit_reason(self) -> str:
        """'memory limit 1024 MiB' or 'more than 64 processes' once a limit was hit, else ''."""
        if self.memory_bytes is not None and self._out_of_memory():
            return f"memory limit {self.memory_bytes >> 20} MiB"
        if self.processes is not None and counts(self.dirs["pids"] / "pids.events")["max"]:
            return f"more than {self.processes} processes"
        return ""

    def _out_of_memory(self) -> bool:
        """Whether the kernel killed a process of the group for memory, or it waits to."""
        control = counts(self.dirs["memory"] / "memory.oom_control")
        return control["oom_kill"] > 0 or control["under_oom"] > 0

    def remove(self) -> None:
        """Kill what is left and remove the groups."""
        self.kill_all()
        for fd in (self._cpu_fd, self._pids_fd):
            if fd >= 0:
                os.close(fd)
        self._cpu_fd = self._pids_fd = -1
        for folder in dict.fromkeys(self.dirs.values()):
            for _ in range(100):  # a killed task leaves its group a moment after it died
                try:
                    folder.rmdir()
                    break
                except FileNotFoundError:
                    break
                except OSError:
                    time.sleep(0.002)
        self.dirs = {}
