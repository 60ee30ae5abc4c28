"""Build bot source files by extension into a cache keyed by the source's hash."""

from __future__ import annotations

from pathlib import Path


class BuildError(Exception):
    """A bot that does not build: one readable block with bot, source, language and compiler."""


def build_bot(source: Path, cache_dir: Path, *, name: str) -> str:
    raise NotImplementedError
