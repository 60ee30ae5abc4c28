"""The registry of installed games, found through the entry-point group `botarena.games`.

A game is a plug-in: any installed package declares, in its pyproject,

    [project.entry-points."botarena.games"]
    connect4 = "botarena_connect4"

where the module holds `INFO` (a `GameInfo` named as the entry) and builds `GAME` on first
access (`botarena.core.game.lazy_game`). botarena's own four games are registered the same
way. Listing the games reads only the installed packages' metadata; a game's module is
imported when its facts are asked for, its rules when it is played. A broken plug-in (its
module does not import, has no `INFO`, or its name is taken) is reported in one line on
stderr and left out: the other games and the command line still work. That holds whatever
the plug-in does: raises, calls `sys.exit`, ships an entry_points.txt that is not UTF-8, or
is a single module with no files beside it.
"""

from __future__ import annotations

import importlib
import logging
import os
import sys
from dataclasses import dataclass
from functools import cache
from types import ModuleType
from typing import TYPE_CHECKING

from botarena.core.game import Game
from botarena.core.rules import GameInfo
from botarena.core.stopping import Stopped

if TYPE_CHECKING:
    from importlib.resources.abc import Traversable

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


def _declared(metadata: str) -> list[tuple[str, str]]:
    """The `NAME = module` lines of the `botarena.games` section of a package's
    entry_points.txt (an INI file), in file order."""
    try:
        with open(os.path.join(metadata, "entry_points.txt"), "rb") as file:
            raw = file.read()
    except OSError:
        return []
    # Any package may ship a file that is not UTF-8: it must cost no other command anything.
    # A botarena game named in it then names no module that imports: reported as broken.
    text = raw.decode("utf-8", errors="replace")
    if f"[{GROUP}]" not in text:
        return []
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
        for name, module in sorted(_declared(metadata)):
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


def names() -> tuple[str, ...]:
    """The registered games' names (without importing any game)."""
    return tuple(entries())


class UnknownGame(KeyError):
    """No game of that name is installed (its message lists the installed ones)."""

    def __str__(self) -> str:
        return str(self.args[0])


class BrokenGame(UnknownGame):
    """The game is registered but its plug-in does not load (the message says why)."""


@cache
def _broken(name: str) -> str | None:
    """Why the registered game `name` cannot load (reported once), or None if it can."""
    entry = entries()[name]
    try:
        module = importlib.import_module(entry.module)
        info = module.INFO
    except Stopped:
        raise
    except BaseException as exc:  # a plug-in's bug (even sys.exit) must not break the others
        why = _why(exc)
    else:
        if not isinstance(info, GameInfo):
            why = f"{entry.module}.INFO is not a GameInfo"
        elif info.name != name:
            why = f"{entry.module}.INFO is named {info.name!r}, registered as {name!r}"
        else:
            return None
    message = f"game {name!r} of package {entry.package} is broken: {why}"
    _report(message)
    return message


def _why(exc: BaseException) -> str:
    """A plug-in's failure in one line (`SystemExit: 3`, `ImportError: no module x`)."""
    told = " ".join(str(exc).split())
    return f"{type(exc).__name__}: {told}" if told else type(exc).__name__


def game_files(name: str) -> Traversable | None:
    """The folder of what the game `name` ships beside its code (its renderer, starters,
    maps), or None for a game whose plug-in is a single module: it ships no files."""
    module = _module(name)
    if not hasattr(module, "__path__"):
        return None
    from importlib import resources

    return resources.files(module)


def _module(name: str) -> ModuleType:
    if name not in entries():
        raise UnknownGame(f"unknown game {name!r} (installed: {', '.join(available())})")
    broken = _broken(name)
    if broken is not None:
        raise BrokenGame(broken)
    return importlib.import_module(entries()[name].module)


@cache
def available() -> tuple[str, ...]:
    """The registered games whose plug-ins load (imports each game's cheap module); every
    broken or left-out registration is reported here, once."""
    for problem in _scan()[1]:
        _report(problem)
    return tuple(name for name in entries() if _broken(name) is None)


def game_info(name: str) -> GameInfo:
    """The facts of the game called `name`, without importing its rules; raises
    `UnknownGame` (a KeyError) naming the installed games."""
    info: GameInfo = _module(name).INFO
    return info


def all_infos() -> dict[str, GameInfo]:
    """Every working game's facts by name, in registry order, without importing rules."""
    return {name: game_info(name) for name in available()}


def get_game(name: str) -> Game:
    """The game called `name` (builds its rules); raises `UnknownGame` as `game_info`."""
    module = _module(name)
    try:
        game = module.GAME
    except Stopped:
        raise
    except BaseException as exc:
        raise BrokenGame(
            f"game {name!r} of package {entries()[name].package} is broken: {_why(exc)}"
        ) from exc
    if not isinstance(game, Game):
        raise BrokenGame(f"game {name!r}: {entries()[name].module}.GAME is not a Game")
    return game


def all_games() -> dict[str, Game]:
    """Every working game by name, in registry order (imports every game's rules)."""
    return {name: get_game(name) for name in available()}
