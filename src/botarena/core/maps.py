"""Named official maps shipped with a game: `--map GAME:NAME` instead of a file path.

A game lists its maps in a `MapShelf`, either a folder of map files inside its package or
one `.tar.xz` archive of them (302 maps of 4.3 MB of text pack into 214 KB). A
name is the file's stem (`map03`, `map_04p_01`); where two folders of an archive hold the
same stem, the name with its folder (`open/map_04p_02`) picks one and the bare
stem means the first in sorted order. Maps from an archive are unpacked once into a cache
folder keyed by the archive's content, so a map name always stands for a real file that
the game's own reader (with its size checks) reads as any other.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from typing import Any

NAMED_MAP = re.compile(r"^(?P<game>[a-z][a-z0-9_]*):(?P<name>[A-Za-z0-9_./-]+)$")
"""`GAME:NAME`; a path such as `./a:b` or `/x/y:z` is never read as a name."""


class MapNameError(ValueError):
    """A `GAME:NAME` that names no shipped map; the message says how to list them."""


@dataclass(frozen=True)
class MapShelf:
    """The official maps of a game: `source` is a folder or a `.tar.xz` inside the
    package `package`, holding files ending in `suffix`."""

    package: str
    source: str
    suffix: str

    @cached_property
    def _maps(self) -> list[tuple[str, Path]]:
        """(folder/stem, file) of every map, sorted."""
        root = str(self._root())
        found = []
        for folder, _, files in os.walk(root):
            for name in files:
                if name.endswith(self.suffix):
                    path = os.path.join(folder, name)
                    relative = os.path.relpath(path, root)[: -len(self.suffix)]
                    found.append((Path(path), relative.replace(os.sep, "/")))
        return [(relative, path) for path, relative in sorted(found)]

    @cached_property
    def _files(self) -> dict[str, Path]:
        """Every map by folder/stem, and by stem (the first in sorted order)."""
        found: dict[str, Path] = {}
        for relative, path in self._maps:
            found[relative] = path
            found.setdefault(path.stem, path)
        return found

    def names(self) -> list[str]:
        """One name per map: its stem, or folder/stem where the stem names another map."""
        return sorted(
            path.stem if self._files[path.stem] == path else relative
            for relative, path in self._maps
        )

    def path(self, name: str) -> Path:
        """The file of map `name`; raises MapNameError."""
        try:
            return self._files[name]
        except KeyError:
            raise MapNameError(f"no official map named {name!r}") from None

    def _root(self) -> Path:
        import tempfile
        import zlib
        from importlib import resources

        shipped = resources.files(self.package).joinpath(self.source)
        if not self.source.endswith(".tar.xz"):
            return Path(str(shipped))
        data = shipped.read_bytes()
        key = f"{zlib.crc32(data):08x}{len(data):x}"  # hashlib's import alone is 3 ms
        target = Path(tempfile.gettempdir()) / f"botarena-maps-{self.package}-{key}"
        unpack_once(str(shipped), target)
        return target


def unpack_once(archive: str | Path, target: Path) -> None:
    """Unpack the archive `archive` into the folder `target` unless it is there already, all
    at once or not at all: a run beside this one finds the whole folder or none of it."""
    if target.is_dir():
        return
    import shutil
    import tarfile
    import tempfile

    staging = Path(tempfile.mkdtemp(prefix=target.name + ".", dir=target.parent))
    with tarfile.open(archive) as tar:
        tar.extractall(staging, filter="data")
    try:
        os.rename(staging, target)  # atomic: a concurrent run sees all of it or none
    except OSError:  # another process got there first
        shutil.rmtree(staging, ignore_errors=True)


def split_map_name(spec: str) -> tuple[str, str] | None:
    """(game, name) when `spec` is `GAME:NAME` and no such file exists, else None."""
    match = NAMED_MAP.match(spec)
    if match is None or Path(spec).exists():
        return None
    return match["game"], match["name"]


def map_rows(game: Any) -> list[dict[str, Any]]:
    """`botarena GAME maps`: each official map's name, players and size (as its file says)."""
    if game.maps is None:
        return []
    rows = []
    for name in game.maps.names():
        loaded = game.read_map(f"{game.name}:{name}")
        players = game.players_of(loaded) or game.info.min_seats
        rows_, cols = getattr(loaded, "rows", None), getattr(loaded, "cols", None)
        rows.append(
            {
                "map": f"{game.name}:{name}",
                "players": players,
                "size": f"{rows_}x{cols}" if rows_ else "",
            }
        )
    return rows
