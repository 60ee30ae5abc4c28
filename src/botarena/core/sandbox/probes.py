"""What this machine offers to confine bots (`botarena doctor`): bubblewrap, the cgroups,
the seccomp group lock, each protection on or why not, said once on stderr."""

from __future__ import annotations

import errno
import logging
import os
import shutil
import subprocess
import tempfile
from dataclasses import dataclass
from functools import cache

from botarena.core import cgroups
from botarena.core.sandbox.plan import BOT_UID, bot_user, namespaces
from botarena.core.sandbox.processes import become_subreaper, reap_group

log = logging.getLogger(__package__)
"""Warnings about what confines bots here: lines on stderr where logging is not configured
(Python's last-resort handler prints a warning's message alone), else wherever it says."""


@dataclass(frozen=True)
class Protection:
    """One protection of `botarena doctor`: whether it is on, how, or why not."""

    name: str
    on: bool
    how: str


@cache
def bubblewrap() -> tuple[str | None, str]:
    """The bwrap program when it can create the sandbox's namespaces here, or why not."""
    path = shutil.which("bwrap")
    if path is None:
        return None, "bubblewrap is not installed (Debian: apt-get install bubblewrap)"
    become_subreaper()  # bubblewrap's inner process, if it outlives the outer, comes to us
    try:
        probe = subprocess.Popen(
            [path, *namespaces(), "--die-with-parent", "--ro-bind", "/", "/", "true"],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            start_new_session=True,
        )
    except OSError as exc:
        return None, f"bwrap does not run ({exc})"
    try:
        _, stderr = probe.communicate(timeout=10)
    except subprocess.TimeoutExpired:
        probe.kill()
        stderr = b"timed out"
    reap_group(probe.pid)
    if probe.returncode != 0:
        error = stderr.decode(errors="replace").strip().splitlines()
        return None, (
            "bwrap cannot create namespaces here (user namespaces disabled?): "
            + (error[-1] if error else f"exit code {probe.returncode}")
        )
    return path, ""


@cache
def group_lock() -> tuple[bytes | None, str]:
    """A seccomp program refusing setsid and setpgid (EPERM), so that every process of a
    bot stays in its process group and one SIGSTOP stops them all; or why there is none."""
    try:
        import pyseccomp
    except (ImportError, OSError) as exc:  # the library or libseccomp.so.2 is missing
        return None, f"no seccomp ({exc})"
    rules = pyseccomp.SyscallFilter(defaction=pyseccomp.ALLOW)
    for name in ("setsid", "setpgid"):
        rules.add_rule(pyseccomp.ERRNO(errno.EPERM), name)
    with tempfile.TemporaryFile() as handle:
        rules.export_bpf(handle)
        handle.seek(0)
        return handle.read(), ""


def protections() -> list[Protection]:
    """What a sandboxed bot is protected by on this machine, each with how or why not."""
    bwrap, why = bubblewrap()
    groups = cgroups.available()

    def group(name: str, how: str, fallback: str = "") -> tuple[bool, str]:
        if groups[name].path is not None:
            return True, f"cgroup v{groups[name].version} {groups[name].name}: {how}"
        reason = groups[name].reason
        return (True, f"{fallback} ({reason})") if fallback else (False, reason)

    root = os.geteuid() == 0
    table = [
        (
            "network",
            bwrap is not None,
            "own network namespace, no interface but its own loopback" if bwrap else why,
        ),
        (
            "PID namespace",
            bwrap is not None,
            "own PID namespace: every process ends with the bot" if bwrap else why,
        ),
        (
            "filesystem",
            bwrap is not None,
            "read-only system, only the files its command names, private /tmp" if bwrap else why,
        ),
        (
            "memory",
            *group(
                "memory",
                "limit per bot, killed by the kernel past it",
                "rlimit RLIMIT_AS per process",
            ),
        ),
        (
            "processes",
            *group(
                "pids",
                "limit per bot (processes and threads)",
                "" if root else "rlimit RLIMIT_NPROC per user",
            ),
        ),
        (
            "CPU accounting",
            *group(
                "cpuacct", "every process and thread of the bot", "/proc of the bot's process group"
            ),
        ),
        ("freezer", *group("freezer", "every process of the bot frozen between turns", "")),
    ]
    uid, gid = bot_user()
    table.insert(
        3,
        (
            "user",
            bwrap is not None and uid != 0,
            f"uid {uid}, gid {gid}"
            + (" (nobody, nogroup): no capabilities, no new privileges" if uid == BOT_UID else "")
            if bwrap
            else why,
        ),
    )
    table.insert(
        4,
        (
            "/etc secrets",
            bwrap is not None,
            "hidden: a minimal /etc (generated passwd and group, loader cache, certs,"
            " timezone, toolchain configs), no shadow, gshadow, ssh"
            if bwrap
            else why,
        ),
    )
    lock, lock_why = group_lock()
    if bwrap is not None and lock is not None:
        table[-1] = (
            "freezer",
            True,
            "SIGSTOP to the bot's process group, which no process"
            " of it can leave (seccomp refuses setsid and setpgid)",
        )
    elif groups["freezer"].path is None:
        table[-1] = (
            "freezer",
            False,
            "SIGSTOP reaches only the bot's process group: "
            + groups["freezer"].reason
            + f"; {lock_why or why}",
        )
    return [Protection(name, on, how) for name, on, how in table]


def confinement_missing() -> list[str]:
    """What this machine lacks for the sandbox to confine strangers' code (bubblewrap, and
    the memory and pids cgroups), each with its reason; empty when nothing is missing. A
    tournament or contest site refuses uploaded bots without them unless told otherwise."""
    missing = []
    bwrap, why = bubblewrap()
    if bwrap is None:
        missing.append(f"bubblewrap ({why})")
    groups = cgroups.available()
    missing += [
        f"the {name} cgroup ({groups[name].reason})"
        for name in ("memory", "pids")
        if groups[name].path is None
    ]
    return missing


_warned = False


def warn_once() -> None:
    """Say on stderr, once per process, which protections are off on this machine."""
    global _warned
    if _warned:
        return
    _warned = True
    off = [item for item in protections() if not item.on]
    if off:
        log.warning(
            "botarena: WARNING: bots run with weaker protection here: "
            + "; ".join(f"{item.name} off ({item.how})" for item in off)
            + " (botarena doctor tells more)"
        )
