"""How many cores this process may run on: the scheduler's affinity where there is one."""

from __future__ import annotations

import os


def cores() -> int:
    """The cores this process may use (a pinned process: its own), at least 1."""
    if hasattr(os, "sched_getaffinity"):
        return len(os.sched_getaffinity(0))
    return os.cpu_count() or 1
