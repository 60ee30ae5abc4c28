"""What a sandbox shows a bot, as data: the binds, the generated /etc, the user and the
namespaces, and `bwrap_argv`, the bubblewrap command line they make. Looks at files here,
starts and opens nothing."""

from __future__ import annotations

import fnmatch
import os
import re
import sys
from dataclasses import dataclass
from functools import cache
from pathlib import Path

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


NAMESPACES = (
    "--unshare-user-try",
    "--unshare-pid",
    "--unshare-net",
    "--unshare-ipc",
    "--unshare-uts",
    "--unshare-cgroup-try",
)


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
    read-only (the generated passwd and group come through descriptors, see `wrap.py`)."""
    import glob

    args: list[str] = ["--dir", "/etc"]
    for pattern in ETC_ENTRIES:
        for path in sorted(glob.glob(os.path.join("/etc", pattern))):
            if os.path.exists(path):
                args += ["--ro-bind", path, path]
    return tuple(args)


def covered(path: str, roots: list[str]) -> bool:
    """Whether `path` is one of `roots` or inside one."""
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


def hide(paths: list[str]) -> list[str]:
    """bubblewrap options covering each of `paths` with something empty: a bot shown a
    folder (a `-cp .`) never sees the jury's store, replays or build cache in it."""
    args: list[str] = []
    for path in paths:  # a link leads nowhere: its target is not in the sandbox
        if not os.path.islink(path):
            args += ["--tmpfs", path] if os.path.isdir(path) else ["--ro-bind", "/dev/null", path]
    return args


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


def parents(folders: list[str]) -> list[str]:
    """`--dir` options making every folder above a bound one (in the sandbox's own root or
    /tmp) walkable by the bot's user: bubblewrap would copy the host's modes (/root 0700)."""
    made: dict[str, None] = {}
    for folder in folders:
        for parent in reversed(Path(folder).parents):
            text = str(parent)
            if text not in ("/", "/tmp") and not covered(text, list(SYSTEM_DIRS)):
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
