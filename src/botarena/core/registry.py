"""The registry of installed games, found through the entry-point group `botarena.games`.

A game is a plug-in: any installed package declares, in its pyproject,

    [project.entry-points."botarena.games"]
    connect4 = "botarena_connect4"

where the module holds `INFO` (a `GameInfo` named as the entry) and builds `GAME` on first
access (`botarena.core.game.lazy_game`). botarena's own four games are registered the same
way. Listing the games reads only the installed packages' metadata; a game's module is
imported when its facts are asked for, its rules when it is played. A broken plug-in (its
module does not import, has no `INFO`, or its name is taken) is reported in one line on
stderr and left out: the other games and the command line still work.

A plug-in is kept apart from the rest by three rules: any installed package's metadata is
read as bytes (one that is not UTF-8 leaves out that package's games only, and one that
registers no game is never decoded); importing a game's module or building its rules may
raise anything, `SystemExit` and `KeyboardInterrupt` included, and only costs that game
(but a real Ctrl-C of the user, see `_guarded`); and the files a game ships (its renderer,
its starters) are looked up through `game_file`, which a single-module plug-in answers with
"none" rather than an error.
"""

from __future__ import annotations

import importlib
import signal
from collections.abc import Callable
from functools import cache
from types import ModuleType
from typing import TYPE_CHECKING, TypeVar

if TYPE_CHECKING:
    from importlib.resources.abc import Traversable

from botarena.core.entrypoints import _report, _scan, entries
from botarena.core.game import Game
from botarena.core.rules import GameInfo
from botarena.core.stopping import Stopped

if TYPE_CHECKING:
    from importlib.resources.abc import Traversable


def names() -> tuple[str, ...]:
    """The registered games' names (without importing any game)."""
    return tuple(entries())


class UnknownGame(KeyError):
    """No game of that name is installed (its message lists the installed ones)."""

    def __str__(self) -> str:
        return str(self.args[0])


class BrokenGame(UnknownGame):
    """The game is registered but its plug-in does not load (the message says why)."""


T = TypeVar("T")


def _guarded(call: Callable[[], T]) -> tuple[T | None, str]:
    """`call()`'s value and '', or None and why it raised: a plug-in's code may raise
    anything, `SystemExit` (a `sys.exit` at import) and `KeyboardInterrupt` included, and
    that must cost only its own game. Re-raised: `Stopped`, and a `KeyboardInterrupt`
    while Python's own Ctrl-C handler is in place, for either is the user stopping the
    command (under `botarena`, Ctrl-C raises `Stopped`, so a KeyboardInterrupt there is the
    plug-in's own)."""

    try:
        return call(), ""
    except Stopped:
        raise
    except KeyboardInterrupt:
        if signal.getsignal(signal.SIGINT) is signal.default_int_handler:
            raise
        return None, "KeyboardInterrupt raised by the plug-in"
    except BaseException as exc:
        text = str(exc).strip().splitlines()
        return None, f"{type(exc).__name__}: {text[0]}" if text else type(exc).__name__


@cache
def _broken(name: str) -> str | None:
    """Why the registered game `name` cannot load (reported once), or None if it can."""
    entry = entries()[name]
    info, why = _guarded(lambda: importlib.import_module(entry.module).INFO)
    if not why:
        if not isinstance(info, GameInfo):
            why = f"{entry.module}.INFO is not a GameInfo"
        elif info.name != name:
            why = f"{entry.module}.INFO is named {info.name!r}, registered as {name!r}"
        else:
            return None
    message = f"game {name!r} of package {entry.package} is broken: {why}"
    _report(message)
    return message


def working(name: str) -> bool:
    """Whether `name` is a registered game whose plug-in loads (imports its cheap module
    only, under the guard)."""
    return name in entries() and _broken(name) is None


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
    game, why = _guarded(lambda: module.GAME)
    if why:
        raise BrokenGame(f"game {name!r} of package {entries()[name].package} is broken: {why}")
    if not isinstance(game, Game):
        raise BrokenGame(f"game {name!r}: {entries()[name].module}.GAME is not a Game")
    return game


def all_games() -> dict[str, Game]:
    """Every working game by name, in registry order (imports every game's rules)."""
    return {name: get_game(name) for name in available()}


def game_file(name: str, *parts: str) -> Traversable | None:
    """The file `parts` (e.g. "renderer.js", or "starters", "bot.py") shipped in the
    package of the working game `name`, or None when there is none: a plug-in that is one
    module, not a package, ships no files (importlib.resources would raise on it, or on
    Python 3.12+ look beside it, among other packages' files)."""
    from importlib import resources

    module = _module(name)
    if getattr(module, "__path__", None) is None:
        return None
    file = resources.files(module.__name__).joinpath(*parts)
    return file if file.is_file() else None
