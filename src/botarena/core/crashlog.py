"""Where an unexpected error goes: its traceback into a log file, one line to the user.

Every entry point (the command line's `main`, the site's routes, each worker step) ends an
error it did not foresee the same way: the whole traceback is written to a file of its own,
and the user is told one line naming it. A user never sees a bare traceback, and the one
who reports the bug has it whole.
"""

from __future__ import annotations

import os
import sys
import tempfile
import time
import traceback
from pathlib import Path

EXIT_INTERNAL = 70
"""The exit status of a command ended by an error it did not foresee (sysexits' EX_SOFTWARE)."""


def log_folder() -> Path:
    """`$BOTARENA_LOG_DIR`, else `$XDG_STATE_HOME/botarena` (`~/.local/state/botarena`)."""
    chosen = os.environ.get("BOTARENA_LOG_DIR")
    if chosen:
        return Path(chosen)
    state = os.environ.get("XDG_STATE_HOME") or str(Path.home() / ".local" / "state")
    return Path(state) / "botarena"


def write(exc: BaseException) -> Path:
    """Write `exc`'s traceback, with the command line that met it, to a new log file; its
    path. Falls back to the temporary folder when the log folder cannot be written."""
    text = (
        f"botarena crash at {time.strftime('%Y-%m-%d %H:%M:%S %z')}, pid {os.getpid()}\n"
        f"command: {' '.join(sys.argv)!r}\n\n" + "".join(traceback.format_exception(exc))
    )
    name = f"crash-{time.strftime('%Y%m%d-%H%M%S')}-{os.getpid()}.log"
    for folder in (log_folder(), Path(tempfile.gettempdir())):
        try:
            folder.mkdir(parents=True, exist_ok=True)
            path = folder / name
            with open(path, "x", encoding="utf-8", errors="backslashreplace") as out:
                out.write(text)
            return path
        except OSError:
            continue
    return Path(os.devnull)


def one_line(exc: BaseException, limit: int = 300) -> str:
    """`Type: message` on one line, cut to `limit` characters."""
    words = " ".join(str(exc).split())
    told = f"{type(exc).__name__}: {words}" if words else type(exc).__name__
    return told if len(told) <= limit else told[: limit - 1] + "…"
