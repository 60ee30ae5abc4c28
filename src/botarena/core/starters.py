"""`botarena GAME starter LANG`: write a game's minimal bot (package data under
games/GAME/starters/) into a folder and say how to build and play it."""

import shlex
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any

import typer

from botarena.core.roles import role_named
from botarena.core.rules import GameError

LANGUAGES = {"python": "python", "py": "python", "cpp": "cpp", "c++": "cpp", "java": "java"}
"""The LANG argument's spellings and the language each names."""


@dataclass(frozen=True)
class Starter:
    """One game's starters: the file stem of each role (the first is the default), and the
    opponents a `play` line puts beside the bot (`BOT` marks its seat)."""

    game: str
    roles: dict[str, tuple[str, list[str]]]


def file_name(stem: str, language: str) -> str:
    """`bot` -> bot.py, bot.cpp, Bot.java (a Java file is named after its public class)."""
    if language == "java":
        return stem[0].upper() + stem[1:] + ".java"
    return f"{stem}.{'py' if language == 'python' else 'cpp'}"


EXTENSIONS = {".py": "python", ".cpp": "cpp", ".java": "java"}
"""A starter file's extension and its language."""


def shipped(game: str) -> dict[str, tuple[str, ...]]:
    """The starters the installed game ships in its package's `starters/` folder: each
    stem (`bot`, or a role's name) and its languages, in the order python, cpp, java. None
    for a plug-in that is one module (it ships no files)."""
    import importlib
    from importlib import resources

    from botarena.core.entrypoints import entries

    module = entries()[game].module
    if getattr(importlib.import_module(module), "__path__", None) is None:
        return {}
    folder = resources.files(module).joinpath("starters")
    found: dict[str, list[str]] = {}
    for entry in folder.iterdir() if folder.is_dir() else ():
        stem, dot, extension = entry.name.rpartition(".")
        language = EXTENSIONS.get(dot + extension)
        if language is None or stem.startswith("_") or not entry.is_file():
            continue
        stem = stem[0].lower() + stem[1:] if language == "java" else stem
        found.setdefault(stem, []).append(language)
    order = list(EXTENSIONS.values())
    return {stem: tuple(sorted(found[stem], key=order.index)) for stem in sorted(found)}


def stem_of(game: str, seat_name: str | None) -> str | None:
    """The stem of the starters a seat's role ships under (docs/new-game.md 6b): a word
    naming the role (core/roles.py: the seat name in lower case, or its last word); `bot`
    for a game without roles (None); None when the game ships none for it."""
    return _stem(shipped(game), seat_name)


def _stem(ships: dict[str, tuple[str, ...]], seat_name: str | None) -> str | None:
    """`stem_of` among the starters `ships` (what `shipped` found)."""
    if seat_name is None:
        return "bot" if "bot" in ships else None
    return next((stem for stem in ships if role_named(stem, [seat_name]) is not None), None)


def languages(game: str, seat_names: Sequence[str] = ()) -> list[str]:
    """The languages the game ships a starter in: of `bot`, or with the `seat_names` of a
    role game's roles, of every one of them (the contest site offers those)."""
    ships = shipped(game)
    names: Sequence[str | None] = seat_names or [None]
    found = [ships.get(_stem(ships, name) or "", ()) for name in names]
    return [language for language in found[0] if all(language in other for other in found)]


def source(game: str, stem: str, language: str) -> str:
    """The starter's text, as shipped in the game's package; GameError when it ships none
    (a plug-in that is one module ships no files)."""
    from botarena.core.registry import game_file

    file = game_file(game, "starters", file_name(stem, language))
    if file is None:
        raise GameError(f"game {game!r} ships no starter {file_name(stem, language)}")
    return file.read_text("utf-8")


def how_to(starter: Starter, role: str, language: str, folder: Path) -> tuple[str | None, str]:
    """The build command (None for Python) and the `botarena play` line for a starter
    written into `folder`, as shell commands run from the current folder."""
    stem, seats = starter.roles[role]
    path = folder / file_name(stem, language)
    quoted = shlex.quote(str(path))
    if language == "python":
        build, spec = None, f"python3 {path}"
    elif language == "cpp":
        binary = str(folder / stem) if folder != Path(".") else f"./{stem}"
        build, spec = f"g++ -O2 -o {shlex.quote(binary)} {quoted}", binary
    else:
        build = f"javac -d {shlex.quote(str(folder))} {quoted}"
        spec = f"java -cp {folder} {path.stem}"
    bots = " ".join(shlex.quote(spec) if seat == "BOT" else seat for seat in seats)
    return build, f"botarena play {starter.game} {bots}"


def write(starter: Starter, language_name: str, output: Path, role: str | None) -> str:
    """Write the starter into `output` (created if missing); returns what to print. Raises
    ValueError with the user's mistake (unknown language or role, a file already there)."""
    language = LANGUAGES.get(language_name.lower())
    if language is None:
        raise ValueError(f"unknown language {language_name!r}; choose python, cpp or java")
    role = role or next(iter(starter.roles))
    if role not in starter.roles:
        raise ValueError(f"unknown role {role!r}; {starter.game} has " + ", ".join(starter.roles))
    stem, _ = starter.roles[role]
    target = output / file_name(stem, language)
    if target.exists():
        raise ValueError(f"{target}: already exists; not overwriting it")
    if output.exists() and not output.is_dir():
        raise ValueError(f"-o {output}: is a file; give a folder")
    output.mkdir(parents=True, exist_ok=True)
    target.write_text(source(starter.game, stem, language), encoding="utf-8")
    build, play = how_to(starter, role, language, output)
    lines = [f"wrote {target}"]
    if build:
        lines.append(f"build: {build}")
    lines.append(f"play:  {play}")
    return "\n".join(lines)


# (no `from __future__ import annotations` here: typer reads the command's annotations,
# which name this function's locals)
def add_command(app: typer.Typer, starter: Starter, legacy: Any = None) -> None:
    """Register `botarena GAME starter LANG [-o FOLDER] [--role ROLE]` on the game's `app`.
    `legacy(path)`: what an argument that is no language means (a game's older
    `botarena GAME starter mybot.py`, which writes its Python starter to that file)."""
    roles = list(starter.roles)
    role_help = (
        f"which bot: {', '.join(roles)} (default {roles[0]})"
        if len(roles) > 1
        else "this game has one role"
    )
    lang_help = "python, cpp or java" + (
        " (or a file name ending in .py: the Python starter there)" if legacy else ""
    )

    @app.command("starter")
    def command(
        language: Annotated[str, typer.Argument(metavar="LANG", help=lang_help)],
        output: Annotated[
            Path, typer.Option("--output", "-o", help="the folder to write into")
        ] = Path("."),
        role: Annotated[str | None, typer.Option(help=role_help)] = None,
    ) -> None:
        """Write a minimal bot that plays legally, and print how to build and play it."""
        if legacy is not None and (language.endswith(".py") or "/" in language):
            legacy(Path(language))
            return
        try:
            print(write(starter, language, output, role))
        except (ValueError, OSError) as exc:
            print(f"botarena: error: {exc}", file=sys.stderr)
            raise typer.Exit(2) from None
