"""The original engine's JSON result (`Bookmaker` stdout): read it, check it, write it.

`{"log": [], "winner": id|-1, "replay": {"initial": [[x, y, D] x4], "commands": [...]}}`,
pretty-printed by Jackson. Reading it re-simulates the commands through the rules, so a
botarena replay made from it verifies like any other.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from botarena.core.rules import GameError
from botarena.games.falldown.rules import (
    COMMANDS,
    DEFAULT_TURNS,
    SEATS,
    FalldownState,
    Observation,
    Start,
    check_starts,
)


@dataclass(frozen=True)
class BookmakerGame:
    """What a Bookmaker result file holds: the starts, one command a slot, the winner."""

    starts: tuple[Start, ...]
    commands: tuple[str, ...]
    winner: int

    @property
    def start_option(self) -> str:
        """The starts as botarena's `start` option."""
        return "/".join(f"{s.x},{s.y},{s.facing}" for s in self.starts)

    @property
    def turns_option(self) -> int:
        """The engine's `-t`, as far as the file tells it: a draw ran to the limit, a win
        ended early (then the default limit, or more if the game ran longer)."""
        if self.winner < 0:
            return len(self.commands)
        return max(DEFAULT_TURNS, len(self.commands))


def read_bookmaker(path: str | Path) -> BookmakerGame:
    """Parse and check a Bookmaker result file; raises GameError naming the file and the
    problem."""
    from botarena.core.reader import Kind, MiB, read_json

    BOOKMAKER = Kind("Bookmaker file", 16 * MiB)

    path = Path(path)
    document = read_json(path, BOOKMAKER)
    try:
        return _game_from(document)
    except GameError as exc:
        raise GameError(f"{path}: {exc}") from None


def _game_from(document: Any) -> BookmakerGame:
    if not isinstance(document, dict):
        raise GameError("not a Bookmaker result (expected a JSON object)")
    replay = document.get("replay")
    if not isinstance(replay, dict):
        raise GameError('no "replay" object')
    winner = document.get("winner")
    if type(winner) is not int or not -1 <= winner < SEATS:
        raise GameError(f'"winner" must be -1 or a player id 0..3, not {winner!r}')
    initial = replay.get("initial")
    if not isinstance(initial, list) or len(initial) != SEATS:
        raise GameError(f'"replay.initial" must list {SEATS} players as [x, y, D]')
    starts = []
    for player, entry in enumerate(initial):
        if (
            not isinstance(entry, list)
            or len(entry) != 3
            or not all(isinstance(item, str) for item in entry)
        ):
            raise GameError(f'"replay.initial"[{player}] is {entry!r}, not ["x", "y", "D"]')
        try:
            starts.append(Start(int(entry[0]), int(entry[1]), entry[2]))
        except ValueError:
            raise GameError(
                f'"replay.initial"[{player}] is {entry!r}: x and y must be integers'
            ) from None
    check_starts(tuple(starts))
    commands = replay.get("commands")
    if not isinstance(commands, list):
        raise GameError('"replay.commands" must be a list of U R D L A N')
    for slot, command in enumerate(commands):
        if not isinstance(command, str) or command not in COMMANDS:
            raise GameError(f'"replay.commands"[{slot}] is {command!r}, not one of U R D L A N')
    return BookmakerGame(tuple(starts), tuple(commands), winner)


class CommandReplayer:
    """An in-process bot answering, in each slot, the command the file logs for it (`N`
    past the file's end, where the rules would play on)."""

    def __init__(self, commands: tuple[str, ...]) -> None:
        self.commands = commands

    def act(self, observation: Observation) -> str:
        turn = observation.turn
        return self.commands[turn] if turn < len(self.commands) else "N"


def import_bookmaker(path: str | Path) -> tuple[BookmakerGame, Any]:
    """Re-play a Bookmaker file through botarena's referee; returns the file's game and the
    match result (its `.document` is the replay). Raises GameError when the file is
    malformed or the rules do not reproduce its commands, winner or slot count."""
    from botarena.core.match import run_match
    from botarena.core.player import InProcessPlayer
    from botarena.games.falldown import GAME

    game = read_bookmaker(path)
    options = GAME.info.resolve_options({"start": game.start_option, "turns": game.turns_option})
    players = [
        InProcessPlayer(
            CommandReplayer(game.commands),
            name=f"bookmaker-{seat}",
            spec=f"bookmaker:{Path(path).name}#{seat}",
        )
        for seat in range(SEATS)
    ]
    result = run_match(GAME, players, seed=0, options=options)
    _check_reproduced(path, game, result.document)
    return game, result


def _check_reproduced(path: str | Path, game: BookmakerGame, document: dict) -> None:
    steps = document["steps"]
    for slot, (step, logged) in enumerate(zip(steps, game.commands, strict=False)):
        if step["frame"]["command"] != logged:
            raise GameError(
                f"{path}: slot {slot} logs {logged!r} but the rules carry out"
                f" {step['frame']['command']!r}"
            )
    if len(steps) != len(game.commands):
        raise GameError(
            f"{path}: the file has {len(game.commands)} slots, the rules end the"
            f" game after {len(steps)}"
        )
    scores = [player["score"] for player in document["result"]["players"]]
    winner = scores.index(1.0) if 1.0 in scores else -1
    if winner != game.winner:
        raise GameError(f"{path}: the file's winner is {game.winner}, the rules give {winner}")


def bookmaker_json(state: FalldownState) -> str:
    """The result file the original engine prints for this game, byte for byte (Jackson's
    pretty printer)."""
    return format_bookmaker(BookmakerGame(state.starts, tuple(state.commands), state.winner()))


def format_bookmaker(game: BookmakerGame) -> str:
    """`game` as the original engine prints it (Jackson: 2-space indent, `" : "`, scalar
    arrays on one line, `[ ]` when empty, a final newline)."""
    initial = ", ".join(f'[ "{s.x}", "{s.y}", "{s.facing}" ]' for s in game.starts)
    commands = ", ".join(f'"{command}"' for command in game.commands)
    commands = f"[ {commands} ]" if commands else "[ ]"
    return (
        "{\n"
        '  "log" : [ ],\n'
        f'  "winner" : {game.winner},\n'
        '  "replay" : {\n'
        f'    "initial" : [ {initial} ],\n'
        f'    "commands" : {commands}\n'
        "  }\n"
        "}\n"
    )
