"""Bot specs: `builtin:GAME/NAME`, `post:PATH`, a command line, or `NAME=SPEC`, to players."""

from __future__ import annotations

import os
import shutil
from pathlib import Path
from typing import Any

from botarena.core.bounds import path_problem, shown
from botarena.core.game import Game
from botarena.core.player import InProcessPlayer, Player, ProcessPlayer, split_command


class BotSpecError(ValueError):
    """A bot spec that names nothing runnable; the message quotes the spec."""


def runs_a_program(spec: str) -> bool:
    """Whether a spec string runs code of its own (a command, a post, any plug-in kind), as
    opposed to one of botarena's built-in bots, which play in the jury's process."""
    name, _, rest = spec.partition("=")
    target = rest.strip() if rest and name.isidentifier() else spec.strip()
    return not target.startswith("builtin:")


def make_player(game: Game, spec: Any) -> Player:
    """The player a spec (or a bot object) names; raises BotSpecError for a bad spec."""
    if not isinstance(spec, str):
        if not callable(getattr(spec, "act", None)):
            raise BotSpecError(f"{spec!r} is neither a bot spec string nor an object with act()")
        return InProcessPlayer(spec, name=type(spec).__name__.lower())
    if "\0" in spec:  # no program, argument or file name can hold one
        raise BotSpecError(f"bot spec {shown(spec)}: holds a NUL byte")
    name, _, rest = spec.partition("=")
    if rest and name.isidentifier():
        player = _from_spec(game, rest.strip())
        player.name = name
        return player
    return _from_spec(game, spec.strip())


def _from_spec(game: Game, spec: str) -> Player:
    if spec.startswith("builtin:"):
        return _builtin(game, spec)
    prefix, colon, rest = spec.partition(":")
    if colon and prefix in game.player_factories:
        return game.player_factories[prefix](rest, spec)
    if colon and prefix.isidentifier():
        _refuse_other_games_prefix(game, prefix, spec)
    try:
        argv = split_command(spec)
    except ValueError as exc:
        raise BotSpecError(f"bot spec {spec!r}: {exc}") from None
    program = argv[0]
    problem = path_problem(program)
    if problem:
        raise BotSpecError(f"bot spec {shown(spec)}: the program's name {problem}")
    if os.sep in program:
        problem = _not_runnable(program)
        if problem:
            raise BotSpecError(f"bot spec {spec!r}: {problem}")
    elif shutil.which(program) is None:
        raise BotSpecError(f"bot spec {spec!r}: no program {program!r} on PATH")
    return ProcessPlayer(argv, name=_command_name(argv), spec=spec)


def _refuse_other_games_prefix(game: Game, prefix: str, spec: str) -> None:
    """A prefix another game understands (`post:FILE` in a game without it): say that the
    prefix belongs to another game, rather than that there is no program called
    `post:FILE`."""
    from botarena.core.registry import all_games

    owners = [name for name, other in all_games().items() if prefix in other.player_factories]
    if owners:
        raise BotSpecError(
            f"bot spec {spec!r}: {prefix}: bots play only {', '.join(owners)}, not {game.name}"
        )


def _not_runnable(program: str) -> str:
    """Why the kernel would refuse to run `program`, in the user's words ("" if it would
    not): missing, a folder, not executable, a `#!` interpreter that is missing, or
    neither a `#!` script nor a Linux executable."""
    path = Path(program)
    if path.is_dir():
        return f"{program} is a folder, not a program"
    if not path.exists():
        return f"{program} does not exist"
    if not os.access(program, os.X_OK):
        return f"{program} is not executable (chmod +x {program})"
    try:
        with path.open("rb") as handle:
            head = handle.read(256)
    except OSError as exc:
        return f"{program} cannot be read ({exc.strerror or exc})"
    if head.startswith(b"#!"):
        words = head[2:].split(b"\n")[0].decode(errors="replace").split()
        if not words:
            return f"{program} has an empty #! line"
        interpreter = words[0]
        if not Path(interpreter).exists():
            return f"{program} starts with #!{interpreter}, which does not exist"
        if Path(interpreter).name == "env":
            wanted = next((word for word in words[1:] if not word.startswith("-")), None)
            if wanted is not None and shutil.which(wanted) is None:
                return f"{program} starts with #!{' '.join(words)}, and {wanted!r} is not on PATH"
        return ""
    if not head.startswith(b"\x7fELF"):
        return (
            f"{program} is neither a #! script nor a Linux executable (Exec format"
            f" error); name its interpreter, e.g. 'python3 {program}'"
        )
    return ""


def _builtin(game: Game, spec: str) -> Player:
    target = spec.removeprefix("builtin:")
    game_name, slash, bot = target.partition("/")
    if not slash:
        game_name, bot = game.name, target
    if game_name != game.name:
        raise BotSpecError(f"bot spec {spec!r}: a {game_name} bot cannot play {game.name}")
    if bot not in game.bots:
        known = ", ".join(f"builtin:{game.name}/{name}" for name in game.bots)
        raise BotSpecError(f"bot spec {spec!r}: no built-in bot {bot!r} (known: {known})")
    return InProcessPlayer(game.bots[bot](), name=bot, spec=f"builtin:{game.name}/{bot}")


def _command_name(argv: list[str]) -> str:
    """A short display name: the script or module the command runs, else the program."""
    if "-m" in argv[:-1]:
        return argv[argv.index("-m") + 1].rsplit(".", 1)[-1]
    for arg in reversed(argv[1:]):
        if not arg.startswith("-") and ("." in arg or os.sep in arg):
            return Path(arg).stem
    return Path(argv[0]).name


def unique_names(players: list[Player]) -> None:
    """Suffix repeated names (`random`, `random#2`) so tables and standings can tell seats apart."""
    seen: dict[str, int] = {}
    for player in players:
        count = seen.get(player.name, 0) + 1
        seen[player.name] = count
        if count > 1:
            player.name = f"{player.name}#{count}"
