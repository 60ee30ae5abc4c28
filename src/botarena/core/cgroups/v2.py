"""Control groups for one bot in cgroup v2 (a systemd desktop): the jury's group, and
`BotGroup2`, the same interface as v1's `BotGroup` in one v2 group per bot.

Every v2 group counts CPU (`cpu.stat`), freezes (`cgroup.freeze`) and is killed whole
(`cgroup.kill`, Linux 5.14+). Memory and process caps need the `memory` and `pids`
controllers enabled for the jury's children, which cgroup v2 allows only in a group without
processes: a jury alone in its group (`systemd-run --user --scope -p Delegate=yes botarena
...`) first moves itself into a leaf group `botarena-jury` beside its bots' groups.
"""

from __future__ import annotations

import contextlib
import errno
import os
import time
from pathlib import Path

from botarena.core.cgroups.v1 import (
    CONTROLLERS,
    BotGroup,
    Controller,
    counts,
    read,
    v1_mounts,
    v2_mount,
    write,
)

NAMES = {"memory": "memory", "pids": "pids", "cpuacct": "cpu.stat", "freezer": "cgroup.freeze"}
"""What gives each of CONTROLLERS in cgroup v2: a controller, or a core file of every group."""

LIMITS = ("memory", "pids")
"""The v2 controllers a bot's group needs enabled for its caps."""

JURY_LEAF = "botarena-jury"
"""The group a jury alone in its group moves into, so that its bots' groups get controllers.
A jury with worker processes looks once (`cgroups.available()`) before it starts them: they
start in the leaf, and their bots' groups go beside it."""

ADVICE = (
    "run the jury in a group of its own: systemd-run --user --scope -p Delegate=yes botarena ..."
)


def available() -> dict[str, Controller]:
    """Each of CONTROLLERS in cgroup v2: the jury's group, where bots' groups go, or the
    reason it is off (see `usable`)."""
    mount = v2_mount()
    if mount is None:
        return _off("no cgroup v2 hierarchy mounted")
    own = _own_group()
    if own is None:
        return _off("this process is in no cgroup v2 group")
    base = Path(mount) / own.lstrip("/")
    if base.name == JURY_LEAF:  # a jury (its forkserver's workers) moved there: its parent's
        base = base.parent
    return usable(base)


def _own_group() -> str | None:
    """This process's cgroup v2 path, from the `0::` line of /proc/self/cgroup."""
    with contextlib.suppress(OSError):
        for line in Path("/proc/self/cgroup").read_text().splitlines():
            if line.startswith("0::"):
                return line[3:]
    return None


def _off(reason: str) -> dict[str, Controller]:
    return {name: Controller(NAMES[name], None, reason, 2) for name in CONTROLLERS}


def usable(base: Path) -> dict[str, Controller]:
    """Each of CONTROLLERS for bots' groups made in `base`: usable when this process may
    create a group there (tried once, then removed) that has the feature's file, or, for
    memory and pids, when `enable` gives their controllers to base's children."""
    probe = base / f"botarena-probe-{os.getpid()}"
    try:
        probe.mkdir()
    except OSError as exc:
        return _off(f"cannot create a cgroup v2 group in {base} ({exc.strerror}): {ADVICE}")
    files = {name for name in ("cpu.stat", "cgroup.freeze") if (probe / name).exists()}
    probe.rmdir()
    found = {}
    why = enable(base)
    for name in CONTROLLERS:
        if name in LIMITS:
            found[name] = Controller(name, None if why[name] else base, why[name], 2)
        elif NAMES[name] in files:
            found[name] = Controller(NAMES[name], base, "", 2)
        else:
            found[name] = Controller(
                NAMES[name],
                None,
                f"no {NAMES[name]} in cgroup v2 groups (Linux 5.2 or later has it)",
                2,
            )
    return found


def enable(base: Path) -> dict[str, str]:
    """Enable the memory and pids controllers for base's children; for each, '' when it is
    on, else why not. When the kernel refuses (EBUSY) as base holds processes, and this
    process is the only one, it first moves into the leaf JURY_LEAF beside its bots."""
    offered, v1 = read(base / "cgroup.controllers").split(), v1_mounts()
    why = {}
    for name in LIMITS:
        if name not in offered:
            why[name] = (
                f"no cgroup v2 {name}: its controller is bound to cgroup v1 here"
                if name in v1
                else f"no cgroup v2 {name}: {base} is not given its controller"
                f" (cgroup.controllers: {' '.join(offered) or 'none'}): {ADVICE}"
            )
    wanted = [name for name in LIMITS if name not in why]
    if not wanted or set(wanted) <= set(read(base / "cgroup.subtree_control").split()):
        return {name: why.get(name, "") for name in LIMITS}
    try:
        _enable(base, " ".join(f"+{name}" for name in wanted))
    except OSError as exc:
        cause = (
            "other processes share the jury's group, and cgroup v2 gives controllers"
            " only to the children of a group without processes"
            if exc.errno == errno.EBUSY
            else exc.strerror
        )
        for name in wanted:
            why[name] = (
                f"no cgroup v2 {name}: cannot enable its controller in {base} ({cause}): {ADVICE}"
            )
    return {name: why.get(name, "") for name in LIMITS}


def _enable(base: Path, request: str) -> None:
    """Write `request` to base's cgroup.subtree_control; refused (EBUSY) as base holds
    processes, move this process into JURY_LEAF first if it is the only one."""
    control = base / "cgroup.subtree_control"
    try:
        write(control, request)
    except OSError as exc:
        if exc.errno != errno.EBUSY or read(base / "cgroup.procs").split() != [str(os.getpid())]:
            raise
        leaf = base / JURY_LEAF
        leaf.mkdir(exist_ok=True)
        write(leaf / "cgroup.procs", str(os.getpid()))
        write(control, request)


class BotGroup2(BotGroup):
    """One bot's cgroup v2 group `folder` (made by cgroups.new_group), with the `features`
    of CONTROLLERS the jury's group gives."""

    def __init__(
        self,
        folder: Path,
        features: set[str],
        memory_bytes: int | None,
        processes: int | None,
        overhead: int = 0,
    ) -> None:
        """`processes` caps the bot's own tasks; `overhead` more are allowed for the
        sandbox's own (bubblewrap outside and inside the PID namespace)."""
        self.dirs = dict.fromkeys(features, folder)
        self.memory_bytes = memory_bytes if "memory" in features else None
        self.processes = processes if "pids" in features else None
        if self.memory_bytes is not None:
            write(folder / "memory.max", str(self.memory_bytes))
            with contextlib.suppress(OSError):  # no swap accounting on this kernel
                write(folder / "memory.swap.max", "0")  # as v1's memsw: swap is no escape
        if self.processes is not None:
            write(folder / "pids.max", str(self.processes + overhead))
        self._procs_files = [str(folder / "cgroup.procs")]
        self._freezer = folder if "freezer" in features else None
        self._freeze_file, self._states = "cgroup.freeze", ("1", "0")
        self._list = self._folder = folder
        self._cpu_fd = (
            os.open(folder / "cpu.stat", os.O_RDONLY) if "cpuacct" in features else -1
        )  # kept: read twice an exchange
        self._pids_fd = (
            os.open(folder / "pids.events", os.O_RDONLY) if self.processes is not None else -1
        )
        self._kill = (folder / "cgroup.kill").exists()
        self.frozen = False

    def kill_all(self) -> None:
        """Kill every process of the group and wait until it is empty (2 s at most): one
        write to cgroup.kill (it also kills what forks meanwhile), else SIGKILL each."""
        if not self._kill:
            super().kill_all()
            return
        write(self._folder / "cgroup.kill", "1")
        deadline = time.monotonic() + 2.0
        while self.pids() and time.monotonic() < deadline:
            time.sleep(0.001)
        self.frozen = False  # nothing left to thaw

    def cpu_ns(self) -> int | None:
        """CPU nanoseconds used by every process and thread that was ever in the group
        (`usage_usec`, the first line of cpu.stat)."""
        if self._cpu_fd < 0:
            return None
        return int(os.pread(self._cpu_fd, 64, 0).split(None, 2)[1]) * 1000

    def _out_of_memory(self) -> bool:
        """Whether the kernel killed a process of the group for memory, or an allocation
        failed at the limit (`oom`; `max` also counts reclaims that freed enough)."""
        events = counts(self._folder / "memory.events")
        return events["oom_kill"] > 0 or events["oom"] > 0
