"""The registered games as the installed packages' metadata declares them (the entry-point
group `botarena.games`), read without importing any game nor anything of botarena's rules:
so the sandbox can ask which packages are games' (core/sandbox/) and the registry
(core/registry.py) build on it without an import circle.
"""

from __future__ import annotations

import logging
import os
import sys
from dataclasses import dataclass
from functools import cache

GROUP = "botarena.games"
"""The entry-point group a package registers its games in."""


@dataclass(frozen=True)
class Entry:
    """One registered game: its name, its module, and the package that installed it."""

    name: str
    module: str
    package: str
    version: str


def _report(message: str) -> None:
    """A broken plug-in, in one line on stderr (once per process)."""
    logging.getLogger(__name__).warning(f"botarena: warning: {message}")


@cache
def _distributions() -> dict[str, tuple[str, str, str]]:
    """Every installed distribution on `sys.path`: normalised name -> (its metadata
    folder, its name, its version), the first one found winning as in
    `importlib.metadata`.

    Read from the folder names themselves: importing `importlib.metadata` (email, zipfile,
    csv, tempfile) and letting it scan would cost tens of milliseconds of every command's
    start-up (`python bench/run.py startup`)."""
    found: dict[str, tuple[str, str, str]] = {}
    for folder in sys.path:
        try:
            names = os.listdir(folder or ".")
        except OSError:
            continue
        for name in names:
            stem, dot, kind = name.rpartition(".")
            if not dot or kind not in ("dist-info", "egg-info"):
                continue
            package, _, version = stem.partition("-")
            key = _normalise(package)
            if key not in found:
                found[key] = (os.path.join(folder or ".", name), package, version.partition("-")[0])
    return found


def _normalise(name: str) -> str:
    return name.lower().replace("-", "_").replace(".", "_")


def version(package: str) -> str | None:
    """The installed version of `package`, or None if it is not installed."""
    found = _distributions().get(_normalise(package))
    return found[2] if found else None


def own_version() -> str:
    """botarena's own version (pyproject.toml, through the installed metadata)."""
    return version("botarena") or "0+unknown"  # a source tree that is not installed


MAX_ENTRY_POINTS_BYTES = 1 << 20
"""The most of a package's entry_points.txt read (real ones are a few hundred bytes)."""


def _declared(metadata: str) -> list[tuple[str, str]]:
    """The `NAME = module` lines of the `botarena.games` section of a package's
    entry_points.txt (an INI file), in file order. Read as bytes: a file that registers no
    game is never decoded; one that does and is not UTF-8 raises ValueError saying so."""
    try:
        with open(os.path.join(metadata, "entry_points.txt"), "rb") as file:
            data = file.read(MAX_ENTRY_POINTS_BYTES)
    except (OSError, ValueError):
        return []
    if f"[{GROUP}]".encode() not in data:
        return []
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        raise ValueError("its entry_points.txt is not UTF-8") from None
    lines: list[tuple[str, str]] = []
    inside = False
    for line in text.splitlines():
        line = line.strip()
        if line.startswith("["):
            inside = line == f"[{GROUP}]"
        elif inside and "=" in line and not line.startswith(("#", ";")):
            name, _, value = line.partition("=")
            lines.append((name.strip(), value.strip()))
    return lines


@cache
def entries() -> dict[str, Entry]:
    """Every registered game by name: botarena's own first, then the other packages' (by
    package name), each package's by name. A second registration of a name, or one that
    names no module, is left out (`available` reports it)."""
    return _scan()[0]


@cache
def _scan() -> tuple[dict[str, Entry], tuple[str, ...]]:
    """The registered games, and why any registration was left out."""
    found: dict[str, Entry] = {}
    problems: list[str] = []
    ordered = sorted(_distributions().items(), key=lambda item: (item[0] != "botarena", item[0]))
    for _key, (metadata, package, release) in ordered:
        try:
            declared = _declared(metadata)
        except ValueError as exc:
            problems.append(f"the games of package {package} ignored: {exc}")
            continue
        for name, module in sorted(declared):
            if ":" in module or not module:
                problems.append(
                    f"game {name!r} of package {package} ignored: {module!r} is"
                    ' not a module name (NAME = "package.module")'
                )
            elif name in found:
                problems.append(
                    f"game {name!r} of package {package} ignored: the name is"
                    f" already taken by package {found[name].package}"
                )
            else:
                found[name] = Entry(name, module, package, release or "?")
    return found, tuple(problems)
