"""`botarena ants ...`: check a 2011 replay, export one, make and check maps, write a starter."""

from __future__ import annotations

import gzip
import json
import sys
from pathlib import Path
from typing import Annotated, NoReturn

import typer

from botarena.core.mapcli import maps_command
from botarena.core.rules import GameError
from botarena.core.starters import Starter, add_command

app = typer.Typer(
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
)
app.command("maps")(maps_command("ants"))
map_app = typer.Typer(
    no_args_is_help=True,
    add_completion=False,
    rich_markup_mode=None,
    help="Generate and check .map files.",
)
app.add_typer(map_app, name="map")


def _fail(message: str) -> NoReturn:
    print(f"botarena: error: {message}", file=sys.stderr)
    raise typer.Exit(2)


@app.command("check-replay")
def check_replay(
    path: Annotated[Path, typer.Argument(help="a 2011 replay (.replay[.gz])")],
    option: Annotated[
        list[str] | None,
        typer.Option(
            "-o",
            "--option",
            help="cutoff_turn=N or cutoff_percent=X, when the 2011 game"
            " was not played with the defaults (replays omit them)",
        ),
    ] = None,
) -> None:
    """Re-simulate a 2011 replay with botarena's rules; exit 1 at the first difference."""
    from botarena.games.ants import INFO
    from botarena.games.ants.replay2011 import check_replay as check

    overrides = {}
    for pair in option or []:
        key, eq, value = pair.partition("=")
        if key not in ("cutoff_turn", "cutoff_percent") or not eq:
            _fail(f"option {pair!r}: only cutoff_turn=N and cutoff_percent=X apply here")
        try:
            overrides[key] = INFO.option(key).read(value)
        except GameError as exc:
            _fail(str(exc))
    try:
        ok, message = check(path, overrides)
    except GameError as exc:
        _fail(str(exc))
    except (KeyError, IndexError, TypeError, ValueError) as exc:  # a field missing or odd
        _fail(f"{path}: not a well-formed 2011 replay ({exc.__class__.__name__}: {exc})")
    print(message)
    raise typer.Exit(0 if ok else 1)


@app.command("export-replay")
def export_replay(
    replay: Annotated[Path, typer.Argument(help="a botarena Ants replay")],
    output: Annotated[Path, typer.Argument(help="the 2011 replay to write (.gz: gzip)")],
) -> None:
    """Write a botarena Ants replay in the 2011 engine's format (revision 3)."""
    from botarena.core.outputs import output_path
    from botarena.core.replay import ReplayError, load
    from botarena.games.ants.replay2011 import export_replay as export

    try:
        output = output_path(output, "OUTPUT", not_same_as=replay)
        document = load(replay)
    except (ReplayError, GameError) as exc:
        _fail(str(exc))  # it names the file
    if document.get("game") != "ants":
        _fail(f"{replay}: not an Ants replay (game {document.get('game')!r})")
    try:
        document = export(document)
    except (GameError, KeyError, IndexError, TypeError, ValueError) as exc:
        _fail(f"{replay}: cannot export it ({exc.__class__.__name__}: {exc})")
    data = json.dumps(document, sort_keys=True).encode()
    if output.suffix == ".gz":
        data = gzip.compress(data, mtime=0)
    try:
        output.write_bytes(data)
    except OSError as exc:
        _fail(f"{output}: cannot write ({exc.strerror or exc})")
    print(f"wrote {output}")


def _starter_file(path: Path) -> None:
    """`botarena ants starter mybot.py` (the older form): the Python starter in that file."""
    from botarena.games.ants.starter import STARTER

    if path.exists():
        _fail(f"{path}: already exists; not overwriting it")
    path.write_text(STARTER)
    print(f"wrote {path}; try: botarena play ants 'python3 {path}' builtin:ants/greedy")


add_command(
    app, Starter("ants", {"bot": ("bot", ["BOT", "builtin:ants/greedy"])}), legacy=_starter_file
)


@map_app.command("check")
def map_check(path: Annotated[Path, typer.Argument(help="a .map file")]) -> None:
    """Check a map against the 2011 map-maker rules; exit 1 naming each rule it breaks."""
    from botarena.games.ants.mapcheck import check_map
    from botarena.games.ants.mapfile import load_map

    try:
        problems = check_map(load_map(str(path)))
    except GameError as exc:
        _fail(str(exc))
    for problem in problems:
        print(f"{path}: {problem}")
    if problems:
        raise typer.Exit(1)
    print(f"{path}: ok")


@map_app.command("generate")
def map_generate(
    players: Annotated[int, typer.Option(help="2 to 10")] = 2,
    size: Annotated[str, typer.Option(help="ROWSxCOLS")] = "60x60",
    kind: Annotated[str, typer.Option(help="maze, cave or open")] = "cave",
    seed: Annotated[int, typer.Option(help="random seed")] = 0,
    output: Annotated[
        Path | None, typer.Option("-o", "--output", help="file (default: stdout)")
    ] = None,
) -> None:
    """Generate a symmetric map that passes the 2011 map-maker rules."""
    from botarena.games.ants.mapfile import map_text
    from botarena.games.ants.mapgen import generate

    try:
        rows_text, _, cols_text = size.lower().partition("x")
        rows, cols = int(rows_text), int(cols_text)
    except ValueError:
        _fail(f"--size {size!r} is not ROWSxCOLS")
    try:
        text = map_text(generate(players, rows, cols, kind, seed))
    except GameError as exc:
        _fail(str(exc))
    if output is None:
        sys.stdout.write(text)
    else:
        from botarena.core.outputs import output_path

        try:
            output_path(output, "--output").write_text(text)
        except (GameError, OSError) as exc:
            _fail(str(exc))
        print(f"wrote {output}")
