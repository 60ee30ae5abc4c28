"""The sandbox a bot program runs in: bubblewrap namespaces, cgroups and rlimits.

`Sandbox` holds the limits (memory, processes, open files, file size, /tmp size, writable
folders; `limits.py`); `Confinement` applies them to one process (`confinement.py`): the
command line wrapped in bubblewrap (no network, its own PID namespace, a read-only system,
only the files its command line names, a private capped /tmp; what to bind and generate is
the plan of `plan.py`, found out from the command by `wrap.py`), a `BotGroup` (memory,
processes, CPU, freezer) joined before exec, and rlimits (`launch.py`). What this machine
cannot do is said once on stderr and reported by `protections()` (`probes.py`, `botarena
doctor`). `run()` runs a one-shot command (a compiler) under the same sandbox
(`oneshot.py`). See docs/sandbox.md.
"""

from botarena.core.sandbox.confinement import (
    BOT_START_S,
    IDLE_BETWEEN_TURNS_NS,
    Confinement,
    kill_all,
)
from botarena.core.sandbox.limits import DEFAULT, NONE, Sandbox, read_memory
from botarena.core.sandbox.oneshot import run
from botarena.core.sandbox.plan import (
    BOT_GID,
    BOT_UID,
    ETC_ENTRIES,
    JURY_MARKERS,
    KEPT_ENV,
    NAMESPACES,
    SANDBOX_OWN,
    SHARED_FOLDERS,
    SYSTEM_DIRS,
    BwrapPlan,
    become_bot_user,
    bot_user,
    bwrap_argv,
    etc_binds,
    etc_files,
    game_packages,
    jury_files,
    namespaces,
    site_folders,
)
from botarena.core.sandbox.probes import (
    Protection,
    bubblewrap,
    confinement_missing,
    group_lock,
    protections,
    warn_once,
)
from botarena.core.sandbox.processes import (
    PR_SET_CHILD_SUBREAPER,
    PR_SET_PDEATHSIG,
    become_subreaper,
    death_signal_setter,
    die_with_parent,
    reap_group,
)

__all__ = [
    "BOT_GID",
    "BOT_START_S",
    "BOT_UID",
    "DEFAULT",
    "ETC_ENTRIES",
    "IDLE_BETWEEN_TURNS_NS",
    "JURY_MARKERS",
    "KEPT_ENV",
    "NAMESPACES",
    "NONE",
    "PR_SET_CHILD_SUBREAPER",
    "PR_SET_PDEATHSIG",
    "SANDBOX_OWN",
    "SHARED_FOLDERS",
    "SYSTEM_DIRS",
    "BwrapPlan",
    "Confinement",
    "Protection",
    "Sandbox",
    "become_bot_user",
    "become_subreaper",
    "bot_user",
    "bubblewrap",
    "bwrap_argv",
    "confinement_missing",
    "death_signal_setter",
    "die_with_parent",
    "etc_binds",
    "etc_files",
    "game_packages",
    "group_lock",
    "jury_files",
    "kill_all",
    "namespaces",
    "protections",
    "read_memory",
    "reap_group",
    "run",
    "site_folders",
    "warn_once",
]
