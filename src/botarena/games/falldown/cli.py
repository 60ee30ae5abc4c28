"""`botarena falldown ...`: import the original engine's results, export botarena replays."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated, NoReturn

import typer

from botarena.core.mapcli import maps_command
from botarena.core.replay import ReplayError
from botarena.core.rules import GameError
from botarena.core.starters import Starter, add_command

app = typer.Typer(
    help="JavaChallenge 2015 Falldown tools.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
)
app.command("maps")(maps_command("falldown"))


def _fail(message: str) -> NoReturn:
    print(f"botarena: error: {message}", file=sys.stderr)
    raise typer.Exit(2)


@app.callback()
def _group() -> None:
    """JavaChallenge 2015 Falldown tools."""


add_command(
    app,
    Starter(
        "falldown",
        {
            "bot": (
                "bot",
                [
                    "BOT",
                    "builtin:falldown/hunter",
                    "builtin:falldown/random",
                    "builtin:falldown/random",
                ],
            )
        },
    ),
)


@app.command("import-bookmaker")
def import_bookmaker_command(
    file: Annotated[Path, typer.Argument(help="the original engine's JSON result")],
    replay: Annotated[Path, typer.Option(help="write the botarena replay here (.gz: gzip)")],
) -> None:
    """Re-simulate a Bookmaker result (`replay.initial`, `replay.commands`, `winner`) into a
    botarena replay that `botarena verify` checks."""
    from botarena.core.outputs import output_path
    from botarena.core.replay import save
    from botarena.games.falldown.bookmaker import import_bookmaker

    try:
        replay = output_path(replay, "--replay", not_same_as=file)
        game, result = import_bookmaker(file)
        save(result.document, replay)
    except (GameError, OSError) as exc:
        _fail(str(exc))
    outcome = f"player {game.winner} wins" if game.winner >= 0 else "draw"
    print(f"{replay}: {len(game.commands)} slots, {outcome}, as in {file}")


@app.command("export-bookmaker")
def export_bookmaker_command(
    replay: Annotated[Path, typer.Argument(help="a botarena falldown replay")],
) -> None:
    """Print a falldown replay as the original engine's JSON result, byte for byte."""
    from botarena.core.replay import load
    from botarena.games.falldown.bookmaker import BookmakerGame, format_bookmaker
    from botarena.games.falldown.rules import parse_starts

    try:
        document = load(replay)
        if document["game"] != "falldown":
            raise GameError(f"{replay}: a {document['game']} replay, not falldown")
        starts = parse_starts("/".join(",".join(start) for start in document["header"]["initial"]))
        commands = tuple(step["frame"]["command"] for step in document["steps"])
        scores = [player["score"] for player in document["result"]["players"]]
    except (ReplayError, GameError) as exc:
        _fail(str(exc))
    except (KeyError, TypeError, ValueError) as exc:
        _fail(f"{replay}: not a falldown replay ({exc.__class__.__name__}: {exc})")
    winner = scores.index(1.0) if 1.0 in scores else -1
    sys.stdout.write(format_bookmaker(BookmakerGame(starts, commands, winner)))
