#!/usr/bin/env python3
"""A minimal Labyrinth adventurers bot: each adventurer keeps its right hand on the wall.

One JSON value a line each way. Requests are {"call": NAME, "args": [...]}: "setup" (answer
any line, "ready"), "startRound" [n] (answer null: both start on (0, 0), the goal is
(n-1, n-1)), "takeTurn" [[visionA, visionB]] (answer [moveA, moveB]: 0 wait, 1 forward,
2 turn right, 3 turn around, 4 turn left). A vision's "ahead"[0] is the own cell:
{"ahead", "left", "right"}, true where a wall (or the border) is."""

import json
import sys


def main():
    turned = [False, False]  # turned right last turn: now step into that opening
    for line in sys.stdin:
        request = json.loads(line)
        call = request["call"]
        if call == "setup":
            reply = "ready"
        elif call == "takeTurn":
            reply = []
            for index, vision in enumerate(request["args"][0]):
                cell = vision["ahead"][0]
                if turned[index] and not cell["ahead"]:
                    move, turned[index] = 1, False
                elif not cell["right"]:
                    move, turned[index] = 2, True
                elif not cell["ahead"]:
                    move = 1
                else:
                    move, turned[index] = 4, False
                reply.append(move)
        else:  # startRound: a new maze, both back on (0, 0)
            turned = [False, False]
            reply = None
        print(json.dumps(reply), flush=True)


if __name__ == "__main__":
    main()
