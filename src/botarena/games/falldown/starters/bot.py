#!/usr/bin/env python3
"""A minimal Falldown (JavaChallenge 2015) bot: it leaves a falling block for a standing
one, otherwise it attacks along its facing.

It first writes READY. Then, in every slot of its player, it reads 13 lines: its id p, the
slot number T, six lines of the 6x6 block values (0 standing, >0 falling in that many
slots, <0 fallen), four lines "x y D S" (column, row, facing, wait; -1 -1 once fallen) for
players 0..3, and "EOD". It answers one line: U R D L (face and step), A (attack), N."""

import sys

STEPS = {"U": (0, -1), "R": (1, 0), "D": (0, 1), "L": (-1, 0)}


def block(blocks, x, y):
    return blocks[y // 3][x // 3]


def choose(me, blocks, players):
    x, y, _facing, wait = players[me]
    if x < 0 or wait > 0:
        return "N"  # fallen, or waiting after an attack: the answer is ignored
    if block(blocks, x, y) > 0:  # our block is falling: step onto a standing one
        for command, (dx, dy) in STEPS.items():
            nx, ny = x + dx, y + dy
            if 0 <= nx < 18 and 0 <= ny < 18 and block(blocks, nx, ny) == 0:
                return command
    return "A"


def main():
    print("READY", flush=True)
    lines = []
    for line in sys.stdin:
        lines.append(line.split())
        if lines[-1] != ["EOD"]:
            continue
        me = int(lines[0][0])
        blocks = [[int(value) for value in row] for row in lines[2:8]]
        players = [(int(x), int(y), facing, int(wait)) for x, y, facing, wait in lines[8:12]]
        lines = []
        print(choose(me, blocks, players), flush=True)


if __name__ == "__main__":
    main()
