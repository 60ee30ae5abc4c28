"""Adventurers `wallfollower`: A keeps its left hand on the wall, B its right hand; the
baseline (it solves any static perfect maze, slowly, and is fooled by changes)."""

from __future__ import annotations

from typing import Any

from botarena.games.labyrinth.api import Adventurers

FORWARD, TURN_RIGHT, TURN_AROUND, TURN_LEFT = 1, 2, 3, 4


class WallFollower(Adventurers):
    """Hand on the wall: turn into an opening on that side, else forward, else turn away."""

    def start_round(self, maze_size: int) -> None:
        self.just_turned = [False, False]

    def take_turn(self, vision: list[dict[str, Any]]) -> list[int]:
        return [self._step(0, vision[0], "left"), self._step(1, vision[1], "right")]

    def _step(self, index: int, sight: dict[str, Any], hand: str) -> int:
        here = sight["ahead"][0]
        toward, away = (TURN_LEFT, TURN_RIGHT) if hand == "left" else (TURN_RIGHT, TURN_LEFT)
        if not here[hand] and not self.just_turned[index]:
            self.just_turned[index] = True
            return toward
        self.just_turned[index] = False
        if not here["ahead"]:
            return FORWARD
        other = "right" if hand == "left" else "left"
        return away if not here[other] else TURN_AROUND


def main() -> None:
    from botarena.core.botmain import run_stdio
    from botarena.games.labyrinth.protocol import PROTOCOL

    run_stdio(WallFollower(), PROTOCOL)


if __name__ == "__main__":
    main()
