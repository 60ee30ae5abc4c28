"""The crash log: an exception nobody expected becomes one line naming a file that holds its
traceback, so a user sees what to report and never a wall of frames.

The folder is `$BOTARENA_LOG_DIR`, else `$XDG_STATE_HOME/botarena`, else
`~/.local/state/botarena` (the XDG place for logs a program keeps); when that cannot be
made or written, the temporary folder. Each crash gets its own file,
`botarena-crash-<local time>-<pid>.log`, readable by its owner only (a traceback may show
paths and values of the user's). docs/limits.md describes it.
"""

from __future__ import annotations

import os
import sys
import tempfile
import time
import traceback
from pathlib import Path

LOG_DIR_VARIABLE = "BOTARENA_LOG_DIR"
EXIT_INTERNAL = 70
"""The exit status of an internal error (EX_SOFTWARE in sysexits.h)."""


def log_folders() -> list[Path]:
    """Where a crash log goes, the first that can be written winning."""
    chosen = os.environ.get(LOG_DIR_VARIABLE, "").strip()
    if chosen:
        first = Path(chosen)
    else:
        state = os.environ.get("XDG_STATE_HOME", "").strip()
        first = (Path(state) if state else Path.home() / ".local" / "state") / "botarena"
    return [first, Path(tempfile.gettempdir())]


def write_crash_log(error: BaseException) -> Path | None:
    """The traceback of `error` written to a new file in the first writable log folder;
    None when no folder takes it."""
    stamp = time.strftime("%Y%m%d-%H%M%S")
    text = "".join(
        [
            f"botarena crash at {time.strftime('%Y-%m-%d %H:%M:%S %z')}\n",
            f"command: {' '.join(sys.argv)!r}\n",
            f"python: {sys.version.splitlines()[0]}\n\n",
            *traceback.format_exception(error),
        ]
    )
    for folder in log_folders():
        try:
            folder.mkdir(mode=0o700, parents=True, exist_ok=True)
            path = folder / f"botarena-crash-{stamp}-{os.getpid()}.log"
            descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
            with os.fdopen(descriptor, "w", encoding="utf-8", errors="backslashreplace") as file:
                file.write(text)
        except (OSError, ValueError):  # not a folder, not writable, a NUL in the variable
            continue
        return path
    return None


def describe(error: BaseException, limit: int = 200) -> str:
    """`Type: first line of the message`, at most `limit` characters."""
    message = str(error).strip().splitlines()
    shown = f"{type(error).__name__}: {message[0]}" if message else type(error).__name__
    return shown if len(shown) <= limit else shown[: limit - 3] + "..."


def report_crash(error: BaseException) -> int:
    """Log `error`, tell the user in one line on stderr where, and return the exit status."""
    path = write_crash_log(error)
    where = (
        f"the traceback is in {path}"
        if path is not None
        else "the traceback could not be saved (no log folder is writable)"
    )
    print(f"botarena: internal error (a bug): {describe(error)}; {where}", file=sys.stderr)
    return EXIT_INTERNAL
