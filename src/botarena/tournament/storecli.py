"""`botarena store ...`: upgrade a store's schema, back it up, check it (docs/store.md).

Importing this module stays light: Alembic and the store are imported by the commands.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from botarena.cliparts import DEFAULT_DB, DbOption, fail

app = typer.Typer(
    help="The store: upgrade its schema, back it up, check it.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
)


def _existing(url: str) -> None:
    """A SQLite file these commands are given must exist: none of them makes a store."""
    from botarena.tournament.store import sqlite_path

    path = sqlite_path(url)
    if path is not None and not path.exists():
        fail(f"--db {url}: no such database file")


@app.command()
def upgrade(db: DbOption = DEFAULT_DB) -> None:
    """Bring the store's schema to this botarena's revision (back it up first)."""
    from botarena.tournament import storeops
    from botarena.tournament.store import StoreError, describe_url

    _existing(db)
    try:
        before, after = storeops.upgrade(db)
    except StoreError as exc:
        fail(str(exc))
    shown = describe_url(db)
    print(f"{shown}: already at {after}" if before == after else f"{shown}: {before} -> {after}")


@app.command()
def backup(
    out: Annotated[Path, typer.Argument(help="the new file the copy is written to")],
    db: DbOption = DEFAULT_DB,
) -> None:
    """Copy the store while the site and workers use it (SQLite's backup API, pg_dump)."""
    from botarena.tournament import storeops
    from botarena.tournament.store import StoreError

    try:
        print(storeops.backup(db, out))
    except StoreError as exc:
        fail(str(exc))


@app.command()
def check(db: DbOption = DEFAULT_DB) -> None:
    """Check the store: SQLite's integrity_check, every ladder's ratings and game counts
    recomputed from its played games. Exit 1 with one line per difference."""
    from botarena.tournament import storeops
    from botarena.tournament.store import StoreError, describe_url

    _existing(db)
    try:
        problems, checked = storeops.check(db)
    except StoreError as exc:
        fail(str(exc))
    for line in problems:
        print(line)
    if problems:
        raise typer.Exit(1)
    print(f"{describe_url(db)}: ok ({checked})")
