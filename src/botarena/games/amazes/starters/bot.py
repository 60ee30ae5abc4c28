#!/usr/bin/env python3
"""A minimal Amazes (CodeCup 2010) bot: one step a turn, into the open square it has been on
the fewest times (right, then forward, then left, then back on a tie), so it keeps its right
hand on the wall but does not walk round the same loop for ever.

Each turn it reads five lines (Red reads "Start" first, once): the corridors ahead, right,
behind and left ("W" alone: a wall right there), then the squared distance to the opponent.
It answers one line of letters: F forward, R/L turn right/left and step, T turn around and
step. "Quit" (or the end of the input) ends the game. The same strategy, move for move, as
bot.cpp and Bot.java."""

import sys

# where each letter turns us (quarter turns clockwise) and which corridor line it enters
MOVES = [("R", 1, 1), ("F", 0, 0), ("L", 3, 3), ("T", 2, 2)]
DX, DY = [0, 1, 0, -1], [-1, 0, 1, 0]  # heading 0 north (our start heading), 1 east, ...


def main():
    visits = [[0] * 51 for _ in range(51)]  # the maze is 25x25: we stay within 24 of the start
    x = y = 25
    heading = 0
    visits[y][x] = 1
    lines = []
    for line in sys.stdin:
        line = line.strip()
        if line == "Start":
            continue
        if line == "Quit":
            return
        lines.append(line)
        if len(lines) < 5:
            continue
        best = None
        for letter, turn, corridor in MOVES:
            if len(lines[corridor]) == 1:
                continue  # "W": a wall right there
            way = (heading + turn) % 4
            count = visits[y + DY[way]][x + DX[way]]
            if best is None or count < best[0]:
                best = (count, letter, way)
        lines = []
        _count, letter, heading = best
        x, y = x + DX[heading], y + DY[heading]
        visits[y][x] += 1
        print(letter, flush=True)


if __name__ == "__main__":
    main()
