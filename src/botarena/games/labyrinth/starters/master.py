#!/usr/bin/env python3
"""A minimal Labyrinth maze master: a winding maze each round, and no changes after.

One JSON value a line each way. Requests are {"call": NAME, "args": [...]}: "setup" (answer
any line, "ready"), "generateMaze" [n] (answer n rows of n cells {"east": bool, "south":
bool}, true a wall; the maze must be connected), "takeTurn" [mana, maze, adventurers]
(answer [remove, add], each null or [row, col, "south"|"east"], or null to change nothing;
a wall an adventurer can see is not changed, and the maze must stay connected)."""

import json
import sys


def maze(n):
    """A serpentine: every row closed to the south but at one end, alternating sides."""
    return [
        [{"east": False, "south": col != (n - 1 if row % 2 == 0 else 0)} for col in range(n)]
        for row in range(n)
    ]


def main():
    for line in sys.stdin:
        request = json.loads(line)
        call = request["call"]
        if call == "setup":
            reply = "ready"
        elif call == "generateMaze":
            reply = maze(request["args"][0])
        else:  # takeTurn: spend no mana
            reply = None
        print(json.dumps(reply), flush=True)


if __name__ == "__main__":
    main()
