"""The registry of hosted games. Every game is imported here, so a broken game fails loudly."""

from __future__ import annotations

import importlib

from botarena.core.game import Game

GAME_MODULES = ("amazes", "falldown", "labyrinth", "ants")
"""Game packages under botarena.games, each exporting `GAME`."""

_loaded: dict[str, Game] = {}


def all_games() -> dict[str, Game]:
    """Every hosted game by name, in registry order."""
    if not _loaded:
        for module in GAME_MODULES:
            game = importlib.import_module(f"botarena.games.{module}").GAME
            _loaded[game.name] = game
    return _loaded


def get_game(name: str) -> Game:
    """The game called `name`; raises KeyError with a message listing the known games."""
    games = all_games()
    if name not in games:
        raise KeyError(f"unknown game {name!r} (known: {', '.join(games)})")
    return games[name]
