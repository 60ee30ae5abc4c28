#!/usr/bin/env python3
"""A minimal Amazes (CodeCup 2010) bot: it keeps its right hand on the wall.

Each turn it reads five lines (Red reads "Start" first, once): the corridors ahead, right,
behind and left ("W" alone: a wall right there), then the squared distance to the opponent.
It answers one line of letters: F forward, R/L turn right/left and step, T turn around and
step. "Quit" (or the end of the input) ends the game."""

import sys


def main():
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
        ahead, right, _behind, left, _distance = lines
        lines = []
        if len(right) > 1:
            move = "R"
        elif len(ahead) > 1:
            move = "F"
        elif len(left) > 1:
            move = "L"
        else:
            move = "T"
        print(move, flush=True)


if __name__ == "__main__":
    main()
