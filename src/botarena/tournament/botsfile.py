"""The TOML bots file: `[[bot]]` tables with a name, a command or a source, a folder, a role.

```toml
[[bot]]
name = "alice"
command = "./bots/alice --fast"   # a bot spec as in `botarena play`
workdir = "bots"                  # optional: the folder the bot runs in

[[bot]]
name = "bob"
source = "bots/bob.c"             # built by botarena (docs/bot-builds.md)
role = "defender"                 # role games only: one of the game's roles
```

Relative paths (`workdir`, `source`, a command's program or `post:` file) are resolved
against the bots file's folder, so the file works from any current folder. Every problem is
a `BotsFileError` whose text starts with `FILE:LINE:`.
"""

from __future__ import annotations

import os
import re
import shlex
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from botarena.core.bounds import checked_path, shown
from botarena.core.reader import Kind, MiB, ReadError, parse_toml, read_text

BOTS_FILE = Kind("bots file", 1 * MiB)

KEYS = ("name", "command", "source", "workdir", "role")
NAME = re.compile(r"[A-Za-z0-9_][A-Za-z0-9_.+-]*")
"""Bot names: letters, digits and `_ . + -`, so they stay one word in tables and commands."""
MAX_NAME = 100
"""The longest bot name (characters): it names files, labels and table columns."""


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


class _Lines:
    """Where each `[[bot]]` table and each of its keys starts in the file's text."""

    HEADER = re.compile(r"\s*\[\[\s*(\"bot\"|'bot'|bot)\s*\]\]")

    def __init__(self, text: str) -> None:
        self.lines = text.splitlines()
        self.tables = [n for n, line in enumerate(self.lines, 1) if self.HEADER.match(line)]

    def table(self, index: int) -> int:
        """The line of the index-th `[[bot]]` header (1 when the file spells it otherwise)."""
        return self.tables[index] if index < len(self.tables) else 1

    def key(self, index: int, key: str) -> int:
        """The line where the index-th table sets `key`, else the table's header line."""
        start = self.table(index)
        end = self.tables[index + 1] if index + 1 < len(self.tables) else len(self.lines) + 1
        pattern = re.compile(
            rf"\s*(\"{re.escape(key)}\"|'{re.escape(key)}'|{re.escape(key)})"
            r"\s*="
        )
        for number in range(start, end):
            if pattern.match(self.lines[number - 1]):
                return number
        return start


def load_bots_file(path: Path) -> list[BotEntry]:
    """The bots a TOML bots file lists, in file order; raises BotsFileError ("FILE:LINE: ...")
    for unreadable or invalid TOML, unknown keys, a missing or repeated name, a bot with
    neither or both of `command` and `source`, or a source or folder that does not exist."""
    path = Path(path)
    try:  # bounded: its size, its nesting, its numbers, a NUL in its name (core/reader.py)
        text = read_text(path, BOTS_FILE)
        document = parse_toml(text, str(path), BOTS_FILE.noun)
    except ReadError as exc:
        raise BotsFileError(str(exc)) from None
    lines = _Lines(text)
    unknown = [key for key in document if key != "bot"]
    if unknown:
        raise BotsFileError(
            f"{path}:{_top_line(text, unknown[0])}: unknown top-level key"
            f" {unknown[0]!r} (a bots file holds [[bot]] tables)"
        )
    tables = document.get("bot")
    if not isinstance(tables, list) or not tables:
        raise BotsFileError(
            f"{path}:1: no bots: add [[bot]] tables with a name and a command or source"
        )
    entries: list[BotEntry] = []
    seen: dict[str, int] = {}
    for index, table in enumerate(tables):
        entry = _entry(path, lines, index, table)
        if entry.name in seen:
            raise BotsFileError(
                f"{path}:{lines.key(index, 'name')}: bot name {entry.name!r} is"
                f" already used on line {seen[entry.name]}"
            )
        seen[entry.name] = lines.key(index, "name")
        entries.append(entry)
    return entries


def _top_line(text: str, key: str) -> int:
    """The line where a top-level key or table `key` appears first (1 if not found)."""
    pattern = re.compile(rf"\s*\[*\s*[\"']?{re.escape(key)}[\"']?\s*(=|\])")
    for number, line in enumerate(text.splitlines(), 1):
        if pattern.match(line):
            return number
    return 1


def _entry(path: Path, lines: _Lines, index: int, table: Any) -> BotEntry:
    """One table checked and resolved."""
    where = f"{path}:{lines.table(index)}"
    if not isinstance(table, dict):
        raise BotsFileError(f"{where}: each bot must be a [[bot]] table")
    for key, value in table.items():
        if key not in KEYS:
            raise BotsFileError(
                f"{path}:{lines.key(index, key)}: unknown key {key!r} in"
                f" [[bot]] (known: {', '.join(KEYS)})"
            )
        if not isinstance(value, str) or not value.strip():
            raise BotsFileError(f"{path}:{lines.key(index, key)}: {key} must be a non-empty string")
    if "name" not in table:
        raise BotsFileError(f"{where}: this [[bot]] has no name")
    name = table["name"]
    if not NAME.fullmatch(name):
        raise BotsFileError(
            f"{path}:{lines.key(index, 'name')}: bot name {shown(name)} may hold"
            " only letters, digits and _ . + - (not first)"
        )
    if len(name) > MAX_NAME:
        raise BotsFileError(
            f"{path}:{lines.key(index, 'name')}: bot name {shown(name)} is longer than"
            f" {MAX_NAME} characters"
        )
    if ("command" in table) == ("source" in table):
        line = lines.key(index, "source" if "source" in table else "name")
        what = "both a command and a source" if "command" in table else "no command or source"
        raise BotsFileError(f"{path}:{line}: bot {name!r} has {what}: give exactly one")
    folder = path.parent.absolute()
    source = workdir = None
    if "source" in table:
        source = _absolute(folder, table["source"], f"{path}:{lines.key(index, 'source')}")
        if not source.is_file():
            raise BotsFileError(
                f"{path}:{lines.key(index, 'source')}: bot {name!r}: source {source} does not exist"
            )
    if "workdir" in table:
        workdir = _absolute(folder, table["workdir"], f"{path}:{lines.key(index, 'workdir')}")
        if not workdir.is_dir():
            raise BotsFileError(
                f"{path}:{lines.key(index, 'workdir')}: bot {name!r}: workdir"
                f" {workdir} is not a folder"
            )
    command = None
    if "command" in table:
        try:
            command = _resolve_command(
                table["command"], folder, f"{path}:{lines.key(index, 'command')}"
            )
        except BotsFileError:
            raise
        except ValueError as exc:
            raise BotsFileError(
                f"{path}:{lines.key(index, 'command')}: bot {name!r}: command"
                f" {table['command']!r}: {exc}"
            ) from None
    return BotEntry(
        name=name, command=command, workdir=workdir, source=source, role=table.get("role")
    )


def _resolve_command(command: str, folder: Path, where: str) -> str:
    """The command with a relative program path (`./bot`, `bots/bot`) or `post:` file made
    absolute against `folder`; `builtin:` specs, programs on PATH and arguments stay as
    written. Raises ValueError for a command line that cannot be split."""
    command = command.strip()
    if command.startswith("builtin:"):
        return command
    if command.startswith("post:"):
        target = command.removeprefix("post:")
        return f"post:{_absolute(folder, target, where)}"
    argv = shlex.split(command)
    if not argv:
        raise ValueError("empty command line")
    program = Path(argv[0])
    if "/" in argv[0] and not program.is_absolute():
        return shlex.join([str(_absolute(folder, program, where)), *argv[1:]])
    return command


def _absolute(folder: Path, path: str | Path, where: str) -> Path:
    """`path` against `folder`, normalised but with symbolic links kept (a link to a bot is
    still run by its own name); BotsFileError ("WHERE: ...") for a path no file can have
    (a NUL, a name past 255 bytes, a path past 4096), before any path is built."""
    checked_path(path, "path", lambda message: BotsFileError(f"{where}: {message}"))
    return checked_path(
        os.path.normpath(folder / os.path.expanduser(path)),
        "path",
        lambda message: BotsFileError(f"{where}: {message}"),
    )
