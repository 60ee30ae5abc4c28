"""The cgroup backends: the choice (BOTARENA_CGROUPS), cgroup v2 groups on this machine's
v2 hierarchy (CPU, freezer, kill), and the v2 memory and pids logic this machine cannot
exercise (its memory and pids controllers are bound to v1) on fake v2 folders."""

from __future__ import annotations

import contextlib
import errno
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from botarena.core import cgroups, sandbox
from botarena.core.cgroups import v2 as cgroups2
from conftest import debian_program, leftovers

V2 = Path("/sys/fs/cgroup/unified")
"""This machine's cgroup v2 mount (hybrid: v1 holds memory and pids)."""

FILES = (
    "cgroup.procs",
    "cgroup.freeze",
    "cgroup.kill",
    "cpu.stat",
    "memory.max",
    "memory.swap.max",
    "memory.events",
    "pids.max",
    "pids.events",
)
"""The files of a v2 group the backend uses."""

ALL = {"memory", "pids", "cpuacct", "freezer"}


def fake_group(folder: Path, **texts: str) -> Path:
    """A folder with a v2 group's files, empty unless given (`memory_events=...`)."""
    folder.mkdir()
    for name in FILES:
        (folder / name).write_text(texts.get(name.replace(".", "_"), ""))
    return folder


@pytest.mark.parametrize("cgroups_backend", ["v2"], indirect=True)
def test_v2_is_chosen_when_forced(cgroups_backend: str) -> None:
    found = cgroups.available()
    assert {key: (c.version, c.name, c.path) for key, c in found.items()} == {
        "memory": (2, "memory", None),
        "pids": (2, "pids", None),
        "cpuacct": (2, "cpu.stat", V2),
        "freezer": (2, "cgroup.freeze", V2),
    }
    assert found["memory"].reason == (
        "no cgroup v2 memory: its controller is bound to cgroup v1 here"
    )


@pytest.mark.parametrize("cgroups_backend", [""], indirect=True)
def test_v1_is_chosen_where_usable(cgroups_backend: str) -> None:
    found = cgroups.available()
    assert [(c.version, c.name, c.path is not None) for c in found.values()] == [
        (1, "memory", True),
        (1, "pids", True),
        (1, "cpuacct", True),
        (1, "freezer", True),
    ]


@pytest.mark.parametrize(
    ("cgroups_backend", "reason"),
    [
        ("off", "cgroups off: BOTARENA_CGROUPS=off"),
        ("v3", "BOTARENA_CGROUPS='v3' is none of v1, v2, off"),
    ],
    indirect=["cgroups_backend"],
)
def test_off_or_unknown_gives_no_cgroup(cgroups_backend: str, reason: str) -> None:
    assert [(c.path, c.reason) for c in cgroups.available().values()] == [(None, reason)] * 4
    group = cgroups.new_group(64 << 20, 64)
    assert (group.memory_bytes, group.processes, group.cpu_ns(), group.can_freeze) == (
        None,
        None,
        None,
        False,
    )


# -- real cgroup v2 groups (this machine's v2 hierarchy, as root) ----------------------


def spinner(group: cgroups.BotGroup, marker: str) -> subprocess.Popen[bytes]:
    """A process in `group` whose child, in a session of its own, spins (marked)."""
    script = (
        "import os, time\n"
        "if os.fork() == 0:\n    os.setsid()\n    while True:\n        pass\n"
        "time.sleep(60)\n"
    )
    return subprocess.Popen([sys.executable, "-c", script, marker], preexec_fn=group.enter)


def reap(pids: list[int]) -> None:
    """Reap those of `pids` that became this process's children: the spinner's orphaned
    child does when an earlier test made this process a subreaper (as a jury is)."""
    for pid in pids:
        with contextlib.suppress(ChildProcessError):
            os.waitpid(pid, 0)


@pytest.mark.parametrize("cgroups_backend", ["v2"], indirect=True)
def test_v2_group_counts_freezes_and_kills_a_setsid_child(
    cgroups_backend: str, tmp_path: Path
) -> None:
    """The child spins: its CPU is counted, none while frozen, some again once thawed;
    cgroup.kill then leaves no process and the group goes."""
    group = cgroups.new_group(64 << 20, 64)
    assert isinstance(group, cgroups2.BotGroup2)
    folder = group.dirs["cpuacct"]
    assert folder.parent == V2
    marker = str(tmp_path / "spinner")
    parent = spinner(group, marker)
    try:
        while len(group.pids()) < 2:
            time.sleep(0.01)
        time.sleep(0.2)
        assert group.cpu_ns() > 10_000_000
        group.freeze()
        time.sleep(0.05)  # freezing is asynchronous
        frozen = group.cpu_ns()
        time.sleep(0.3)
        assert group.cpu_ns() - frozen < 5_000_000
        group.thaw()
        time.sleep(0.3)
        assert group.cpu_ns() - frozen > 20_000_000
        group.freeze()  # cgroup.kill kills frozen processes too
        killed = group.pids()
        group.remove()
        parent.wait(timeout=5)
        reap(killed)
        assert parent.returncode == -signal.SIGKILL
        assert leftovers(marker) == []
        assert not folder.exists()
    finally:
        parent.kill()
        parent.wait()


@pytest.mark.parametrize("cgroups_backend", ["v2"], indirect=True)
def test_v2_group_without_cgroup_kill_kills_each_process(
    cgroups_backend: str, tmp_path: Path
) -> None:
    """Before Linux 5.14 (no cgroup.kill) every process is SIGKILLed until none is left."""
    group = cgroups.new_group(64 << 20, 64)
    group._kill = False  # as on an older kernel
    marker = str(tmp_path / "spinner")
    parent = spinner(group, marker)
    while len(group.pids()) < 2:
        time.sleep(0.01)
    killed = group.pids()
    group.remove()
    parent.wait(timeout=5)
    reap(killed)
    assert leftovers(marker) == []


@pytest.fixture
def no_bubblewrap(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sandbox.probes, "bubblewrap", lambda: (None, "off in this test"))


@pytest.mark.parametrize("cgroups_backend", ["v1", "v2"], indirect=True)
@pytest.mark.slow
def test_without_bubblewrap_the_cgroup_kills_a_double_forked_child(
    cgroups_backend: str, no_bubblewrap: None, tmp_path: Path
) -> None:
    """No PID namespace: only the bot's cgroup reaches its child in a session of its own
    (which lets go of the output pipes, so the command's end is not waited for) and that
    one's child; both are killed with the command past its timeout, and reaped (they became
    this process's children if an earlier test made it a subreaper, as a jury is)."""
    marker = str(tmp_path / "marked")
    script = (
        "import os, subprocess, sys, time\n"
        "if os.fork() == 0:\n    os.setsid()\n"
        "    null = os.open(os.devnull, os.O_WRONLY)\n"
        "    os.dup2(null, 1)\n    os.dup2(null, 2)\n"
        "    subprocess.Popen(['/bin/sh', '-c', 'sleep 600; :', sys.argv[1]])\n"
        "time.sleep(600)\n"
    )
    with pytest.raises(subprocess.TimeoutExpired):
        sandbox.run([sys.executable, "-c", script, marker], cwd=str(tmp_path), timeout=1)
    assert leftovers(marker) == []


@pytest.mark.parametrize("cgroups_backend", ["off"], indirect=True)
def test_off_bounds_memory_by_rlimit(cgroups_backend: str, tmp_path: Path) -> None:
    """No cgroup: RLIMIT_AS makes the allocation fail inside the command (a MemoryError)
    instead of the kernel killing it."""
    debian_program("bwrap", "bubblewrap")
    done = sandbox.run(
        [sys.executable, "-c", "x = b'm' * (200 << 20)"],
        cwd=str(tmp_path),
        memory_mib=64,
        timeout=60,
    )
    assert done.returncode == 1
    assert b"MemoryError" in done.stderr


# -- cgroup v2 memory and pids, on fake groups ------------------------------------------


def test_v2_group_writes_its_limits(tmp_path: Path) -> None:
    folder = fake_group(tmp_path / "bot", cpu_stat="usage_usec 1500\nuser_usec 1000\n")
    group = cgroups2.BotGroup2(folder, ALL, 64 << 20, 64, overhead=2)
    assert [
        (folder / name).read_text() for name in ("memory.max", "memory.swap.max", "pids.max")
    ] == [str(64 << 20), "0", "66"]
    assert (group.memory_bytes, group.processes, group.cpu_ns()) == (64 << 20, 64, 1_500_000)
    group.freeze()
    assert (folder / "cgroup.freeze").read_text() == "1"
    group.thaw()
    assert (folder / "cgroup.freeze").read_text() == "0"


def test_v2_group_without_controllers_writes_no_limit(tmp_path: Path) -> None:
    """The jury's group could not enable memory and pids: no cap, so the rlimits apply."""
    folder = fake_group(tmp_path / "bot", memory_events="oom_kill 1\n", pids_events="max 9\n")
    group = cgroups2.BotGroup2(folder, {"cpuacct", "freezer"}, 64 << 20, 64)
    assert (group.memory_bytes, group.processes) == (None, None)
    assert [(folder / name).read_text() for name in ("memory.max", "pids.max")] == ["", ""]
    assert (group.limit_reason(), group.at_process_limit()) == ("", False)


@pytest.mark.parametrize(
    ("memory_events", "pids_events", "reason"),
    [
        ("low 0\nhigh 0\nmax 0\noom 0\noom_kill 0\noom_group_kill 0\n", "max 0\n", ""),
        ("low 0\nhigh 0\nmax 7\noom 0\noom_kill 0\noom_group_kill 0\n", "max 0\n", ""),
        (
            "low 0\nhigh 0\nmax 9\noom 1\noom_kill 0\noom_group_kill 0\n",
            "max 0\n",
            "memory limit 64 MiB",
        ),
        (
            "low 0\nhigh 0\nmax 9\noom 1\noom_kill 1\noom_group_kill 0\n",
            "max 3\n",
            "memory limit 64 MiB",
        ),
        (
            "low 0\nhigh 0\nmax 0\noom 0\noom_kill 0\noom_group_kill 0\n",
            "max 3\n",
            "more than 64 processes",
        ),
    ],
)
def test_v2_limit_reasons(
    memory_events: str, pids_events: str, reason: str, tmp_path: Path
) -> None:
    """v1's words. `max` alone (reclaim brought the group back under its limit) is no
    memory fault: a bot whose page cache was trimmed may crash for a reason of its own."""
    folder = fake_group(tmp_path / "bot", memory_events=memory_events, pids_events=pids_events)
    group = cgroups2.BotGroup2(folder, ALL, 64 << 20, 64)
    assert group.limit_reason() == reason
    assert group.at_process_limit() == (pids_events != "max 0\n")


def jury_group(tmp_path: Path, offered: str, enabled: str, procs: list[int]) -> Path:
    """A fake v2 group of the jury: its offered and enabled controllers, its processes."""
    base = tmp_path / "scope"
    base.mkdir()
    (base / "cgroup.controllers").write_text(offered + "\n")
    (base / "cgroup.subtree_control").write_text(enabled + "\n")
    (base / "cgroup.procs").write_text("".join(f"{pid}\n" for pid in procs))
    return base


class FakeKernel:
    """Writes to fake v2 groups: a file's text replaced; a move into a group empties its
    parent's cgroup.procs; cgroup.subtree_control refuses with `refuse` (an errno) if set,
    else with EBUSY while its group holds processes (the no-internal-processes rule)."""

    def __init__(self) -> None:
        self.refuse = 0
        self.log: list[str] = []

    def write(self, path: Path, text: str) -> None:
        if path.name == "cgroup.subtree_control":
            if self.refuse:
                raise OSError(self.refuse, os.strerror(self.refuse))
            if (path.parent / "cgroup.procs").read_text().split():
                raise OSError(errno.EBUSY, os.strerror(errno.EBUSY))
        if path.name == "cgroup.procs":
            (path.parent.parent / "cgroup.procs").write_text("")
        path.write_text(text)
        self.log.append(f"{path.parent.name}/{path.name}: {text}")


@pytest.fixture
def kernel(monkeypatch: pytest.MonkeyPatch) -> FakeKernel:
    """A FakeKernel behind cgroups2's writes, on a machine without cgroup v1."""
    fake = FakeKernel()
    monkeypatch.setattr(cgroups2, "write", fake.write)
    monkeypatch.setattr(cgroups2, "v1_mounts", dict)
    return fake


def test_a_lone_jury_moves_into_a_leaf_to_enable_controllers(
    tmp_path: Path, kernel: FakeKernel
) -> None:
    """The jury alone in its group (a systemd-run scope): EBUSY, so it moves into
    botarena-jury and enables memory and pids for its bots' groups beside it."""
    base = jury_group(tmp_path, "cpu io memory pids", "", [os.getpid()])
    assert cgroups2.enable(base) == {"memory": "", "pids": ""}
    assert kernel.log == [
        f"botarena-jury/cgroup.procs: {os.getpid()}",
        "scope/cgroup.subtree_control: +memory +pids",
    ]
    assert (base / "cgroup.procs").read_text() == ""


def test_a_jury_in_its_leaf_makes_bot_groups_beside_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A jury process started in botarena-jury (a tournament's forkserver worker, forked
    after the jury moved there) puts its bots' groups beside it, not inside."""
    seen = []
    monkeypatch.setattr(cgroups2, "v2_mount", lambda: str(tmp_path))
    monkeypatch.setattr(cgroups2, "_own_group", lambda: "/user.slice/run-1.scope/botarena-jury")
    monkeypatch.setattr(cgroups2, "usable", lambda base: seen.append(base) or {})
    cgroups2.available()
    assert seen == [tmp_path / "user.slice" / "run-1.scope"]


def test_a_jury_sharing_its_group_stays_and_says_why(tmp_path: Path, kernel: FakeKernel) -> None:
    base = jury_group(tmp_path, "memory pids", "", [1234, os.getpid()])
    why = (
        f"no cgroup v2 memory: cannot enable its controller in {base} (other processes"
        " share the jury's group, and cgroup v2 gives controllers only to the children of"
        " a group without processes): run the jury in a group of its own: systemd-run"
        " --user --scope -p Delegate=yes botarena ..."
    )
    assert cgroups2.enable(base) == {"memory": why, "pids": why.replace("memory", "pids")}
    assert kernel.log == []
    assert not (base / "botarena-jury").exists()


def test_controllers_already_enabled_need_no_write(tmp_path: Path, kernel: FakeKernel) -> None:
    base = jury_group(tmp_path, "memory pids", "memory pids", [])
    assert cgroups2.enable(base) == {"memory": "", "pids": ""}
    assert kernel.log == []


def test_controllers_not_given_or_refused_are_explained(tmp_path: Path, kernel: FakeKernel) -> None:
    """A scope without Delegate=yes is given no memory controller; a write refused for
    another reason than EBUSY is reported with its error."""
    base = jury_group(tmp_path, "cpu pids", "", [])
    kernel.refuse = errno.EACCES
    assert cgroups2.enable(base) == {
        "memory": f"no cgroup v2 memory: {base} is not given its controller"
        " (cgroup.controllers: cpu pids): run the jury in a group of its own:"
        " systemd-run --user --scope -p Delegate=yes botarena ...",
        "pids": f"no cgroup v2 pids: cannot enable its controller in {base} (Permission"
        " denied): run the jury in a group of its own: systemd-run --user --scope"
        " -p Delegate=yes botarena ...",
    }
    assert kernel.log == []


@pytest.mark.parametrize("cgroups_backend", ["v2"], indirect=True)
def test_doctor_says_why_v2_is_off_and_what_to_do(
    cgroups_backend: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A desktop user's own group, not delegated: no group can be made there."""
    monkeypatch.setattr(cgroups2, "_own_group", lambda: "/user.slice/not-delegated")
    found = {item.name: (item.on, item.how) for item in sandbox.protections()}
    why = (
        f"cannot create a cgroup v2 group in {V2 / 'user.slice/not-delegated'} (No such"
        " file or directory): run the jury in a group of its own: systemd-run --user"
        " --scope -p Delegate=yes botarena ..."
    )
    assert found["memory"] == (True, f"rlimit RLIMIT_AS per process ({why})")
    assert found["processes"] == (False, why)
    assert found["CPU accounting"] == (True, f"/proc of the bot's process group ({why})")
