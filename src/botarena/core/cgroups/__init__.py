"""Control groups for one bot: memory and process caps, CPU accounting, a freezer, a kill,
in cgroup v1 (`v1`, a server as root) or v2 (`v2`, a delegated systemd scope).

`available()` says which backend is usable here and why not (BOTARENA_CGROUPS=v1|v2|off
forces a choice); `new_group()` makes a bot's group in it. The two backends share one
interface (`BotGroup`); `v2` builds on `v1`'s shared pieces, and only this module knows both.
"""

from __future__ import annotations

import os
from functools import cache

from botarena.core.cgroups import v2
from botarena.core.cgroups.v1 import (
    CHOICE,
    CONTROLLERS,
    BotGroup,
    Controller,
    available_v1,
    group_name,
    v2_mount,
)

__all__ = ["CHOICE", "CONTROLLERS", "BotGroup", "Controller", "available", "new_group"]


@cache
def available() -> dict[str, Controller]:
    """Each of CONTROLLERS: where bots' groups go, or the reason it is off. cgroup v1 when
    any of its controllers is usable (or BOTARENA_CGROUPS=v1), else cgroup v2 when mounted
    (or BOTARENA_CGROUPS=v2); BOTARENA_CGROUPS=off: none (rlimits only)."""
    choice = os.environ.get(CHOICE, "")
    if choice not in ("", "v1", "v2", "off"):
        return _none(f"{CHOICE}={choice!r} is none of v1, v2, off")
    if choice == "off":
        return _none(f"cgroups off: {CHOICE}=off")
    if choice == "v2":
        return v2.available()
    found = available_v1()
    if choice == "v1" or any(c.path for c in found.values()) or v2_mount() is None:
        return found
    return v2.available()


def _none(reason: str) -> dict[str, Controller]:
    return {name: Controller(name, None, reason) for name in CONTROLLERS}


def new_group(memory_bytes: int | None, processes: int | None, overhead: int = 0) -> BotGroup:
    """A new group for one bot in the backend `available()` chose (see `BotGroup`)."""
    usable = {key: c for key, c in available().items() if c.path is not None}
    base = next(iter(usable.values()), None)
    if base is None or base.version == 1:
        return BotGroup(memory_bytes, processes, overhead, tuple(usable.values()))
    assert base.path is not None
    folder = base.path / group_name()
    folder.mkdir()
    return v2.BotGroup2(folder, set(usable), memory_bytes, processes, overhead)
