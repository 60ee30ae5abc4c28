"""Temporary folders a bench's bots can read: run as root, sandboxed bots run as nobody,
and `tempfile.TemporaryDirectory` makes folders only their owner can enter."""

from __future__ import annotations

import contextlib
import os
import tempfile
from collections.abc import Iterator


@contextlib.contextmanager
def readable_tempdir() -> Iterator[str]:
    """A new temporary folder (its path), readable and enterable by every user."""
    with tempfile.TemporaryDirectory() as name:
        os.chmod(name, 0o755)
        yield name
