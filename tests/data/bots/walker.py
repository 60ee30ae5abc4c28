"""Amazes: step ahead when open, else right, else left, else turn around."""

import sys

while True:
    ahead = sys.stdin.readline().strip()
    if ahead in ("", "Quit"):
        break
    if ahead == "Start":
        continue
    right, behind, left, distance = (sys.stdin.readline().strip() for _ in range(4))
    if len(ahead) > 1:
        move = "F"
    elif len(right) > 1:
        move = "R"
    elif len(left) > 1:
        move = "L"
    else:
        move = "T"
    print(move, flush=True)
