"""What the `botarena tournament` commands share: the store opened, a tournament or its
game found, one-line failures, the console and the build cache.

Importing this module stays light: the store (SQLAlchemy), the rules and the ranking are
imported inside the functions that use them.
"""

from __future__ import annotations

import sys
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn

import typer

if TYPE_CHECKING:
    from collections.abc import Iterator

    from botarena.tournament.store import Store, Tournament


def name_problem(name: str) -> str:
    """Why `name` cannot name a tournament ('' if it can): it names its replay folder and its
    page on the site, so no path trick (`.`, `..`, a slash) and nothing unprintable."""
    if name.strip() in ("", ".", ".."):
        return "not a name"
    if "/" in name or "\\" in name:
        return "a slash would put its replays in another folder"
    if not name.isprintable():
        return "holds a control character"
    if len(name.encode()) > 100:
        return "longer than 100 bytes"
    return ""


def fail(message: str) -> NoReturn:
    from botarena.cliparts import fail as cli_fail

    cli_fail(message)


def rich_console() -> Any:
    from botarena.core.console import literal_console

    return literal_console()


@contextmanager
def open_store(url: str, *, create: bool = False) -> Iterator[Store]:
    """The store at `url`. A SQLite file is made only when `create` (tournament new, demo),
    and removed again if the command that made it fails: a mistake leaves no file behind."""
    from botarena.tournament.store import Store, StoreError, sqlite_path

    path = sqlite_path(url)
    if path is not None and not path.exists() and not create:
        fail(f"--db {url}: no such database file (tournament new makes one)")
    made = path is not None and not path.exists()
    try:
        store = Store.open(url)
    except StoreError as exc:
        fail(str(exc))
    try:
        yield store
    except typer.Exit as stop:
        if made and path is not None and stop.exit_code != 0:
            store.close()
            for leftover in (path, Path(f"{path}-wal"), Path(f"{path}-shm")):
                leftover.unlink(missing_ok=True)
        raise
    finally:
        store.close()


def find_tournament(store: Store, name: str) -> Tournament:
    tournament = store.tournament(name)
    if tournament is None:
        known = ", ".join(t.name for t in store.tournaments()) or "none"
        fail(f"no tournament {name!r} in this --db (known: {known})")
    return tournament


def find_ladder(store: Store, name: str) -> Tournament:
    tournament = find_tournament(store, name)
    if tournament.schedule != "ladder":
        fail(f"{name} is a {tournament.schedule} tournament, not a ladder")
    return tournament


def game_rules(game: str) -> Any:
    from botarena.core.registry import get_game

    try:
        return get_game(game)
    except KeyError as exc:
        fail(exc.args[0])


def build_dir(url: str) -> Path:
    """Built bots are cached next to a SQLite database, else in the current folder."""
    from botarena.tournament.store import sqlite_folder

    return (sqlite_folder(url) or Path.cwd()) / ".botarena-build"


def print_build_error(block: str) -> None:
    print(block, file=sys.stderr)
