"""`botarena GAME maps`: the command each game's tools mount to list its official maps."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Annotated

import typer

from botarena.core.maps import map_rows


def maps_command(game_name: str) -> Callable[..., None]:
    """The `maps` subcommand of a game's tools: lists `map_rows` (or says there are none)."""

    def maps(
        json_output: Annotated[bool, typer.Option("--json", help="print a JSON list")] = False,
    ) -> None:
        from botarena.games import get_game

        game = get_game(game_name)
        rows = map_rows(game)
        if json_output:
            print(json.dumps(rows))
        elif not rows:
            print(
                f"{game_name} ships no maps" + ("" if game.load_map else " and takes no map file")
            )
        else:
            print(f"{'map':<40} {'players':>7}  size")
            for row in rows:
                print(f"{row['map']:<40} {row['players']:>7}  {row['size']}")
            print(f"play one with: botarena play {game_name} BOT... --map {rows[0]['map']}")

    maps.__doc__ = f"List the official maps shipped with {game_name} (--map {game_name}:NAME)."
    return maps
