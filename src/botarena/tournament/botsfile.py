"""The TOML bots file: names, commands or sources, working folders, roles."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class BotEntry:
    """One `[[bot]]` table of a bots file, paths resolved against the file's folder."""

    name: str
    command: str | None = None
    workdir: Path | None = None
    source: Path | None = None
    role: str | None = None


class BotsFileError(ValueError):
    """A bots file that cannot be used; str() names the file and line: "bots.toml:7: ..."."""


def load_bots_file(path: Path) -> list[BotEntry]:
    raise NotImplementedError
