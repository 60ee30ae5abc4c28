#!/usr/bin/env python3
"""A minimal Ants (AI Challenge 2011) bot: every ant steps towards the nearest food it sees,
else in a random free direction. Reads the 2011 protocol on stdin, writes orders on stdout."""

import random
import sys

AIM = {"n": (-1, 0), "e": (0, 1), "s": (1, 0), "w": (0, -1)}


def main():
    params, water = {}, set()
    for line in sys.stdin:  # turn 0: parameters until "ready"
        words = line.split()
        if words and words[0] == "ready":
            break
        if len(words) == 2:
            params[words[0]] = words[1]
    rows, cols = int(params["rows"]), int(params["cols"])
    random.seed(int(params.get("player_seed", 0)))
    sys.stdout.write("go\n")
    sys.stdout.flush()
    ants, food = [], []
    for line in sys.stdin:
        words = line.split()
        if not words:
            continue
        if words[0] == "end":
            return
        if words[0] == "turn":
            ants, food = [], []
        elif words[0] == "w":
            water.add((int(words[1]), int(words[2])))
        elif words[0] == "f":
            food.append((int(words[1]), int(words[2])))
        elif words[0] == "a" and words[3] == "0":
            ants.append((int(words[1]), int(words[2])))
        elif words[0] == "go":
            # never step onto a square an ant of ours stands on now or was sent to
            taken = set(ants)
            for row, col in ants:

                def dist(direction, row=row, col=col, food=food):
                    r = (row + AIM[direction][0]) % rows
                    c = (col + AIM[direction][1]) % cols
                    if not food:
                        return random.random()
                    return min(
                        min(abs(r - fr), rows - abs(r - fr)) + min(abs(c - fc), cols - abs(c - fc))
                        for fr, fc in food
                    )

                for direction in sorted(AIM, key=dist):
                    r = (row + AIM[direction][0]) % rows
                    c = (col + AIM[direction][1]) % cols
                    if (r, c) not in water and (r, c) not in taken and (r, c) not in food:
                        taken.add((r, c))
                        sys.stdout.write(f"o {row} {col} {direction}\n")
                        break
            sys.stdout.write("go\n")
            sys.stdout.flush()


if __name__ == "__main__":
    main()
