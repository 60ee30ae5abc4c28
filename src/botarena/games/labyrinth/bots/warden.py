"""Maze master `warden`: long-corridor mazes (the longest of a few random perfect mazes),
then, whenever mana allows, swaps a wall on the adventurers' shortest path for one that
reconnects the maze the longest way round — never a visible wall, never a disconnection."""

from __future__ import annotations

from typing import Any

from botarena.games.labyrinth.api import MazeMaster
from botarena.games.labyrinth.bots.static import perfect_maze
from botarena.games.labyrinth.maze import FAR, Maze, distances
from botarena.games.labyrinth.vision import DIR_NAMES, protected_edges

CANDIDATE_MAZES = 3
CANDIDATE_CUTS = 3

SWAP_S_PER_CELL = 4e-6
"""What a swap's search costs per cell of the maze (about 2 µs measured on a 2-core
virtual machine under load: twice that, for slower machines), for the bot's own bank."""


def edge_cells(maze: Maze, edge: int) -> tuple[int, int]:
    """The two cells an edge separates."""
    cell, side = divmod(edge, 2)
    return cell, cell + (1 if side == 0 else maze.n)


class Warden(MazeMaster):
    """Adversarial maze master; see the module docstring."""

    def generate_maze(self, maze_size: int) -> Any:
        best, best_length = None, -1
        for _ in range(CANDIDATE_MAZES):
            cells = perfect_maze(maze_size, self.random)
            length = distances(maze_size, to_maze(cells).walls, 0)[-1]
            if length > best_length:
                best, best_length = cells, length
        return best

    def take_turn(
        self,
        mana: int,
        maze: list[list[dict[str, Any]]],
        adventurers: list[dict[str, Any]] | None = None,
    ) -> Any:
        if adventurers is None or mana < 2:
            return None
        if not self.bank.think(SWAP_S_PER_CELL * len(maze) ** 2):
            return None
        return self._swap(mana, maze, adventurers)

    def _swap(
        self, mana: int, cells: list[list[dict[str, Any]]], adventurers: list[dict[str, Any]]
    ) -> Any:
        maze = to_maze(cells)
        n = maze.n
        goal = n * n - 1
        positions = [(a["row"], a["col"], DIR_NAMES.index(a["dir"])) for a in adventurers]
        starts = [row * n + col for row, col, _ in positions]
        to_goal = distances(maze.n, maze.walls, goal)
        runner = min(starts, key=lambda cell: to_goal[cell])
        protected = protected_edges(maze, positions)
        cuts = self._cuts_on_path(maze, runner, to_goal, protected, cells, mana)
        best, best_length = None, to_goal[runner]
        for cut, cut_cost in cuts:
            from_runner = distances(maze.n, maze.walls, runner, cut)
            from_goal = distances(maze.n, maze.walls, goal, cut)
            if from_runner[goal] < FAR:  # not a bridge: closing it alone is safe
                if from_runner[goal] > best_length and cut_cost <= mana:
                    best, best_length = [None, list(maze.coords(cut))], from_runner[goal]
                continue
            for edge in maze.edges():
                if not maze.walls[edge] or edge in protected or edge == cut:
                    continue
                a, b = edge_cells(maze, edge)
                if from_runner[a] < FAR and from_goal[b] < FAR:
                    length = from_runner[a] + 1 + from_goal[b]
                elif from_runner[b] < FAR and from_goal[a] < FAR:
                    length = from_runner[b] + 1 + from_goal[a]
                else:
                    continue
                if length > best_length and cut_cost + cost_of(cells, maze, edge) <= mana:
                    best, best_length = [list(maze.coords(edge)), list(maze.coords(cut))], length
        return best

    def _cuts_on_path(
        self,
        maze: Maze,
        start: int,
        to_goal: list[int],
        protected: set[int],
        cells: list[list[dict[str, Any]]],
        mana: int,
    ) -> list[tuple[int, int]]:
        """Up to CANDIDATE_CUTS open, unseen, affordable edges on the runner's shortest path,
        the ones nearest the goal first (the longest detours hide there)."""
        n = maze.n
        path_edges = []
        cell = start
        while to_goal[cell] > 0:
            col = cell % n
            base = cell * 2
            for other, edge, ok in (
                (cell + 1, base, col < n - 1),
                (cell - 1, base - 2, col > 0),
                (cell + n, base + 1, cell + n < n * n),
                (cell - n, base - 2 * n + 1, cell >= n),
            ):
                if ok and not maze.walls[edge] and to_goal[other] == to_goal[cell] - 1:
                    path_edges.append(edge)
                    cell = other
                    break
            else:
                break
        cuts = []
        for edge in reversed(path_edges):
            cost = cost_of(cells, maze, edge)
            if edge not in protected and cost < mana:
                cuts.append((edge, cost))
                if len(cuts) == CANDIDATE_CUTS:
                    break
        return cuts


def to_maze(cells: list[list[dict[str, Any]]]) -> Maze:
    """A Maze from the rows of cells a maze master sees (or generates)."""
    n = len(cells)
    maze = Maze.open(n)
    for row, line in enumerate(cells):
        for col, cell in enumerate(line):
            base = (row * n + col) * 2
            maze.walls[base] = bool(cell["east"]) and col < n - 1
            maze.walls[base + 1] = bool(cell["south"]) and row < n - 1
    return maze


def cost_of(cells: list[list[dict[str, Any]]], maze: Maze, edge: int) -> int:
    row, col, side = maze.coords(edge)
    return cells[row][col][side + "Cost"]


def main() -> None:
    from botarena.core.botmain import run_stdio
    from botarena.games.labyrinth.protocol import PROTOCOL

    run_stdio(Warden(), PROTOCOL)


if __name__ == "__main__":
    main()
