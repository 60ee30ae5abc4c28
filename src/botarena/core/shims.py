"""Interpreter shims (pyenv, asdf, conda's): a bot command's program resolved to the real one.

A shim is a small script on the PATH (`~/.pyenv/shims/python3`) that runs a version
manager (`~/.pyenv/libexec/pyenv`), which runs the real interpreter. The sandbox shows a
bot its program's folder, not the manager's, so a shim crashes there (`line 12:
~/.pyenv/libexec/pyenv: No such file or directory`). A Python shim is resolved by asking the
interpreter behind it where it lives, and the sandbox runs that one, its installation shown
read-only; any other shim is refused before the game, in one line naming what to give.
"""

from __future__ import annotations

import os
import re
import subprocess
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from botarena.core.rules import GameError

MAX_SHIM_BYTES = 64 << 10
"""A shim is a short script; a longer file is taken for a program of its own."""

RESOLVE_TIMEOUT_S = 10.0
"""How long the interpreter behind a shim may take to say where it lives."""

WHERE = "import sys; print(sys.executable); print(sys.prefix); print(sys.base_prefix)"
"""What a Python interpreter is asked: its real program and its installation."""

_EXEC = re.compile(r"""^\s*exec\s+["']?(/[^"'\s]+)""", re.MULTILINE)
_SYSTEM = ("/usr/", "/bin/", "/sbin/", "/lib")


class ShimError(GameError):
    """A bot command's program is a shim that the sandbox cannot run."""


@dataclass(frozen=True)
class Resolved:
    """The real program behind a shim, and the folders of its installation."""

    program: str
    folders: tuple[str, ...]


def shim_manager(path: str) -> str | None:
    """What `path` hands over to, when it is a shim: a script in a folder named `shims`, or
    a script that `exec`s a program outside the system folders (what runs it); else None."""
    try:
        with open(path, "rb") as file:
            if file.read(2) != b"#!":  # a binary program, most often: read no further
                return None
            text = file.read(MAX_SHIM_BYTES)
    except OSError:
        return None
    if len(text) >= MAX_SHIM_BYTES:
        return None
    script = text.decode("utf-8", "replace")
    handed: list[str] = [t for t in _EXEC.findall(script) if not t.startswith(_SYSTEM)]
    if handed:
        return handed[0]
    return path if Path(path).parent.name == "shims" else None


def is_python(program: str) -> bool:
    return re.fullmatch(r"python(\d+(\.\d+)?)?", os.path.basename(program)) is not None


@cache
def resolve(path: str) -> Resolved | None:
    """The real program behind the shim `path` and its installation, or None when `path` is
    no shim. Raises ShimError, one line saying which path to name, for a shim it cannot
    resolve (not Python, or its interpreter does not answer)."""
    manager = shim_manager(path)
    if manager is None:
        return None
    refusal = (
        f"{path} is an interpreter shim (it runs {manager}, which the sandbox does not show):"
        f" name the real program in the bot command"
    )
    if not is_python(path):
        raise ShimError(refusal + " (pyenv which, asdf which, or type -a give it)")
    try:
        done = subprocess.run(
            [path, "-c", WHERE],
            capture_output=True,
            text=True,
            timeout=RESOLVE_TIMEOUT_S,
            stdin=subprocess.DEVNULL,
        )
    except (OSError, subprocess.SubprocessError):
        done = None
    lines = done.stdout.splitlines() if done is not None and done.returncode == 0 else []
    if len(lines) != 3 or not all(os.path.isabs(line) for line in lines):
        raise ShimError(
            refusal + f" ({os.path.basename(path)} -c 'import sys; print(sys.executable)' gives it)"
        )
    program, *prefixes = lines
    folders = [str(Path(folder).resolve()) for folder in (*prefixes, os.path.dirname(program))]
    return Resolved(program, tuple(dict.fromkeys(folders)))
