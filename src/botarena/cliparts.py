"""What every command line of botarena shares (the top-level one, the tournament's, the
viewer's, compare's, the contest site's): a user error in one line, `-o KEY=VALUE` options,
and the store's `--db` option.

It sits below every command module, so none of them imports another's command line (the
layers of pyproject's import contracts).
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import Annotated, NoReturn

import typer

DEFAULT_DB = "sqlite:///botarena.db"

DbOption = Annotated[
    str, typer.Option("--db", help="the store: sqlite:///FILE or postgresql://USER@HOST:PORT/DB")
]

MAX_WORKERS = 256
"""The most worker processes one command starts (each plays one game or builds one bot)."""
MAX_SEATS = 64
"""The most seats a game of any command may have (the games' own ranges are narrower)."""
MAX_PER_PAIR = 1000
"""The most games per pairing (seating) of a tournament or finals."""
MAX_ROUNDS = 10_000
"""The most rounds of a swiss or adaptive schedule."""
MAX_PLACES = 1000
"""The most places `--top` settles or keeps."""
MAX_GAMES = 10**9
"""The most games one `run`, `work` or `compare` plays before it stops."""
MAX_SEED = 2**63 - 1
"""Seeds are stored as 64-bit integers."""


def within(low: int | None, high: int) -> Callable[[typer.CallbackParam, int | None], int | None]:
    """A typer callback that bounds a count where its option is declared
    (`typer.Option(callback=within(1, MAX_PER_PAIR))`): past it, one line naming the
    option and its bounds, exit 2, before the command runs. `low` None: the command
    checks the lower end itself, in its own words."""

    def check(param: typer.CallbackParam, value: int | None) -> int | None:
        if value is None:
            return value
        if low is not None and not low <= value <= high:
            fail(f"{param.opts[0]} must be between {low} and {high}")
        if value > high:
            fail(f"{param.opts[0]} must be at most {high}")
        return value

    return check


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
