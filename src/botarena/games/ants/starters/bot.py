#!/usr/bin/env python3
"""A minimal Ants (AI Challenge 2011) bot: every ant steps towards the nearest food or enemy
hill it sees; with none in sight it steps away from our nearest hill, to spread out.

Turn 0 sends the parameters ("rows 43", "cols 39", ...) and "ready": answer "go". Each turn
then sends "turn N", what our ants see ("w ROW COL" water, "f ROW COL" food, "a ROW COL
OWNER" ants and "h ROW COL OWNER" hills, owner 0 is us; "d" dead ants) and "go": answer
"o ROW COL DIR" lines and "go". "end" ends the game. The same strategy, move for move, as
bot.cpp and Bot.java."""

import sys

DIRECTIONS = "nesw"
STEP = {"n": (-1, 0), "e": (0, 1), "s": (1, 0), "w": (0, -1)}


def main():
    rows = cols = 0
    water = set()  # water never moves: remembered for the whole game
    ants, food, enemy_hills, hills = [], [], [], []
    for line in sys.stdin:
        words = line.split()
        if not words:
            continue
        kind = words[0]
        if kind == "end":
            return
        if kind == "rows":
            rows = int(words[1])
        elif kind == "cols":
            cols = int(words[1])
        elif kind == "ready":
            print("go", flush=True)
        elif kind == "turn":
            ants, food, enemy_hills, hills = [], [], [], []
        elif kind == "w":
            water.add((int(words[1]), int(words[2])))
        elif kind == "f":
            food.append((int(words[1]), int(words[2])))
        elif kind == "h" and words[3] != "0":
            enemy_hills.append((int(words[1]), int(words[2])))
        elif kind == "h":
            hills.append((int(words[1]), int(words[2])))
        elif kind == "a" and words[3] == "0":
            ants.append((int(words[1]), int(words[2])))
        elif kind == "go":
            orders(rows, cols, water, ants, food, food + enemy_hills, hills)
            print("go", flush=True)


def distance(rows, cols, a, b):
    """Steps between two squares on the map, which wraps around at its edges."""
    dr, dc = abs(a[0] - b[0]), abs(a[1] - b[1])
    return min(dr, rows - dr) + min(dc, cols - dc)


def orders(rows, cols, water, ants, food, targets, hills):
    """Write one order an ant: the free square nearest a target (or farthest from our hills),
    the first of n e s w on a tie. Food is not entered; no two ants share a square."""
    taken = set(ants) | set(food)  # our ants (one that finds no square stays) and food
    for row, col in ants:
        best, best_score = None, None
        for direction in DIRECTIONS:
            to = ((row + STEP[direction][0]) % rows, (col + STEP[direction][1]) % cols)
            if to in water or to in taken:
                continue
            if targets:  # lower is better: the distance to the nearest target
                score = min(distance(rows, cols, to, target) for target in targets)
            else:  # nothing to go for: the farther from our hills the better
                score = -min((distance(rows, cols, to, hill) for hill in hills), default=0)
            if best is None or score < best_score:
                best, best_score = direction, score
        if best is not None:
            to = ((row + STEP[best][0]) % rows, (col + STEP[best][1]) % cols)
            taken.add(to)
            sys.stdout.write(f"o {row} {col} {best}\n")


if __name__ == "__main__":
    main()
