"""What a post's runner (runner.js) is sent: the JSON-lines protocol's calls, except that
the maze master's maze comes as the cells that changed since its previous call.

The runner keeps the maze and gives the bot a fresh full copy each call, as the original
controller did, so a post sees exactly the arguments of the protocol while the wire carries
a few bytes a turn instead of the whole maze (tens of kilobytes for n = 25):

    {"call":"takeTurn","mana":M,"n":N,"cells":[[ROW,COL,EAST,EAST_COST,SOUTH,SOUTH_COST],...],
     "adventurers":[{"row":R,"col":C,"dir":D},{...}]}

`cells` holds every cell of a maze the runner has not seen yet (a new round), then only the
cells whose walls or costs changed (none on most turns).

>>> from botarena.games.labyrinth.maze import Maze
>>> from botarena.games.labyrinth.rules import MazeMasterTurn
>>> wire, maze = PostWire(), Maze.open(2)
>>> wire.encode(MazeMasterTurn(1, maze.shared_view(), []))[:56]
'{"call":"takeTurn","mana":1,"n":2,"cells":[[0,0,false,1,'
>>> _ = maze.set(0, True)
>>> wire.encode(MazeMasterTurn(2, maze.shared_view(), []))
'{"call":"takeTurn","mana":2,"n":2,"cells":[[0,0,true,1,false,1]],"adventurers":[]}\\n'
>>> wire.encode(MazeMasterTurn(3, maze.shared_view(), []))
'{"call":"takeTurn","mana":3,"n":2,"cells":[],"adventurers":[]}\\n'
"""

from __future__ import annotations

from typing import Any

from botarena.games.labyrinth.protocol import PROTOCOL, call_json
from botarena.games.labyrinth.rules import Call, MazeMasterTurn


class PostWire:
    """Encodes the calls for one post's runner, remembering the maze it was last sent.

    Relies on `Maze.shared_view` never changing in place: a row or cell that is the same
    object as last time is unchanged, so the comparison costs nothing on a quiet turn."""

    def __init__(self) -> None:
        self._sent: list[list[dict[str, Any]]] = []

    def encode(self, call: Call | MazeMasterTurn) -> str:
        if not isinstance(call, MazeMasterTurn):
            return PROTOCOL.encode(call)
        view, sent = call.view, self._sent
        changed = []
        if view is not sent:
            known = len(view) == len(sent)
            for row, cells in enumerate(view):
                before = sent[row] if known else None
                if cells is before:
                    continue
                for col, cell in enumerate(cells):
                    if before is None or cell is not before[col]:
                        changed.append(
                            [
                                row,
                                col,
                                cell["east"],
                                cell["eastCost"],
                                cell["south"],
                                cell["southCost"],
                            ]
                        )
            self._sent = view
        return (
            call_json(
                {
                    "call": "takeTurn",
                    "mana": call.mana,
                    "n": len(view),
                    "cells": changed,
                    "adventurers": call.adventurers,
                }
            )
            + "\n"
        )
