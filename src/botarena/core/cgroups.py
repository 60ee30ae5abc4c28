"""Control groups for one bot: memory and process caps, CPU accounting, a freezer, a kill.

A `BotGroup` is a set of sibling cgroups (v1: one per controller hierarchy, each under the
jury's own group) that every process of one bot lives in from before its first instruction
(`enter()` runs in the child between fork and exec). The cgroup v1 hierarchies of the
`memory`, `pids`, `cpuacct` and `freezer` controllers are used where this process may create
groups in them (root on a server); `available()` says which are usable and why not.
"""

from __future__ import annotations

import contextlib
import itertools
import os
import signal
import time
from dataclasses import dataclass
from functools import cache
from pathlib import Path

CONTROLLERS = ("memory", "pids", "cpuacct", "freezer")
"""The cgroup v1 controllers a bot's group uses."""

_counter = itertools.count(1)


@dataclass(frozen=True)
class Controller:
    """One controller hierarchy: the jury's own group in it, or why it cannot be used."""

    name: str
    path: Path | None
    reason: str = ""


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


def _mounts() -> dict[str, str]:
    """Controller name -> mount point of its cgroup v1 hierarchy."""
    mounts = {}
    with contextlib.suppress(OSError):
        for line in Path("/proc/self/mounts").read_text().splitlines():
            fields = line.split()
            if len(fields) >= 4 and fields[2] == "cgroup":
                for option in fields[3].split(","):
                    mounts.setdefault(option, fields[1])
    return mounts


@cache
def available() -> dict[str, Controller]:
    """Each controller of CONTROLLERS: the jury's group in it, or the reason it is off.

    A controller is usable when its v1 hierarchy is mounted and this process may create a
    group under its own one (tried once, then removed)."""
    mounts, groups = _mounts(), _own_groups()
    found = {}
    for name in CONTROLLERS:
        if name not in mounts:
            v2 = " (this machine has cgroup v2 only)" if _has_v2() else ""
            found[name] = Controller(name, None, f"no cgroup v1 {name} hierarchy{v2}")
            continue
        base = Path(mounts[name]) / groups.get(name, "/").lstrip("/")
        probe = base / f"botarena-probe-{os.getpid()}"
        try:
            probe.mkdir()
            probe.rmdir()
        except OSError as exc:
            found[name] = Controller(name, None, f"cannot create a {name} cgroup in {base}"
                                     f" ({exc.strerror})")
            continue
        found[name] = Controller(name, base)
    return found


def _has_v2() -> bool:
    with contextlib.suppress(OSError):
        return " cgroup2 " in Path("/proc/self/mounts").read_text()
    return False


def _write(path: Path, text: str) -> None:
    fd = os.open(path, os.O_WRONLY)
    try:
        os.write(fd, text.encode())
    finally:
        os.close(fd)


def _read(path: Path) -> str:
    fd = os.open(path, os.O_RDONLY)  # reopened each time: a kept seq file reads stale
    try:
        return os.read(fd, 1 << 16).decode()
    finally:
        os.close(fd)


class BotGroup:
    """The cgroups of one bot: created by `__init__`, joined by `enter` in the child,
    removed by `remove` once its processes are gone."""

    def __init__(self, memory_bytes: int | None, processes: int | None,
                 overhead: int = 0) -> None:
        """`processes` caps the bot's own tasks; `overhead` more are allowed for the
        sandbox's own (bubblewrap outside and inside the PID namespace)."""
        name = f"botarena-{os.getpid()}-{next(_counter)}"
        self.dirs: dict[str, Path] = {}
        for controller in available().values():
            if controller.path is None:
                continue
            folder = controller.path / name
            folder.mkdir()
            self.dirs[controller.name] = folder
        self.memory_bytes = memory_bytes if "memory" in self.dirs else None
        self.processes = processes if "pids" in self.dirs else None
        if self.memory_bytes is not None:
            memory = self.dirs["memory"]
            _write(memory / "memory.limit_in_bytes", str(self.memory_bytes))
            with contextlib.suppress(OSError):  # swap accounting is off on some kernels
                _write(memory / "memory.memsw.limit_in_bytes", str(self.memory_bytes))
        if self.processes is not None:
            _write(self.dirs["pids"] / "pids.max", str(self.processes + overhead))
        self._procs_files = [str(folder / "cgroup.procs") for folder in self.dirs.values()]
        self._freezer = self.dirs.get("freezer")
        self._list = next(iter(self.dirs.values()), None)
        self._cpu_fd = (os.open(self.dirs["cpuacct"] / "cpuacct.usage", os.O_RDONLY)
                        if "cpuacct" in self.dirs else -1)  # kept: read once an exchange
        self.frozen = False

    @property
    def can_freeze(self) -> bool:
        return self._freezer is not None

    @property
    def counts_cpu(self) -> bool:
        return "cpuacct" in self.dirs

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
        return [int(pid) for pid in _read(self._list / "cgroup.procs").split()]

    def freeze(self) -> None:
        """Stop every process of the group (v1's freezer: asynchronous, but a frozen task
        never runs again until thawed)."""
        if self._freezer is not None and not self.frozen:
            _write(self._freezer / "freezer.state", "FROZEN")
            self.frozen = True

    def thaw(self) -> None:
        if self._freezer is not None and self.frozen:
            _write(self._freezer / "freezer.state", "THAWED")
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

    def limit_reason(self) -> str:
        """'memory limit 1024 MiB' or 'more than 64 processes' once a limit was hit, else ''."""
        if self.memory_bytes is not None:
            control = dict(line.split() for line in
                           _read(self.dirs["memory"] / "memory.oom_control").splitlines())
            if int(control.get("oom_kill", "0")) > 0 or int(control.get("under_oom", "0")):
                return f"memory limit {self.memory_bytes >> 20} MiB"
        if self.processes is not None:
            events = dict(line.split() for line in
                          _read(self.dirs["pids"] / "pids.events").splitlines())
            if int(events.get("max", "0")) > 0:
                return f"more than {self.processes} processes"
        return ""

    def remove(self) -> None:
        """Kill what is left and remove the groups."""
        self.kill_all()
        if self._cpu_fd >= 0:
            os.close(self._cpu_fd)
            self._cpu_fd = -1
        for folder in self.dirs.values():
            for _ in range(100):  # a killed task leaves its group a moment after it died
                try:
                    folder.rmdir()
                    break
                except FileNotFoundError:
                    break
                except OSError:
                    time.sleep(0.002)
        self.dirs = {}

