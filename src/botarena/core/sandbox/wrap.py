"""A command wrapped in bubblewrap: the plan found out from the files its command line
names and the runtime it needs, and the descriptors bubblewrap reads opened (its report,
the seccomp program, the generated /etc)."""

from __future__ import annotations

import contextlib
import logging
import os
import shutil
import stat
import sys
from dataclasses import dataclass
from pathlib import Path

from botarena.core import shims
from botarena.core.sandbox import probes
from botarena.core.sandbox.limits import Sandbox
from botarena.core.sandbox.plan import (
    BOT_UID,
    KEPT_ENV,
    SANDBOX_OWN,
    SHARED_FOLDERS,
    SYSTEM_DIRS,
    BwrapPlan,
    bot_user,
    bwrap_argv,
    covered,
    etc_binds,
    etc_files,
    game_packages,
    hide,
    jury_files,
    namespaces,
    parents,
    site_folders,
)

log = logging.getLogger(__package__)


@dataclass(frozen=True)
class Wrapped:
    """A command ready to start in bubblewrap, with what its confinement keeps of it."""

    argv: list[str]
    env: dict[str, str]
    pass_fds: tuple[int, ...]
    """The descriptors bubblewrap reads, to pass to it and close once it started."""
    info: int
    """The read end of bubblewrap's --info-fd pipe (non-blocking), where it reports its PID 1."""
    locked: bool
    """Whether the bot cannot leave its process group (seccomp), so SIGSTOP stops it all."""


def wrap(
    argv: list[str], sandbox: Sandbox, cwd: str | None, env: dict[str, str] | None, bwrap: str
) -> Wrapped:
    """The bwrap command line running `argv`: paths made absolute, each file or folder
    it names visible read-only, the first such outside the runtime its working folder.
    Looks at the files here and opens the descriptors bubblewrap reads; `bwrap_argv`
    writes the command line."""
    base = Path(cwd or os.getcwd())
    argv = list(argv)
    named = named_paths(argv, base)
    runtime = runtime_folders(argv)
    info_read, info = os.pipe()  # bubblewrap says there its PID 1's pid
    os.set_blocking(info_read, False)
    pass_fds: tuple[int, ...] = (info,)
    seccomp = None
    lock, _ = probes.group_lock()
    if lock is not None:
        seccomp = _data_fd("botarena-seccomp", lock)
        pass_fds += (seccomp,)
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
        pass_fds += (fd,)
        etc_data.append((fd, f"/etc/{name}"))
    binds: list[tuple[str, str]] = []
    for folder in runtime:
        if not covered(folder, mounted) and os.path.isdir(folder):
            binds.append(("--ro-bind", folder))
            mounted.append(folder)
    home = str(base.resolve()) if cwd else None
    own = [home] if home else []
    own += [folder for folder in named if not covered(folder, runtime + mounted)]
    own = [folder for folder in own if folder != "/"]  # never the whole machine
    writable = [str(Path(folder).resolve()) for folder in sandbox.writable]
    for folder in dict.fromkeys(own):
        if not covered(folder, writable):
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
        folder: tuple(hide(jury_files(folder)))
        for _, folder in binds
        if os.path.isdir(folder) and not covered(folder, runtime)
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
        tmp_bytes=sandbox.tmp_mib << 20,
        parents=tuple(parents([folder for _, folder in binds])),
        binds=tuple((option, folder, hidden.get(folder, ())) for option, folder in binds),
        workdir=(own[0] if os.path.isdir(own[0]) else os.path.dirname(own[0])) if own else "/tmp",
        argv=tuple(argv),
    )
    kept = {key: os.environ[key] for key in KEPT_ENV if key in os.environ}
    kept.update(env or {})
    kept.update(HOME="/tmp", TMPDIR="/tmp")
    return Wrapped(bwrap_argv(plan), kept, pass_fds, info_read, lock is not None)


def named_paths(argv: list[str], base: Path) -> list[str]:
    """The files and folders `argv` names (relative to `base`) that its bot is shown:
    each such argument made absolute in `argv`, a path in the sandbox's own trees left
    out, a file in a shared folder or beside the jury's files shown alone, else its folder."""
    named: list[str] = []
    for index, arg in enumerate(argv):
        if arg and (index > 0 or os.sep in arg) and not arg.startswith("-"):
            path = base / arg
            with contextlib.suppress(OSError):  # not a path at all
                if not path.exists():
                    continue
                argv[index] = os.path.abspath(path)  # a venv's python stays itself
                if covered(argv[index], list(SANDBOX_OWN)):
                    continue
                folder = argv[index] if path.is_dir() else os.path.dirname(argv[index])
                if not path.is_dir() and folder in SHARED_FOLDERS:
                    named.append(argv[index])
                elif not path.is_dir() and jury_files(folder):
                    _say_alone(folder)
                    named.append(argv[index])  # the file alone, not the jury's folder
                else:
                    named.append(folder)
    return named


def runtime_folders(argv: list[str]) -> list[str]:
    """The folders `argv`'s program needs read-only: Python's installations, botarena's
    own, the games' packages, the program's folder (its shim's real interpreter put in
    `argv[0]`)."""
    runtime = [
        str(Path(sys.prefix).resolve()),
        str(Path(sys.base_prefix).resolve()),
        str(Path(__file__).resolve().parents[3]),  # the folder holding botarena
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
    return runtime


def _data_fd(name: str, data: bytes) -> int:
    """A memory file holding `data`, read from its start: what bubblewrap copies in."""
    fd = os.memfd_create(name)
    os.write(fd, data)
    os.lseek(fd, 0, os.SEEK_SET)
    return fd


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
