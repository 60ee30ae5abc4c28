"""The contest site as an ASGI app any server can run: `botarena.arena.asgi:app`, told its
contest and store by environment variables.

`arena serve --web-workers N` runs it in N processes; any ASGI server runs it as well
(`uvicorn botarena.arena.asgi:app --workers 4`, or gunicorn with uvicorn's worker class:
docs/cluster.md). Each process opens the store itself; everything the site changes lives
there, so the processes serve one site. The app is made when `app` is first read, not at
import. This module never starts a ladder worker: run `botarena tournament work` once
(`arena serve` does) wherever builds and games may run.
"""

from __future__ import annotations

import os
import signal
from functools import cache
from typing import Any

CONTEST = "BOTARENA_CONTEST"
"""The contest served (its name, as `arena new` made it)."""
DB = "BOTARENA_DB"
"""The store's URL (`--db`)."""
INSECURE = "BOTARENA_INSECURE_NO_SANDBOX"
"""`1`: every page says uploaded code runs without a sandbox (`--insecure-no-sandbox`)."""
SERVE_PID = "BOTARENA_SERVE_PID"
"""Set by `arena serve`: its web processes end when that process dies, even by kill -9."""
PROCESSES = "BOTARENA_WEB_PROCESSES"
"""The site's web processes on this machine: each takes its share of the password hashes
the machine may run at once (arena/auth.py `share_hash_slots`)."""


class SiteNotConfigured(RuntimeError):
    """An environment variable the app needs is missing."""


@cache
def _site_app() -> Any:
    from botarena.arena.api import arena_app
    from botarena.tournament.store import Store

    missing = [name for name in (CONTEST, DB) if not os.environ.get(name)]
    if missing:
        raise SiteNotConfigured(
            f"botarena.arena.asgi:app needs {' and '.join(missing)} set (the contest and"
            " the store's URL)"
        )
    _stop_with_serve()
    if os.environ.get(PROCESSES, "").isdigit() and int(os.environ[PROCESSES]) > 1:
        from botarena.arena.auth import share_hash_slots

        share_hash_slots(int(os.environ[PROCESSES]))
    store = Store.open(os.environ[DB])
    return arena_app(store, os.environ[CONTEST], os.environ.get(INSECURE) == "1")


def _stop_with_serve() -> None:
    """Under `arena serve`: be sent SIGTERM (uvicorn's graceful stop) when it dies."""
    parent = os.environ.get(SERVE_PID)
    if not parent:
        return
    from botarena.core.sandbox import death_signal_setter

    setter = death_signal_setter(int(parent), signal.SIGTERM)
    if setter is not None:
        setter()


def __getattr__(name: str) -> Any:
    """`app`: the site, made on first use in this process."""
    if name == "app":
        return _site_app()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
