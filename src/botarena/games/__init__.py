"""botarena's own four games, each a plug-in registered in the entry-point group
`botarena.games` like any other package's (see core/registry.py and docs/new-game.md).

The registry's functions are re-exported here for scripts and tests that ask for a game:
`from botarena.games import get_game`.
"""

from __future__ import annotations

from botarena.core.registry import all_games, all_infos, game_info, get_game, names

__all__ = ["all_games", "all_infos", "game_info", "get_game", "names"]
