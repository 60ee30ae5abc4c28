"""What every command line of botarena shares (the top-level one, the tournament's, the
viewer's, compare's, the contest site's): a user error in one line, `-o KEY=VALUE` options,
and the store's `--db` option.

It sits below every command module, so none of them imports another's command line (the
layers of pyproject's import contracts).
"""

from __future__ import annotations

import sys
from typing import Annotated, NoReturn

import typer

DEFAULT_DB = "sqlite:///botarena.db"

DbOption = Annotated[
    str, typer.Option("--db", help="the store: sqlite:///FILE or postgresql://USER@HOST:PORT/DB")
]

MAX_WORKERS = 256
"""The most worker processes one command starts (each plays one game or builds one bot)."""


def fail(message: str) -> NoReturn:
    """A user error: one line on stderr, exit code 2."""
    print(f"botarena: error: {message}", file=sys.stderr)
    raise typer.Exit(2)


def parse_options(pairs: list[str]) -> dict[str, str]:
    """`KEY=VALUE` strings to a dict; a pair without `=` is a user error."""
    options = {}
    for pair in pairs:
        key, eq, value = pair.partition("=")
        if not eq or not key:
            fail(f"option {pair!r} is not KEY=VALUE")
        options[key.strip()] = value.strip()
    return options
