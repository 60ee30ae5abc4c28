"""Wins at once if it can, blocks the other's four if it must, else plays the legal column
nearest the centre."""

from __future__ import annotations

from botarena_connect4.rules import DISCS, Connect4State, Observation


def _wins(observation: Observation, column: int, disc: str) -> bool:
    state = Connect4State(len(observation.board[0]), len(observation.board), 1000)
    state.grid = [list(row) for row in observation.board]
    row = max(r for r in range(len(state.grid)) if state.grid[r][column] == ".")
    state.grid[row][column] = disc
    return bool(state._four(row, column))


class FirstBot:
    def act(self, observation: Observation) -> int:
        legal = observation.legal()
        mine, theirs = DISCS[observation.seat], DISCS[1 - observation.seat]
        for disc in (mine, theirs):
            for column in legal:
                if _wins(observation, column, disc):
                    return column
        centre = (len(observation.board[0]) - 1) / 2
        return min(legal, key=lambda column: (abs(column - centre), column))


if __name__ == "__main__":
    from botarena.core.botmain import run_stdio
    from botarena_connect4.protocol import PROTOCOL

    run_stdio(FirstBot(), PROTOCOL)
