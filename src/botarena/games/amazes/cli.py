"""`botarena amazes maze generate|check|show`: make, validate and draw maze files."""

from __future__ import annotations

import random
import sys
from pathlib import Path
from typing import Annotated

import typer

from botarena.core.mapcli import maps_command
from botarena.core.outputs import output_path
from botarena.core.reader import MAZE, read_text
from botarena.core.rules import GameError
from botarena.core.starters import Starter, add_command
from botarena.games.amazes.maze import (
    DIRECTIONS,
    SIZE,
    check_maze,
    draw_starts,
    generate_maze,
    maze_stats,
    parse_maze,
)

app = typer.Typer(no_args_is_help=True, add_completion=False, rich_markup_mode=None)
app.command("maps")(maps_command("amazes"))
maze_app = typer.Typer(
    help="Generate, check and show Amazes maze files.", no_args_is_help=True, rich_markup_mode=None
)
app.add_typer(maze_app, name="maze")
add_command(app, Starter("amazes", {"bot": ("bot", ["BOT", "builtin:amazes/explorer"])}))


def _fail(message: str) -> None:
    print(f"botarena: error: {message}", file=sys.stderr)
    raise typer.Exit(2)


@maze_app.command()
def generate(
    seed: Annotated[int, typer.Option(help="the generator's seed")] = 0,
    output: Annotated[
        Path | None, typer.Option("--output", "-o", help="write here instead of standard output")
    ] = None,
    starts: Annotated[
        bool,
        typer.Option(
            help="also draw the two start squares and write them as the file's first two lines"
        ),
    ] = False,
) -> None:
    """Write a random maze like the official ones (same seed, same maze)."""
    rng = random.Random(seed)
    maze = generate_maze(rng)
    if starts:
        maze.starts = draw_starts(maze, rng)
    text = maze.to_file()
    if output is None:
        sys.stdout.write(text)
    else:
        try:
            output_path(output, "--output").write_text(text)
        except (GameError, OSError) as exc:
            _fail(str(exc))
        stats = maze_stats(maze)
        print(f"{output}: {stats.loops} loops, {stats.dead_ends} dead ends")


@maze_app.command()
def check(files: Annotated[list[Path], typer.Argument(help="maze files")]) -> None:
    """Say what is wrong with each maze file; exit 1 if any is not a valid maze."""
    bad = 0
    for path in files:
        try:
            text = read_text(path, MAZE)
        except GameError as exc:
            _fail(str(exc))
        try:
            maze = parse_maze(text, str(path))
        except GameError as exc:
            print(f"{exc}")
            bad += 1
            continue
        problems = check_maze(maze)
        stats = maze_stats(maze)
        if problems:
            bad += 1
            for problem in problems:
                print(f"{path}: {problem}")
        else:
            print(f"{path}: valid ({stats.loops} loops, {stats.dead_ends} dead ends)")
    if bad:
        raise typer.Exit(1)


@maze_app.command()
def show(file: Annotated[Path, typer.Argument(help="a maze file")]) -> None:
    """Draw a maze with its start squares (R = Red, B = Blue) and its problems, if any."""
    try:
        maze = parse_maze(read_text(file, MAZE), str(file))
    except GameError as exc:
        _fail(str(exc))
    for problem in check_maze(maze):
        print(f"{file}: {problem}")
    lines = [list(line) for line in maze.to_ascii().splitlines()]
    for mark, start in zip("RB", maze.starts or (), strict=False):
        row, col = divmod(start.square, SIZE)
        lines[2 * row + 1][2 * col + 1] = mark
        print(f"{mark}: row {row + 1}, column {col + 1}, facing {DIRECTIONS[start.facing]}")
    print("\n".join("".join(line) for line in lines))
