"""The sandbox a bot program runs in: bubblewrap namespaces, cgroups and rlimits.

`Sandbox` holds the limits (memory, processes, open files, file size, /tmp size, writable
folders); `Confinement` applies them to one process: the command line wrapped in
bubblewrap (no network, its own PID namespace, a read-only system, only the files its
command line names, a private capped /tmp), a `BotGroup` (memory, processes, CPU, freezer)
joined before exec, and rlimits. What this machine cannot do is said once on stderr and
reported by `protections()` (`botarena doctor`). `run()` runs a one-shot command (a
compiler) under the same sandbox. See docs/sandbox.md.
"""

from __future__ import annotations

import contextlib
import errno
import fnmatch
import json
import logging
import os
import re
import resource
import select
import shutil
import signal
import stat
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from functools import cache, partial
from pathlib import Path

from botarena.core import cgroups, shims
from botarena.core.rules import MEMORY_OPTION

log = logging.getLogger(__name__)
"""Warnings about what confines bots here: lines on stderr where logging is not configured
(Python's last-resort handler prints a warning's message alone), else wherever it says."""

SYSTEM_DIRS = ("/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32", "/opt")
"""Read-only in every sandbox: programs and libraries."""
SANDBOX_OWN = ("/dev", "/proc", "/sys", "/etc", "/run", "/var/run")
"""Trees the sandbox makes its own (a fresh /dev and /proc, a minimal /etc, no /sys, no
/run): a path a bot's command names there is the sandbox's, never the machine's bound over
it (binding /dev for a `/dev/null` argument made every device read-only, binding /etc showed
all of it, binding /run would hand a bot the sockets of the machine's services)."""
SHARED_FOLDERS = ("/", "/tmp")
"""Folders holding everyone's files: a file a bot's command names there is shown alone (a
bot in /tmp would otherwise see the machine's /tmp instead of its own)."""

ETC_ENTRIES = (
    "ld.so.cache",
    "ld.so.conf",
    "ld.so.conf.d",
    "ssl",
    "ca-certificates",
    "ca-certificates.conf",
    "localtime",
    "timezone",
    "alternatives",
    "nsswitch.conf",
    "host.conf",
    "hosts",
    "gai.conf",
    "protocols",
    "services",
    "os-release",
    "debian_version",
    "mime.types",
    "locale.alias",
    "fonts",
    "magic",
    "magic.mime",
    "python3",
    "python3.*",
    "java-*",
    "gcc",
    "rustc",
)
"""What a sandbox sees of /etc (read-only, globs allowed): what programs, their dynamic
loader and the toolchains (alternatives, java, gcc) read. Nothing secret: no shadow,
gshadow, ssh keys, sudoers; passwd and group are generated (see `etc_files`)."""

BOT_UID = 65534
BOT_GID = 65534
"""The user and group (nobody, nogroup) bots and builds run as when the jury is root."""

KEPT_ENV = ("PATH", "LANG", "LC_ALL", "LC_CTYPE", "TZ", "PYTHONPATH")
"""The jury's environment variables a sandboxed bot still sees (no tokens, no paths)."""

BOT_START_S = 5.0
"""How long the first pause waits for bubblewrap to start the bot (a few ms when idle)."""

IDLE_BETWEEN_TURNS_NS = 1_000_000
"""CPU a bot may use between its reply and its next turn and still be left running there
instead of stopped (ending its write and waiting on its input takes microseconds): more
once, and it is stopped between all its turns from then on."""

NAMESPACES = (
    "--unshare-user-try",
    "--unshare-pid",
    "--unshare-net",
    "--unshare-ipc",
    "--unshare-uts",
    "--unshare-cgroup-try",
)


@dataclass(frozen=True)
class Sandbox:
    """The limits for one bot (or one build command). `enabled=False`: none at all."""

    enabled: bool = True
    memory_mib: int = MEMORY_OPTION.default
    processes: int = 64
    """Processes and threads of the bot together."""
    open_files: int = 256
    file_size_mib: int = 64
    tmp_mib: int = 64
    writable: tuple[str, ...] = ()
    """Folders the bot may write to (bound read-write); everything else it sees is read-only."""

    def with_options(self, options: dict[str, object]) -> Sandbox:
        """This sandbox with `memory` (MiB) taken out of a game's `-o` options, if given."""
        if "memory" not in options:
            return self
        return replace(self, memory_mib=read_memory(options.pop("memory")))


DEFAULT = Sandbox()
NONE = Sandbox(enabled=False)


def read_memory(value: object) -> int:
    """The `memory` option in MiB (16 or more); raises ValueError naming the option."""
    try:
        mib = int(str(value))
    except ValueError:
        raise ValueError(f"option memory: {value!r} is not a whole number of MiB") from None
    assert MEMORY_OPTION.minimum is not None
    if mib < MEMORY_OPTION.minimum:
        raise ValueError(f"option memory: {mib} MiB is below the minimum {MEMORY_OPTION.minimum}")
    return mib


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


def namespaces() -> tuple[str, ...]:
    """bubblewrap's namespace options: as root no user namespace (it would map the bot's
    user to root outside, the owner of every system file), setpriv drops to BOT_UID."""
    if os.geteuid() == 0:
        return tuple(option for option in NAMESPACES if option != "--unshare-user-try")
    return NAMESPACES


def become_bot_user() -> list[str]:
    """The command prefix that runs a program as BOT_UID/BOT_GID with no supplementary
    groups, no capabilities and no way to gain any (no_new_privs: setuid files are inert)."""
    return [
        "setpriv",
        f"--reuid={BOT_UID}",
        f"--regid={BOT_GID}",
        "--clear-groups",
        "--inh-caps=-all",
        "--no-new-privs",
        "--",
    ]


def bot_user() -> tuple[int, int]:
    """The uid and gid sandboxed programs run as (outside their user namespace)."""
    return (BOT_UID, BOT_GID) if os.geteuid() == 0 else (os.getuid(), os.getgid())


@cache
def etc_files() -> dict[str, bytes]:
    """The generated passwd and group a sandbox sees: root and the bot's own user."""
    uid, gid = bot_user()
    user = "nobody" if uid == BOT_UID else "bot"
    group = "nogroup" if gid == BOT_GID else "bot"
    passwd = (
        "root:x:0:0:root:/tmp:/usr/sbin/nologin\n"
        f"{user}:x:{uid}:{gid}:{user}:/tmp:/usr/sbin/nologin\n"
    )
    return {"passwd": passwd.encode(), "group": f"root:x:0:\n{group}:x:{gid}:\n".encode()}


@cache
def etc_binds() -> tuple[str, ...]:
    """The bubblewrap arguments showing a sandbox its /etc: ETC_ENTRIES that exist here,
    read-only (the generated passwd and group come through descriptors, see `_wrap`)."""
    import glob

    args: list[str] = ["--dir", "/etc"]
    for pattern in ETC_ENTRIES:
        for path in sorted(glob.glob(os.path.join("/etc", pattern))):
            if os.path.exists(path):
                args += ["--ro-bind", path, path]
    return tuple(args)


PR_SET_CHILD_SUBREAPER = 36


def become_subreaper() -> None:
    """Make bots' orphaned grandchildren our children, so that `kill` can reap them."""
    try:
        import ctypes

        ctypes.CDLL(None, use_errno=True).prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0)
    except (OSError, AttributeError):  # not Linux: orphans go to init, which reaps them
        pass


PR_SET_PDEATHSIG = 1


def death_signal_setter(
    parent: int | None = None, signum: int = signal.SIGKILL
) -> Callable[[], None] | None:
    """A function for a child (between fork and exec, or a pool worker's start) that has
    the kernel send it `signum` (SIGKILL) when its parent (`parent`, default this process)
    dies, even by SIGKILL (PR_SET_PDEATHSIG). The kernel fires it when the *thread* that
    started the child ends, so a bot must be started by a thread that outlives its game
    (the referee's). None off Linux."""
    try:
        import ctypes

        prctl = ctypes.CDLL(None, use_errno=True).prctl
    except (OSError, AttributeError):
        return None
    jury = os.getpid() if parent is None else parent

    def set_death_signal() -> None:
        prctl(PR_SET_PDEATHSIG, int(signum), 0, 0, 0)
        if os.getppid() != jury:  # the jury died before the line above: follow it
            os._exit(1)

    return set_death_signal


def die_with_parent() -> None:
    """In a pool worker at its start: be killed when the process that started it dies, even
    by SIGKILL (a runner killed -9 leaves no worker behind)."""
    setter = death_signal_setter(os.getppid())
    if setter is not None:
        setter()


def reap_group(pgid: int, timeout: float = 2.0) -> None:
    """Reap this process's children left in process group `pgid`."""
    _reap(-pgid, timeout)


def _reap(which: int, timeout: float = 2.0) -> None:
    """Reap this process's children that `os.waitpid(which, ...)` names, until none is left
    (`timeout` seconds at most)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            pid, _ = os.waitpid(which, os.WNOHANG)
        except ChildProcessError:
            return
        if pid == 0:
            time.sleep(0.002)


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


def _covered(path: str, roots: list[str]) -> bool:
    return any(path == root or path.startswith(root.rstrip("/") + "/") for root in roots)


JURY_MARKERS = (
    ".botarena-build",
    "replays",
    "bots.toml",
    "*.db",
    "*.db-*",
    "*.sqlite",
    "*.sqlite3",
    "*.sqlite-*",
    "*.json.gz",
)
"""What in a folder belongs to the jury, not to a bot: stores, their journals, the build
cache, replays, the bots file. A bot file in such a folder is bound alone."""


@cache
def _jury_name() -> re.Pattern[str]:
    """JURY_MARKERS as one pattern: a folder of programs (/usr/bin) has thousands of names,
    each matched at every sandboxed start."""
    return re.compile("|".join(fnmatch.translate(marker) for marker in JURY_MARKERS))


def jury_files(folder: str) -> list[str]:
    """The jury's files and folders directly in `folder` (JURY_MARKERS), if any."""
    try:
        names = os.listdir(folder)
    except OSError:
        return []
    match = _jury_name().match
    return [os.path.join(folder, name) for name in sorted(names) if match(name)]


def _hide(paths: list[str]) -> list[str]:
    """bubblewrap options covering each of `paths` with something empty: a bot shown a
    folder (a `-cp .`) never sees the jury's store, replays or build cache in it."""
    args: list[str] = []
    for path in paths:  # a link leads nowhere: its target is not in the sandbox
        if not os.path.islink(path):
            args += ["--tmpfs", path] if os.path.isdir(path) else ["--ro-bind", "/dev/null", path]
    return args


_alone: set[str] = set()


def _say_alone(folder: str) -> None:
    """Say once per folder that a bot file in the jury's folder is shown alone."""
    if folder not in _alone:
        _alone.add(folder)
        log.warning(
            f"botarena: note: {folder} also holds the jury's files (store, replays, build"
            " cache): its bots see only the files their command names, not the folder"
        )


_unreadable: set[str] = set()


def _warn_unreadable(paths: list[str]) -> None:
    """Say once per path when the bots' user cannot use a bot's folder or file (a bot in a
    0700 folder of root's would not find its own files). A folder must be readable and
    walkable by others; a file shown alone readable, or at least runnable (a program)."""
    for path in paths:
        with contextlib.suppress(OSError):
            mode = os.stat(path).st_mode
            is_folder = stat.S_ISDIR(mode)
            usable = mode & 0o005 == 0o005 if is_folder else mode & 0o005 != 0
            if not usable and path not in _unreadable:
                _unreadable.add(path)
                fix = "o+rx" if is_folder else "o+r"
                log.warning(
                    f"botarena: WARNING: {path} is not readable by the bots' user"
                    f" ({BOT_UID}): its bot cannot read it (chmod {fix})"
                )


def site_folders() -> list[str]:
    """The jury's site-packages folders outside its prefix (an environment layered over
    another through a .pth file, as a test's fresh virtualenv over the jury's): a built-in
    bot run as a process imports botarena and its game from there."""
    return [
        str(Path(folder).resolve())
        for folder in sys.path
        if os.path.basename(folder) in ("site-packages", "dist-packages") and os.path.isdir(folder)
    ]


def game_packages(argv: list[str]) -> list[str]:
    """The folders of the installed games' top-level packages, when `argv` runs a module of
    one of them (`python -m botarena_connect4.bots.first`): a built-in bot sees the games'
    code read-only wherever it lies (an editable install's lies outside the Python
    installation), its own game's and those it builds on (connect4c's bots import
    connect4's)."""
    import importlib.util

    from botarena.core.entrypoints import entries

    modules = [argv[i + 1] for i in range(len(argv) - 1) if argv[i] == "-m"]
    tops = {entry.module.split(".")[0] for entry in entries().values()}
    if not any(module.split(".")[0] in tops for module in modules):
        return []
    folders = []
    for top in sorted(tops):
        try:
            spec = importlib.util.find_spec(top)
        except (ImportError, ValueError):
            continue
        if spec is not None and spec.submodule_search_locations:
            folders += [str(Path(folder).resolve()) for folder in spec.submodule_search_locations]
    return folders


def _parents(folders: list[str]) -> list[str]:
    """`--dir` options making every folder above a bound one (in the sandbox's own root or
    /tmp) walkable by the bot's user: bubblewrap would copy the host's modes (/root 0700)."""
    made: dict[str, None] = {}
    for folder in folders:
        for parent in reversed(Path(folder).parents):
            text = str(parent)
            if text not in ("/", "/tmp") and not _covered(text, list(SYSTEM_DIRS)):
                made[text] = None
    made = {text: None for text in made if text not in folders}
    return [arg for text in made for arg in ("--perms", "0755", "--dir", text)]


@dataclass(frozen=True)
class BwrapPlan:
    """Everything a sandbox's bubblewrap command line says, found out beforehand (files
    looked at, descriptors opened): `bwrap_argv` turns it into the command line."""

    bwrap: str
    namespaces: tuple[str, ...]
    as_root: bool
    """The jury runs as root: the bot becomes BOT_UID through setpriv, which needs these
    two capabilities kept for it."""
    info_fd: int
    seccomp_fd: int | None
    system: tuple[tuple[str, ...], ...]
    """The SYSTEM_DIRS options: ("--symlink", target, path) or ("--ro-bind", path, path)."""
    etc_binds: tuple[str, ...]
    etc_data: tuple[tuple[int, str], ...]
    """(descriptor, path in /etc) of each generated file."""
    tmp_bytes: int
    parents: tuple[str, ...]
    binds: tuple[tuple[str, str, tuple[str, ...]], ...]
    """(option, folder, the options hiding the jury's files in it)."""
    workdir: str
    argv: tuple[str, ...]


def bwrap_argv(plan: BwrapPlan) -> list[str]:
    """The bubblewrap command line of `plan`: namespaces, no capabilities, a session of its
    own, the system read-only, a minimal /etc, fresh /proc, /dev and /tmp, the bot's binds,
    then the bot (as BOT_UID when the jury is root)."""
    command = [plan.bwrap, *plan.namespaces, "--die-with-parent", "--cap-drop", "ALL"]
    command.append("--new-session")  # its own process group, no terminal to push keys to
    argv = list(plan.argv)
    if plan.as_root:  # setpriv (below) becomes the bot's user, then execs it
        command += ["--cap-add", "CAP_SETUID", "--cap-add", "CAP_SETGID"]
        argv = [*become_bot_user(), *argv]
    command += ["--info-fd", str(plan.info_fd)]
    if plan.seccomp_fd is not None:
        command += ["--seccomp", str(plan.seccomp_fd)]
    for system in plan.system:
        command += system
    command += [*plan.etc_binds, "--proc", "/proc", "--dev", "/dev"]
    command += ["--size", str(plan.tmp_bytes), "--perms", "1777", "--tmpfs", "/tmp"]
    for fd, path in plan.etc_data:
        command += ["--perms", "0644", "--ro-bind-data", str(fd), path]
    command += plan.parents
    for option, folder, hidden in plan.binds:
        command += [option, folder, folder, *hidden]
    return [*command, "--chdir", plan.workdir, "--", *argv]


def _data_fd(name: str, data: bytes) -> int:
    """A memory file holding `data`, read from its start: what bubblewrap copies in."""
    fd = os.memfd_create(name)
    os.write(fd, data)
    os.lseek(fd, 0, os.SEEK_SET)
    return fd


@dataclass(frozen=True)
class _Joined:
    """A bot that joined the referee's core (`Confinement.join_core`): its process, its
    cores on its turn (the referee's), between its turns (the others) and at its end."""

    pid: int
    turn: set[int]
    away: set[int]
    before: set[int]


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
    pgid: int = 0
    pass_fds: tuple[int, ...] = ()
    locked: bool = False
    """Whether the bot cannot leave its process group (seccomp), so SIGSTOP stops it all."""
    _bot_pgid: int = field(default=0, repr=False)
    _init: int = field(default=0, repr=False)
    _info: int = field(default=-1, repr=False)
    _info_text: bytes = field(default=b"", repr=False)
    _sandbox_pids: tuple[int, ...] = field(default=(), repr=False)
    _joined: _Joined | None = field(default=None, repr=False)
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
    _killed: list[int] = field(default_factory=list, repr=False)
    """The cgroup's processes `kill` killed: those that left the bot's process group became
    this process's children (it is a subreaper) unless a PID namespace's init took them."""

    def __post_init__(self) -> None:
        if not self.sandbox.enabled:
            self.env = {**os.environ, **self.env} if self.env else None
            return
        warn_once()
        bwrap, _ = bubblewrap()
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
            self.argv, self.cwd, self.env = self._wrap(bwrap)
        elif self.env:
            self.env = {**os.environ, **self.env}

    def _wrap(self, bwrap: str) -> tuple[list[str], str | None, dict[str, str]]:
        """The bwrap command line running `argv`: paths made absolute, each file or folder
        it names visible read-only, the first such outside the runtime its working folder.
        Looks at the files here and opens the descriptors bubblewrap reads; `bwrap_argv`
        writes the command line."""
        base = Path(self.cwd or os.getcwd())
        argv = list(self.argv)
        named: list[str] = []
        for index, arg in enumerate(argv):
            if arg and (index > 0 or os.sep in arg) and not arg.startswith("-"):
                path = base / arg
                with contextlib.suppress(OSError):  # not a path at all
                    if not path.exists():
                        continue
                    argv[index] = os.path.abspath(path)  # a venv's python stays itself
                    if _covered(argv[index], list(SANDBOX_OWN)):
                        continue
                    folder = argv[index] if path.is_dir() else os.path.dirname(argv[index])
                    if not path.is_dir() and folder in SHARED_FOLDERS:
                        named.append(argv[index])
                    elif not path.is_dir() and jury_files(folder):
                        _say_alone(folder)
                        named.append(argv[index])  # the file alone, not the jury's folder
                    else:
                        named.append(folder)
        runtime = [
            str(Path(sys.prefix).resolve()),
            str(Path(sys.base_prefix).resolve()),
            str(Path(__file__).resolve().parents[2]),
        ]
        runtime += game_packages(argv) + site_folders()
        program = shutil.which(argv[0], path=os.environ.get("PATH"))
        shim = None if program is None else shims.resolve(os.path.abspath(program))
        if shim is not None:  # pyenv's, asdf's: the real interpreter, its installation shown
            argv[0] = program = shim.program
            runtime += list(shim.folders)
        if program is not None:  # where it is, and where it really is (not the jury's)
            runtime += [
                folder
                for folder in dict.fromkeys(  # most often one folder: listed once
                    (os.path.dirname(os.path.abspath(program)), str(Path(program).resolve().parent))
                )
                if not jury_files(folder)
            ]
        self._info, info = os.pipe()  # bubblewrap says there its PID 1's pid
        os.set_blocking(self._info, False)
        self.pass_fds = (info,)
        seccomp = None
        lock, _ = group_lock()
        if lock is not None:
            seccomp = _data_fd("botarena-seccomp", lock)
            self.pass_fds += (seccomp,)
            self.locked = True
        system: list[tuple[str, ...]] = []
        mounted: list[str] = []
        for folder in SYSTEM_DIRS:
            if os.path.islink(folder):
                system.append(("--symlink", os.readlink(folder), folder))
            elif os.path.isdir(folder):
                system.append(("--ro-bind", folder, folder))
                mounted.append(folder)
        etc_data = []
        for name, text in etc_files().items():  # copied by bubblewrap: no file of ours
            fd = _data_fd(f"botarena-{name}", text)
            self.pass_fds += (fd,)
            etc_data.append((fd, f"/etc/{name}"))
        binds: list[tuple[str, str]] = []
        for folder in runtime:
            if not _covered(folder, mounted) and os.path.isdir(folder):
                binds.append(("--ro-bind", folder))
                mounted.append(folder)
        home = str(base.resolve()) if self.cwd else None
        own = [home] if home else []
        own += [folder for folder in named if not _covered(folder, runtime + mounted)]
        own = [folder for folder in own if folder != "/"]  # never the whole machine
        writable = [str(Path(folder).resolve()) for folder in self.sandbox.writable]
        for folder in dict.fromkeys(own):
            if not _covered(folder, writable):
                binds.append(("--ro-bind", folder))
        uid, gid = bot_user()
        for folder in writable:
            if os.geteuid() == 0:  # the bot's user writes there; bubblewrap (root
                with contextlib.suppress(OSError):  # without capabilities) enters it
                    os.chown(folder, uid, gid)
                    os.chmod(folder, os.stat(folder).st_mode | 0o755)
            binds.append(("--bind", folder))
        if os.geteuid() == 0:
            _warn_unreadable([folder for option, folder in binds if folder in own])
        hidden = {
            folder: tuple(_hide(jury_files(folder)))
            for _, folder in binds
            if os.path.isdir(folder) and not _covered(folder, runtime)
        }
        plan = BwrapPlan(
            bwrap=bwrap,
            namespaces=namespaces(),
            as_root=os.geteuid() == 0,
            info_fd=info,
            seccomp_fd=seccomp,
            system=tuple(system),
            etc_binds=etc_binds(),
            etc_data=tuple(etc_data),
            tmp_bytes=self.sandbox.tmp_mib << 20,
            parents=tuple(_parents([folder for _, folder in binds])),
            binds=tuple((option, folder, hidden.get(folder, ())) for option, folder in binds),
            workdir=(own[0] if os.path.isdir(own[0]) else os.path.dirname(own[0]))
            if own
            else "/tmp",
            argv=tuple(argv),
        )
        env = {key: os.environ[key] for key in KEPT_ENV if key in os.environ}
        env.update(self.env or {})
        env.update(HOME="/tmp", TMPDIR="/tmp")
        return bwrap_argv(plan), None, env

    # -- in the child, between fork and exec --------------------------------------------
    def preexec(self) -> None:
        """Join the bot's cgroups and set its rlimits (runs in the child before exec)."""
        if self.group is not None:
            self.group.enter()
        limits = [
            (resource.RLIMIT_NOFILE, self.sandbox.open_files),
            (resource.RLIMIT_FSIZE, self.sandbox.file_size_mib << 20),
            (resource.RLIMIT_CORE, 0),
        ]
        if self.group is None or self.group.memory_bytes is None:
            limits.append((resource.RLIMIT_AS, self.sandbox.memory_mib << 20))
        if (self.group is None or self.group.processes is None) and os.geteuid() != 0:
            limits.append((resource.RLIMIT_NPROC, self.sandbox.processes))
        for which, value in limits:
            with contextlib.suppress(ValueError, OSError):  # never above the jury's own
                hard = resource.getrlimit(which)[1]
                value = value if hard == resource.RLIM_INFINITY else min(value, hard)
                resource.setrlimit(which, (value, value))

    # -- in the jury --------------------------------------------------------------------
    def started(self, pid: int) -> None:
        """The process is running as `pid`, leader of its own process group."""
        _RUNNING[id(self)] = self
        self.pgid = pid
        self._bot_pgid = 0 if self.wrapped else pid
        for fd in self.pass_fds:
            os.close(fd)
        self.pass_fds = ()

    def _find_bot(self) -> None:
        """The bot's own process group, once bubblewrap has started it: its PID 1 is the
        outer process's child and leads a new session; the bot is that one's child."""
        if not self._init:
            self._read_info(0)
        try:
            with open(f"/proc/{self._init}/task/{self._init}/children") as handle:
                handle.read().split()[0]  # the bot has started
        except (OSError, ValueError, IndexError):
            return  # not started yet, or gone
        self._bot_pgid = self._init
        self._sandbox_pids = (self.pgid, self._init)

    def _await_bot(self, timeout: float) -> None:
        """Find the bot, waiting up to `timeout` seconds for bubblewrap to start it."""
        deadline = time.monotonic() + timeout
        self._read_info(timeout)
        while self._init and not self._bot_pgid and time.monotonic() < deadline:
            self._find_bot()
            if not self._bot_pgid:
                if self.wait_exit is not None and self.wait_exit():
                    return  # bubblewrap ended before starting the bot
                time.sleep(0.0005)

    def _read_info(self, timeout: float) -> None:
        """Learn bubblewrap's PID 1 from its --info-fd report (written right after it
        cloned it, maybe in pieces), waiting up to `timeout` seconds. The pipe stays open
        until `close`: bubblewrap would die of SIGPIPE writing to a closed one."""
        deadline = time.monotonic() + timeout
        while self._info >= 0 and not self._init:
            left = max(0.0, deadline - time.monotonic())
            if not select.select([self._info], [], [], left)[0]:
                return
            try:
                chunk = os.read(self._info, 4096)
            except BlockingIOError:
                continue
            if not chunk:  # bubblewrap ended without a report
                return
            self._info_text += chunk
            with contextlib.suppress(ValueError, KeyError, TypeError):
                self._init = int(json.loads(self._info_text)["child-pid"])

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
            with contextlib.suppress(OSError):
                os.sched_setaffinity(self._joined.pid, self._joined.away)
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
        try:
            if self._bot_pgid:
                os.killpg(self._bot_pgid, signal.SIGCONT)
        except (ProcessLookupError, PermissionError):
            pass
        if self._bot_pgid and group is not None and not self._busy_between_turns:
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
        if not self._bot_pgid:
            self._await_bot(BOT_START_S)
        if self._bot_pgid:
            try:  # noqa: SIM105 - twice per exchange: a bare try is cheapest
                os.killpg(self._bot_pgid, signal.SIGSTOP)
            except (ProcessLookupError, PermissionError):
                pass
        group = self.group
        if self.locked or group is None or not group.can_freeze:
            return
        if not self._multi:
            for pid in group.pids():
                try:
                    if pid not in self._sandbox_pids and os.getpgid(pid) != self._bot_pgid:
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
        if self.group is not None:
            pids = [pid for pid in self.group.pids() if pid not in self._sandbox_pids]
        elif self.wrapped:
            try:
                with open(f"/proc/{self._init}/task/{self._init}/children") as handle:
                    pids = [int(pid) for pid in handle.read().split()]
            except (OSError, ValueError):
                return False
        else:
            pids = [self.pgid]
        if len(pids) != 1:
            return False
        try:
            if len(os.listdir(f"/proc/{pids[0]}/task")) != 1:
                return False
            before = os.sched_getaffinity(pids[0])
            os.sched_setaffinity(pids[0], {core})
        except OSError:  # gone meanwhile
            return False
        self._joined = _Joined(pids[0], {core}, before - {core} or before, before)
        return True

    def leave_core_if_threaded(self) -> None:
        """Give a bot that joined a core every core back, for good, once it runs more than
        one thread (threads it started after its first reply, to think in parallel): each
        of its threads gets the cores it had. Checked where a turn is long (a listing of
        its threads, about 10 µs), not on every exchange."""
        joined = self._joined
        if joined is None:
            return
        try:
            threads = [int(tid) for tid in os.listdir(f"/proc/{joined.pid}/task")]
        except OSError:
            return
        if len(threads) > 1:
            self._joined = None
            for tid in threads:
                with contextlib.suppress(OSError):
                    os.sched_setaffinity(tid, joined.before)

    def to_turn_core(self) -> None:
        """Before a bot that joined a core gets its input: onto that core, to be woken
        there (about 1 µs; nothing when it has not joined)."""
        joined = self._joined
        if joined is not None:
            with contextlib.suppress(OSError):
                os.sched_setaffinity(joined.pid, joined.turn)

    def leave_core(self) -> None:
        """Give a bot that joined a core (`join_core`) its cores back, to end in parallel
        with the others (Python bots on one core took 22 ms to end, 13 ms spread)."""
        if self._joined is not None:
            with contextlib.suppress(OSError):
                os.sched_setaffinity(self._joined.pid, self._joined.before)
            self._joined = None

    def kill(self) -> None:
        """SIGKILL the process groups and every process in the bot's cgroup."""
        self._joined = None  # its pid may soon be another process's
        if self.wrapped and not self._init:
            self._read_info(1.0)  # to kill and reap bubblewrap's PID 1 too
        groups = {self.pgid, self._bot_pgid, self._init} - {0}
        for pgid in groups:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(pgid, signal.SIGKILL)
        if self.group is not None:
            self._killed += self.group.pids()
            self.group.kill_all()
        for pgid in groups:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(pgid, signal.SIGCONT)

    def reap(self) -> None:
        """Reap what is left of the bot's processes that became this process's children
        (bubblewrap's PID 1 is handed to us, as subreaper, when the outer process ends
        first; without bubblewrap, any process of it outside its process group); call once
        the outer process is reaped."""
        for pgid in {self.pgid, self._bot_pgid, self._init} - {0}:
            reap_group(pgid)
        for pid in self._killed:
            _reap(pid)
        self._killed = []

    def cpu_s(self) -> float | None:
        """CPU seconds of all the bot's processes and threads, or None without cpuacct."""
        if self.group is None:
            return None
        used = self.group.cpu_ns()
        return None if used is None else used / 1e9

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
        if self._info >= 0:
            os.close(self._info)
            self._info = -1


_RUNNING: dict[int, Confinement] = {}
"""The confinements started here and not closed yet, for `kill_all`."""


def kill_all() -> None:
    """Kill every process of every bot and command this process started and has not closed:
    for a process about to end at once (a pool worker whose runner died), so nothing of its
    games outlives it, not even a bubblewrap still setting up."""
    for box in list(_RUNNING.values()):
        with contextlib.suppress(Exception):  # ending anyway: kill what can be killed
            box.kill()


def run(
    argv: list[str],
    *,
    cwd: str,
    writable: tuple[str, ...] | list[str] = (),
    timeout: float | None = None,
    memory_mib: int | None = None,
    input: bytes | None = None,
    env: dict[str, str] | None = None,
    sandbox: Sandbox = DEFAULT,
    output_cap: int | None = None,
) -> subprocess.CompletedProcess[bytes]:
    """Run a one-shot command (a compiler) in the sandbox, like `subprocess.run` with
    captured output: `cwd` is its working folder (read-only unless in `writable`); of each
    of stdout and stderr at most `output_cap` bytes are kept (the rest is read and dropped).

    Raises `subprocess.TimeoutExpired` after `timeout` seconds (every process of it killed
    first); returns the CompletedProcess otherwise, a signal death as a negative code."""
    settings = replace(sandbox, writable=tuple(writable) or sandbox.writable)
    if memory_mib is not None:
        settings = replace(settings, memory_mib=memory_mib)
    box = Confinement(list(argv), settings, cwd=cwd, env=env)
    become_subreaper()  # bubblewrap's processes left by the kill come to us, to be reaped
    try:
        proc = subprocess.Popen(
            box.argv,
            cwd=box.cwd,
            env=box.env,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            start_new_session=True,
            pass_fds=box.pass_fds,
            preexec_fn=partial(_dying_with_us, death_signal_setter(), box, settings.enabled),
        )
        box.started(proc.pid)
        try:
            out, err = _communicate(proc, input, timeout, output_cap)
        except subprocess.TimeoutExpired:
            box.kill()
            if output_cap is None:
                proc.communicate()
            raise
        finally:
            box.kill()  # nothing it started outlives it
            proc.wait()
            box.reap()
            for stream in (proc.stdin, proc.stdout, proc.stderr):
                if stream is not None:
                    stream.close()
        code = box.exit_code(proc.returncode)
        return subprocess.CompletedProcess(list(argv), code, out, err)
    finally:
        box.close()


def _dying_with_us(dies: Callable[[], None] | None, box: Confinement, confined: bool) -> None:
    """Between fork and exec of a one-shot command: it dies with this process, even killed
    -9 (bubblewrap's own --die-with-parent comes only after its set-up; a command run
    without bubblewrap has no other tie), then joins its confinement."""
    if dies is not None:
        dies()
    if confined:
        box.preexec()


def _communicate(
    proc: subprocess.Popen[bytes], data: bytes | None, timeout: float | None, cap: int | None
) -> tuple[bytes, bytes]:
    """`proc.communicate(data, timeout)` keeping at most `cap` bytes of each output (None:
    all); raises TimeoutExpired holding what it said so far."""
    if cap is None:
        return proc.communicate(data, timeout=timeout)
    import selectors

    assert proc.stdin is not None and proc.stdout is not None and proc.stderr is not None
    with contextlib.suppress(BrokenPipeError):
        if data:
            proc.stdin.write(data)
        proc.stdin.close()
    kept = {proc.stdout.fileno(): bytearray(), proc.stderr.fileno(): bytearray()}
    deadline = None if timeout is None else time.monotonic() + timeout
    with selectors.DefaultSelector() as selector:
        for stream in (proc.stdout, proc.stderr):
            selector.register(stream.fileno(), selectors.EVENT_READ)
        while selector.get_map():
            left = None if deadline is None else deadline - time.monotonic()
            if left is not None and left <= 0:
                raise subprocess.TimeoutExpired(
                    proc.args,
                    timeout or 0,
                    bytes(kept[proc.stdout.fileno()]),
                    bytes(kept[proc.stderr.fileno()]),
                )
            for key, _ in selector.select(left):
                chunk = os.read(key.fd, 65536)
                if not chunk:
                    selector.unregister(key.fd)
                elif len(kept[key.fd]) < cap:
                    kept[key.fd] += chunk[: cap - len(kept[key.fd])]
    proc.wait(None if deadline is None else max(0.0, deadline - time.monotonic()))
    return bytes(kept[proc.stdout.fileno()]), bytes(kept[proc.stderr.fileno()])
