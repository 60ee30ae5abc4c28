"""What a name from a user or a stranger must be before any path is built from it.

A file or folder name that holds a NUL byte, is not valid text, or is longer than a
filesystem takes fails deep inside `open` or `mkdir` with an error that names nothing the
user gave; checked here first, it is one line naming the name.
"""

from __future__ import annotations

import os

MAX_PART_BYTES = 255
"""The longest file or folder name (one part of a path) Linux filesystems take (NAME_MAX)."""
MAX_PATH_BYTES = 4096
"""The longest path Linux takes (PATH_MAX)."""


def text_problem(text: str) -> str | None:
    """Why `text` (an argument, a field) cannot be passed to the system at all, or None."""
    if "\x00" in text:
        return "holds a NUL byte"
    try:
        os.fsencode(text)  # a name read from bytes (surrogate-escaped) round-trips
    except UnicodeEncodeError:
        return "is not valid text (a lone surrogate)"
    return None


def name_problem(name: str) -> str | None:
    """Why `name` cannot name a file (one clause), or None when it can.

    >>> name_problem("maps/a.txt") is None
    True
    >>> name_problem("a\\x00b")
    'holds a NUL byte'
    """
    problem = text_problem(name)
    if problem is not None:
        return problem
    encoded = os.fsencode(name)
    if len(encoded) > MAX_PATH_BYTES:
        return f"is longer than {MAX_PATH_BYTES} bytes"
    if any(len(part) > MAX_PART_BYTES for part in encoded.split(b"/")):
        return f"has a part longer than {MAX_PART_BYTES} bytes"
    return None


def shown(name: str, limit: int = 60) -> str:
    """`name` as a message quotes it: repr, cut to `limit` characters."""
    told = repr(name)
    return told if len(told) <= limit else told[: limit - 4] + "...'"
