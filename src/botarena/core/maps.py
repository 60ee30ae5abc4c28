"""The official maps each game ships, named `GAME:NAME`, and `--map` values resolved to files.

A game package's `official/` folder holds them: plain map files (a name is the file's stem,
`amazes:maze03`) or `.tar.xz` archives of them (a name is a member's stem, or its folder and
stem where two folders hold the same stem: `ants:maze/maze_04p_02`). An archive is unpacked
once into a cache folder keyed by its content, so every reader gets a plain file.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import stat
import tarfile
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any

from botarena.core.rules import GameError

MAP_SUFFIXES = (".txt", ".map")


@dataclass(frozen=True)
class OfficialMap:
    """One shipped map: its name (after `GAME:`) and the file that holds it."""

    name: str
    path: Path


def _official_folder(game: str) -> Path | None:
    try:
        folder = resources.files(f"botarena.games.{game}").joinpath("official")
    except ModuleNotFoundError:
        return None
    return Path(str(folder)) if folder.is_dir() else None


def _unpacked(archive: Path) -> Path:
    """The folder `archive` unpacks to: this user's cache, made on first use, atomically."""
    digest = hashlib.sha256(archive.read_bytes()).hexdigest()[:16]
    base = Path(tempfile.gettempdir())
    target = base / f"botarena-maps-{os.getuid()}-{archive.name}-{digest}"
    if target.is_dir() and _ours(target):
        return target
    staging = Path(tempfile.mkdtemp(prefix=target.name + ".", dir=base))
    with tarfile.open(archive) as tar:
        tar.extractall(staging, filter="data")
    if target.exists() or target.is_symlink():  # someone else's: never read, not replaced
        return staging
    try:
        os.rename(staging, target)  # a concurrent run sees all of it or none
    except OSError:  # another process got there first
        shutil.rmtree(staging, ignore_errors=True)
    return target


def _ours(folder: Path) -> bool:
    """Whether `folder` is a real folder of this user that nobody else may write."""
    info = folder.lstat()
    return (stat.S_ISDIR(info.st_mode) and info.st_uid == os.getuid()
            and not info.st_mode & (stat.S_IWGRP | stat.S_IWOTH))


@cache
def official_maps(game: str) -> dict[str, OfficialMap]:
    """The maps `game` ships, by name, in name order (empty when it ships none)."""
    folder = _official_folder(game)
    if folder is None:
        return {}
    files: list[tuple[Path, Path]] = []  # (file, its path below the archive's root)
    for entry in sorted(folder.iterdir()):
        if entry.name.endswith(".tar.xz"):
            root = _unpacked(entry)
            files += [(path, path.relative_to(root)) for path in sorted(root.rglob("*"))
                      if path.suffix in MAP_SUFFIXES and path.is_file()]
        elif entry.suffix in MAP_SUFFIXES:
            files.append((entry, Path(entry.name)))
    stems: dict[str, int] = {}
    for path, _ in files:
        stems[path.stem] = stems.get(path.stem, 0) + 1
    found: dict[str, OfficialMap] = {}
    for path, inner in files:
        name = path.stem if stems[path.stem] == 1 else f"{inner.parent.name}/{path.stem}"
        found[name] = OfficialMap(name, path)
    return dict(sorted(found.items()))


def resolve(game: str, value: str | Path) -> str:
    """The file `value` names for `game`'s `--map`: an existing path as it is, `GAME:NAME`
    the shipped map; raises GameError in one line saying how to see the names."""
    text = str(value)
    prefix, colon, name = text.partition(":")
    if not colon or os.path.exists(text) or "/" in prefix or not prefix.isidentifier():
        return text
    if prefix != game:
        raise GameError(f"{text}: a map of {prefix}, not of {game}")
    shipped = official_maps(game)
    found = shipped.get(name)
    if found is None:
        same = [f"{game}:{other}" for other in shipped if other.endswith(f"/{name}")]
        if same:
            raise GameError(f"{text}: {len(same)} maps have this name: {', '.join(same)}")
        raise GameError(f"{text}: no such {game} map (`botarena {game} maps` lists them)")
    return str(found.path)


def load(rules: Any, value: str | Path) -> Any:
    """`rules.load_map` of what `value` names (a path or `GAME:NAME`); a shipped map keeps
    its `GAME:NAME` as its name (in replays), not its cache path."""
    loaded = rules.load_map(resolve(rules.name, value))
    text = str(value)
    if text.startswith(f"{rules.name}:") and isinstance(getattr(loaded, "name", None), str):
        loaded.name = text
    return loaded


def stable(game: str, value: str | Path) -> str:
    """How a tournament keeps a `--maps` value: a shipped name as it is, a path absolute."""
    text = str(value)
    if resolve(game, text) != text:
        return text
    return str(Path(text).resolve())


def describe(rules: Any, entry: OfficialMap) -> tuple[int | None, str]:
    """(players, size) of a shipped map, read from the map itself."""
    loaded = rules.load_map(str(entry.path))
    players = getattr(loaded, "players", None)
    if players is None and rules.info.min_seats == rules.info.max_seats:
        players = rules.info.min_seats
    rows, cols = getattr(loaded, "rows", None), getattr(loaded, "cols", None)
    return players, f"{rows}x{cols}" if rows is not None else "-"


def listing(game: str) -> str:
    """What `botarena GAME maps` prints: name, players and size of each shipped map, or why
    the game has none."""
    from botarena.games import get_game

    rules = get_game(game)
    found = official_maps(game)
    if rules.load_map is None or not found:
        takes = "takes no --map" if rules.load_map is None else "takes --map FILE"
        return (f"{game} ships no maps and {takes}: each game's board is generated from its"
                f" seed and options (botarena games {game})")
    rows = [(entry.name, *describe(rules, entry)) for entry in found.values()]
    width = max(len(name) for name, _, _ in rows)
    lines = [f"{'name':<{width}}  players  size"]
    lines += [f"{name:<{width}}  {players if players is not None else '-':>7}  {size}"
              for name, players, size in rows]
    lines.append(f"{len(rows)} maps; play one with --map {game}:NAME")
    return "\n".join(lines)


def command(game: str) -> Callable[[], None]:
    """The `botarena GAME maps` command of `game`'s CLI."""

    def maps() -> None:
        print(listing(game))

    maps.__doc__ = f"List the official maps shipped with botarena (--map {game}:NAME)."
    return maps
