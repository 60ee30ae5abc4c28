"""botarena's own four games, each a plug-in registered in the entry-point group
`botarena.games` like any other package's (see core/registry.py and docs/new-game.md).

The registry's functions are re-exported here for scripts and tests that ask for a game:
`from botarena.games import get_game`. They load on first use: a bot program started as
`python -m botarena.games.GAME.bots.NAME` imports this package, and the registry (the
installed packages' entry points) would add a third to its start-up.
"""

from __future__ import annotations

from typing import Any

__all__ = ["all_games", "all_infos", "game_info", "get_game", "names"]


def __getattr__(name: str) -> Any:
    if name not in __all__:
        raise AttributeError(f"module 'botarena.games' has no attribute {name!r}")
    from botarena.core import registry

    return getattr(registry, name)
