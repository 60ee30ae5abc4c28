"""The registry of hosted games: each game's facts cheaply, its rules only when it is used.

A game's package (`botarena.games.NAME`) holds its `INFO` and builds its `GAME` (rules,
protocol, maps) on first access, so `botarena games` and start-up import no game's rules.
"""

from __future__ import annotations

import importlib

from botarena.core.game import Game
from botarena.core.rules import GameInfo

GAME_MODULES = ("amazes", "falldown", "labyrinth", "ants")
"""The hosted games in registry order; each is the package botarena.games.NAME."""


def _package(name: str):
    if name not in GAME_MODULES:
        raise KeyError(f"unknown game {name!r} (known: {', '.join(GAME_MODULES)})")
    return importlib.import_module(f"botarena.games.{name}")


def game_info(name: str) -> GameInfo:
    """The facts of the game called `name`, without importing its rules; KeyError as
    `get_game`."""
    return _package(name).INFO


def all_infos() -> dict[str, GameInfo]:
    """Every hosted game's facts by name, in registry order, without importing any rules."""
    return {name: game_info(name) for name in GAME_MODULES}


def get_game(name: str) -> Game:
    """The game called `name`; raises KeyError with a message listing the known games."""
    return _package(name).GAME


def all_games() -> dict[str, Game]:
    """Every hosted game by name, in registry order (imports every game's rules)."""
    return {name: get_game(name) for name in GAME_MODULES}
