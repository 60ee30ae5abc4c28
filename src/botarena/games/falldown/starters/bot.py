#!/usr/bin/env python3
"""A minimal Falldown (JavaChallenge 2015) bot: it leaves a falling block for a standing
one; otherwise it attacks an opponent in its block row or column (turning to face it first),
or walks towards the first opponent still on the board to get in line with it.

It first writes READY. Then, in every slot of its player, it reads 13 lines: its id p, the
slot number T, six lines of the 6x6 block values (0 standing, >0 falling in that many
slots, <0 fallen), four lines "x y D S" (column, row, facing, wait; -1 -1 once fallen) for
players 0..3, and "EOD". It answers one line: U R D L (face and step), A (attack), N. The
same strategy, move for move, as bot.cpp and Bot.java."""

import sys

STEPS = {"U": (0, -1), "R": (1, 0), "D": (0, 1), "L": (-1, 0)}


def block(blocks, x, y):
    """The value of the block under cell (x, y); 0 (standing) off the board, where a
    command only turns us."""
    return blocks[y // 3][x // 3] if 0 <= x < 18 and 0 <= y < 18 else 0


def choose(me, blocks, players):
    x, y, facing, wait = players[me]
    if x < 0 or wait > 0:
        return "N"  # fallen, or waiting after an attack: the answer is ignored
    if block(blocks, x, y) > 0:  # our block is falling: step onto a standing one
        for command, (dx, dy) in STEPS.items():
            if 0 <= x + dx < 18 and 0 <= y + dy < 18 and block(blocks, x + dx, y + dy) == 0:
                return command
    for other, (ox, oy, _facing, _wait) in enumerate(players):
        if other == me or ox < 0:
            continue
        # the way to face: towards its block column if not in ours, else its block row
        way = ("R" if ox > x else "L") if ox // 3 != x // 3 else ("D" if oy > y else "U")
        if (ox // 3 == x // 3 or oy // 3 == y // 3) and way == facing:
            return "A"  # in line, and we face it: its block falls in 4 slots a block
        dx, dy = STEPS[way]
        if block(blocks, x + dx, y + dy) <= 0:  # never step onto a falling block
            return way
    return "N"


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
